package io.respsql.it.conformance;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * WITH RECURSIVE and generate_series (issue 25) over the PostgreSQL protocol against PostgreSQL 15 itself:
 * the same statements through pgjdbc to both, column types and every row compared (in the order the
 * statement gives), errors by SQLSTATE; and a recursion without end stopped by the statement timeout and
 * by the row bound, while the server keeps answering.
 */
class WithPgTest {
    private static JdbcPair pair;
    private static TestServer server;
    private static Connection theirs;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        pair = JdbcPair.start();
        server = pair.server();
        theirs = pair.theirs();
        ours = pair.ours();
        String[] setup = {
            "CREATE TABLE dept (id INT PRIMARY KEY, parent INT, name TEXT)",
            "INSERT INTO dept VALUES (0, NULL, 'ROOT'), (1, 0, 'A'), (2, 1, 'B'), (3, 2, 'C'), (4, 2, 'D'), (5, 0, 'E'),"
                    + " (6, 4, 'F'), (7, 5, 'G')",
            "CREATE TABLE edge (f INT, t INT, label TEXT)",
            "INSERT INTO edge VALUES (1, 2, 'arc 1 -> 2'), (1, 3, 'arc 1 -> 3'), (2, 3, 'arc 2 -> 3'), (1, 4, 'arc 1 -> 4'),"
                    + " (4, 5, 'arc 4 -> 5'), (5, 1, 'arc 5 -> 1')",
        };
        for (String s : setup) {
            both(s);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (pair != null) {
            pair.close();
        }
    }

    private static List<String> same(String sql) throws SQLException {
        return pair.same(sql);
    }

    private static void both(String sql) throws SQLException {
        pair.both(sql);
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        return JdbcPair.rows(c, sql);
    }

