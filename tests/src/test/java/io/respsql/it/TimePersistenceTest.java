package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An INTERVAL column survives a snapshot and a replay of the append-only file, and a write that
 * reads the statement's time (now(), CURRENT_DATE, 'now') replays to the same values: the log
 * records such a statement with its time ({@code /*respsql:now=µs*}{@code /} before the text),
 * and a replica applies it with that time too.
 */
class TimePersistenceTest {
    private static final String OK = "+OK\r\n";
    private static final String ROWS = "SELECT id, span, at, d FROM ev ORDER BY id";

    @TempDir
    Path dir;

    private static void write(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(OK, c.call("SQL", "CREATE TABLE ev (id int4 PRIMARY KEY, span interval, at timestamp, d date)"));
        assertEquals(OK, c.call("SQL", "INSERT INTO ev VALUES (1, '1 year 2 mons 3 days 04:05:06.5', now(), current_date),"
                + " (2, interval '-1 days +02:03', localtimestamp, 'today'), (3, NULL, 'now', NULL)"));
        assertEquals(":1\r\n", c.call("SQL", "UPDATE ev SET span = span * 2, at = at + interval '1 hour' WHERE id = 2"));
        assertEquals(OK, c.call("SQL", "INSERT INTO ev VALUES (4, 'P1Y2M', now() - interval '1 day', NULL)"));
    }

    @Test
    void theAppendOnlyFileReplaysTheSameTimesAndIntervals() throws Exception {
        String before;
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw()) {
            write(c);
            before = c.call("SQL", ROWS);
            assertTrue(before.contains("1 year 2 mons 3 days 04:05:06.5"), before);
            assertTrue(before.contains("-2 days +04:06:00"), before);
        }
        String aof = Files.readString(dir.resolve("appendonly.aof"), StandardCharsets.ISO_8859_1);
        assertTrue(aof.contains("/*respsql:now="), aof);
        assertFalse(aof.contains("/*respsql:now=0"), aof);
        // a write that did not read the clock is logged as written
        assertTrue(aof.contains("\r\nUPDATE ev SET span = span * 2"), aof);
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = s.raw()) {
            assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals(before, c.call("SQL", ROWS));
            // and the replayed log rewritten (snapshot preamble) keeps them too
            assertTrue(c.call("BGREWRITEAOF").startsWith("+"));
        }
    }

    @Test
    void aSnapshotKeepsIntervalsExactly() throws Exception {
        String before;
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            write(c);
            before = c.call("SQL", ROWS);
            assertEquals(OK, c.call("SAVE"));
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals(before, c.call("SQL", ROWS));
            assertEquals("*1\r\n$1\r\n2\r\n", c.call("SQL", "SELECT id FROM ev WHERE span < interval '0'"));
            // DESC names the type; DUMP writes INTERVAL literals that read back
            assertTrue(c.call("SQL", "DESC ev").contains("INTERVAL"));
            String dump = c.call("SQL", "DUMP ev");
            assertTrue(dump.contains("INTERVAL '1 year 2 mons 3 days 04:05:06.5'"), dump);
        }
    }

    @Test
    void aReplicaAppliesTheMastersTime() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start(); RespConnection m = master.raw()) {
            ReplicatedTransactionTest.replicate(master, replica);
            write(m);
            String want = m.call("SQL", ROWS);
            RespConnection r = replica.raw();
            assertEquals(OK, r.call("SQL", "SET sql_dialect TO postgresql"));
            long deadline = System.nanoTime() + 30_000_000_000L;
            String rows = r.call("SQL", ROWS);
            while (!rows.equals(want) && System.nanoTime() < deadline) {
                Thread.sleep(10);
                rows = r.call("SQL", ROWS);
            }
            assertEquals(want, rows);
        }
    }
}
