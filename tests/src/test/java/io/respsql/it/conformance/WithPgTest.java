package io.respsql.it.conformance;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WITH RECURSIVE and generate_series (issue 25) over the PostgreSQL protocol against PostgreSQL 15 itself:
 * the same statements through pgjdbc to both, column types and every row compared (in the order the
 * statement gives), errors by SQLSTATE; and a recursion without end stopped by the statement timeout and
 * by the row bound, while the server keeps answering.
 */
class WithPgTest {
    private static PgPeer pg;
    private static TestServer server;
    private static Connection theirs;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        PgOracle.requirePostgresql();
        pg = PgPeer.start(PgOracle.repoRoot());
        server = TestServer.start(c -> c.pgPort(0));
        theirs = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + pg.database(), pg.user(), "");
        ours = DriverManager.getConnection("jdbc:postgresql://" + server.host() + ":" + server.server().pgPort() + "/respsql",
                "tester", "");
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
        if (ours != null) {
            ours.close();
        }
        if (theirs != null) {
            theirs.close();
        }
        if (server != null) {
            server.close();
        }
        if (pg != null) {
            pg.close();
        }
    }

    /** Runs {@code sql} on both; the same SQLSTATE when PostgreSQL fails, else the same column types and rows. */
    private static List<String> same(String sql) throws SQLException {
        List<String> expected;
        try {
            expected = rows(theirs, sql);
        } catch (SQLException e) {
            String state = e.getSQLState();
            try {
                rows(ours, sql);
            } catch (SQLException mine) {
                assertEquals(state, mine.getSQLState(), sql + ": " + mine.getMessage() + " / PostgreSQL: " + e.getMessage());
                return List.of();
            }
            throw new AssertionError(sql + ": PostgreSQL fails with " + state + " (" + e.getMessage() + "), RespSQL answers");
        }
        assertEquals(expected, rows(ours, sql), sql);
        return expected;
    }

    private static void both(String sql) throws SQLException {
        try (Statement st = theirs.createStatement()) {
            st.execute(sql);
        }
        try (Statement st = ours.createStatement()) {
            st.execute(sql);
        }
    }

    /** Column type names, then each row's values as text. */
    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder types = new StringBuilder("types:");
            for (int i = 1; i <= md.getColumnCount(); i++) {
                types.append(' ').append(md.getColumnTypeName(i));
            }
            out.add(types.toString());
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
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
}
