package io.respsql.it.diff;

import java.io.BufferedInputStream;
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
 * One RESP2 connection for the differential tests: a statement goes as the one argument of
 * {@code SQL} or {@code QUERY}, and the reply comes back as Java values (simple and bulk strings
 * as String, integers as Long, arrays as lists, nulls as null, errors as {@link Err}).
 */
final class DiffClient implements AutoCloseable {
    /** An error reply, without its leading '-'. */
    record Err(String text) {
    }

    private final Socket socket = new Socket();
    private final InputStream in;
    private final OutputStream out;

    DiffClient(String host, int port) throws IOException {
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(120_000);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = socket.getOutputStream();
    }

    /** Sends a command of any words and reads its reply. */
    Object call(String... args) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        out.write(b.toByteArray());
        out.flush();
        return read();
    }

    Object sql(String statement) throws IOException {
        return call("SQL", statement);
    }

    /**
     * A SELECT in the typed form: its rows with FLOAT values as Double, or the error. A reply
     * that is neither is an internal finding (thrown).
     */
    Rows query(String statement) throws IOException {
        Object r = call("QUERY", statement);
        if (r instanceof Err e) {
            return Rows.error(e.text());
        }
        if (!(r instanceof List<?> items) || items.size() < 2 || !(items.get(1) instanceof List<?> types)) {
            throw new IOException("not a typed result set for " + statement + ": " + r);
        }
        List<List<Object>> rows = new ArrayList<>(items.size() - 2);
        for (int i = 2; i < items.size(); i++) {
            List<?> row = (List<?>) items.get(i);
            List<Object> values = new ArrayList<>(row.size());
            for (int c = 0; c < row.size(); c++) {
                Object v = row.get(c);
                if (v instanceof String s && "FLOAT".equals(types.get(c))) {
                    v = Double.valueOf(s);
                }
                values.add(v);
            }
            rows.add(values);
        }
        return Rows.of(rows);
    }

    private Object read() throws IOException {
        int t = in.read();
        if (t < 0) {
            throw new EOFException("connection closed by the server");
        }
        String head = line();
        switch (t) {
            case '+':
                return head;
            case '-':
                return new Err(head);
            case ':':
                return Long.parseLong(head);
            case '$': {
                int len = Integer.parseInt(head);
                if (len < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(len);
                if (bytes.length < len || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("reply cut short");
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(head);
                if (n < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("not a RESP2 reply: type byte " + t);
        }
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("connection closed inside a reply");
            }
            sb.append((char) c);
        }
        in.read();
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
