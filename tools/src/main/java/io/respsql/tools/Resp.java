package io.respsql.tools;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
 * A minimal RESP2 client over one socket: commands are written to a buffer (so many can be in flight,
 * pipelined) and replies read in order, either whole ({@link #reply()}) or piece by piece
 * ({@link #type()} and friends) so a large array can be streamed without holding it.
 */
final class Resp implements AutoCloseable {
    /** An error reply, {@code -ERR ...}: a value, not an exception, so a pipeline can count them. */
    record Error(String message) {
        @Override
        public String toString() {
            return message;
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final byte[] num = new byte[20];

    Resp(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** Connects and, when a password is given, authenticates ({@code AUTH [user] password}). */
    static Resp open(Options o) throws IOException {
        Resp r = new Resp(o.host, o.port);
        if (o.password != null) {
            Object a = o.user == null ? r.call("AUTH", o.password) : r.call("AUTH", o.user, o.password);
            if (a instanceof Error e) {
                r.close();
                throw new IOException("AUTH failed: " + e.message());
            }
        }
        return r;
    }

    /** Sends a command and returns its reply. */
    Object call(String... args) throws IOException {
        command(args);
        flush();
        return reply();
    }

    void command(String... args) throws IOException {
        out.write('*');
        writeNumber(args.length);
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            bulk(b, 0, b.length);
        }
    }

    /** Bytes already in RESP form (a converted statement), written as they are. */
    void raw(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    private void bulk(byte[] b, int off, int len) throws IOException {
        out.write('$');
        writeNumber(len);
        out.write(b, off, len);
        out.write('\r');
        out.write('\n');
    }

    private void writeNumber(long v) throws IOException {
        int i = num.length;
        long x = v;
        do {
            num[--i] = (byte) ('0' + x % 10);
            x /= 10;
        } while (x > 0);
        out.write(num, i, num.length - i);
        out.write('\r');
        out.write('\n');
    }

    void flush() throws IOException {
        out.flush();
    }

    /** A whole reply: String (status or bulk), Long, List, {@link Error} or null. */
    Object reply() throws IOException {
        int t = type();
        switch (t) {
            case '+':
                return line();
            case '-':
                return new Error(line());
            case ':':
                return number();
            case '$': {
                byte[] b = bulkBody();
                return b == null ? null : new String(b, StandardCharsets.UTF_8);
            }
            case '*': {
                long n = number();
                if (n < 0) {
                    return null;
                }
                List<Object> l = new ArrayList<>((int) Math.min(n, 1024));
                for (long i = 0; i < n; i++) {
                    l.add(reply());
                }
                return l;
            }
            default:
                throw new IOException("not a RESP2 reply: type byte " + t);
        }
    }

    /** The next reply's type byte ({@code + - : $ *}). */
    int type() throws IOException {
        int t = in.read();
        if (t < 0) {
            throw new EOFException("the server closed the connection");
        }
        return t;
    }

    /** The number after a type byte ({@code :}, {@code $} or {@code *}), up to its CRLF. */
    long number() throws IOException {
        long v = 0;
        boolean neg = false;
        int c = in.read();
        if (c == '-') {
            neg = true;
            c = in.read();
        }
        while (c != '\r') {
            if (c < '0' || c > '9') {
                throw new IOException("bad number in reply");
            }
            v = v * 10 + (c - '0');
            c = in.read();
        }
        in.read(); // '\n'
        return neg ? -v : v;
    }

    /** The rest of a status or error line. */
    String line() throws IOException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("the server closed the connection");
            }
            b.write(c);
        }
        in.read();
        return b.toString(StandardCharsets.UTF_8);
    }

    /** A bulk string's bytes after its {@code $}; null for {@code $-1}. */
    byte[] bulkBody() throws IOException {
        long n = number();
        if (n < 0) {
            return null;
        }
        byte[] b = in.readNBytes((int) n);
        if (b.length != n) {
            throw new EOFException("the server closed the connection");
        }
        in.read();
        in.read();
        return b;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
