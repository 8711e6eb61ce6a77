package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NaN, Infinity and -Infinity in FLOAT columns as PostgreSQL has them (issue 22): the words
 * PostgreSQL reads (any case, 'inf', signs), CAST, comparisons with NaN = NaN and NaN above every
 * value, ORDER BY, MIN/MAX, GROUP BY, an index, the 2010 and typed replies (RESP3 ,nan ,inf ,-inf),
 * DUMP, a restart through a snapshot and through the log; numbers a double cannot hold are
 * PostgreSQL's out-of-range errors instead of 0 or Infinity.
 */
class NanInfinityTest {
    @TempDir
    Path dir;

    /** ids 1..9 with NaN, ±Infinity, finite values, -0.0 and a NULL; PostgreSQL's ascending order is in {@link #ASC}. */
    private static final String FILL = "INSERT INTO f VALUES (1, 'NaN'), (2, 'Infinity'), (3, 1.5), (4, '-inf'),"
            + " (5, ' +INF '), (6, NULL), (7, 'nan'), (8, -2), (9, CAST('-Infinity' AS FLOAT))";
    /** ORDER BY x, id as PostgreSQL orders float8: -Infinity, numbers, Infinity, NaN, then NULL. */
    private static final String ASC = "*9\r\n$11\r\n4,-Infinity\r\n$11\r\n9,-Infinity\r\n$4\r\n8,-2\r\n$5\r\n3,1.5\r\n"
            + "$10\r\n2,Infinity\r\n$10\r\n5,Infinity\r\n$5\r\n1,NaN\r\n$5\r\n7,NaN\r\n$2\r\n6,\r\n";

    private static String ids(int... ids) {
        StringBuilder sb = new StringBuilder("*" + ids.length + "\r\n");
        for (int id : ids) {
            String s = Integer.toString(id);
            sb.append('$').append(s.length()).append("\r\n").append(s).append("\r\n");
        }
        return sb.toString();
    }

    private static void fill(RespConnection c) throws IOException {
        assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE f (id INT PRIMARY KEY, x FLOAT)"));
        assertEquals("+OK\r\n", c.call("SQL", FILL));
    }

    /** Every read the issue names, with or without an index on x. */
    private static void assertReads(RespConnection c) throws IOException {
        assertEquals(ASC, c.call("SQL", "SELECT id, x FROM f ORDER BY x, id"));
        assertEquals("*9\r\n$2\r\n6,\r\n$5\r\n1,NaN\r\n$5\r\n7,NaN\r\n$10\r\n2,Infinity\r\n$10\r\n5,Infinity\r\n"
                + "$5\r\n3,1.5\r\n$4\r\n8,-2\r\n$11\r\n4,-Infinity\r\n$11\r\n9,-Infinity\r\n",
                c.call("SQL", "SELECT id, x FROM f ORDER BY x DESC, id"));
        // NaN = NaN and NaN is above Infinity, in filters and through index lookups alike
        assertEquals(ids(1, 7), c.call("SQL", "SELECT id FROM f WHERE x = 'NaN' ORDER BY id"));
        assertEquals(ids(1, 7), c.call("SQL", "SELECT id FROM f WHERE x = CAST('nan' AS FLOAT) ORDER BY id"));
        assertEquals(ids(1, 7), c.call("SQL", "SELECT id FROM f WHERE x > 'Infinity' ORDER BY id"));
        assertEquals(ids(1, 2, 5, 7), c.call("SQL", "SELECT id FROM f WHERE x > 1e300 ORDER BY id"));
        assertEquals(ids(1, 2, 5, 7), c.call("SQL", "SELECT id FROM f WHERE x >= 'Infinity' ORDER BY id"));
        assertEquals(ids(2, 3, 4, 5, 8, 9), c.call("SQL", "SELECT id FROM f WHERE x < 'NaN' ORDER BY id"));
        assertEquals(ids(3, 4, 8, 9), c.call("SQL", "SELECT id FROM f WHERE x < 'Infinity' ORDER BY id"));
        assertEquals(ids(4, 9), c.call("SQL", "SELECT id FROM f WHERE x = '-Infinity' ORDER BY id"));
        assertEquals(ids(2, 3, 4, 5, 8, 9), c.call("SQL", "SELECT id FROM f WHERE x <> 'NaN' ORDER BY id"));
        assertEquals(ids(1, 2, 3, 5, 7), c.call("SQL", "SELECT id FROM f WHERE x BETWEEN 0 AND 'NaN' ORDER BY id"));
        assertEquals(ids(1, 3, 7), c.call("SQL", "SELECT id FROM f WHERE x IN ('NaN', 1.5) ORDER BY id"));
        // MIN skips NaN unless every value is one; MAX is NaN when any is
        assertEquals("*1\r\n$13\r\n-Infinity,NaN\r\n", c.call("SQL", "SELECT MIN(x), MAX(x) FROM f"));
        assertEquals("*1\r\n$7\r\nNaN,NaN\r\n", c.call("SQL", "SELECT MIN(x), MAX(x) FROM f WHERE id IN (1, 7)"));
        assertEquals("*1\r\n$12\r\n1.5,Infinity\r\n", c.call("SQL", "SELECT MIN(x), MAX(x) FROM f WHERE id IN (2, 3, 6)"));
        // GROUP BY: one group per value, every NaN in one
        assertEquals("*5\r\n$11\r\n-Infinity,2\r\n$4\r\n-2,1\r\n$5\r\n1.5,1\r\n$10\r\nInfinity,2\r\n$5\r\nNaN,2\r\n",
                c.call("SQL", "SELECT x, COUNT(*) FROM f WHERE x IS NOT NULL GROUP BY x ORDER BY x"));
        // arithmetic on them is PostgreSQL's: NaN stays NaN, Infinity - Infinity is NaN
        assertEquals("*1\r\n$16\r\nNaN,Infinity,NaN\r\n", c.call("SQL",
                "SELECT (SELECT x + 1 FROM f WHERE id = 1), (SELECT x * 2 FROM f WHERE id = 2), (SELECT x - x FROM f WHERE id = 2)"));
    }

