package io.respsql.it.diff;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Bugs the differential suite found, each as the minimized statements it printed, asserting the
 * right answer over the wire.
 */
class DiffRegressionTest {
    /**
     * postgresql oracle, seed 211: a lone COUNT(*) ignored LIMIT 0 and OFFSET (the bare-count
     * shortcut answered the count whatever cut its one row away).
     * {@code SELECT COUNT(*) FROM t0 AS s0 JOIN t0 AS s1 ON s0.c0 = s1.c4 ORDER BY 1 LIMIT 4 OFFSET 1}
     * gave 1 row (0); PostgreSQL gives none.
     */
    @Test
    void loneCountStarHonoursLimitZeroAndOffset() throws Exception {
        try (TestServer s = TestServer.start(); DiffClient c = new DiffClient(s.host(), s.port())) {
            assertEquals("OK", c.sql("CREATE TABLE t0 (c0 FLOAT, c1 TEXT, c2 INT, c3 INT, c4 FLOAT)"));
            assertEquals(0, c.query("SELECT COUNT(*) FROM t0 AS s0 JOIN t0 AS s1 ON s0.c0 = s1.c4 ORDER BY 1 LIMIT 4 OFFSET 1").size());
            assertEquals("OK", c.sql("CREATE TABLE a (x INT)"));
            assertEquals("OK", c.sql("INSERT INTO a VALUES (1), (2)"));
            assertEquals(List.of(), c.sql("SELECT COUNT(*) FROM a LIMIT 4 OFFSET 1"));
            assertEquals(List.of(), c.sql("SELECT COUNT(*) FROM a LIMIT 0"));
            assertEquals(List.of(), c.sql("SELECT COUNT(*) FROM a WHERE x > 1 LIMIT 0"));
            assertEquals(0, c.query("SELECT COUNT(*) FROM a OFFSET 1").size());
            assertEquals(List.of(List.of(2L)), c.query("SELECT COUNT(*) FROM a LIMIT 3 OFFSET 0").rows);
            // the 2010 bare integer stays where the row is kept
            assertEquals(2L, c.sql("SELECT COUNT(*) FROM a"));
            assertEquals(2L, c.sql("SELECT COUNT(*) FROM a LIMIT 1"));
        }
    }

    /**
     * tlp-where, seed 606 (and plan, seed 629): a LEFT JOIN whose ON names a relation left of a
     * comma ({@code t2 AS s0, t1 AS s1 LEFT JOIN t0 AS s2 ON s0.c2 = s2.c2}) was joined before
     * that relation once a WHERE term let the planner reorder: its ON read no row of s0, so every
     * row came out NULL-extended (4 rows instead of 6), or, with a derived table, the read failed
     * with an internal ArrayIndexOutOfBoundsException.
     */
    @Test
    void leftJoinOnNamingARelationLeftOfACommaWaitsForIt() throws Exception {
        try (TestServer s = TestServer.start(); DiffClient c = new DiffClient(s.host(), s.port())) {
            for (String st : List.of("CREATE TABLE t0 (c0 INT PRIMARY KEY, c1 BIGINT, c2 BIGINT)",
                    "INSERT INTO t0 VALUES (17, 12, 12), (4, 0, 12)",
                    "CREATE TABLE t1 (c0 INT PRIMARY KEY, c1 FLOAT)",
                    "INSERT INTO t1 VALUES (7, 19.5), (10, 3.0)",
                    "CREATE TABLE t2 (c2 INT, c4 INT)",
                    "INSERT INTO t2 VALUES (12, 3), (-1, 7)")) {
                assertEquals("OK", c.sql(st), st);
            }
            String q = "SELECT s0.c4, s2.c0 FROM t2 AS s0, t1 AS s1 LEFT JOIN t0 AS s2 ON s0.c2 = s2.c2";
            // (s0, s1) LEFT JOIN s2: s0.c2 = 12 meets both t0 rows, -1 none; times the two rows of t1
            List<String> expected = List.of("(3, 17)", "(3, 17)", "(3, 4)", "(3, 4)", "(7, NULL)", "(7, NULL)");
            assertEquals(expected, c.query(q).multiset());
            assertEquals(expected, c.query(q + " WHERE s1.c1 > 0").multiset());
            assertEquals(expected, c.query(q + " WHERE NOT EXISTS (SELECT 1 FROM t0 AS s4 WHERE s4.c1 = s1.c1)").multiset());

            assertEquals("OK", c.sql("CREATE TABLE u0 (c0 INT PRIMARY KEY, c1 FLOAT NOT NULL, c2 BIGINT NOT NULL, c3 TEXT)"));
            assertEquals("OK", c.sql("CREATE TABLE u1 (c0 TEXT PRIMARY KEY, c1 FLOAT)"));
            assertEquals("OK", c.sql("INSERT INTO u1 VALUES ('bb', 18.0)"));
            Rows r = c.query("SELECT DISTINCT (s3.c1 - 14.25) FROM (SELECT s2.c0 AS c0, s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3"
                    + " FROM u0 AS s2 WHERE 'cab' > s2.c3) AS s0, u1 AS s1 LEFT JOIN u1 AS s3 ON s0.c1 = s3.c1"
                    + " WHERE s0.c2 = (SELECT MAX(s4.c1) FROM u1 AS s4 WHERE s4.c1 = s1.c1) ORDER BY 1");
            assertEquals(null, r.error);
            assertEquals(0, r.size());
        }
    }
}
