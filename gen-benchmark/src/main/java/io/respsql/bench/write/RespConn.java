package io.respsql.bench.write;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One blocking RESP connection. Requests are encoded before the clock starts; a reply is read
 * whole, optionally keeping its raw bytes (the staleness check compares replies byte for byte).
 */
final class RespConn implements Closeable {

    /** One parsed reply: its type byte, the integer, the line or bulk text, or the elements. */
    record Reply(char type, long integer, String text, List<Reply> elements) {
        boolean isError() {
            return type == '-';
        }

        @Override
        public String toString() {
            return switch (type) {
                case ':' -> ":" + integer;
                case '*' -> elements == null ? "*-1" : "*" + elements;
                case '$' -> text == null ? "$-1" : text;
                default -> type + text;
            };
        }
    }

    private final Socket socket;
    private final BufferedInputStream in;
    private final BufferedOutputStream out;
    private ByteArrayOutputStream capture;

    RespConn(String host, int port) {
        try {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + host + ":" + port, e);
        }
    }

    /**
     * A statement as a Redis client sends it: one bulk string per space-separated word (the
     * server joins them back with spaces), so text values must not contain spaces.
     */
    static byte[] encodeStatement(String sql) {
        return encode(sql.split(" "));
    }

    static byte[] encode(String... args) {
        StringBuilder sb = new StringBuilder(16 + args.length * 8);
        sb.append('*').append(args.length).append("\r\n");
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(b.length).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Writes an encoded request without flushing (pipelining). */
    void write(byte[] request) {
        try {
            out.write(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends one request and reads its reply. */
    Reply call(byte[] request) {
        write(request);
        flush();
        return read();
    }

    Reply call(String... args) {
        return call(encode(args));
    }

    /** Sends one request and returns the reply's raw bytes. */
    byte[] callRaw(byte[] request) {
        capture = new ByteArrayOutputStream();
        try {
            call(request);
            return capture.toByteArray();
        } finally {
            capture = null;
        }
    }

    Reply read() {
        try {
            return readReply();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int next() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed by the server");
        }
        if (capture != null) {
            capture.write(b);
        }
        return b;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int b = next();
            if (b == '\r') {
                next();
                return sb.toString();
            }
            sb.append((char) b);
        }
    }

    private Reply readReply() throws IOException {
        char type = (char) next();
        String line = line();
        switch (type) {
            case ':':
                return new Reply(type, Long.parseLong(line), null, null);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return new Reply(type, 0, null, null);
                }
                byte[] b = new byte[len];
                for (int i = 0; i < len; i++) {
                    b[i] = (byte) next();
                }
                next();
                next();
                return new Reply(type, 0, new String(b, StandardCharsets.UTF_8), null);
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return new Reply(type, 0, null, null);
                }
                List<Reply> elems = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    elems.add(readReply());
                }
                return new Reply(type, 0, null, elems);
            }
            case '+':
            case '-':
                return new Reply(type, 0, line, null);
            default:
                throw new IOException("not a RESP reply: type byte 0x" + Integer.toHexString(type));
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
