package io.respsql.it;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A raw RESP2/RESP3 connection for asserting replies byte for byte: {@link #call(String...)} sends a
 * command and returns the reply exactly as it came over the wire, e.g.
 * {@code "*2\r\n$5\r\n1,1,7\r\n$5\r\n2,1,7\r\n"}. {@link #send(String)} writes arbitrary bytes
 * (inline commands, malformed frames, pipelines).
 */
public final class RespConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** Connects to {@code host:port} (any server, in this JVM or another process). */
    public RespConnection(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        in = new java.io.BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Writes {@code raw} (UTF-8) as is. */
    public RespConnection send(String raw) throws IOException {
        return send(raw.getBytes(StandardCharsets.UTF_8));
    }

    public RespConnection send(byte[] raw) throws IOException {
        out.write(raw);
        out.flush();
        return this;
    }

    /** Reply bytes that have arrived and were not read yet (0 when nothing has arrived). */
    public int available() throws IOException {
        return in.available();
    }

    /** Writes one command as a RESP array of bulk strings. */
    public RespConnection sendCommand(String... args) throws IOException {
        return send(encode(args));
    }

    /** Sends a command and returns its reply's exact wire text. */
    public String call(String... args) throws IOException {
        sendCommand(args);
        return readReply();
    }

    /** Reads exactly one RESP2 or RESP3 reply and returns its wire text (CRLFs included). */
    public String readReply() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        readReply(buf);
        return buf.toString(StandardCharsets.UTF_8);
    }

    /** Reads exactly one reply and returns its wire bytes undecoded (for binary replies). */
    public byte[] readReplyBytes() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        readReply(buf);
        return buf.toByteArray();
    }

    private void readReply(ByteArrayOutputStream buf) throws IOException {
        String line = readLine(buf);
        char type = line.charAt(0);
        switch (type) {
            case '+', '-', ':', ',', '_', '#', '(' -> {
            }
            case '$', '=', '!' -> {
                int len = Integer.parseInt(line.substring(1));
                if (len >= 0) {
                    buf.write(in.readNBytes(len + 2));
                }
            }
            case '*', '~', '>', '%' -> {
                int n = Integer.parseInt(line.substring(1));
                for (int i = 0; i < (type == '%' ? 2L * n : n); i++) {
                    readReply(buf);
                }
            }
            default -> throw new IOException("not a RESP reply: " + line);
        }
    }

    private String readLine(ByteArrayOutputStream buf) throws IOException {
        StringBuilder sb = new StringBuilder();
        int prev = -1;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed by the server after '" + sb + "'");
            }
            buf.write(c);
            if (prev == '\r' && c == '\n') {
                sb.setLength(sb.length() - 1);
                return sb.toString();
            }
            sb.append((char) c);
            prev = c;
        }
    }

    /**
     * Whether the server closes the connection: reads until end of stream (true) or until nothing
     * arrives for {@code timeoutMillis} (false). Bytes read meanwhile are discarded.
     */
    public boolean awaitClosedByServer(int timeoutMillis) throws IOException {
        int old = socket.getSoTimeout();
        socket.setSoTimeout(timeoutMillis);
        try {
            while (true) {
                try {
                    if (in.read() < 0) {
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    return false;
                } catch (IOException e) {
                    return true; // reset by the server
                }
            }
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(old);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** The RESP encoding of a command. */
    public static byte[] encode(String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return b.toByteArray();
    }
}
