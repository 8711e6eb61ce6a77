package io.respsql.bench.soak;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A blocking connection for setup, INFO and the final verification. It reads replies as a
 * stream, so a listing of the whole table is read once, not re-scanned as it arrives.
 */
final class Control implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    Control(String host, int port, int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = new BufferedOutputStream(socket.getOutputStream(), 1 << 14);
    }

    /** Sends one command and reads its reply. */
    Reply call(String... words) throws IOException {
        send(words);
        return read();
    }

    /** Sends one command; its reply is read by {@link #read()}. */
    void send(String... words) throws IOException {
        out.write(encode(words));
        out.flush();
    }

    /** The RESP array of bulk strings for {@code words}. */
    static byte[] encode(String... words) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        b.writeBytes(("*" + words.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String w : words) {
            byte[] bytes = w.getBytes(StandardCharsets.UTF_8);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        return b.toByteArray();
    }

    Reply read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("server closed the control connection");
        }
        String line = line();
        switch (type) {
            case '+', '-' -> {
                return new Reply((char) type, line, 0, List.of());
            }
            case ':' -> {
                return new Reply(':', line, number(line), List.of());
            }
            case '$' -> {
                int len = (int) number(line);
                return new Reply('$', len < 0 ? null : bulk(len), 0, List.of());
            }
            case '*' -> {
                long n = number(line);
                List<String> items = new ArrayList<>((int) Math.min(Math.max(n, 0), 1 << 20));
                for (long i = 0; i < n; i++) {
                    int t = in.read();
                    if (t != '$') {
                        throw new IOException("array item of type '" + (char) t + "', expected bulk strings");
                    }
                    int len = (int) number(line());
                    items.add(len < 0 ? null : bulk(len));
                }
                return new Reply('*', null, n, items);
            }
            default -> throw new IOException("unexpected reply type byte 0x" + Integer.toHexString(type));
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(32);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("server closed the control connection inside a reply");
            }
            if (c == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("CR not followed by LF in a reply");
                }
                return b.toString(StandardCharsets.UTF_8);
            }
            b.write(c);
        }
    }

    private String bulk(int len) throws IOException {
        byte[] b = in.readNBytes(len + 2);
        if (b.length < len + 2) {
            throw new EOFException("server closed the control connection inside a bulk string");
        }
        if (b[len] != '\r' || b[len + 1] != '\n') {
            throw new IOException("bulk string not followed by CRLF");
        }
        return new String(b, 0, len, StandardCharsets.UTF_8);
    }

    private static long number(String s) throws IOException {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IOException("bad number '" + s + "' in a reply header");
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
