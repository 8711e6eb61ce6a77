package io.respsql.bench.analytics;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * DuckDB in this process (in-memory database, {@code org.duckdb:duckdb_jdbc}): loaded with its
 * appender, native types (TIMESTAMP), no indexes or constraints (DuckDB scans with zone maps; its
 * ART indexes are optional). Queries timed in process: execute and fetch every row. A query
 * still running at the cap is cancelled. One loaded database can be measured at several thread
 * settings ({@link #withThreads}): each is a system of its own, named DuckDB-&lt;n&gt;t, that sets
 * DuckDB's {@code threads} before its runs.
 */
final class DuckEngine implements Engine {
    private final DuckDBConnection conn;
    private final Statement st;
    private final int threads;
    /** The engine that loaded the database (this one, or the one {@link #withThreads} was called on). */
    private final DuckEngine owner;
    /** The database's threads setting now (owner's field; all settings share it). */
    private int threadsSet;
    private final ScheduledExecutorService timer;

    DuckEngine(int threads, String memoryLimit) throws SQLException {
        this.threads = threads;
        this.owner = this;
        conn = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        st = conn.createStatement();
        if (memoryLimit != null && !memoryLimit.isBlank()) {
            st.execute("SET memory_limit = '" + memoryLimit + "'");
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "duckdb-cap");
            t.setDaemon(true);
            return t;
        });
        useThreads();
    }

    private DuckEngine(DuckEngine owner, int threads) {
        this.threads = threads;
        this.owner = owner;
        this.conn = owner.conn;
        this.st = owner.st;
        this.timer = owner.timer;
    }

    /** The same database measured with {@code threads} threads (loaded by this engine; its load() does nothing). */
    DuckEngine withThreads(int threads) {
        return new DuckEngine(this, threads);
    }

    private void useThreads() throws SQLException {
        if (owner.threadsSet != threads) {
            st.execute("SET threads = " + threads);
            owner.threadsSet = threads;
        }
    }

    @Override
    public String name() {
        return "DuckDB-" + threads + "t";
    }

    @Override
    public String key() {
        return "duckdb-" + threads + "t";
    }

    @Override
    public String clock() {
        return "in process (JDBC executeQuery and fetch of every row, no network), " + threads + " thread(s)";
    }

    private static String duckType(String standard) {
        return switch (standard) {
            case "INT" -> "INTEGER";
            case "TEXT" -> "VARCHAR";
            default -> standard;
        };
    }

    @Override
    public List<Step> load(EcomGen g) throws Exception {
        List<Step> steps = new ArrayList<>();
        if (owner != this) {
            return steps; // the owner loaded the database this setting shares
        }
        for (String t : Tables.NAMES) {
            st.execute("DROP TABLE IF EXISTS " + t);
        }
        for (String ddl : Tables.createTables(DuckEngine::duckType, false)) {
            st.execute(ddl);
        }
        long all = 0;
        double allSeconds = 0;
        for (int t = 0; t < Tables.NAMES.length; t++) {
            int rows = Tables.rows(g, t);
            long t0 = System.nanoTime();
            try (DuckDBAppender a = conn.createAppender(DuckDBConnection.DEFAULT_SCHEMA, Tables.NAMES[t])) {
                for (int i = 0; i < rows; i++) {
                    a.beginRow();
                    switch (t) {
                        case 0 -> a.append(i + 1).append(EcomGen.email(i + 1)).append(EcomGen.COUNTRIES[g.cCountry[i]])
                                .append(EcomGen.TIERS[g.cTier[i]]).append((long) g.cLtv[i]);
                        case 1 -> a.append(i + 1).append(EcomGen.productName(i + 1)).append(EcomGen.CATEGORIES[g.pCategory[i]])
                                .append(g.pPrice[i]);
                        case 2 -> a.append(i + 1).append(g.oCustomer[i]).append(LocalDateTime.ofEpochSecond(g.oTs[i], 0, ZoneOffset.UTC))
                                .append(g.oYm[i]).append(EcomGen.STATUSES[g.oStatus[i]]).append(EcomGen.CHANNELS[g.oChannel[i]])
                                .append(g.oTotal[i]);
                        default -> a.append(i + 1).append(g.iOrder[i]).append(g.itemCustomer(i)).append(g.iProduct[i])
                                .append((int) g.iQty[i]).append(g.itemLineTotal(i));
                    }
                    a.endRow();
                }
                a.flush();
            }
            double s = (System.nanoTime() - t0) / 1e9;
            all += rows;
            allSeconds += s;
            steps.add(new Step("DuckDB", "append " + Tables.NAMES[t], rows, s, "DuckDBAppender"));
        }
        steps.add(new Step("DuckDB", "append (all tables)", all, allSeconds, "no indexes or constraints"));
        for (int t = 0; t < Tables.NAMES.length; t++) {
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + Tables.NAMES[t])) {
                rs.next();
                if (rs.getLong(1) != Tables.rows(g, t)) {
                    throw new IllegalStateException("DuckDB: " + Tables.NAMES[t] + " has " + rs.getLong(1) + " rows");
                }
            }
        }
        return steps;
    }

    @Override
    public Answer run(String sql, long capMillis) throws Exception {
        useThreads(); // before the clock starts
        boolean[] cancelled = {false};
        try (Statement q = conn.createStatement()) {
            ScheduledFuture<?> cap = timer.schedule(() -> {
                cancelled[0] = true;
                try {
                    q.cancel();
                } catch (SQLException ignored) {
                    // the query ends anyway
                }
            }, capMillis, TimeUnit.MILLISECONDS);
            long t0 = System.nanoTime();
            try (ResultSet rs = q.executeQuery(sql)) {
                int cols = rs.getMetaData().getColumnCount();
                List<List<String>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<String> r = new ArrayList<>(cols);
                    for (int c = 1; c <= cols; c++) {
                        r.add(text(rs.getObject(c)));
                    }
                    rows.add(r);
                }
                long nanos = System.nanoTime() - t0;
                cap.cancel(false);
                return new Answer(rows, null, false, nanos, -1);
            } catch (SQLException e) {
                long nanos = System.nanoTime() - t0;
                cap.cancel(false);
                return Engine.Answer.error(e.getMessage().replace('\n', ' '), cancelled[0], nanos);
            }
        }
    }

    private static String text(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof java.sql.Timestamp ts) {
            v = ts.toLocalDateTime();
        }
        if (v instanceof LocalDateTime t) {
            return EcomGen.timestamp(t.toEpochSecond(ZoneOffset.UTC));
        }
        return v.toString();
    }

    @Override
    public String describe() throws Exception {
        useThreads();
        StringBuilder sb = new StringBuilder();
        for (String s : new String[] {"SELECT version()", "SELECT current_setting('threads')", "SELECT current_setting('memory_limit')"}) {
            try (ResultSet rs = st.executeQuery(s)) {
                rs.next();
                sb.append(s.replace("SELECT ", "")).append(" = ").append(rs.getString(1)).append('\n');
            }
        }
        sb.append("in-memory database in the driver's JVM (jdbc:duckdb:), driver ").append(conn.getMetaData().getDriverVersion()).append('\n');
        sb.append("tables without indexes or constraints; native TIMESTAMP\n");
        return sb.toString();
    }

    @Override
    public void close() {
        if (owner != this) {
            return; // the owner closes the shared database
        }
        timer.shutdownNow();
        try {
            conn.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}
