package io.respsql.bench.write;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** PostgreSQL through JDBC, autocommit on: each statement is its own transaction. */
final class PgTarget implements Target {

    final String url;
    final String user;
    private final Connection conn;
    private final Statement st;
    private long lastNanos;

    PgTarget(String url, String user) {
        this.url = url;
        this.user = user;
        try {
            conn = DriverManager.getConnection(url, user, "");
            conn.setAutoCommit(true);
            st = conn.createStatement();
        } catch (SQLException e) {
            throw new BenchFailure("PostgreSQL: cannot connect to " + url + ": " + e.getMessage());
        }
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String key() {
        return "pg";
    }

    @Override
    public long exec(String sql) {
        try {
            long t0 = System.nanoTime();
            long n = st.executeLargeUpdate(sql);
            lastNanos = System.nanoTime() - t0;
            return Math.max(n, 0);
        } catch (SQLException e) {
            throw new BenchFailure("PostgreSQL: " + e.getMessage() + " on: " + RespTarget.abbreviate(sql));
        }
    }

    @Override
    public List<String> query(String sql) {
        try {
            long t0 = System.nanoTime();
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery(sql)) {
                int cols = rs.getMetaData().getColumnCount();
                StringBuilder sb = new StringBuilder();
                while (rs.next()) {
                    sb.setLength(0);
                    for (int c = 1; c <= cols; c++) {
                        if (c > 1) {
                            sb.append(',');
                        }
                        sb.append(rs.getString(c));
                    }
                    rows.add(sb.toString());
                }
            }
            lastNanos = System.nanoTime() - t0;
            return rows;
        } catch (SQLException e) {
            throw new BenchFailure("PostgreSQL: " + e.getMessage() + " on: " + RespTarget.abbreviate(sql));
        }
    }

    @Override
    public long lastNanos() {
        return lastNanos;
    }

    @Override
    public void rebuild(long n) {
        exec("DROP TABLE IF EXISTS t");
        exec("CREATE TABLE t (id BIGINT PRIMARY KEY, grp BIGINT, v BIGINT, tag TEXT)");
        exec("INSERT INTO t SELECT g, g % 100, g, 'x' || g FROM generate_series(1, " + n + ") g");
        exec("CREATE INDEX t_grp ON t (grp)");
        exec("VACUUM ANALYZE t");
    }

    @Override
    public String rebuildDescription() {
        return "DROP TABLE IF EXISTS t; CREATE TABLE t (id BIGINT PRIMARY KEY, grp BIGINT, v BIGINT, tag TEXT);"
                + " INSERT INTO t SELECT g, g % 100, g, 'x' || g FROM generate_series(1, N) g (untimed);"
                + " CREATE INDEX t_grp ON t (grp) (btree, after the rows); VACUUM ANALYZE t";
    }

    @Override
    public PgTarget open() {
        return new PgTarget(url, user);
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(query("SELECT version()").get(0)).append('\n');
        for (String s : new String[] {"fsync", "synchronous_commit", "full_page_writes",
                "shared_buffers", "autovacuum", "max_wal_size"}) {
            sb.append(s).append(" = ").append(query("SHOW " + s).get(0)).append('\n');
        }
        sb.append("JDBC driver ").append(org.postgresql.util.DriverInfo.DRIVER_VERSION)
                .append(", autocommit on, java.sql.Statement (no prepared statements)\n");
        return sb.toString();
    }

    @Override
    public void close() {
        try {
            conn.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}