    @Test
    void storedComparedOrderedAndIndexed() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            assertReads(c);
            assertEquals("+OK\r\n", c.call("SQL", "CREATE INDEX fx ON f (x)"));
            // enough rows that the planner takes the index for equality and ranges
            StringBuilder more = new StringBuilder("INSERT INTO f VALUES ");
            for (int i = 100; i < 2100; i++) {
                more.append(i == 100 ? "" : ", ").append('(').append(i).append(", ").append(i % 997).append(')');
            }
            assertEquals("+OK\r\n", c.call("SQL", more.toString()));
            // (a text constant against a FLOAT column is not an index bound: CAST makes it one)
            String nan = "CAST('NaN' AS FLOAT)";
            String inf = "CAST('Infinity' AS FLOAT)";
            String plan = c.call("SQL", "EXPLAIN SELECT id FROM f WHERE x = " + nan);
            assertTrue(plan.contains("index probe"), plan);
            assertEquals(ids(1, 7), c.call("SQL", "SELECT id FROM f WHERE x = " + nan + " ORDER BY id"));
            plan = c.call("SQL", "EXPLAIN SELECT id FROM f WHERE x > " + inf);
            assertTrue(plan.contains("index range"), plan);
            assertEquals(ids(1, 7), c.call("SQL", "SELECT id FROM f WHERE x > " + inf + " ORDER BY id"));
            assertEquals(ids(1, 2, 5, 7), c.call("SQL", "SELECT id FROM f WHERE x >= " + inf + " ORDER BY id"));
            assertEquals(ids(1, 2, 5, 7), c.call("SQL", "SELECT id FROM f WHERE x > 1e300 ORDER BY id"));
            assertEquals(ids(2, 5), c.call("SQL", "SELECT id FROM f WHERE x > 1e300 AND x < " + nan + " ORDER BY id"));
            assertEquals(ids(4, 9), c.call("SQL", "SELECT id FROM f WHERE x < -1e300 ORDER BY id"));
            assertEquals(ids(2, 5), c.call("SQL", "SELECT id FROM f WHERE x BETWEEN 1e300 AND " + inf + " ORDER BY id"));
            assertEquals(":2000\r\n", c.call("SQL", "DELETE FROM f WHERE id >= 100"));
            assertReads(c);
            // a UNIQUE index treats NaN as equal to NaN, as PostgreSQL's does
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE u (id INT PRIMARY KEY, x FLOAT)"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE UNIQUE INDEX ux ON u (x)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO u VALUES (1, 'NaN'), (2, 'Infinity')"));
            assertTrue(c.call("SQL", "INSERT INTO u VALUES (3, 'nan')").startsWith("-ERR UNIQUE index 'ux'"));
            assertTrue(c.call("SQL", "INSERT INTO u VALUES (3, 'inf')").startsWith("-ERR UNIQUE index 'ux'"));
        }
    }

    @Test
    void castUpdateExecuteAndReplies() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("*1\r\n$22\r\nNaN,Infinity,-Infinity\r\n",
                    c.call("SQL", "SELECT CAST('NaN' AS FLOAT), CAST('Infinity' AS FLOAT), CAST('-infinity' AS FLOAT)"));
            assertEquals(":1\r\n", c.call("SQL", "UPDATE f SET x = 'Infinity' WHERE id = 3"));
            assertEquals(":1\r\n", c.call("SQL", "UPDATE f SET x = CAST('NaN' AS FLOAT) WHERE id = 3"));
            assertEquals("*1\r\n$3\r\nNaN\r\n", c.call("SQL", "SELECT x FROM f WHERE id = 3"));
            assertEquals(":1\r\n", c.call("SQL", "UPDATE f SET x = 1.5 WHERE id = 3"));
            // EXECUTE takes the words for a FLOAT parameter
            assertEquals("+OK\r\n", c.call("PREPARE", "put", "INSERT INTO f VALUES (?, ?)"));
            assertEquals("+OK\r\n", c.call("EXECUTE", "put", "10", "-Infinity"));
            assertEquals("+OK\r\n", c.call("PREPARE", "get", "SELECT id FROM f WHERE x = ? ORDER BY id"));
            assertEquals(ids(4, 9, 10), c.call("EXECUTE", "get", "-inf"));
            assertEquals(ids(1, 7), c.call("EXECUTE", "get", "NaN"));
            assertEquals(":1\r\n", c.call("SQL", "DELETE FROM f WHERE id = 10"));
            // typed replies: RESP2 bulk strings and RESP3 doubles as Redis writes them
            String header = "*4\r\n*1\r\n$1\r\nx\r\n*1\r\n$5\r\nFLOAT\r\n";
            assertEquals(header + "*1\r\n$3\r\nnan\r\n*1\r\n$3\r\ninf\r\n",
                    c.call("QUERY", "SELECT x FROM f WHERE id IN (1, 2) ORDER BY id"));
            c.call("HELLO", "3");
            assertEquals(header + "*1\r\n,nan\r\n*1\r\n,inf\r\n", c.call("QUERY", "SELECT x FROM f WHERE id IN (1, 2) ORDER BY id"));
            assertEquals("*3\r\n*1\r\n$1\r\nx\r\n*1\r\n$5\r\nFLOAT\r\n*1\r\n,-inf\r\n",
                    c.call("QUERY", "SELECT x FROM f WHERE id = 4"));
        }
    }

    @Test
    void outOfRangeNumbersAreErrors() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("-ERR \"10e-400\" is out of range for type double precision\r\n",
                    c.call("SQL", "INSERT INTO f VALUES (20, '10e-400')"));
            assertEquals("-ERR \"10e-400\" is out of range for type double precision\r\n",
                    c.call("SQL", "INSERT INTO f VALUES (20, 10e-400)"));
            assertEquals("-ERR \"10e-400\" is out of range for type double precision\r\n",
                    c.call("SQL", "INSERT INTO f VALUES (20, 10e-400)")); // again: the plan cache's path
            assertEquals("-ERR \"1e400\" is out of range for type double precision\r\n",
                    c.call("SQL", "INSERT INTO f VALUES (20, '1e400')"));
            assertEquals("-ERR \"10e-400\" is out of range for type double precision\r\n",
                    c.call("SQL", "SELECT CAST('10e-400' AS FLOAT)"));
            assertEquals("-ERR \"1e-400\" is out of range for type double precision\r\n",
                    c.call("SQL", "UPDATE f SET x = 1e-400 WHERE id = 3"));
            // float arithmetic that overflows from finite values is PostgreSQL's error, not Infinity
            assertEquals("-ERR value out of range: overflow\r\n", c.call("SQL", "SELECT 1e308 * 10"));
            assertEquals("-ERR value out of range: overflow\r\n", c.call("SQL", "UPDATE f SET x = x * 1e308 WHERE id = 3 OR id = 8"));
            // zero itself is fine, and so is the smallest subnormal
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO f VALUES (20, 0e-400), (21, '0.0e5'), (22, 4.9e-324)"));
            assertEquals("*3\r\n$4\r\n20,0\r\n$4\r\n21,0\r\n$11\r\n22,4.9E-324\r\n", c.call("SQL", "SELECT id, x FROM f WHERE id >= 20 ORDER BY id"));
            assertEquals(ASC, c.call("SQL", "SELECT id, x FROM f WHERE id < 20 ORDER BY x, id"));
        }
    }

    @Test
    void dumpAndRestartThroughSnapshotAndLog() throws Exception {
        String dump;
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("SQL", "CREATE INDEX fx ON f (x)"));
            dump = c.call("DUMP", "f");
            assertTrue(dump.contains("INSERT INTO f VALUES (1,'NaN')") && dump.contains("(4,'-Infinity')")
                    && dump.contains("(2,'Infinity')"), dump);
        }
        // the log replays the statements
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = s.raw()) {
            assertEquals(dump, c.call("DUMP", "f"));
            assertReads(c);
            assertEquals("+OK\r\n", c.call("SAVE"));
        }
        // the snapshot keeps the values (raw bits) and the index
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            assertEquals(dump, c.call("DUMP", "f"));
            assertReads(c);
            // DUMP's statements read back into a fresh table give the same rows
            assertTrue(c.call("SQL", "DROP TABLE f").startsWith(":"));
            for (String line : dump.split("\r\n")) {
                if (line.startsWith("CREATE") || line.startsWith("INSERT")) {
                    assertEquals("+OK\r\n", c.call("SQL", line), line);
                }
            }
            assertEquals(dump, c.call("DUMP", "f"));
            assertReads(c);
        }
    }
}
