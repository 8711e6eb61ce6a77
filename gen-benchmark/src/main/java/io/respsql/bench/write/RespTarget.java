package io.respsql.bench.write;

import java.util.ArrayList;
import java.util.List;

/** RespSQL over one RESP connection; statements are sent as redis-cli would split them. */
final class RespTarget implements Target {

    static final int SEED_BATCH = 1000;
    static final int SEED_WINDOW = 32;

    final String host;
    final int port;
    final RespConn conn;
    private long lastNanos;

    RespTarget(String host, int port) {
        this.host = host;
        this.port = port;
        this.conn = new RespConn(host, port);
    }

    @Override
    public String name() {
        return "RespSQL";
    }

    @Override
    public String key() {
        return "respsql";
    }

    private RespConn.Reply call(String sql) {
        byte[] req = RespConn.encodeStatement(sql);
        long t0 = System.nanoTime();
        RespConn.Reply r = conn.call(req);
        lastNanos = System.nanoTime() - t0;
        if (r.isError()) {
            throw new BenchFailure("RespSQL answered -" + r.text() + " to: " + abbreviate(sql));
        }
        return r;
    }

    static String abbreviate(String sql) {
        return sql.length() <= 200 ? sql : sql.substring(0, 200) + "... (" + sql.length() + " chars)";
    }

    @Override
    public long exec(String sql) {
        RespConn.Reply r = call(sql);
        return r.type() == ':' ? r.integer() : 0;
    }

    @Override
    public List<String> query(String sql) {
        RespConn.Reply r = call(sql);
        List<String> rows = new ArrayList<>();
        switch (r.type()) {
            case ':' -> rows.add(Long.toString(r.integer()));
            case '*' -> {
                for (RespConn.Reply e : r.elements()) {
                    rows.add(e.type() == ':' ? Long.toString(e.integer()) : e.text());
                }
            }
            default -> throw new BenchFailure("RespSQL: unexpected reply " + r + " to " + sql);
        }
        return rows;
    }

    /** The raw reply bytes of a statement (no error check: errors are compared like any reply). */
    byte[] raw(String sql) {
        return conn.callRaw(RespConn.encodeStatement(sql));
    }

    @Override
    public long lastNanos() {
        return lastNanos;
    }

    @Override
    public void rebuild(long n) {
        exec("DROP TABLE IF EXISTS t");
        exec("CREATE TABLE t (id BIGINT PRIMARY KEY, grp BIGINT, v BIGINT, tag TEXT)");
        // Pipelined multi-row INSERTs: seeding 5M rows one round trip per row would dominate the run.
        int inFlight = 0;
        for (long from = 1; from <= n; from += SEED_BATCH) {
            long to = Math.min(n, from + SEED_BATCH - 1);
            conn.write(RespConn.encodeStatement(Target.insertSeeded(from, to)));
            if (++inFlight == SEED_WINDOW) {
                conn.flush();
                expectOk(conn.read());
                inFlight--;
            }
        }
        conn.flush();
        while (inFlight-- > 0) {
            expectOk(conn.read());
        }
        exec("CREATE INDEX t:grp ON t (grp)");
    }

    private static void expectOk(RespConn.Reply r) {
        if (r.isError() || r.type() != '+') {
            throw new BenchFailure("RespSQL: seeding INSERT answered " + r);
        }
    }

    @Override
    public String rebuildDescription() {
        return "DROP TABLE IF EXISTS t; CREATE TABLE t (id BIGINT PRIMARY KEY, grp BIGINT, v BIGINT, tag TEXT);"
                + " INSERT INTO t VALUES (id,id%100,id,'x<id>'),... in batches of " + SEED_BATCH
                + " rows, " + SEED_WINDOW + " statements in flight (pipelined, untimed);"
                + " CREATE INDEX t:grp ON t (grp) (built after the rows)";
    }

    @Override
    public RespTarget open() {
        return new RespTarget(host, port);
    }

    @Override
    public String describe() {
        RespConn.Reply info = conn.call("INFO", "server");
        StringBuilder sb = new StringBuilder();
        for (String line : info.text().split("\r\n")) {
            if (line.startsWith("respsql_version") || line.startsWith("redis_version")
                    || line.startsWith("multiplexing_api") || line.startsWith("os:")) {
                sb.append(line).append('\n');
            }
        }
        RespConn.Reply p = conn.call("INFO", "persistence");
        sb.append("INFO persistence: ").append(p.text() == null || p.text().isBlank()
                ? "(empty: no persistence section)" : p.text().replace("\r\n", " ")).append('\n');
        for (String key : new String[] {"appendonly", "save"}) {
            RespConn.Reply c = conn.call("CONFIG", "GET", key);
            sb.append("CONFIG GET ").append(key).append(": ").append(c).append('\n');
        }
        return sb.toString();
    }

    @Override
    public void close() {
        conn.close();
    }
}
