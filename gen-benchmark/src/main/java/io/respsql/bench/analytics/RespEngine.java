package io.respsql.bench.analytics;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * RespSQL over RESP: each statement is the one argument of {@code SQL}. The load sends
 * multi-row INSERTs pipelined ({@code window} statements in flight); the queries are timed as a
 * client round trip and, from {@code SLOWLOG} with {@code slowlog-log-slower-than 0}, as the
 * server's own execution time: for a query the server runs on a worker thread (bg-query-min-rows)
 * that entry covers the event loop's part, the wait for a worker and the worker's run, up to the
 * reply's write, recorded once when the reply is written (so it is the newest entry when the
 * client reads it). Every column has its standard type (order_ts is a TIMESTAMP), as in
 * Seed004Test.
 */
final class RespEngine implements Engine {
    private final String host;
    private final int port;
    private final int batch;
    private final int window;
    private final PrintStream log;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private boolean slowlog;

    RespEngine(String host, int port, int batch, int window, PrintStream log) throws IOException {
        this.host = host;
        this.port = port;
        this.batch = batch;
        this.window = window;
        this.log = log;
        connect(600_000);
    }

    private void connect(int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(timeoutMillis);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = new java.io.BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    }

    @Override
    public String name() {
        return "RespSQL";
    }

    @Override
    public String key() {
        return "respsql";
    }

    @Override
    public String clock() {
        return "client round trip (RESP over loopback, reply read whole)" + (slowlog
                ? "; its server execution time (SLOWLOG, microseconds, slowlog-log-slower-than 0) in a column of its own;"
                + " for a query run in the background it includes the worker's queueing and run, up to the reply's write" : "");
    }

    @Override
    public List<Step> load(EcomGen g) throws Exception {
        List<Step> steps = new ArrayList<>();
        for (String t : Tables.NAMES) {
            call("SQL", "DROP TABLE IF EXISTS " + t);
        }
        for (String ddl : Tables.createTables(s -> s, true)) {
            expectOk(ddl, call("SQL", ddl));
        }
        double[] cpu0 = serverCpu();
        long allRows = 0;
        double allSeconds = 0;
        double encodeSeconds = 0;
        Ascii stmt = new Ascii(1 << 20);
        Ascii frame = new Ascii(1 << 20);
        for (int t = 0; t < Tables.NAMES.length; t++) {
            int rows = Tables.rows(g, t);
            long t0 = System.nanoTime();
            long encodeNanos = 0;
            int inflight = 0;
            int statements = 0;
            String firstError = null;
            for (int from = 0; from < rows; from += batch) {
                long e0 = System.nanoTime();
                stmt.reset();
                stmt.str("INSERT INTO ").str(Tables.NAMES[t]).str(" VALUES ");
                int to = Math.min(rows, from + batch);
                for (int i = from; i < to; i++) {
                    if (i > from) {
                        stmt.ch(',');
                    }
                    Tables.row(g, t, i, stmt, true);
                }
                frame.reset();
                frame.str("*2\r\n$3\r\nSQL\r\n$").num(stmt.n).str("\r\n");
                encodeNanos += System.nanoTime() - e0;
                out.write(frame.b, 0, frame.n);
                out.write(stmt.b, 0, stmt.n);
                out.write('\r');
                out.write('\n');
                out.flush(); // before any read below: the server must have what we wait for
                statements++;
                if (++inflight >= window) {
                    Object r = Resp.read(in);
                    inflight--;
                    if (firstError == null && !"OK".equals(r)) {
                        firstError = String.valueOf(r);
                    }
                }
            }
            out.flush();
            while (inflight > 0) {
                Object r = Resp.read(in);
                inflight--;
                if (firstError == null && !"OK".equals(r)) {
                    firstError = String.valueOf(r);
                }
            }
            double s = (System.nanoTime() - t0) / 1e9;
            if (firstError != null) {
                throw new IllegalStateException("RespSQL refused an INSERT into " + Tables.NAMES[t] + ": " + firstError);
            }
            allRows += rows;
            allSeconds += s;
            encodeSeconds += encodeNanos / 1e9;
            steps.add(new Step(name(), "insert " + Tables.NAMES[t], rows, s, statements + " statements of up to " + batch
                    + " rows, " + window + " in flight; client encoding " + String.format("%.2f", encodeNanos / 1e9) + " s"));
        }
        double[] cpu1 = serverCpu();
        String cpuNote = cpu0 == null || cpu1 == null ? "server CPU not reported"
                : String.format("server CPU %.2f s (user %.2f, sys %.2f) = %.0f%% of the load's wall time; client encoding %.2f s",
                        (cpu1[0] + cpu1[1]) - (cpu0[0] + cpu0[1]), cpu1[0] - cpu0[0], cpu1[1] - cpu0[1],
                        100 * ((cpu1[0] + cpu1[1]) - (cpu0[0] + cpu0[1])) / allSeconds, encodeSeconds);
        steps.add(new Step(name(), "insert (all tables)", allRows, allSeconds, cpuNote));
        long i0 = System.nanoTime();
        for (String ix : Tables.createIndexes()) {
            expectOk(ix, call("SQL", ix));
        }
        steps.add(new Step(name(), "create 6 secondary indexes", allRows, (System.nanoTime() - i0) / 1e9, "on the loaded tables"));
        for (int t = 0; t < Tables.NAMES.length; t++) {
            Object n = call("SQL", "SELECT COUNT(*) FROM " + Tables.NAMES[t]);
            if (!(n instanceof Long c) || c != Tables.rows(g, t)) {
                throw new IllegalStateException("RespSQL: " + Tables.NAMES[t] + " has " + n + " rows, expected " + Tables.rows(g, t));
            }
        }
        Object cfg = call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        slowlog = "OK".equals(cfg);
        if (slowlog) {
            call("CONFIG", "SET", "slowlog-max-len", "16");
            call("SLOWLOG", "RESET");
        } else {
            log.println("analytics-bench: RespSQL refused CONFIG SET slowlog-log-slower-than 0 (" + cfg + "): client round trip only");
        }
        return steps;
    }

