package io.respsql.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Guards the rule that the request path does not allocate per request: the server's event-loop
 * thread is asked how many bytes it allocated ({@code ThreadMXBean.getThreadAllocatedBytes})
 * while it answers 10,000 requests sent over a real connection, pipelined or one at a time.
 * The figure is deterministic once the JIT has compiled the path, so it is measured several times
 * after a warm-up and the smallest round counts (a cron run or a late compilation can only add).
 *
 * <p>The limits are the measured figures (bench/request-path/allocation-*.txt) with a margin; a
 * change that brings back a per-request object, a String per request or a message per argument
 * goes over them. Run with {@code -Drespsql.alloc.print=true} to print the figures.
 */
class RequestAllocationTest {
    private static final int REQUESTS = 10_000;
    private static final int ROUNDS = 5;
    private static final int ROWS = 1000;
    private static final boolean PRINT = Boolean.getBoolean("respsql.alloc.print");

    /**
     * Bytes per PING the event loop may allocate, pipelined 100 deep / one request per round trip
     * (measured: 0-1 and 11-12, the latter netty's per-read cost; before RequestParser: 177 and 330).
     * The idle loop allocates about 2 KB/s (the cron), well under a byte per request here.
     */
    private static final double PING_PIPELINED_MAX = 8;
    private static final double PING_SINGLE_MAX = 32;
    /**
     * A point SELECT and a point UPDATE lex, parse, bind and plan their text each time: about 2.4-2.8 KB
     * until a plan cache exists (before RequestParser: 3.6-3.7 KB and 4.6-4.7 KB). The SELECT limit
     * catches the wire path's per-argument garbage coming back (about 100 bytes per argument), not the
     * SQL work. Through the plan cache a point UPDATE sent as arguments allocates nothing of its
     * own: it is run from the arguments' bytes (measured 0.0 pipelined, 10.3 one at a time as PING;
     * 80-89 while its text was joined into a String, 400-410 while each run made its 64-slot
     * evaluation context, bench/wire-path/): its limit catches the String, or any per-request
     * object, coming back.
     */
    private static final double SELECT_MAX = 3300;
    private static final double UPDATE_MAX = 32;

    /**
     * A point INSERT through the plan cache: the scan, its parameters (one String per text value),
     * the row's storage (amortized growth of the column chunks and the index nodes). Uncached, it
     * lexes, parses and binds each text (about 2 KB, printed for comparison, not asserted).
     */
    private static final double INSERT_MAX = 600;

