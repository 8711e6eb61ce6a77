package io.respsql.net;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The socket transport of the event loop ({@code io-transport}): netty's native epoll on Linux,
 * which writes and reads with direct system calls on the socket's descriptor (no JDK selector,
 * no per-call JNI buffer juggling), or Java NIO everywhere else. The event loop's handler, the
 * listening channel and every outgoing connection on that loop (a replica's link to its master)
 * must come from the same transport: a channel only registers with a loop of its own kind.
 */
public enum IoTransport {
    EPOLL("epoll") {
        @Override
        public IoHandlerFactory handlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return EpollServerSocketChannel.class;
        }

        @Override
        public Class<? extends SocketChannel> socketChannel() {
            return EpollSocketChannel.class;
        }
    },
    NIO("nio") {
        @Override
        public IoHandlerFactory handlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        public Class<? extends SocketChannel> socketChannel() {
            return NioSocketChannel.class;
        }
    };

    private final String label;

    IoTransport(String label) {
        this.label = label;
    }

    /** As INFO's {@code multiplexing_api} shows it. */
    public String label() {
        return label;
    }

    public abstract IoHandlerFactory handlerFactory();

    public abstract Class<? extends ServerChannel> serverChannel();

    public abstract Class<? extends SocketChannel> socketChannel();

    /**
     * The transport {@code io-transport} names: {@code auto} is epoll where its native library
     * loads, else NIO; {@code epoll} insists (a clear error where it is unavailable, rather than a
     * silent fallback the operator did not ask for); {@code nio} is NIO.
     *
     * @throws IllegalArgumentException (reported by Main as a failed start) for {@code epoll} where the native transport cannot load
     */
    public static IoTransport choose(String setting) {
        switch (setting) {
            case "nio":
                return NIO;
            case "epoll":
                if (!epollAvailable()) {
                    throw new IllegalArgumentException("io-transport epoll is not available here: " + epollProblem());
                }
                return EPOLL;
            default:
                return epollAvailable() ? EPOLL : NIO;
        }
    }

    private static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (LinkageError e) {
            return false; // the classes themselves are missing (a build without the epoll jars)
        }
    }

    private static String epollProblem() {
        try {
            Throwable cause = Epoll.unavailabilityCause();
            return cause == null ? "unknown reason" : cause.toString();
        } catch (LinkageError e) {
            return e.toString();
        }
    }
}
