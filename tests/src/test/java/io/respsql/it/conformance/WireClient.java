package io.respsql.it.conformance;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One RESP connection sending {@code SQL <statement>} (or QUERY) and reading each reply with {@link Reply#read}. */
final class WireClient implements AutoCloseable {
    private final Socket socket = new Socket();
    private final InputStream in;
    private final OutputStream out;

    WireClient(String host, int port, int replyTimeoutMillis) throws IOException {
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(replyTimeoutMillis);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = socket.getOutputStream();
    }

    /**
     * Words of a command sent first on every connection (e.g. {@code HELLO 3}, or the command
     * that asks for typed replies), from {@code -Dconformance.handshake="HELLO 3"}; none by default.
     */
    static List<String> handshake() {
        String h = System.getProperty("conformance.handshake", "").strip();
        return h.isEmpty() ? List.of() : List.of(h.split("\\s+"));
    }

    /** Sends {@link #handshake()} if there is one; an error reply fails. */
    WireClient greet() throws IOException {
        List<String> words = handshake();
        if (!words.isEmpty()) {
            out.write(encode(words.toArray(new String[0])));
            out.flush();
            Object reply = Reply.read(in);
            if (reply instanceof Reply.Error e) {
                throw new IOException("handshake " + words + " refused: " + e.text());
            }
        }
        return this;
    }

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    /** Sends {@code statement} as the one argument of SQL and returns the reply; a timeout is a SocketTimeoutException. */
    Object sql(String statement) throws IOException {
        return send("SQL", statement);
    }

    /** Sends {@code statement} as the one argument of {@code command} (SQL, QUERY) and returns the reply. */
    Object send(String command, String statement) throws IOException {
        out.write(encode(command, statement));
        out.flush();
        return Reply.read(in);
    }

    /** Sends a command of words (FLUSHALL, DBSIZE) and returns the reply. */
    Object sendCommand(String... words) throws IOException {
        out.write(encode(words));
        out.flush();
        return Reply.read(in);
    }

    static byte[] encode(String... args) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        return b.toByteArray();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
