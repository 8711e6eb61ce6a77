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
}