    /** used_cpu_user, used_cpu_sys of INFO cpu, or null. */
    private double[] serverCpu() throws IOException {
        Object r = call("INFO", "cpu");
        if (!(r instanceof String s)) {
            return null;
        }
        double u = -1;
        double y = -1;
        for (String line : s.split("\r?\n")) {
            if (line.startsWith("used_cpu_user:")) {
                u = Double.parseDouble(line.substring(14).trim());
            } else if (line.startsWith("used_cpu_sys:")) {
                y = Double.parseDouble(line.substring(13).trim());
            }
        }
        return u < 0 || y < 0 ? null : new double[] {u, y};
    }

    private static void expectOk(String st, Object reply) {
        if (!"OK".equals(reply)) {
            throw new IllegalStateException("RespSQL refused " + st + ": " + reply);
        }
    }

    @Override
    public Answer run(String sql, long capMillis) throws Exception {
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, capMillis));
        // QUERY: the typed reply, so a NULL is told from '' and a comma inside text is kept.
        byte[] req = Resp.encode("QUERY", sql);
        long t0 = System.nanoTime();
        Object reply;
        try {
            out.write(req);
            out.flush();
            reply = Resp.read(in);
        } catch (SocketTimeoutException e) {
            long spent = System.nanoTime() - t0;
            // The one event loop is still running the query: wait for it on a new connection.
            socket.close();
            connect(0);
            call("PING");
            return Answer.error("no reply within the cap of " + capMillis + " ms", true, spent);
        }
        long nanos = System.nanoTime() - t0;
        socket.setSoTimeout(600_000);
        long serverMicros = slowlog ? lastDuration() : -1;
        if (reply instanceof Resp.Error e) {
            return new Answer(null, e.text(), false, nanos, serverMicros);
        }
        List<List<String>> rows = decode(reply);
        if (rows == null) {
            return new Answer(null, "not a result set: " + reply, false, nanos, serverMicros);
        }
        return new Answer(rows, null, false, nanos, serverMicros);
    }

    /**
     * A SELECT's reply. QUERY's typed form: the column names, the column types, then one array per
     * row (NULL a null). The 2010 form, for a server without QUERY: an array of bulk strings, one
     * per row, the values joined by commas; a lone COUNT(*) an integer.
     */
    static List<List<String>> decode(Object reply) {
        if (reply instanceof Long n) {
            return List.of(List.of(Long.toString(n)));
        }
        if (!(reply instanceof List<?> items)) {
            return null;
        }
        if (items.size() >= 2 && items.get(0) instanceof List<?> && items.get(1) instanceof List<?> types
                && !types.isEmpty() && types.get(0) instanceof String) {
            items = items.subList(2, items.size()); // typed: names and types first
        }
        List<List<String>> rows = new ArrayList<>(items.size());
        for (Object item : items) {
            if (item instanceof String row) {
                rows.add(Arrays.asList(row.split(",", -1)));
            } else if (item instanceof List<?> vals) {
                List<String> r = new ArrayList<>(vals.size());
                for (Object v : vals) {
                    r.add(v == null ? null : v.toString());
                }
                rows.add(r);
            } else {
                return null;
            }
        }
        return rows;
    }

    /** The newest SLOWLOG entry's duration if it is the SQL command just sent, else -1; then the log is cleared. */
    private long lastDuration() throws IOException {
        Object r = call("SLOWLOG", "GET", "1");
        long micros = -1;
        if (r instanceof List<?> entries && !entries.isEmpty() && entries.get(0) instanceof List<?> e && e.size() >= 4
                && e.get(3) instanceof List<?> args && !args.isEmpty() && ("SQL".equalsIgnoreCase(String.valueOf(args.get(0))) || "QUERY".equalsIgnoreCase(String.valueOf(args.get(0))))
                && e.get(2) instanceof Long d) {
            micros = d;
        }
        call("SLOWLOG", "RESET");
        return micros;
    }

    Object call(String... args) throws IOException {
        out.write(Resp.encode(args));
        out.flush();
        return Resp.read(in);
    }

    @Override
    public String describe() throws Exception {
        StringBuilder sb = new StringBuilder();
        Object info = call("INFO", "server");
        if (info instanceof String s) {
            for (String line : s.split("\r?\n")) {
                if (line.startsWith("respsql_version") || line.startsWith("redis_version") || line.startsWith("process_id")
                        || line.startsWith("tcp_port") || line.startsWith("executable") || line.startsWith("java")) {
                    sb.append(line.strip()).append('\n');
                }
            }
        }
        sb.append("loopback ").append(host).append(':').append(port).append(", one connection, statements sent as SQL <statement>\n");
        sb.append("order_ts a TIMESTAMP; primary keys and the 6 secondary indexes\n");
        return sb.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Minimal RESP2/RESP3 reader and encoder. */
    static final class Resp {
        record Error(String text) {
            @Override
            public String toString() {
                return "-" + text;
            }
        }

        private Resp() {
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

        static Object read(InputStream in) throws IOException {
            int t = in.read();
            if (t < 0) {
                throw new EOFException("connection closed by the server");
            }
            String head = line(in);
            switch (t) {
                case '+':
                    return head;
                case '-':
                    return new Error(head);
                case '!':
                    return new Error(bulk(in, Integer.parseInt(head)));
                case ':':
                    return Long.parseLong(head);
                case ',':
                    return head;
                case '_':
                    return null;
                case '#':
                    return head.equals("t");
                case '(':
                    return head;
                case '$', '=': {
                    int len = Integer.parseInt(head);
                    return len < 0 ? null : bulk(in, len);
                }
                case '*', '~', '>', '%': {
                    int n = Integer.parseInt(head);
                    if (n < 0) {
                        return null;
                    }
                    if (t == '%') {
                        n *= 2;
                    }
                    List<Object> items = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        items.add(read(in));
                    }
                    return items;
                }
                default:
                    throw new IOException("not a RESP reply: type byte 0x" + Integer.toHexString(t));
            }
        }

        private static String bulk(InputStream in, int len) throws IOException {
            byte[] b = in.readNBytes(len);
            if (b.length < len || in.read() != '\r' || in.read() != '\n') {
                throw new EOFException("reply cut short inside a bulk string of " + len + " bytes");
            }
            return new String(b, StandardCharsets.UTF_8);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("connection closed inside a reply header '" + sb + "'");
                }
                if (c == '\r') {
                    in.read();
                    return sb.toString();
                }
                sb.append((char) c);
            }
        }
    }
}
