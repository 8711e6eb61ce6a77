package io.respsql.it;

import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the statement limits apply and where they must not: log replay and a replica's applied
 * writes run unlimited; a client's write is stopped by loop-write-max-ms while it looks for its
 * rows (before any change).
 */
class StatementLimitsTest {
    /** Slow: its IN subquery is a 9-million-pair cross join (a and b: 3,000 rows each). */
    static final String SLOW_DELETE = "DELETE FROM t WHERE id IN (SELECT a.id FROM a, b WHERE a.v + b.v < 3)";
    static final int ROWS = 3000;

    @TempDir
    Path dir;

    static void set(ServerConfig c, String name, String value) {
        try {
            c.option(name).set(value);
        } catch (io.respsql.config.ConfigException e) {
            throw new AssertionError(e);
        }
    }

    /** Tables a, b (ROWS rows, v = id % 97) and t (a copy of a). */
    static void load(RespConnection c, int rows) throws Exception {
        for (String t : new String[] {"a", "b", "t"}) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT)"));
            for (int from = 0; from < rows; from += 1000) {
                StringBuilder sb = new StringBuilder("INSERT INTO " + t + " VALUES ");
                for (int i = from; i < Math.min(rows, from + 1000); i++) {
                    sb.append(i > from ? "," : "").append('(').append(i).append(',').append(i % 97).append(')');
                }
                String r = c.call("SQL", sb.toString());
                assertFalse(r.startsWith("-"), r);
            }
        }
    }

    /** Rows of t left after SLOW_DELETE: those whose v is 3 or more. */
    static long expectedLeft(int rows) {
        long n = 0;
        for (int i = 0; i < rows; i++) {
            n += i % 97 >= 3 ? 1 : 0;
        }
        return n;
    }

    private TestServer start(Consumer<ServerConfig> more) {
        return TestServer.start(c -> {
            c.dir(dir);
            c.appendOnly(true);
            more.accept(c);
        });
    }

    private static Consumer<ServerConfig> tight() {
        return c -> {
            set(c, "query-timeout-ms", "50");
            set(c, "loop-statement-max-ms", "5");
            set(c, "loop-write-max-ms", "5");
        };
    }

    @Test
    void theLogReplaysASlowStatementWhateverTheLimits() throws Exception {
        String left;
        try (TestServer s = start(c -> set(c, "loop-write-max-ms", "0")); RespConnection c = s.raw()) {
            load(c, ROWS);
            long t0 = System.nanoTime();
            String r = c.call("SQL", SLOW_DELETE);
            long took = System.nanoTime() - t0;
            assertEquals(":" + (ROWS - expectedLeft(ROWS)) + "\r\n", r);
            assertTrue(took > 60_000_000L, "the DELETE must outlast the limits below; took " + took / 1e6 + " ms");
            left = c.call("SQL", "SELECT COUNT(*), SUM(v) FROM t");
        }
        // Restarted with limits the logged DELETE overruns: it still loads, with the same data.
        try (TestServer s = start(tight()); RespConnection c = s.raw()) {
            assertEquals(left, c.call("SQL", "SELECT COUNT(*), SUM(v) FROM t"));
            assertTrue(c.call("SQL", "SELECT COUNT(*) FROM t").startsWith(":" + expectedLeft(ROWS)));
            // ... while a client's statement is still limited.
            assertTrue(c.call("SQL", SLOW_DELETE).startsWith("-ERR query cancelled"), "a client is limited");
        }
    }

    @Test
    void aReplicaAppliesASlowWriteWhateverItsLimits() throws Exception {
        try (TestServer master = TestServer.start(c -> set(c, "loop-write-max-ms", "0"));
                TestServer replica = TestServer.start(tight());
                RespConnection m = master.raw(); RespConnection r = replica.raw()) {
            load(m, ROWS);
            ReplicatedTransactionTest.replicate(master, replica);
            assertEquals(":" + (ROWS - expectedLeft(ROWS)) + "\r\n", m.call("SQL", SLOW_DELETE));
            String want = ":" + expectedLeft(ROWS) + "\r\n";
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!want.equals(r.call("SQL", "SELECT COUNT(*) FROM t"))) {
                assertTrue(System.nanoTime() < deadline, "the replica never applied the DELETE: "
                        + r.call("INFO", "replication"));
                Thread.sleep(10);
            }
            assertTrue(r.call("INFO", "replication").contains("master_link_status:up"));
        }
    }

    @Test
    void aRunawayWriteIsStoppedByLoopWriteMaxMsBeforeAnyChange() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw();
                RespConnection other = new RespConnection(TestServer.HOST, s.port())) {
            load(c, 1000);
            assertEquals("*2\r\n$17\r\nloop-write-max-ms\r\n$4\r\n1000\r\n", c.call("CONFIG", "GET", "loop-write-max-ms"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE sink (id INT)"));
            String error = "-ERR query cancelled: the write searched for its rows on the event loop for more than 1000 ms"
                    + " (loop-write-max-ms) and changed nothing; raise loop-write-max-ms (0: no bound)\r\n";
            String insert = "INSERT INTO sink SELECT a.id FROM a, b, t WHERE a.v + b.v + t.v < 0";
            CompletableFuture<Long> ping = new CompletableFuture<>();
            long t0 = System.nanoTime();
            c.sendCommand("SQL", insert);
            Thread pinger = new Thread(() -> {
                try {
                    Thread.sleep(100);
                    long p0 = System.nanoTime();
                    assertEquals("+PONG\r\n", other.call("PING"));
                    ping.complete(System.nanoTime() - p0);
                } catch (Throwable e) {
                    ping.completeExceptionally(e);
                }
            });
            pinger.start();
            assertEquals(error, c.readReply());
            long took = System.nanoTime() - t0;
            System.out.printf("StatementLimitsTest: 1e9-row INSERT ... SELECT stopped after %.1f ms%n", took / 1e6);
            assertTrue(took < 1_150_000_000L + 500_000_000L, "stopped after " + took / 1e6 + " ms");
            long pingTook = ping.get(10, TimeUnit.SECONDS);
            assertTrue(pingTook < 1_150_000_000L, "PING waited " + pingTook / 1e6 + " ms");
            assertEquals(":0\r\n", c.call("SQL", "SELECT COUNT(*) FROM sink"), "nothing was inserted");
            // The same for DELETE / UPDATE whose row search runs away, and inside MULTI.
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "loop-write-max-ms", "100"));
            String e100 = "-ERR query cancelled: the write searched for its rows on the event loop for more than 100 ms";
            String runaway = "id IN (SELECT a.id FROM a, b, t x WHERE a.v + b.v + x.v < 0)";
            assertTrue(c.call("SQL", "DELETE FROM t WHERE " + runaway).startsWith(e100));
            assertTrue(c.call("SQL", "UPDATE t SET v = v + 1 WHERE " + runaway).startsWith(e100));
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "INSERT INTO sink VALUES (1)"));
            assertEquals("+QUEUED\r\n", c.call("SQL", insert));
            String exec = c.call("EXEC");
            assertTrue(exec.contains(e100.substring(5)), exec);
            assertEquals(":0\r\n", c.call("SQL", "SELECT COUNT(*) FROM sink"), "the block kept nothing");
            assertEquals(":1000\r\n", c.call("SQL", "SELECT COUNT(*) FROM t"));
            // Legitimate writes under the bound run to their end.
            assertEquals(":1000\r\n", c.call("SQL", "UPDATE t SET v = v + 1 WHERE v >= 0"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO sink SELECT id FROM t"));
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "loop-write-max-ms", "0"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO sink SELECT a.id FROM a, b WHERE a.id = b.id"));
            assertEquals(":2000\r\n", c.call("SQL", "SELECT COUNT(*) FROM sink"));
        }
    }

    @Test
    void aStatementTimeoutAboveIntMaxIsRefusedAndAHugeConfigValueNeverFiresEarly() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            load(c, 100);
            String range = " ms is outside the valid range for parameter \"statement_timeout\" (0 .. 2147483647)\r\n";
            assertEquals("-ERR 599999999940000" + range, c.call("SQL", "SET statement_timeout = '9999999999 min'"));
            assertEquals("-ERR 2147483648" + range, c.call("SQL", "SET statement_timeout = 2147483648"));
            assertEquals(":0\r\n", c.call("SQL", "SHOW statement_timeout"), "the refused value was not kept");
            assertEquals("+OK\r\n", c.call("SQL", "SET statement_timeout = 2147483647"));
            assertEquals(":2147483647\r\n", c.call("SQL", "SHOW statement_timeout"));
            assertEquals(":100\r\n", c.call("SQL", "SELECT COUNT(*) FROM a"));
            assertEquals(":100\r\n", c.call("SQL", "DELETE FROM t WHERE id IN (SELECT a.id FROM a, b WHERE a.id = b.id)"));
            assertEquals("+OK\r\n", c.call("SQL", "RESET statement_timeout"));
            // The config's own maximum saturates the deadlines (no wrap to the past).
            for (String o : new String[] {"query-timeout-ms", "loop-statement-max-ms", "loop-write-max-ms"}) {
                assertEquals("+OK\r\n", c.call("CONFIG", "SET", o, Long.toString(Long.MAX_VALUE)));
            }
            assertEquals(":100\r\n", c.call("SQL", "SELECT COUNT(*) FROM a, b WHERE a.id = b.id"));
            assertEquals(":100\r\n", c.call("SQL", "UPDATE a SET v = v + 1 WHERE id IN (SELECT b.id FROM b, a x WHERE x.id = b.id)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t SELECT id, v FROM a"));
        }
    }

    @Test
    void settingsReadTheirTextAsTheParserDoesWithComments() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "/* x */ SET statement_timeout = 100"));
            assertEquals(":100\r\n", c.call("SQL", "SHOW statement_timeout -- ms"));
            assertEquals("+OK\r\n", c.call("SQL", "SET statement_timeout = 200 -- ms"));
            assertEquals(":200\r\n", c.call("SQL", "-- why\nSHOW /* the */ statement_timeout;"));
            assertEquals("+OK\r\n", c.call("SQL", "SET /* a /* nested */ one */ statement_timeout TO '3s' -- three"));
            assertEquals(":3000\r\n", c.call("SQL", "SHOW statement_timeout"));
            assertEquals("+OK\r\n", c.call("SQL", "/**/RESET statement_timeout"));
            assertEquals(":0\r\n", c.call("SQL", "SHOW statement_timeout"));
            assertTrue(c.call("SQL", "SET statement_timeout = /* 5 */").startsWith("-ERR invalid statement_timeout"));
            // use_indexes the same way
            assertEquals("+OK\r\n", c.call("SQL", "/* x */ SET use_indexes = off -- reference plans"));
            assertEquals("$3\r\noff\r\n", c.call("SQL", "SHOW use_indexes /* now */"));
            assertEquals("+OK\r\n", c.call("SQL", "-- back\nSET use_indexes TO on"));
            assertEquals("$2\r\non\r\n", c.call("SQL", "SHOW use_indexes"));
        }
    }

    @Test
    void aCostlySelectListMovesOffTheLoopUntilItsReplyLeaves() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw();
                RespConnection other = new RespConnection(TestServer.HOST, s.port())) {
            load(c, 1000);
            // bg-query-min-rows 0: nothing moves by its estimate, so it starts inline; each of its 20
            // rows' subquery is a million-pair join: the work is all in the output expressions,
            // evaluated after the rows are found and before any byte of the reply leaves.
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-min-rows", "0"));
            String sql = "SELECT id, (SELECT COUNT(*) FROM b, t WHERE b.v + t.v = a.v) FROM a WHERE id < 20 ORDER BY id";
            long[] perV = new long[200];
            for (int i = 0; i < 1000; i++) {
                for (int j = 0; j < 1000; j++) {
                    perV[i % 97 + j % 97]++;
                }
            }
            StringBuilder want = new StringBuilder("*20\r\n");
            for (int id = 0; id < 20; id++) {
                String row = id + "," + perV[id % 97];
                want.append('$').append(row.length()).append("\r\n").append(row).append("\r\n");
            }
            long moved = RunawayInfo.info(c, "bg_queries_moved_off_loop");
            long t0 = System.nanoTime();
            c.sendCommand("SQL", sql);
            long worst = 0;
            for (int i = 0; i < 20; i++) {
                long p0 = System.nanoTime();
                assertEquals("+PONG\r\n", other.call("PING"));
                worst = Math.max(worst, System.nanoTime() - p0);
            }
            String reply = c.readReply();
            long took = System.nanoTime() - t0;
            System.out.printf("StatementLimitsTest: costly select list %.1f ms, worst PING meanwhile %.1f ms%n",
                    took / 1e6, worst / 1e6);
            assertEquals(want.toString(), reply);
            assertEquals(moved + 1, RunawayInfo.info(c, "bg_queries_moved_off_loop"), "it moved to a worker");
            assertTrue(worst < 300_000_000L, "a PING waited " + worst / 1e6 + " ms");
        }
    }

    /** INFO stats fields. */
    static final class RunawayInfo {
        static long info(RespConnection c, String field) throws java.io.IOException {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(field + ":(\\d+)").matcher(c.call("INFO", "stats"));
            assertTrue(m.find(), field + " missing from INFO");
            return Long.parseLong(m.group(1));
        }
    }
}
