package io.respsql.it.conformance;

import io.respsql.config.ServerConfig;
import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The same-test comparison harness: a throwaway PostgreSQL 15 and a RespSQL server loaded with the
 * same statements, and one RESP connection on which each statement is run and its reply compared
 * with PostgreSQL's rows or error. Tests keep one pair for all their methods (start it in
 * {@code @BeforeAll}, close it in {@code @AfterAll}).
 */
final class PgPair implements AutoCloseable {
    final PgPeer pg;
    final TestServer server;
    final RespConnection conn;
    private final Path work;

    private PgPair(PgPeer pg, TestServer server, RespConnection conn, Path work) {
        this.pg = pg;
        this.server = server;
        this.conn = conn;
        this.work = work;
    }

    /** A pair in PostgreSQL's dialect on the connection, {@code load} run on both. */
    static PgPair start(String name, List<String> load) throws Exception {
        return start(name, load, true, c -> {
        });
    }

    /**
     * A pair whose server is configured by {@code configure}, the connection in PostgreSQL's
     * dialect when {@code postgresDialect} (else RespSQL's default), and {@code load} run on both:
     * on PostgreSQL as one file followed by ANALYZE, on RespSQL one statement at a time, each OK.
     * Skips the test without PostgreSQL (fails under CI, see {@link PgOracle#requirePostgresql}).
     */
    static PgPair start(String name, List<String> load, boolean postgresDialect, Consumer<ServerConfig> configure)
            throws Exception {
        PgOracle.requirePostgresql();
        Path work = Files.createTempDirectory("respsql-" + name + "-");
        PgPeer pg = null;
        TestServer server = null;
        RespConnection conn = null;
        try {
            pg = PgPeer.start(PgOracle.repoRoot());
            server = TestServer.start(configure);
            conn = server.raw();
            PgPair pair = new PgPair(pg, server, conn, work);
            Path file = work.resolve("load.sql");
            Files.writeString(file, String.join(";\n", load) + ";\nANALYZE;\n");
            pg.runFile(file);
            if (postgresDialect) {
                assertEquals("+OK\r\n", conn.call("SQL", "SET sql_dialect TO postgresql"));
            }
            for (String st : load) {
                assertEquals("+OK\r\n", conn.call("SQL", st), st);
            }
            return pair;
        } catch (Throwable t) {
            closeAll(conn, server, pg, work);
            throw t;
        }
    }

    /**
     * The statement's rows in RespSQL are PostgreSQL's, in the 2010 reply form; a statement that
     * returns no rows (not a query, no RETURNING) must only succeed on both.
     */
    void same(String sql) throws Exception {
        List<List<String>> rows;
        try {
            rows = pg.query(sql);
        } catch (IOException e) {
            throw new AssertionError("PostgreSQL refused the test's own statement " + sql + ": " + e.getMessage());
        }
        String reply = conn.call("SQL", sql);
        if (!returnsRows(sql)) {
            assertTrue(!reply.startsWith("-"), sql + " gave " + reply);
            return;
        }
        if (sql.toUpperCase(Locale.ROOT).contains("ORDER BY")) {
            assertEquals(text(rows), reply, sql);
        } else {
            // no ORDER BY: PostgreSQL's row order is its heap's (an UPDATE moves a row to the end), not a promise
            assertEquals(sortedRows(text(rows)), sortedRows(reply), sql);
        }
    }

    /** A 2010-form reply with its row lines sorted (the count line and an error reply as they are). */
    private static String sortedRows(String reply) {
        if (!reply.startsWith("*")) {
            return reply;
        }
        String[] parts = reply.split("\r\n", -1);
        List<String> rows = new ArrayList<>();
        for (int i = 1; i + 1 < parts.length; i += 2) {
            rows.add(parts[i] + "\r\n" + parts[i + 1]);
        }
        rows.sort(null);
        return parts[0] + "\r\n" + String.join("\r\n", rows);
    }

    /** Null when the statement's rows are PostgreSQL's, else what each said (for tests that collect failures). */
    String difference(String sql) throws Exception {
        String want = text(pg.query(sql));
        String got = conn.call("SQL", sql);
        return want.equals(got) ? null
                : sql + "\n  PostgreSQL: " + want.replace("\r\n", " ") + "\n  RespSQL:    " + got.replace("\r\n", " ");
    }

    private static boolean returnsRows(String sql) {
        String s = sql.stripLeading().toUpperCase(Locale.ROOT);
        return s.startsWith("SELECT") || s.startsWith("WITH") || s.startsWith("VALUES") || s.startsWith("(")
                || s.contains("RETURNING");
    }

    /** PostgreSQL raises {@code message}; RespSQL raises an error with the same text. */
    void error(String sql, String message) throws Exception {
        try {
            pg.query(sql);
            fail("PostgreSQL answered " + sql);
        } catch (IOException e) {
            assertTrue(e.getMessage().contains(message), "PostgreSQL's error for " + sql + ": " + e.getMessage());
        }
        String reply = conn.call("SQL", sql);
        assertTrue(reply.startsWith("-ERR ") && reply.contains(message), sql + " gave " + reply);
    }

    /** PostgreSQL's rows as the 2010 reply writes them: one bulk string per row, values joined by commas, NULL empty. */
    static String text(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder("*").append(rows.size()).append("\r\n");
        for (List<String> r : rows) {
            List<String> vals = new ArrayList<>();
            for (String v : r) {
                vals.add(v == null ? "" : v);
            }
            String line = String.join(",", vals);
            sb.append('$').append(line.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(line).append("\r\n");
        }
        return sb.toString();
    }

    @Override
    public void close() throws Exception {
        closeAll(conn, server, pg, work);
    }

    private static void closeAll(RespConnection conn, TestServer server, PgPeer pg, Path work) throws Exception {
        try {
            if (conn != null) {
                conn.close();
            }
        } finally {
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                try {
                    if (pg != null) {
                        pg.close();
                    }
                } finally {
                    PgOracle.deleteTree(work);
                }
            }
        }
    }
}
