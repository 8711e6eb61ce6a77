package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PREPARE / EXECUTE / DEALLOCATE over the wire, their errors, a restart through the log, through a
 * snapshot (SAVE, BGSAVE, a log rewrite's preamble), a replica's full sync, a block's rollback, and
 * INFO's plan cache lines.
 */
class PreparedStatementsTest {
    @TempDir
    Path dir;

    private static void fill(RespConnection c) throws java.io.IOException {
        assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "kv", "(id INT PRIMARY KEY, v INT, s TEXT)"));
        assertEquals("+OK\r\n", c.call("INSERT", "INTO", "kv", "VALUES", "(1, 10, 'a'), (2, 20, 'b b')"));
    }

    /** A server with the log on, fsync'ed per write, in this test's dir. */
    private TestServer startLogged() throws Exception {
        return TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
    }

    /** A new server on this test's dir that loads what the log holds. */
    private TestServer restartFromTheLog() throws Exception {
        return TestServer.start(c -> c.dir(dir).appendOnly(true));
    }

    /** BGREWRITEAOF, awaited. */
    private static void rewriteTheLog(TestServer s, RespConnection c) throws Exception {
        assertEquals("+Background append only file rewriting started\r\n", c.call("BGREWRITEAOF"));
        assertTrue(s.server().appendOnlyFile().rewriteDone().get(30, TimeUnit.SECONDS));
    }

    /** EXECUTE of {@code name} answers that there is no such prepared statement. */
    private static void assertNoSuchStatement(RespConnection c, String name, String... values) throws java.io.IOException {
        String[] args = new String[2 + values.length];
        args[0] = "EXECUTE";
        args[1] = name;
        System.arraycopy(values, 0, args, 2, values.length);
        assertEquals("-ERR prepared statement '" + name + "' does not exist\r\n", c.call(args));
    }

    @Test
    void prepareExecuteDeallocateAndTheirErrors() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("PREPARE", "get", "SELECT v, s FROM kv WHERE id = ?"));
            assertEquals("*1\r\n$6\r\n20,b b\r\n", c.call("EXECUTE", "get", "2"));
            assertEquals("+OK\r\n", c.call("PREPARE", "bump", "UPDATE kv SET v = v + ?, s = ? WHERE id = ?"));
            assertEquals(":1\r\n", c.call("EXECUTE", "bump", "5", "it's x", "1"));
            assertEquals("*1\r\n$9\r\n15,it's x\r\n", c.call("EXECUTE", "get", "1"));
            assertEquals("+OK\r\n", c.call("PREPARE", "put", "INSERT INTO kv VALUES (?, ?, ?)"));
            assertEquals("+OK\r\n", c.call("EXECUTE", "put", "3", "30", "c"));
            assertEquals("*1\r\n$4\r\n30,c\r\n", c.call("EXECUTE", "get", "3"));

            assertNoSuchStatement(c, "nope", "1");
            assertEquals("-ERR prepared statement 'get' takes 1 value(s), not 2\r\n", c.call("EXECUTE", "get", "1", "2"));
            assertEquals("-ERR value 'x' for parameter 1 of prepared statement 'get' does not fit its type INT (column 'id')\r\n",
                    c.call("EXECUTE", "get", "x"));
            assertEquals("-ERR value '3000000000' for parameter 2 of prepared statement 'put' does not fit its type INT"
                    + " (column 'v')\r\n", c.call("EXECUTE", "put", "4", "3000000000", "d"));
            String bad = c.call("PREPARE", "bad", "SELECT v FROM kv WHERE id = = ?");
            assertTrue(bad.startsWith("-ERR "), bad);
            assertNoSuchStatement(c, "bad", "1");
            assertEquals("+OK\r\n", c.call("DEALLOCATE", "get"));
            assertNoSuchStatement(c, "get", "1");
            assertEquals("-ERR prepared statement 'get' does not exist\r\n", c.call("DEALLOCATE", "get"));
        }
    }

    @Test
    void preparedStatementsSurviveARestartThroughTheLog() throws Exception {
        try (TestServer s = startLogged(); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("PREPARE", "get", "SELECT v FROM kv WHERE id = ?"));
            assertEquals("+OK\r\n", c.call("PREPARE", "gone", "SELECT v FROM kv"));
            assertEquals("+OK\r\n", c.call("DEALLOCATE", "gone"));
            assertEquals("+OK\r\n", c.call("PREPARE", "set", "UPDATE kv SET v = ? WHERE id = ?"));
            assertEquals(":1\r\n", c.call("EXECUTE", "set", "77", "2"));
        }
        try (TestServer s = restartFromTheLog(); RespConnection c = s.raw()) {
            assertEquals("*1\r\n$2\r\n77\r\n", c.call("EXECUTE", "get", "2"));
            assertNoSuchStatement(c, "gone");
        }
    }

    private static String info(RespConnection c, String field) throws java.io.IOException {
        return ReplicatedTransactionTest.info(c, "persistence", field);
    }

    /** Waits until {@code saves} snapshots were written and none is in progress (no event to await: INFO is polled). */
    private static void awaitSaves(RespConnection c, long saves) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Long.parseLong(info(c, "rdb_saves")) < saves || !info(c, "rdb_bgsave_in_progress").equals("0")) {
            assertTrue(System.nanoTime() < deadline, "no completed save within 30 s");
            Thread.sleep(10);
        }
    }

    /** Statements the snapshot must carry: typed, untyped and no parameters; one deallocated, one replaced. */
    private static void prepareSome(RespConnection c) throws java.io.IOException {
        assertEquals("+OK\r\n", c.call("PREPARE", "Get", "SELECT v, s FROM kv WHERE id = ? AND s <> '?'"));
        assertEquals("+OK\r\n", c.call("PREPARE", "put", "INSERT INTO kv VALUES (?, ?, ?)"));
        assertEquals("+OK\r\n", c.call("PREPARE", "gone", "SELECT v FROM kv"));
        assertEquals("+OK\r\n", c.call("DEALLOCATE", "gone"));
        assertEquals("+OK\r\n", c.call("PREPARE", "total", "SELECT v FROM kv WHERE id = 1"));
        assertEquals("+OK\r\n", c.call("PREPARE", "total", "SELECT SUM(v) FROM kv"));
    }

    /** What {@link #prepareSome} prepared works as it did, the parameters typed as they were. */
    private static void assertPrepared(RespConnection c) throws java.io.IOException {
        assertEquals("*1\r\n$6\r\n20,b b\r\n", c.call("EXECUTE", "get", "2"));
        assertEquals("-ERR value 'x' for parameter 1 of prepared statement 'Get' does not fit its type INT (column 'id')\r\n",
                c.call("EXECUTE", "get", "x"));
        assertNoSuchStatement(c, "gone");
        assertEquals("+OK\r\n", c.call("EXECUTE", "put", "3", "30", "c"));
        assertEquals("*1\r\n$4\r\n30,c\r\n", c.call("EXECUTE", "get", "3"));
        assertEquals("*1\r\n$2\r\n60\r\n", c.call("EXECUTE", "total"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SAVE", "BGSAVE"})
    void preparedStatementsSurviveARestartThroughASnapshotWithoutTheLog(String save) throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(false)); RespConnection c = s.raw()) {
            fill(c);
            prepareSome(c);
            assertEquals(save.equals("SAVE") ? "+OK\r\n" : "+Background saving started\r\n", c.call(save));
            awaitSaves(c, 1);
            assertEquals("ok", info(c, "rdb_last_bgsave_status"));
            assertEquals("+OK\r\n", c.call("PREPARE", "late", "SELECT v FROM kv")); // after the snapshot: lost
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        assertTrue(Files.notExists(dir.resolve("appendonly.aof")), "only the snapshot is there to restart from");
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(false)); RespConnection c = s.raw()) {
            assertPrepared(c);
            assertNoSuchStatement(c, "late");
        }
    }

    @Test
    void preparedStatementsSurviveALogRewrite() throws Exception {
        try (TestServer s = startLogged(); RespConnection c = s.raw()) {
            fill(c);
            prepareSome(c);
            rewriteTheLog(s, c);
            byte[] head = Arrays.copyOf(Files.readAllBytes(dir.resolve("appendonly.aof")), 8);
            assertEquals("RSQLSNAP", new String(head, StandardCharsets.US_ASCII), "the log is a snapshot preamble now");
        }
        try (TestServer s = restartFromTheLog(); RespConnection c = s.raw()) {
            assertPrepared(c);
        }
    }

    /** A catalog of prepared statements only (no table) still gets a preamble: the rewrite does not drop them. */
    @Test
    void aLogRewriteOfOnlyPreparedStatementsKeepsThem() throws Exception {
        try (TestServer s = startLogged(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("PREPARE", "twice", "SELECT ? * 2"));
            rewriteTheLog(s, c);
        }
        try (TestServer s = restartFromTheLog(); RespConnection c = s.raw()) {
            assertEquals("*1\r\n$2\r\n42\r\n", c.call("EXECUTE", "twice", "21"));
        }
    }

    @Test
    void aReplicaHasTheMastersPreparedStatementsAfterAFullSync() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start();
             RespConnection m = master.raw(); RespConnection r = replica.raw()) {
            fill(m);
            prepareSome(m);
            assertEquals("+OK\r\n", m.call("CREATE", "VIEW", "big", "AS", "SELECT id, v FROM kv WHERE v > 15"));
            assertEquals("+OK\r\n", r.call("PREPARE", "mine", "SELECT 1")); // the replica's own: replaced by the master's
            ReplicatedTransactionTest.replicate(master, replica);
            assertEquals("*1\r\n$6\r\n20,b b\r\n", r.call("EXECUTE", "get", "2"));
            assertEquals("*1\r\n$2\r\n30\r\n", r.call("EXECUTE", "total"));
            assertNoSuchStatement(r, "gone");
            assertNoSuchStatement(r, "mine");
            assertEquals("-ERR value 'x' for parameter 1 of prepared statement 'Get' does not fit its type INT (column 'id')\r\n",
                    r.call("EXECUTE", "get", "x"));
            assertEquals("*1\r\n$4\r\n2,20\r\n", r.call("SELECT", "*", "FROM", "big"), "views come with the sync too");
        }
    }

    @Test
    void aBlockThatRollsBackTakesBackItsPrepareAndDeallocate() throws Exception {
        try (TestServer s = startLogged(); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("PREPARE", "get", "SELECT v FROM kv WHERE id = ?"));
            assertEquals("+OK\r\n", c.call("PREPARE", "keep", "SELECT s FROM kv WHERE id = ?"));
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("PREPARE", "fresh", "SELECT 1"));
            assertEquals("+QUEUED\r\n", c.call("DEALLOCATE", "get"));
            assertEquals("+QUEUED\r\n", c.call("PREPARE", "keep", "SELECT v FROM kv WHERE s = ?"));
            assertEquals("+QUEUED\r\n", c.call("EXECUTE", "keep", "a"));
            assertEquals("+QUEUED\r\n", c.call("INSERT", "INTO", "kv", "VALUES", "(1, 0, 'dup')"));
            String exec = c.call("EXEC");
            assertTrue(exec.startsWith("-ERR EXEC aborted: statement 5 of 5 failed: ")
                    && exec.endsWith("; no change of this transaction was kept\r\n"), exec);
            assertNoSuchStatement(c, "fresh");
            assertEquals("*1\r\n$2\r\n10\r\n", c.call("EXECUTE", "get", "1"));
            // the old text and its typing are back: the parameter is the INT id, not the TEXT s
            assertEquals("*1\r\n$1\r\na\r\n", c.call("EXECUTE", "keep", "1"));
            assertTrue(c.call("EXECUTE", "keep", "a").startsWith("-ERR value 'a' for parameter 1"));

            // a block that commits keeps them
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("PREPARE", "fresh", "SELECT 1"));
            assertEquals("+QUEUED\r\n", c.call("DEALLOCATE", "get"));
            assertEquals("*2\r\n+OK\r\n+OK\r\n", c.call("EXEC"));
            assertNoSuchStatement(c, "get", "1");
            assertEquals("*1\r\n$1\r\n1\r\n", c.call("EXECUTE", "fresh"));
        }
        // the log holds what committed and nothing of the rolled-back block
        try (TestServer s = restartFromTheLog(); RespConnection c = s.raw()) {
            assertEquals("*1\r\n$1\r\n1\r\n", c.call("EXECUTE", "fresh"));
            assertNoSuchStatement(c, "get", "1");
            assertEquals("*1\r\n$1\r\na\r\n", c.call("EXECUTE", "keep", "1"));
        }
    }

    @Test
    void infoShowsThePlanCacheAndConfigSetBoundsIt() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            for (int i = 0; i < 10; i++) {
                c.call("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", Integer.toString(i % 2 + 1));
            }
            String info = c.call("INFO", "stats");
            assertTrue(info.contains("plan_cache_hits:9\r\n"), info);
            // fill's INSERT is planned (a miss) and kept too
            assertTrue(info.contains("plan_cache_misses:2\r\n"), info);
            assertTrue(info.contains("plan_cache_entries:2\r\n"), info);
            assertEquals("+OK\r\n", c.call("CREATE", "INDEX", "kv_v", "ON", "kv", "(v)"));
            assertTrue(c.call("INFO", "stats").contains("plan_cache_entries:0\r\n"), "DDL empties the cache");
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "plan-cache-max-entries", "0"));
            c.call("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", "1");
            info = c.call("INFO", "stats");
            assertTrue(info.contains("plan_cache_entries:0\r\n") && info.contains("plan_cache_hits:9\r\n"), info);
        }
    }
}
