package io.respsql.it;

import io.respsql.engine.BackgroundQueries;
import io.respsql.expr.Cancellation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long read-only statements run on worker threads against a read view (issue 11 §4), over the
 * wire: other clients are served meanwhile, the statement sees the data as at its arrival, its
 * connection's later requests wait in order, timeouts and CLIENT KILL cancel it, and its reply is
 * byte for byte the inline one. A test hook parks the worker, so nothing depends on timing.
 */
class BackgroundQueriesTest {
    private static final int ROWS = 20_000;
    private static final String GROUP = "SELECT g, COUNT(*), SUM(v), MIN(name), AVG(d) FROM t GROUP BY g ORDER BY g";

    private TestServer server;
    private final CountDownLatch parked = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = TestServer.start();
        RespConnection c = server.raw();
        assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "t", "(id INT PRIMARY KEY, g INT, v INT, name TEXT, d DOUBLE)"));
        assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "u", "(k INT PRIMARY KEY, label TEXT)"));
        for (int from = 0; from < ROWS; from += 1000) {
            StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = from; i < from + 1000; i++) {
                sb.append(i > from ? "," : "").append('(').append(i).append(',').append(i % 50).append(',')
                  .append(i * 3).append(',').append(i % 7 == 0 ? "NULL" : "'n" + (i % 13) + "'").append(',')
                  .append(i % 11 == 0 ? "NULL" : Double.toString(i / 8.0)).append(')');
            }
            String r = c.call("SQL", sb.toString());
            assertTrue(!r.startsWith("-"), r);
        }
        StringBuilder sb = new StringBuilder("INSERT INTO u VALUES ");
        for (int k = 0; k < 50; k++) {
            sb.append(k > 0 ? "," : "").append('(').append(k).append(",'L").append(k).append("')");
        }
        String r = c.call("SQL", sb.toString());
        assertTrue(!r.startsWith("-"), r);
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-min-rows", "1000"));
    }

    @AfterEach
    void stop() {
        BackgroundQueries.testHold = null;
        release.countDown();
        server.close();
    }

    /** Parks every background statement until {@link #release} (or its cancellation). */
    private void holdWorkers() {
        BackgroundQueries.testHold = (Cancellation c) -> {
            parked.countDown();
            try {
                while (!c.cancelled() && !release.await(5, TimeUnit.MILLISECONDS)) {
                    // wait for the release or the cancellation
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    private void awaitParked() throws InterruptedException {
        assertTrue(parked.await(30, TimeUnit.SECONDS), "the statement did not reach a worker");
    }

    /**
     * Makes every background statement slow: its worker spends at least {@code minMillis} (before
     * planning) and stores the time it spent there in {@code held}, or stops early once cancelled.
     */
    private static void slowWorkers(long minMillis, java.util.concurrent.atomic.AtomicLong held) {
        BackgroundQueries.testHold = (Cancellation c) -> {
            long t0 = System.nanoTime();
            while (!c.cancelled() && System.nanoTime() - t0 < minMillis * 1_000_000L) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
            held.set(System.nanoTime() - t0);
        };
    }

    /** The newest SLOWLOG entry as {duration in microseconds, its arguments joined by spaces}. */
    private static String[] newestSlowlog(RespConnection c) throws IOException {
        String r = c.call("SLOWLOG", "GET", "1");
        Matcher m = Pattern.compile("^\\*1\r\n\\*6\r\n:\\d+\r\n:\\d+\r\n:(\\d+)\r\n\\*(\\d+)\r\n").matcher(r);
        assertTrue(m.find(), "one SLOWLOG entry expected: " + r);
        int argc = Integer.parseInt(m.group(2));
        Matcher bulk = Pattern.compile("\\$(\\d+)\r\n").matcher(r);
        StringBuilder args = new StringBuilder();
        int at = m.end();
        for (int i = 0; i < argc; i++) {
            assertTrue(bulk.find(at), r);
            int len = Integer.parseInt(bulk.group(1));
            args.append(i > 0 ? " " : "").append(r, bulk.end(), bulk.end() + len);
            at = bulk.end() + len + 2;
        }
        return new String[] {m.group(1), args.toString()};
    }

    /** {calls, usec, failed_calls} of {@code cmdstat_<name>}, zeros when the command has no line yet. */
    private static long[] cmdstat(RespConnection c, String name) throws IOException {
        Matcher m = Pattern.compile("cmdstat_" + Pattern.quote(name)
                + ":calls=(\\d+),usec=(\\d+),usec_per_call=[0-9.]+,rejected_calls=\\d+,failed_calls=(\\d+)")
                .matcher(c.call("INFO", "commandstats"));
        if (!m.find()) {
            return new long[3];
        }
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }

    private static long infoField(RespConnection c, String field) throws IOException {
        Matcher m = Pattern.compile(field + ":(\\d+)").matcher(c.call("INFO", "stats"));
        assertTrue(m.find(), field + " missing from INFO");
        return Long.parseLong(m.group(1));
    }

    @Test
    void otherClientsAreServedWhileALongQueryRunsAndItSeesTheDataAsAtArrival() throws Exception {
        RespConnection a = server.raw();
        RespConnection b = new RespConnection(TestServer.HOST, server.port());
        assertEquals("+OK\r\n", b.call("CONFIG", "SET", "bg-query-min-rows", "0"));
        String before = b.call("SQL", GROUP); // inline, before any change
        assertEquals("+OK\r\n", b.call("CONFIG", "SET", "bg-query-min-rows", "1000"));
        holdWorkers();
        a.sendCommand("SQL", GROUP);
        awaitParked();
        // B's point writes and reads complete while A's statement is still running.
        assertEquals(":1\r\n", b.call("UPDATE", "t", "SET", "v = 5, name = 'changed'", "WHERE", "id = 1"));
        assertEquals(":1\r\n", b.call("DELETE", "FROM", "t", "WHERE", "id = 2"));
        assertTrue(b.call("SELECT", "v, name", "FROM", "t", "WHERE", "id = 1").contains("changed"));
        assertEquals(1, infoField(b, "bg_queries_running"));
        assertTrue(infoField(b, "capture_bytes_held") > 0, "the update copied a chunk the capture holds");
        assertEquals(0, a.available(), "A's reply must not have arrived yet");
        release.countDown();
        assertEquals(before, a.readReply(), "A sees the data as it was when its statement arrived");
        assertTrue(!a.call("SQL", GROUP).equals(before), "a new statement sees B's changes");
        b.close();
    }

    @Test
    void pipelinedRequestsAfterALongQueryAreAnsweredInOrder() throws Exception {
        RespConnection a = server.raw();
        RespConnection b = new RespConnection(TestServer.HOST, server.port());
        String expected = b.call("SQL", GROUP.replace("GROUP BY g", "WHERE g < 10 GROUP BY g"));
        holdWorkers();
        byte[] one = RespConnection.encode("SQL", GROUP.replace("GROUP BY g", "WHERE g < 10 GROUP BY g"));
        byte[] two = RespConnection.encode("PING");
        byte[] three = RespConnection.encode("UPDATE", "t", "SET", "v = 7", "WHERE", "id = 3");
        byte[] four = RespConnection.encode("SELECT", "v", "FROM", "t", "WHERE", "id = 3");
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        all.write(one);
        all.write(two);
        all.write(three);
        all.write(four);
        a.send(all.toByteArray());
        awaitParked();
        assertEquals("+PONG\r\n", b.call("PING"));
        assertEquals(0, a.available());
        // A's UPDATE waits behind its query: B still reads the old value.
        String old = b.call("SELECT", "v", "FROM", "t", "WHERE", "id = 3");
        assertTrue(old.contains("9"), old);
        release.countDown();
        assertEquals(expected, a.readReply());
        assertEquals("+PONG\r\n", a.readReply());
        assertEquals(":1\r\n", a.readReply());
        assertTrue(a.readReply().contains("7"));
        b.close();
    }

    // ---- parallel ----
    /**
     * Issue 27: a background statement estimated under bg-query-short-rows runs on the short lane
     * (workers at the event loop's priority, so a busy host cannot starve a few-millisecond scan
     * behind a nice-19 worker); at or above it, or with the lane off (0), on the long lane. The
     * worker's thread name tells the lane; the replies are the same.
     */
    @Test
    void smallBackgroundQueriesTakeTheShortLane() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> thread = new java.util.concurrent.atomic.AtomicReference<>();
        BackgroundQueries.testHold = (Cancellation c) -> thread.set(Thread.currentThread().getName());
        RespConnection c = server.raw();
        String q = "SELECT g, COUNT(*), SUM(v) FROM t WHERE v % 3 = 0 GROUP BY g ORDER BY g";
        long shortBefore = infoField(c, "bg_queries_short");
        long totalBefore = infoField(c, "bg_queries_total");
        String onShort = c.call("SQL", q); // 20,000 rows estimated, under the default 1,000,000
        assertTrue(thread.get().startsWith("respsql-query-short-"), thread.get());
        assertEquals(shortBefore + 1, infoField(c, "bg_queries_short"));
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-short-rows", "0"));
        assertEquals(onShort, c.call("SQL", q));
        assertTrue(thread.get().startsWith("respsql-query-") && !thread.get().contains("short"), thread.get());
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-short-rows", "20000"));
        assertEquals(onShort, c.call("SQL", q)); // estimated at 20,000 rows: not under the bound
        assertTrue(!thread.get().contains("short"), thread.get());
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-short-rows", "20001"));
        assertEquals(onShort, c.call("SQL", q));
        assertTrue(thread.get().contains("short"), thread.get());
        assertEquals(shortBefore + 2, infoField(c, "bg_queries_short"));
        assertEquals(totalBefore + 4, infoField(c, "bg_queries_total"));
    }

    @Test
    void repliesAreByteForByteTheInlineOnes() throws Exception {
        List<String[]> statements = new ArrayList<>();
        statements.add(new String[] {"SQL", GROUP});
        statements.add(new String[] {"QUERY", GROUP});
        statements.add(new String[] {"SELECT", "t.id, u.label, t.name, t.d", "FROM", "t JOIN u ON t.g = u.k",
            "WHERE", "t.v > 100", "ORDER BY", "t.d DESC, t.id", "LIMIT", "25"});
        statements.add(new String[] {"QUERY", "SELECT name, COUNT(DISTINCT g), SUM(d) FROM t GROUP BY name ORDER BY name"});
        statements.add(new String[] {"SQL", "SELECT COUNT(*) FROM t WHERE name IS NULL"});
        statements.add(new String[] {"SQL", "SELECT COUNT(*) FROM t"});
        statements.add(new String[] {"QUERY", "SELECT id, v FROM t WHERE id % 997 = 0 ORDER BY id"});
        statements.add(new String[] {"SQL", "SELECT nosuch FROM t"});
        statements.add(new String[] {"QUERY", "SELECT id, d FROM t WHERE v > (SELECT AVG(v) FROM t) AND name IS NOT NULL ORDER BY d DESC, id LIMIT 7"});
        statements.add(new String[] {"SQL", "SELECT g FROM t WHERE v > 59000 UNION SELECT k FROM u WHERE k > 40 ORDER BY 1"});
        // a system relation is built from the whole catalog, also on a worker whose view the plan's
        // tables (here u alone) would otherwise limit: t and its indexes must be listed too
        statements.add(new String[] {"SQL", "SELECT c.relname, c.relkind FROM pg_class c, (SELECT MIN(k) AS k FROM u) m ORDER BY 1"});
        for (int protocol : new int[] {2, 3}) {
            try (RespConnection inline = new RespConnection(TestServer.HOST, server.port());
                 RespConnection bg = new RespConnection(TestServer.HOST, server.port())) {
                if (protocol == 3) {
                    inline.call("HELLO", "3");
                    bg.call("HELLO", "3");
                }
                for (String[] st : statements) {
                    assertEquals("+OK\r\n", inline.call("CONFIG", "SET", "bg-query-min-rows", "0"));
                    String expected = inline.call(st);
                    assertEquals("+OK\r\n", inline.call("CONFIG", "SET", "bg-query-min-rows", "1"));
                    long total = infoField(inline, "bg_queries_total");
                    assertEquals(expected, bg.call(st), String.join(" ", st) + " (RESP" + protocol + ")");
                    if (!st[1].contains("nosuch")) {
                        String stmt = st[0].equals("SQL") || st[0].equals("QUERY") ? st[1]
                                : String.join(" ", st);
                        // a lone COUNT(*) of a whole table reads its row count: O(1), never offloaded
                        boolean rowCount = stmt.equals("SELECT COUNT(*) FROM t");
                        assertEquals(total + (rowCount ? 0 : 1), infoField(inline, "bg_queries_total"),
                                (rowCount ? "ran inline: " : "ran in the background: ") + stmt + "\n"
                                        + inline.call("SQL", "EXPLAIN " + stmt));
                    }
                }
            }
        }
    }

    /**
     * A join that scans a small table and probes a large one by index once per row (seed 004's Q07
     * shape) visits the large one whole: it goes to a worker, though its scan alone reads 50 rows.
     * 50 rows driving primary key probes visit 50 more and stay inline, as does a join by
     * constant keys.
     */
    @Test
    void aJoinProbingALargeTablePerRowGoesToTheBackground() throws Exception {
        RespConnection c = server.raw();
        assertEquals("+OK\r\n", c.call("SQL", "CREATE INDEX t_g ON t (g)"));
        String join = "SELECT u.label, COUNT(*), SUM(t.v) FROM u JOIN t ON t.g = u.k GROUP BY u.label ORDER BY u.label";
        String plan = c.call("SQL", "EXPLAIN " + join);
        // every row of t has a partner in u: probed per row of u, or hashed from a scan, t is read whole
        assertTrue(plan.contains("full scan of u") && (plan.contains("index probe on t using t_g (g = u.k)")
                        || plan.contains("full scan of t")),
                "the premise: u is scanned and t reached through it; plan was " + plan);
        String byKey = "SELECT u.label, t.v FROM u JOIN t ON t.id = u.k ORDER BY u.label";
        String keyPlan = c.call("SQL", "EXPLAIN " + byKey);
        assertTrue(keyPlan.contains("full scan of u") && keyPlan.contains("primary key probe on t"),
                "the premise: u is scanned and t's primary key probed per row; plan was " + keyPlan);
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-min-rows", "0"));
        String inline = c.call("SQL", join);
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "bg-query-min-rows", "1000"));
        long total = infoField(c, "bg_queries_total");
        assertEquals(inline, c.call("SQL", join), "the background reply is the inline one");
        assertEquals(total + 1, infoField(c, "bg_queries_total"), "the join went to a worker");
        assertTrue(c.call("SQL", byKey).contains("L49"));
        assertEquals(total + 1, infoField(c, "bg_queries_total"), "50 rows driving primary key probes stay inline");
        String point = "SELECT u.label, t.v FROM u JOIN t ON t.g = u.k WHERE u.k = 3 AND t.id = 53";
        assertTrue(c.call("SQL", point).contains("L3"));
        assertEquals(total + 1, infoField(c, "bg_queries_total"), "a join by constant keys stays inline");
    }

    @Test
    void pointQueriesStayInline() throws Exception {
        RespConnection c = server.raw();
        long total = infoField(c, "bg_queries_total");
        c.call("SELECT", "v", "FROM", "t", "WHERE", "id = 5");
        c.call("SQL", "SELECT v FROM t WHERE id BETWEEN 5 AND 9");
        assertEquals(total, infoField(c, "bg_queries_total"));
    }

    @Test
    void aStatementTimeoutCancelsTheQuery() throws Exception {
        RespConnection c = server.raw();
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "query-timeout-ms", "50"));
        holdWorkers(); // parked until the timeout cancels it
        assertEquals("-ERR query cancelled: statement timeout of 50 ms\r\n", c.call("SQL", GROUP));
        BackgroundQueries.testHold = null;
        // A real scan checks the flag per batch: a 400M-tuple cross join cannot finish in 50 ms.
        assertEquals("-ERR query cancelled: statement timeout of 50 ms\r\n",
                c.call("SQL", "SELECT COUNT(*) FROM t a, t b WHERE a.v + b.v = -1"));
        assertEquals("+PONG\r\n", c.call("PING"));
        assertEquals(2, infoField(c, "bg_queries_cancelled"));
        assertEquals(0, infoField(c, "bg_queries_running"));
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "query-timeout-ms", "0"));
        assertTrue(c.call("SQL", GROUP).startsWith("*"));
    }

    @Test
    void clientKillCancelsTheQueryAndReleasesTheView() throws Exception {
        RespConnection a = new RespConnection(TestServer.HOST, server.port());
        RespConnection admin = server.raw();
        String id = a.call("CLIENT", "ID").substring(1).trim();
        holdWorkers();
        a.sendCommand("SQL", GROUP);
        awaitParked();
        assertEquals(1, infoField(admin, "bg_queries_running"));
        assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "ID", id));
        assertTrue(a.awaitClosedByServer(30_000));
        // The worker sees the cancellation and hands back; the event loop then releases the view.
        long running = 1;
        for (int i = 0; i < 10_000 && running != 0; i++) {
            running = infoField(admin, "bg_queries_running");
        }
        assertEquals(0, running);
        assertEquals(1, infoField(admin, "bg_queries_cancelled"));
        assertEquals(0, infoField(admin, "captures_outstanding"));
        a.close();
    }

    /**
     * An offloaded query's SLOWLOG entry, commandstats and LATENCY sample hold its whole run: the
     * worker's time included (here made at least 150 ms long), never more than the client's round
     * trip; counted once, with the arguments as sent.
     */
    @Test
    void aBackgroundQueryIsTimedWholeOnceInSlowlogCommandstatsAndLatency() throws Exception {
        RespConnection c = server.raw();
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "slowlog-log-slower-than", "0"));
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "latency-monitor-threshold", "100"));
        assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
        java.util.concurrent.atomic.AtomicLong held = new java.util.concurrent.atomic.AtomicLong();
        slowWorkers(150, held);
        long total = infoField(c, "bg_queries_total");
        assertEquals("+OK\r\n", c.call("SLOWLOG", "RESET"));
        long t0 = System.nanoTime();
        String reply = c.call("SQL", GROUP);
        long roundTripMicros = (System.nanoTime() - t0) / 1000;
        assertTrue(reply.startsWith("*50\r\n"), reply);
        // The next request: the query's entry is the newest (recorded when its reply was written).
        String[] entry = newestSlowlog(c);
        assertEquals("SQL " + GROUP, entry[1]);
        assertEquals(total + 1, infoField(c, "bg_queries_total"), "the premise: it ran on a worker");
        long workerMicros = held.get() / 1000;
        assertTrue(workerMicros >= 150_000, "the premise: the worker spent " + workerMicros + " us");
        long micros = Long.parseLong(entry[0]);
        assertTrue(micros >= workerMicros && micros <= roundTripMicros,
                "server time " + micros + " us: at least the worker's " + workerMicros + " us, at most the round trip "
                        + roundTripMicros + " us");
        long[] sql = cmdstat(c, "sql");
        assertEquals(1, sql[0], "counted once");
        assertEquals(0, sql[2], "not failed");
        assertTrue(sql[1] >= workerMicros && sql[1] <= roundTripMicros, "cmdstat_sql usec " + sql[1]);
        String latest = c.call("LATENCY", "LATEST");
        Matcher lat = Pattern.compile("\\$7\r\ncommand\r\n:\\d+\r\n:(\\d+)\r\n").matcher(latest);
        assertTrue(lat.find(), latest);
        assertTrue(Long.parseLong(lat.group(1)) >= workerMicros / 1000, latest);

        // An inline query is recorded as before, by the dispatcher, once.
        BackgroundQueries.testHold = null;
        assertTrue(c.call("SELECT", "v", "FROM", "t", "WHERE", "id = 5").startsWith("*1"));
        assertEquals("SELECT v FROM t WHERE id = 5", newestSlowlog(c)[1]);
        assertEquals(total + 1, infoField(c, "bg_queries_total"), "the premise: it ran inline");
        assertEquals(1, cmdstat(c, "select")[0]);
        assertEquals(1, cmdstat(c, "sql")[0], "the background query still counted once");
    }

    /** A background query cancelled by its timeout is recorded once, as a failed call with its error counted. */
    @Test
    void aTimedOutBackgroundQueryIsRecordedOnceAsFailed() throws Exception {
        RespConnection c = server.raw();
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "slowlog-log-slower-than", "0"));
        assertEquals("+OK\r\n", c.call("CONFIG", "SET", "query-timeout-ms", "50"));
        assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
        holdWorkers(); // parked until the timeout cancels it
        assertEquals("+OK\r\n", c.call("SLOWLOG", "RESET"));
        assertEquals("-ERR query cancelled: statement timeout of 50 ms\r\n", c.call("SQL", GROUP));
        String[] entry = newestSlowlog(c);
        assertEquals("SQL " + GROUP, entry[1]);
        assertTrue(Long.parseLong(entry[0]) >= 50_000, "it ran until its 50 ms timeout: " + entry[0] + " us");
        long[] sql = cmdstat(c, "sql");
        assertEquals(1, sql[0]);
        assertEquals(1, sql[2], "a failed call");
        assertEquals(1, infoField(c, "total_error_replies"));
    }

    /** A background query whose client is killed is recorded once, when its worker hands back, as failed. */
    @Test
    void aKilledClientsBackgroundQueryIsRecordedOnce() throws Exception {
        RespConnection a = new RespConnection(TestServer.HOST, server.port());
        RespConnection admin = server.raw();
        assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "slowlog-log-slower-than", "0"));
        assertEquals("+OK\r\n", admin.call("CONFIG", "RESETSTAT"));
        String id = a.call("CLIENT", "ID").substring(1).trim();
        holdWorkers();
        a.sendCommand("SQL", GROUP);
        awaitParked();
        assertEquals(0, cmdstat(admin, "sql")[0], "not recorded while it runs");
        assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "ID", id));
        assertTrue(a.awaitClosedByServer(30_000));
        long running = 1;
        for (int i = 0; i < 10_000 && running != 0; i++) {
            running = infoField(admin, "bg_queries_running");
        }
        assertEquals(0, running);
        long[] sql = cmdstat(admin, "sql");
        assertEquals(1, sql[0], "counted once");
        assertEquals(1, sql[2], "its reply never reached the client: failed");
        assertEquals(0, infoField(admin, "total_error_replies"), "no error reply was sent");
        boolean logged = false;
        for (String line : admin.call("SLOWLOG", "GET", "-1").split("\r\n")) {
            logged |= line.equals(GROUP);
        }
        assertTrue(logged, "the killed query is in the SLOWLOG");
        a.close();
    }
}
