package io.respsql.it.diff;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PostgreSQL 15 as a further oracle: a throwaway server started and stopped by
 * {@code scripts/pg-peer.sh} (a state file of its own), queried with pgjdbc.
 */
final class PgSide implements AutoCloseable {
    private final Path script;
    private final Path state;
    private final Map<String, String> env = new HashMap<>();
    private Connection conn;

    static Path bin() {
        String b = System.getenv("PG_BIN");
        return Path.of(b != null && !b.isEmpty() ? b : "/usr/lib/postgresql/15/bin");
    }

    static boolean installed() {
        return Files.isExecutable(bin().resolve("postgres")) && Files.isExecutable(bin().resolve("initdb"));
    }

    /** The first directory above the working directory that holds scripts/pg-peer.sh. */
    static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("scripts").resolve("pg-peer.sh"))) {
                return d;
            }
        }
        throw new IllegalStateException("no scripts/pg-peer.sh above " + Path.of("").toAbsolutePath());
    }

    private PgSide(Path script, Path state) {
        this.script = script;
        this.state = state;
    }

    static PgSide start() throws IOException, InterruptedException, SQLException {
        Path state = Files.createTempDirectory("respsql-difftest-pg-").resolve("peer.env");
        PgSide p = new PgSide(repoRoot().resolve("scripts").resolve("pg-peer.sh"), state);
        String out = p.script("start");
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                p.env.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
            }
        }
        if (!p.env.containsKey("PG_PORT")) {
            throw new IOException("pg-peer.sh start printed no PG_PORT:\n" + out);
        }
        p.conn = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + p.env.get("PG_PORT") + "/" + p.env.get("PG_DB"),
                p.env.get("PG_USER"), "");
        p.conn.setAutoCommit(true);
        try (Statement st = p.conn.createStatement()) {
            st.execute("SET statement_timeout = 10000");
        }
        return p;
    }

    String version() {
        return env.getOrDefault("PG_VERSION", "?");
    }

    /** Drops every table and view. */
    void reset() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("DROP SCHEMA public CASCADE");
            st.execute("CREATE SCHEMA public");
        }
    }

    /** Runs a statement; its error text, or null. */
    String exec(String sql) {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
            return null;
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    Rows query(String sql) {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    if (v instanceof Integer || v instanceof Short) {
                        v = ((Number) v).longValue();
                    } else if (v instanceof Float f) {
                        v = f.doubleValue();
                    } else if (v instanceof BigDecimal || v instanceof Long || v instanceof Double || v == null
                            || v instanceof String || v instanceof Boolean) {
                        // as it is
                    } else {
                        v = v.toString();
                    }
                    row.add(v);
                }
                rows.add(row);
            }
            return Rows.of(rows);
        } catch (SQLException e) {
            return Rows.error(e.getMessage());
        }
    }

    private String script(String verb) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), verb);
        pb.environment().put("PG_PEER_STATE", state.toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("pg-peer.sh " + verb + " timed out");
        }
        if (p.exitValue() != 0) {
            throw new IOException("pg-peer.sh " + verb + " failed:\n" + out);
        }
        return out;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (conn != null) {
                conn.close();
            }
        } catch (SQLException ignored) {
            // the server goes next anyway
        }
        try {
            script("stop");
        } finally {
            Files.deleteIfExists(state);
            Files.deleteIfExists(state.getParent());
        }
    }
}
