package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NUMERIC columns (issue 25) survive a restart from a snapshot and from the append-only file:
 * the values digit for digit (scaled longs of NUMERIC(10,2), the text of NUMERIC and of
 * NUMERIC(25,5)), and the type modifiers, so a later insert still rounds to the scale and
 * refuses what exceeds the precision.
 */
class NumericPersistenceTest {
    private static final String OK = "+OK\r\n";
    private static final String ROWS = "SELECT id, p, q, d FROM money ORDER BY id";
    /** The four rows of a QUERY reply (after its header and types). */
    private static final String EXPECTED = "*4\r\n:1\r\n$4\r\n1.01\r\n$3\r\n1.5\r\n$26\r\n12345678901234567890.12346\r\n"
            + "*4\r\n:2\r\n$5\r\n-1.01\r\n$6\r\n0.0001\r\n$8\r\n-0.00001\r\n"
            + "*4\r\n:3\r\n$11\r\n99999999.99\r\n$40\r\n123456789012345678901234567890.123456789\r\n$7\r\n2.50000\r\n"
            + "*4\r\n:4\r\n$-1\r\n$-1\r\n$-1\r\n";

    @TempDir
    Path dir;

    private static void fill(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(OK, c.call("SQL", "CREATE TABLE money (id INT PRIMARY KEY, p NUMERIC(10,2), q NUMERIC, d DECIMAL(25,5))"));
        assertEquals(OK, c.call("SQL", "INSERT INTO money VALUES (1, 1.005, 1.5, 12345678901234567890.123456),"
                + " (2, -1.005, 0.0001, -0.000005), (3, 99999999.994, 123456789012345678901234567890.123456789, 2.5),"
                + " (4, NULL, NULL, NULL)"));
    }

    /** The rows as typed replies, and the type modifiers still in force. */
    private static void check(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        String rows = c.call("QUERY", ROWS);
        assertTrue(rows.startsWith("*6\r\n"), rows);
        assertEquals(EXPECTED, rows.substring(rows.indexOf("*4\r\n:1\r\n")), rows);
        String overflow = c.call("SQL", "INSERT INTO money VALUES (5, 100000000, 0, 0)");
        assertTrue(overflow.startsWith("-") && overflow.contains("numeric field overflow"), overflow);
        assertEquals(OK, c.call("SQL", "INSERT INTO money VALUES (5, 2.345, 0, 1.234567)"));
        assertEquals("*1\r\n$12\r\n2.35,1.23457\r\n", c.call("SQL", "SELECT p, d FROM money WHERE id = 5"));
        assertEquals("*1\r\n$11\r\n99999999.99\r\n", c.call("SQL", "SELECT max(p) FROM money"));
    }

    @Test
    void aSnapshotKeepsValuesAndTypeModifiers() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            fill(c);
            assertEquals(OK, c.call("SAVE"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            check(c);
        }
    }

    @Test
    void theAppendOnlyFileReplaysThemAlike() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw()) {
            fill(c);
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = s.raw()) {
            check(c);
            assertEquals(OK, c.call("BGREWRITEAOF").startsWith("+") ? OK : "rewrite refused");
        }
    }
}
