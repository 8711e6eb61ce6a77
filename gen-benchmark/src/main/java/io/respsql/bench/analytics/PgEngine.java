package io.respsql.bench.analytics;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL through JDBC (simple query protocol, as psql sends): COPY for the load, then primary
 * keys, the 6 secondary indexes, the foreign keys (validated) and ANALYZE; queries timed as a
 * client round trip (execute and fetch every row), which is what psql's \timing reports.
 */
final class PgEngine implements Engine {
    private final String url;
    private final Connection conn;
    private final Statement st;
    private long capSet = -1;

    PgEngine(String url, String user) throws SQLException {
        this.url = url + (url.contains("?") ? "&" : "?") + "preferQueryMode=simple";
        conn = DriverManager.getConnection(this.url, user, "");
        conn.setAutoCommit(true);
        st = conn.createStatement();
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String key() {
        return "postgresql";
    }

    @Override
    public String clock() {
        return "client round trip (JDBC over loopback, simple query protocol, every row fetched), as psql's \\timing";
    }

    @Override
    public List<Step> load(EcomGen g) throws Exception {
        List<Step> steps = new ArrayList<>();
        for (int t = Tables.NAMES.length - 1; t >= 0; t--) {
            st.execute("DROP TABLE IF EXISTS " + Tables.NAMES[t] + " CASCADE");
        }
        for (String ddl : Tables.createTables(s -> s, false)) {
            st.execute(ddl);
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        Ascii a = new Ascii(1 << 20);
        long all = 0;
        double allSeconds = 0;
        for (int t = 0; t < Tables.NAMES.length; t++) {
            int rows = Tables.rows(g, t);
            long t0 = System.nanoTime();
            CopyIn copy = pg.getCopyAPI().copyIn("COPY " + Tables.NAMES[t] + " FROM STDIN");
            try {
                for (int i = 0; i < rows; i++) {
                    Tables.row(g, t, i, a, false);
                    if (a.n >= (1 << 20) - 512) {
                        copy.writeToCopy(a.b, 0, a.n);
                        a.reset();
                    }
                }
                if (a.n > 0) {
                    copy.writeToCopy(a.b, 0, a.n);
                    a.reset();
                }
                long n = copy.endCopy();
                if (n != rows) {
                    throw new IllegalStateException("PostgreSQL COPY " + Tables.NAMES[t] + " took " + n + " rows of " + rows);
                }
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
            double s = (System.nanoTime() - t0) / 1e9;
            all += rows;
            allSeconds += s;
            steps.add(new Step(name(), "copy " + Tables.NAMES[t], rows, s, "COPY FROM STDIN, text format, no indexes yet"));
        }
        steps.add(new Step(name(), "copy (all tables)", all, allSeconds, ""));
        long t0 = System.nanoTime();
        for (int t = 0; t < Tables.NAMES.length; t++) {
            st.execute("ALTER TABLE " + Tables.NAMES[t] + " ADD PRIMARY KEY (" + Tables.COLUMNS[t][0] + ")");
        }
        steps.add(new Step(name(), "add 4 primary keys", all, (System.nanoTime() - t0) / 1e9, "btree"));
        t0 = System.nanoTime();
        for (String ix : Tables.createIndexes()) {
            st.execute(ix);
        }
        steps.add(new Step(name(), "create 6 secondary indexes", all, (System.nanoTime() - t0) / 1e9, "btree"));
        t0 = System.nanoTime();
        for (String[] fk : Tables.FOREIGN_KEYS) {
            st.execute("ALTER TABLE " + fk[0] + " ADD FOREIGN KEY (" + fk[1] + ") REFERENCES " + fk[2]);
        }
        steps.add(new Step(name(), "add 4 foreign keys", all, (System.nanoTime() - t0) / 1e9,
                "validated: the data set's foreign keys are consistent"));
        t0 = System.nanoTime();
        st.execute("ANALYZE");
        steps.add(new Step(name(), "ANALYZE", all, (System.nanoTime() - t0) / 1e9, ""));
        return steps;
    }

    @Override
    public Answer run(String sql, long capMillis) throws Exception {
        if (capSet != capMillis) {
            st.execute("SET statement_timeout = " + capMillis);
            capSet = capMillis;
        }
        long t0 = System.nanoTime();
        try (ResultSet rs = st.executeQuery(sql)) {
            int cols = rs.getMetaData().getColumnCount();
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> r = new ArrayList<>(cols);
                for (int c = 1; c <= cols; c++) {
                    r.add(rs.getString(c));
                }
                rows.add(r);
            }
            return new Answer(rows, null, false, System.nanoTime() - t0, -1);
        } catch (SQLException e) {
            long nanos = System.nanoTime() - t0;
            boolean capped = "57014".equals(e.getSQLState());
            return Engine.Answer.error(e.getMessage().replace('\n', ' '), capped, nanos);
        }
    }

    @Override
    public String describe() throws Exception {
        StringBuilder sb = new StringBuilder();
        sb.append(one("SELECT version()")).append('\n');
        for (String s : new String[] {"shared_buffers", "work_mem", "effective_cache_size", "max_parallel_workers_per_gather",
                "max_parallel_workers", "max_worker_processes", "jit", "random_page_cost", "fsync", "synchronous_commit",
                "full_page_writes", "max_wal_size", "autovacuum", "lc_collate"}) {
            sb.append(s).append(" = ").append(one("SHOW " + s)).append('\n');
        }
        sb.append("JDBC driver ").append(org.postgresql.util.DriverInfo.DRIVER_VERSION).append(", ").append(url).append('\n');
        sb.append("tables with primary keys, the 6 secondary indexes and 4 foreign keys; ANALYZE after the load\n");
        return sb.toString();
    }

    private String one(String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
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
