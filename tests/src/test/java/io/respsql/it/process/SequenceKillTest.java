package io.respsql.it.process;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kill -9 of a server process that hands out sequence values (issue 24): after the restart on
 * the same directory no value acknowledged before the kill is handed out again, whether it came
 * from {@code SELECT nextval} (a read, never logged as a write), a SERIAL column's DEFAULT or a
 * failed INSERT, from the append-only file alone or from a rewritten one (a snapshot preamble
 * then the log's tail); statements still in flight at the kill may or may not have taken effect.
 */
class SequenceKillTest {
    private static final String OK = "+OK\r\n";
    private static final Duration BACKGROUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static long value(String reply) {
        assertTrue(reply.startsWith("*1\r\n$"), reply);
        return Long.parseLong(reply.split("\r\n")[2]);
    }

    /** Values handed out and acknowledged: nextval's answers and the serial ids of rows written. */
    private static long load(RespConnection c, int rounds, int from, Set<Long> seen) throws Exception {
        long max = 0;
        for (int i = from; i < from + rounds; i++) {
            long v = value(c.call("SQL", "SELECT nextval('s')"));
            assertTrue(seen.add(v), "value " + v + " handed out twice");
            max = Math.max(max, v);
            if (i % 4 == 0) {
                assertEquals(OK, c.call("SQL", "INSERT INTO t (v) VALUES (" + i + ")"));
            } else if (i % 4 == 1) {
                assertTrue(c.call("SQL", "INSERT INTO t (v) VALUES (" + (i - 1) + ")").startsWith("-ERR"), "a duplicate v");
            }
        }
        return max;
    }

    private static void inFlightThenKill(ServerProcess server, RespConnection c) {
        try {
            for (int k = 0; k < 64; k++) {
                c.sendCommand("SQL", "SELECT nextval('s')"); // not read: in flight at the kill
                c.sendCommand("SQL", "INSERT INTO t (v) VALUES (" + (1_000_000 + k) + ")");
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        server.kill9();
    }

    private static void assertNothingRepeats(ServerProcess restarted, long maxAcknowledged) throws Exception {
        RespConnection c = restarted.raw();
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        long next = value(c.call("SQL", "SELECT nextval('s')"));
        assertTrue(next > maxAcknowledged, "nextval after the restart gave " + next + ", at most " + maxAcknowledged + " was handed out before");
        long maxId = value(c.call("SQL", "SELECT max(id) FROM t"));
        long nextId = value(c.call("SQL", "SELECT nextval('t_id_seq')"));
        assertTrue(nextId > maxId, "the serial's next id " + nextId + " is not above the stored " + maxId);
        assertEquals(OK, c.call("SQL", "INSERT INTO t (v) VALUES (-1)"));
    }

    private static RespConnection setUp(ServerProcess server) throws Exception {
        RespConnection c = server.raw();
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(OK, c.call("SQL", "CREATE SEQUENCE s"));
        assertEquals(OK, c.call("SQL", "CREATE TABLE t (id serial PRIMARY KEY, v int4 UNIQUE)"));
        return c;
    }

    @Test
    void kill9WithTheAppendOnlyFileNeverRepeatsAValue() throws Exception {
        String[] options = {"--save", "", "--appendonly", "yes", "--appendfsync", "always"};
        Set<Long> seen = new HashSet<>();
        long max;
        ServerProcess server = ServerProcess.start(dir, options);
        try (server) {
            RespConnection c = setUp(server);
            max = load(c, 600, 0, seen);
            inFlightThenKill(server, c);
        }
        try (ServerProcess restarted = server.restart()) {
            assertNothingRepeats(restarted, max);
        }
    }

    @Test
    void kill9AfterARewriteNeverRepeatsAValue() throws Exception {
        String[] options = {"--save", "", "--appendonly", "yes", "--appendfsync", "always"};
        Set<Long> seen = new HashSet<>();
        long max;
        ServerProcess server = ServerProcess.start(dir, options);
        try (server) {
            RespConnection c = setUp(server);
            load(c, 300, 0, seen);
            assertEquals("+Background append only file rewriting started\r\n", c.call("BGREWRITEAOF"));
            max = load(c, 300, 300, seen); // during and after the rewrite: its image, then the log's tail
            Fixture.awaitInfo(server, "aof_rewrite_in_progress", "0", BACKGROUND);
            assertEquals("ok", Fixture.info(server, "persistence", "aof_last_bgrewrite_status"));
            max = Math.max(max, load(c, 100, 600, seen));
            inFlightThenKill(server, c);
        }
        try (ServerProcess restarted = server.restart()) {
            assertNothingRepeats(restarted, max);
        }
    }
}
