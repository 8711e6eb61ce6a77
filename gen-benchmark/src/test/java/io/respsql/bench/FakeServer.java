package io.respsql.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A tiny RESP server for tests: blocking sockets, a thread per connection, every command
 * recorded, replies chosen by a function (raw RESP text; null closes the connection).
 */
final class FakeServer implements AutoCloseable {

    final ServerSocket server;
    final Queue<List<String>> commands = new ConcurrentLinkedQueue<>();
    final AtomicInteger connections = new AtomicInteger();
    private final Function<List<String>, String> responder;
    private final List<Socket> sockets = new ArrayList<>();
    private volatile boolean closed;

    FakeServer(Function<List<String>, String> responder) throws IOException {
        this.responder = responder;
        this.server = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "fake-server-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Commands other than the warm-up PINGs. */
    List<List<String>> requests() {
        List<List<String>> out = new ArrayList<>();
        for (List<String> c : commands) {
            if (!(c.size() == 1 && c.get(0).equals("PING"))) {
                out.add(c);
            }
        }
        return out;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(s);
                }
                connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s), "fake-server-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream()) {
            while (true) {
                List<String> cmd = readCommand(in);
                if (cmd == null) {
                    return;
                }
                commands.add(cmd);
                String reply = responder.apply(cmd);
                if (reply == null) {
                    return;
                }
                out.write(reply.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            // connection gone
        }
    }

    private static List<String> readCommand(InputStream in) throws IOException {
        String head = line(in);
        if (head == null) {
            return null;
        }
        if (!head.startsWith("*")) {
            throw new IOException("expected an array, got " + head);
        }
        int n = Integer.parseInt(head.substring(1));
        List<String> words = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String len = line(in);
            int l = Integer.parseInt(len.substring(1));
            byte[] b = in.readNBytes(l + 2);
            words.add(new String(b, 0, l, StandardCharsets.UTF_8));
        }
        return words;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                return sb.toString();
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