    private static TestServer server;
    private static com.sun.management.ThreadMXBean threads;
    private static long loopThreadId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes per thread");
        threads.setThreadAllocatedMemoryEnabled(true);
        try (RespConnection c = new RespConnection(TestServer.HOST, server.port())) {
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "kv", "(id int primary key, v int)"));
            StringBuilder values = new StringBuilder();
            for (int i = 1; i <= ROWS; i++) {
                values.append(i > 1 ? "," : "").append('(').append(i).append(',').append(i * 10).append(')');
            }
            assertEquals("+OK\r\n", c.call("INSERT", "INTO", "kv", "VALUES", values.toString()));
            // UPDATE's own table, so that SELECT's replies stay known whatever the test order.
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "ku", "(id int primary key, v int)"));
            assertEquals("+OK\r\n", c.call("INSERT", "INTO", "ku", "VALUES", values.toString()));
        }
        loopThreadId = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("respsql-loop"))
                .mapToLong(Thread::getId).findFirst()
                .orElseThrow(() -> new AssertionError("no respsql-loop thread"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void pingAllocatesNothingPerRequest() throws IOException {
        Workload ping = new Workload("PING", i -> new String[] {"PING"}, i -> "+PONG\r\n");
        assertPipelinedAndSingle(ping, PING_PIPELINED_MAX, PING_SINGLE_MAX);
    }

    @Test
    void pointSelectAllocatesOnlyItsStatement() throws IOException {
        Workload select = new Workload("SELECT v FROM kv WHERE id = N",
                i -> new String[] {"SELECT", "v", "FROM", "kv", "WHERE", "id", "=", Integer.toString(i % ROWS + 1)},
                i -> {
                    String v = Integer.toString((i % ROWS + 1) * 10);
                    return "*1\r\n$" + v.length() + "\r\n" + v + "\r\n";
                });
        assertPipelinedAndSingle(select, SELECT_MAX, SELECT_MAX);
    }

    @Test
    void pointUpdateAllocatesOnlyItsStatement() throws IOException {
        Workload update = new Workload("UPDATE kv SET v = v + 1 WHERE id = N",
                i -> new String[] {"UPDATE", "ku", "SET", "v", "=", "v", "+", "1", "WHERE", "id", "=", Integer.toString(i % ROWS + 1)},
                i -> ":1\r\n");
        assertPipelinedAndSingle(update, UPDATE_MAX, UPDATE_MAX);
    }

    @Test
    void pointInsertThroughThePlanCacheAllocatesOnlyItsRow() throws IOException {
        try (RespConnection c = new RespConnection(TestServer.HOST, server.port())) {
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "ki", "(id int primary key, fk int, count int)"));
            assertEquals("+OK\r\n", c.call("CREATE", "INDEX", "ki:fk:index", "ON", "ki", "(fk)"));
        }
        int[] next = {1};
        IntFunction<String[]> newRow = i -> {
            String id = String.format("%012d", next[0]++); // the gen-benchmark's keys: zero-padded, all new
            return new String[] {"INSERT", "INTO", "ki", "VALUES", "(" + id + "," + id.substring(4) + ",4)"};
        };
        assertPipelinedAndSingle(new Workload("INSERT INTO ki VALUES (N,N,4)", newRow, i -> "+OK\r\n"), INSERT_MAX, INSERT_MAX);
        if (PRINT) {
            try (RespConnection c = new RespConnection(TestServer.HOST, server.port())) {
                assertEquals("+OK\r\n", c.call("CONFIG", "SET", "plan-cache-max-entries", "0"));
                measure(new Workload("uncached: INSERT INTO ki VALUES (N,N,4)", newRow, i -> "+OK\r\n"), 100);
                assertEquals("+OK\r\n", c.call("CONFIG", "SET", "plan-cache-max-entries", "1000"));
            }
        }
    }

    /** Measures 100 requests per write, then one per write, and checks each against its limit. */
    private static void assertPipelinedAndSingle(Workload w, double pipelinedMax, double singleMax) throws IOException {
        double pipelined = measure(w, 100);
        double single = measure(w, 1);
        assertAtMost(w, 100, pipelined, pipelinedMax);
        assertAtMost(w, 1, single, singleMax);
    }

    /** The event loop's allocated bytes per request, the smallest of {@link #ROUNDS} rounds after a warm-up. */
    private static double measure(Workload w, int depth) throws IOException {
        double best = Double.MAX_VALUE;
        try (RespConnection c = new RespConnection(TestServer.HOST, server.port())) {
            run(c, w, depth, 3 * REQUESTS); // warm-up: let the JIT compile the path
            for (int r = 0; r < ROUNDS; r++) {
                long before = threads.getThreadAllocatedBytes(loopThreadId);
                run(c, w, depth, REQUESTS);
                long after = threads.getThreadAllocatedBytes(loopThreadId);
                best = Math.min(best, (after - before) / (double) REQUESTS);
            }
        }
        if (PRINT) {
            System.out.printf("ALLOC %-40s depth %3d: %8.1f bytes/request%n", w.name, depth, best);
        }
        return best;
    }

    private static void assertAtMost(Workload w, int depth, double best, double maxBytesPerRequest) {
        assertTrue(best <= maxBytesPerRequest, String.format(
                "%s, %d per write: the event loop allocated %.1f bytes per request (limit %.0f)",
                w.name, depth, best, maxBytesPerRequest));
    }

    /** Sends {@code n} requests, {@code depth} per write, and checks every reply. */
    private static void run(RespConnection c, Workload w, int depth, int n) throws IOException {
        for (int sent = 0; sent < n; sent += depth) {
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int k = 0; k < depth; k++) {
                batch.writeBytes(RespConnection.encode(w.request(sent + k)));
            }
            c.send(batch.toByteArray());
            for (int k = 0; k < depth; k++) {
                assertEquals(w.reply(sent + k), c.readReply(), w.name + " reply " + (sent + k));
            }
        }
    }

    /** A request stream: the i-th request's arguments and the reply it must get. */
    private record Workload(String name, IntFunction<String[]> requests, IntFunction<String> replies) {
        String[] request(int i) {
            return requests.apply(i);
        }

        String reply(int i) {
            return replies.apply(i);
        }
    }
}
