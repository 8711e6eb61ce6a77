package io.respsql.it.conformance;

import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The writes of issue 24 (RETURNING, DEFAULT VALUES and DEFAULT in VALUES, INSERT ... ON CONFLICT,
 * UPDATE ... FROM, DELETE ... USING) in PostgreSQL's dialect over the wire, each statement run in
 * PostgreSQL 15 too: the rows it returns and the tables after it must be PostgreSQL's.
 */
class WritesPgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE w (id int4 PRIMARY KEY, v int4, s text DEFAULT 'dflt', n int8 DEFAULT 7)",
            "INSERT INTO w VALUES (1, 10, 'a', 1), (2, 20, 'b', 2), (3, 30, 'c', 3), (4, 40, 'd', 4)",
            "CREATE TABLE price (k int4 PRIMARY KEY, p int4)",
            "INSERT INTO price VALUES (1, 100), (2, 200), (5, 500)",
            "CREATE TABLE tag (wid int4, label text)",
            "INSERT INTO tag VALUES (3, 'x'), (3, 'y'), (4, 'z')",
            "CREATE TABLE u (id int4 PRIMARY KEY, email text UNIQUE, hits int4 DEFAULT 0)",
            "INSERT INTO u VALUES (1, 'a@x', 1), (2, 'b@x', 2)");
    private static PgPeer pg;
    private static TestServer server;
    private static RespConnection conn;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        PgOracle.requirePostgresql();
        work = Files.createTempDirectory("respsql-writes-");
        pg = PgPeer.start(PgOracle.repoRoot());
        server = TestServer.start();
        conn = server.raw();
        Path file = work.resolve("load.sql");
        Files.writeString(file, String.join(";\n", LOAD) + ";\n");
        pg.runFile(file);
        assertEquals("+OK\r\n", conn.call("SQL", "SET sql_dialect TO postgresql"));
        for (String st : LOAD) {
            assertEquals("+OK\r\n", conn.call("SQL", st), st);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
        if (pg != null) {
            pg.close();
        }
        if (work != null) {
            PgOracle.deleteTree(work);
        }
    }

    @Test
    void returningRepliesTheAffectedRows() throws Exception {
        same("INSERT INTO w VALUES (10, 100, 'ten', 1) RETURNING *");
        same("INSERT INTO w (id, v) VALUES (11, 110), (12, 120) RETURNING id, v * 2 AS twice, s, n");
        same("UPDATE w SET v = v + 1, s = s || '!' WHERE id >= 11 RETURNING id, v, s");
        same("UPDATE w AS x SET n = x.n * 3 WHERE x.id = 10 RETURNING x.*");
        same("DELETE FROM w WHERE id = 12 RETURNING v, s, id + 1000");
        same("DELETE FROM w WHERE id = 999 RETURNING *");
        same("SELECT * FROM w ORDER BY id");
        // a RETURNING expression that fails takes the statement back
        error("UPDATE w SET v = 0 WHERE id = 11 RETURNING 1 / v", "division by zero");
        error("INSERT INTO w VALUES (13, 0) RETURNING 10 / v", "division by zero");
        same("SELECT * FROM w ORDER BY id");
        same("DELETE FROM w WHERE id >= 10 RETURNING id");
    }

    @Test
    void defaultValuesAndDefaultInValues() throws Exception {
        same("INSERT INTO tag DEFAULT VALUES RETURNING *");
        same("INSERT INTO w VALUES (20, DEFAULT, DEFAULT, DEFAULT), (21, 5, 'e', DEFAULT) RETURNING *");
        same("INSERT INTO w (id, s) VALUES (22, DEFAULT) RETURNING *");
        same("SELECT * FROM w WHERE id >= 20 ORDER BY id");
        same("DELETE FROM w WHERE id >= 20");
        same("DELETE FROM tag WHERE wid IS NULL RETURNING label");
    }

    @Test
    void updateFromAndDeleteUsing() throws Exception {
        same("UPDATE w SET v = price.p + w.v FROM price WHERE price.k = w.id RETURNING w.id, w.v, price.p");
        same("SELECT * FROM w ORDER BY id");
        // each target row once, whichever of its matches: here every match gives the same value
        same("UPDATE w AS t SET n = t.n + 1 FROM tag g WHERE g.wid = t.id RETURNING t.id, t.n");
        same("DELETE FROM w USING tag WHERE tag.wid = w.id AND tag.label = 'z' RETURNING w.*");
        same("SELECT * FROM w ORDER BY id");
        same("UPDATE w SET v = 1 FROM price p, tag g WHERE p.k = w.id AND g.wid = 99");
        same("SELECT * FROM w ORDER BY id");
    }

    @Test
    void insertOnConflict() throws Exception {
        same("INSERT INTO u VALUES (1, 'new@x', 5) ON CONFLICT (id) DO NOTHING RETURNING *");
        same("INSERT INTO u VALUES (3, 'c@x', 0), (1, 'zz', 9) ON CONFLICT (id) DO UPDATE SET hits = u.hits + excluded.hits RETURNING *");
        same("INSERT INTO u (id, email) VALUES (4, 'b@x') ON CONFLICT (email) DO UPDATE SET hits = u.hits + 100 RETURNING id, email, hits");
        same("INSERT INTO u AS t VALUES (1, 'a@x', 1), (3, 'c@x', 1) ON CONFLICT ON CONSTRAINT u_pkey DO UPDATE SET hits = t.hits * 2"
                + " WHERE t.id = 3 RETURNING t.id, t.hits");
        same("INSERT INTO u VALUES (5, 'a@x', 0) ON CONFLICT DO NOTHING RETURNING id");
        same("SELECT * FROM u ORDER BY id");
        error("INSERT INTO u VALUES (6, 'x'), (6, 'y') ON CONFLICT (id) DO UPDATE SET email = excluded.email",
                "ON CONFLICT DO UPDATE command cannot affect row a second time");
        error("INSERT INTO u VALUES (7, 'q') ON CONFLICT (hits) DO NOTHING",
                "there is no unique or exclusion constraint matching the ON CONFLICT specification");
        // a conflict in another unique index is an error, and the whole statement is taken back
        assertTrue(conn.call("SQL", "INSERT INTO u VALUES (8, 'h@x'), (9, 'a@x') ON CONFLICT (id) DO NOTHING").startsWith("-ERR"));
        same("SELECT * FROM u ORDER BY id");
    }

    /** The statement's rows in RespSQL (PostgreSQL's dialect) are PostgreSQL's. */
    static void same(String sql) throws Exception {
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
        assertEquals(text(rows), reply, sql);
    }

    private static boolean returnsRows(String sql) {
        return sql.startsWith("SELECT") || sql.contains("RETURNING");
    }

    /** PostgreSQL raises {@code message}; RespSQL raises an error with the same text. */
    static void error(String sql, String message) throws Exception {
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
            sb.append('$').append(line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).append("\r\n")
                    .append(line).append("\r\n");
        }
        return sb.toString();
    }
}