    @Test
    void recursiveUnionAndUnionAll() throws SQLException {
        assertEquals(List.of("types: int4", "5050"),
                same("WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 100) SELECT sum(n)::int FROM t"));
        assertEquals(6, same("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT * FROM t").size());
        String[] queries = {
            // UNION drops rows seen before: it ends where UNION ALL would loop
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n FROM t) SELECT * FROM t",
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT (n % 3) + 1 FROM t) SELECT * FROM t ORDER BY n",
            "WITH RECURSIVE t(n, s) AS (SELECT 1, 'a'::text UNION ALL SELECT n + 1, s || 'b' FROM t WHERE n < 4) SELECT * FROM t",
            // an outer LIMIT stops a recursion without end, as in PostgreSQL
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT * FROM t LIMIT 7",
            // a tree walked over a table, with a join in the recursive term
            "WITH RECURSIVE sub(id, parent, name, lvl) AS (SELECT id, parent, name, 0 FROM dept WHERE name = 'A'"
                    + " UNION ALL SELECT d.id, d.parent, d.name, sub.lvl + 1 FROM dept d, sub WHERE d.parent = sub.id)"
                    + " SELECT * FROM sub ORDER BY name",
            "WITH RECURSIVE sub AS (SELECT * FROM dept WHERE name = 'A' UNION SELECT d.* FROM dept AS d JOIN sub ON d.parent = sub.id)"
                    + " SELECT count(*), max(name) FROM sub",
            // cycles in a graph: UNION reaches a fixpoint
            "WITH RECURSIVE reach(n) AS (SELECT 1 UNION SELECT e.t FROM edge e JOIN reach r ON e.f = r.n) SELECT n FROM reach ORDER BY n",
            // several CTEs, one reading another, and a recursive one read twice
            "WITH RECURSIVE y(id) AS (VALUES (1)), x(id) AS (SELECT * FROM y UNION ALL SELECT id + 1 FROM x WHERE id < 5)"
                    + " SELECT * FROM x",
            "WITH RECURSIVE x(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM x WHERE id < 3), y(id) AS (SELECT * FROM x UNION ALL SELECT * FROM x)"
                    + " SELECT * FROM y",
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT a.n, b.n FROM t a, t b ORDER BY 1, 2",
            // a correlated recursive CTE in a subquery
            "SELECT id, (WITH RECURSIVE up(i, p) AS (SELECT id, parent FROM dept WHERE id = o.id UNION ALL"
                    + " SELECT d.id, d.parent FROM dept d JOIN up ON d.id = up.p) SELECT count(*) FROM up) FROM dept o ORDER BY id",
            "WITH RECURSIVE t(n) AS (SELECT 1.5 UNION ALL SELECT n * 2 FROM t WHERE n < 20) SELECT * FROM t",
            "WITH RECURSIVE t(d) AS (SELECT DATE '2020-01-30' UNION ALL SELECT d + 1 FROM t WHERE d < DATE '2020-02-02') SELECT * FROM t",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void recursionErrorsAsPostgresql() throws SQLException {
        String[] queries = {
            "WITH RECURSIVE x(n) AS (SELECT n FROM x UNION ALL SELECT 1) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM x) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n IN (SELECT * FROM x)) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM dept LEFT JOIN x ON x.n = dept.id WHERE x.n < 5)"
                    + " SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT a.n FROM x a, x b) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 5 ORDER BY 1) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 INTERSECT SELECT n + 1 FROM x) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT (n + 1)::bigint FROM x WHERE n < 5) SELECT * FROM x",
            "WITH RECURSIVE x(n, m) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 5) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 5 EXCEPT SELECT n FROM x) SELECT * FROM x",
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x) SELECT 2000000000 + n FROM x WHERE n < 3 LIMIT 2",
        };
        for (String q : queries) {
            same(q);
        }
    }

    @Test
    void generateSeries() throws SQLException {
        assertEquals(List.of("types: int4", "1", "2", "3"), same("SELECT * FROM generate_series(1, 3)"));
        String[] queries = {
            "SELECT * FROM generate_series(1, 10, 3) AS g(x)",
            "SELECT g FROM generate_series(10, 1, -4) g",
            "SELECT x, x * 2 FROM generate_series(5, 1) AS g(x)",
            "SELECT generate_series FROM generate_series(1, 2)",
            "SELECT * FROM generate_series(1::bigint, 3)",
            "SELECT * FROM generate_series(1, NULL)",
            "SELECT * FROM generate_series(1, 5, 0)",
            "SELECT * FROM generate_series(0.5, 2.25, 0.5)",
            "SELECT * FROM generate_series(1.0, 3)",
            "SELECT * FROM generate_series('2020-01-31'::timestamp, '2020-05-01', '1 month')",
            "SELECT * FROM generate_series('2008-03-01 00:00'::timestamp, '2008-03-04 12:00', '10 hours')",
            "SELECT count(*), sum(x) FROM generate_series(1, 100000) g(x)",
            "SELECT t.id, g.x FROM dept t JOIN generate_series(2, 4) g(x) ON g.x = t.id ORDER BY 1",
            "SELECT id, (SELECT sum(x) FROM generate_series(1, o.id) AS s(x)) FROM dept o ORDER BY id",
            "SELECT * FROM generate_series(2147483640, 2147483647, 5)",
            "WITH RECURSIVE t(n) AS (SELECT x FROM generate_series(1, 3) g(x) UNION ALL SELECT n + 10 FROM t WHERE n < 20) SELECT * FROM t",
        };
        for (String q : queries) {
            same(q);
        }
        // PostgreSQL materializes a function's rows before a LIMIT reads them; RespSQL streams them
        assertEquals(List.of("types: int4", "1", "2", "3"), rows(ours, "SELECT x FROM generate_series(1, 1000000000) AS g(x) LIMIT 3"));
        // past the row bound a series stops with 54000 (never fills memory)
        SQLException e = assertThrows(SQLException.class, () -> rows(ours, "SELECT count(*) FROM generate_series(1, 100000000000)"));
        assertEquals("54000", e.getSQLState(), e.getMessage());
        assertEquals(List.of("types: int4", "1"), rows(ours, "SELECT 1"));
    }

    @Test
    void recursionWithoutEndIsStoppedAndTheServerKeepsAnswering() throws Exception {
        String forever = "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t";
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + server.host() + ":" + server.server().pgPort()
                + "/respsql", "tester", ""); Statement st = c.createStatement()) {
            st.execute("SET statement_timeout = 300");
            long t0 = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(forever));
            assertEquals("57014", e.getSQLState(), e.getMessage());
            assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "stopped near its timeout");
            // the same without end under UNION (every row new) is stopped too
            e = assertThrows(SQLException.class, () -> st.executeQuery(
                    "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n + 1 FROM t) SELECT count(*) FROM t"));
            assertEquals("57014", e.getSQLState(), e.getMessage());
            // and the server answered another client meanwhile and answers this one now
            assertEquals(List.of("types: int4", "1"), rows(ours, "SELECT 1"));
        }
    }

    @Test
    void dataModifyingWithAndWithBeforeWrites() throws SQLException {
        both("CREATE TABLE dm (a INT)");
        String[] queries = {
            "WITH t AS (INSERT INTO dm VALUES (1), (2), (3) RETURNING a, a * 10 AS b) SELECT * FROM t ORDER BY a",
            "WITH t AS (UPDATE dm SET a = a + 100 WHERE a >= 2 RETURNING a) SELECT sum(a) FROM t",
            "WITH t AS (DELETE FROM dm WHERE a = 1 RETURNING *) SELECT count(*) FROM t",
            "SELECT * FROM dm ORDER BY a",
            "WITH t(x) AS (INSERT INTO dm VALUES (7) RETURNING a), u AS (SELECT x + 1 AS y FROM t) SELECT x, y FROM t, u",
            // a failure after the change takes the whole statement back
            "WITH t AS (INSERT INTO dm VALUES (5) RETURNING a) SELECT a / 0 FROM t",
            "SELECT * FROM dm ORDER BY a",
            "WITH t AS (DELETE FROM dm WHERE a > 1000) SELECT 1",
            "WITH t AS (DELETE FROM dm WHERE a > 1000) SELECT * FROM t",
            // WITH before INSERT, UPDATE and DELETE: the CTEs are what the write reads
            "WITH t AS (SELECT a FROM dm) INSERT INTO dm SELECT a + 1000 FROM t ORDER BY a RETURNING a",
            "WITH t AS (SELECT 1007 AS a) DELETE FROM dm USING t WHERE dm.a = t.a RETURNING dm.a",
            "WITH t AS (SELECT 102 AS a, 5 AS b) UPDATE dm SET a = t.b FROM t WHERE dm.a = t.a RETURNING dm.a",
            "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) INSERT INTO dm SELECT n FROM t RETURNING a",
            "SELECT * FROM dm ORDER BY a",
        };
        for (String q : queries) {
            same(q);
        }
        // PostgreSQL shows the other parts the table as it was before the statement: refused, never answered otherwise
        SQLException e = assertThrows(SQLException.class, () -> rows(ours, "WITH t AS (DELETE FROM dm RETURNING a) SELECT * FROM dm"));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        // a data-modifying query where it would not run (before a write, in a subquery): refused, never skipped
        e = assertThrows(SQLException.class, () -> rows(ours, "WITH t AS (DELETE FROM dm RETURNING a) INSERT INTO dm SELECT 1 RETURNING a"));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        e = assertThrows(SQLException.class, () -> rows(ours, "SELECT * FROM (WITH t AS (DELETE FROM dm) SELECT 1) s"));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        assertEquals(rows(theirs, "SELECT * FROM dm ORDER BY a"), rows(ours, "SELECT * FROM dm ORDER BY a"));
    }

    @Test
    void dataModifyingWithIsLoggedAsOneStatementAndAtomicInMulti() throws Exception {
        Path dir = Files.createTempDirectory("respsql-with-");
        List<String> before;
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true));
             Connection c = DriverManager.getConnection("jdbc:postgresql://" + s.host() + ":" + s.server().pgPort() + "/respsql",
                     "tester", "");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE src (id INT PRIMARY KEY, v TEXT)");
            st.execute("CREATE TABLE dst (id INT, v TEXT)");
            st.execute("INSERT INTO src SELECT x, 'v' || x FROM generate_series(1, 20) AS g(x)");
            assertEquals(List.of("types: int8", "10"), rows(c, "WITH moved AS (DELETE FROM src WHERE id <= 10 RETURNING id, v),"
                    + " copied AS (INSERT INTO dst VALUES (2000, 'x'), (3000, NULL) RETURNING id) SELECT count(*) FROM moved"));
            rows(c, "WITH t AS (UPDATE src SET v = v || '!' WHERE id > 15 RETURNING id) SELECT count(*) FROM t");
            // a failed one changes nothing
            assertThrows(SQLException.class, () -> rows(c, "WITH t AS (DELETE FROM src RETURNING id) SELECT 1 / (id - 11) FROM t"));
            before = rows(c, "SELECT * FROM src ORDER BY id");
            assertEquals(11, before.size());
            // MULTI/EXEC over RESP: the data-modifying statement is one of the block's
            try (io.respsql.it.RespConnection r = new io.respsql.it.RespConnection(s.host(), s.port())) {
                assertEquals("+OK\r\n", r.call("SQL", "SET sql_dialect TO postgresql"));
                assertEquals("+OK\r\n", r.call("MULTI"));
                assertEquals("+QUEUED\r\n", r.call("SQL", "WITH t AS (DELETE FROM src WHERE id = 11 RETURNING id) SELECT * FROM t"));
                assertEquals("+QUEUED\r\n", r.call("SQL", "INSERT INTO src VALUES (12, 'dup')")); // a duplicate key: the block fails
                assertTrue(r.call("EXEC").startsWith("-"), "the block failed");
            }
            assertEquals(before, rows(c, "SELECT * FROM src ORDER BY id"), "the block's DELETE was taken back");
            before = rows(c, "SELECT * FROM src ORDER BY id");
            before.addAll(rows(c, "SELECT * FROM dst ORDER BY id"));
        }
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true));
             Connection c = DriverManager.getConnection("jdbc:postgresql://" + s.host() + ":" + s.server().pgPort() + "/respsql",
                     "tester", "")) {
            List<String> after = rows(c, "SELECT * FROM src ORDER BY id");
            after.addAll(rows(c, "SELECT * FROM dst ORDER BY id"));
            assertEquals(before, after, "replayed from the append-only file");
            assertNotEquals(-1, String.join(",", after).indexOf("v16!"));
        }
    }
}
