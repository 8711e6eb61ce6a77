package io.respsql.net;

import io.respsql.config.ServerConfig;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/**
 * Redis's protected mode: while {@code protected-mode} is {@code yes}, no {@code requirepass} is set
 * and the server listens on a non-loopback address, clients that do not connect over loopback are
 * answered with {@link #DENIED} and disconnected.
 */
public final class ProtectedMode {
    static final String DENIED = "-DENIED RespSQL is running in protected mode because protected mode is enabled and "
            + "no password is set for the default user. In this mode connections are only accepted from the "
            + "loopback interface. If you want to connect from external computers to RespSQL you may adopt one "
            + "of the following solutions: 1) Just disable protected mode sending the command 'CONFIG SET "
            + "protected-mode no' from the loopback interface by connecting to RespSQL from the same host the "
            + "server is running, however MAKE SURE RespSQL is not publicly accessible from internet if you do "
            + "so. 2) Alternatively you can just disable the protected mode by editing the RespSQL configuration "
            + "file, and setting the protected mode option to 'no', and then restarting the server. 3) If you "
            + "started the server manually just for testing, restart it with the '--protected-mode no' option. "
            + "4) Set up an authentication password for the default user ('requirepass'). NOTE: You only need to "
            + "do one of the above things in order for the server to start accepting connections from the "
            + "outside.\r\n";

    private ProtectedMode() {
    }

    /** Whether a client connecting from {@code remote} is refused under {@code config} (the PostgreSQL listener asks too). */
    public static boolean denies(SocketAddress remote, ServerConfig config) {
        return denies(remote, config.bind(), config.protectedMode(), config.passwordRequired());
    }

    static boolean denies(SocketAddress remote, String bind, boolean protectedMode, boolean passwordSet) {
        if (!protectedMode || passwordSet || isLoopbackBind(bind)) {
            return false;
        }
        if (!(remote instanceof InetSocketAddress isa)) {
            return false; // not a network client (in-process channel)
        }
        InetAddress ip = isa.getAddress();
        return ip == null || !ip.isLoopbackAddress();
    }

    /** Whether {@code bind} names only loopback addresses; {@code *} and wildcard addresses do not. */
    static boolean isLoopbackBind(String bind) {
        if (bind == null || bind.equals("*")) {
            return false;
        }
        String host = bind.startsWith("[") && bind.endsWith("]") ? bind.substring(1, bind.length() - 1) : bind;
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
