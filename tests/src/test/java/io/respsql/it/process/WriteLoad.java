package io.respsql.it.process;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Several {@link Writer}s on one server, and the check of what a restarted server kept of their work. */
final class WriteLoad {
    static final ProtocolCommand SQL = () -> "SQL".getBytes(StandardCharsets.US_ASCII);

    final List<Writer> writers = new ArrayList<>();
    private final CountDownLatch firstAcks;
    /** Index of the first writer: writers of another load on the same table own other ids. */
    final int firstIndex;
    long startNanos;

    /** Creates table t (and an index on v) and prepares {@code n} writers, each with its own connection. */
    WriteLoad(ServerProcess server, int n, long seed, int rowsPerStatement) {
        this(server, n, seed, rowsPerStatement, 0);
        Jedis admin = server.jedis();
        assertEquals("OK", sql(admin, Writer.CREATE_TABLE));
        assertEquals("OK", sql(admin, Writer.CREATE_INDEX));
    }

    /** Writers {@code firstIndex ..} on the existing table t. */
    WriteLoad(ServerProcess server, int n, long seed, int rowsPerStatement, int firstIndex) {
        this.firstIndex = firstIndex;
        firstAcks = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            writers.add(new Writer(firstIndex + i, seed, rowsPerStatement, server.jedis(), firstAcks));
        }
    }

    /** Starts every writer and returns once each has had a statement acknowledged (the load is on). */
    void startAndAwaitLoad() throws InterruptedException {
        startNanos = System.nanoTime();
        writers.forEach(Thread::start);
        assertTrue(firstAcks.await(60, TimeUnit.SECONDS), "writers did not all get a first reply within 60 s");
    }

    void stop() {
        writers.forEach(Writer::requestStop);
    }

    /** Waits for every writer to end; fails on any error or unexpected reply a writer saw. */
    void join() throws InterruptedException {
        for (Writer w : writers) {
            w.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!w.isAlive(), () -> w.getName() + " did not end");
            assertNull(w.unexpected(), () -> w.getName() + " failed: " + w.unexpected());
        }
    }

    long acknowledged() {
        return writers.stream().mapToLong(Writer::acked).sum();
    }

    static String sql(Jedis j, String statement) {
        Object reply = j.sendCommand(SQL, statement);
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** Every row of t, grouped by the writer owning it: writer → id → {v, seq}. */
    static Map<Integer, Map<Long, List<Long>>> readRows(ServerProcess server) {
        Jedis j = server.jedis();
        Object reply = j.sendCommand(SQL, "SELECT id,v,seq FROM t");
        Map<Integer, Map<Long, List<Long>>> byWriter = new HashMap<>();
        for (Object row : (List<?>) reply) {
            String[] f = new String((byte[]) row, StandardCharsets.UTF_8).split(",");
            long id = Long.parseLong(f[0]);
            byWriter.computeIfAbsent(Writer.ownerOf(id), w -> new HashMap<>())
                    .put(id, List.of(Long.parseLong(f[1]), Long.parseLong(f[2])));
        }
        return byWriter;
    }

    /** Fails when a row belongs to no writer of {@code loads}. */
    static void assertOnlyOwnRows(Map<Integer, Map<Long, List<Long>>> rows, WriteLoad... loads) {
        for (Integer owner : rows.keySet()) {
            boolean known = false;
            for (WriteLoad l : loads) {
                known |= owner >= l.firstIndex && owner < l.firstIndex + l.writers.size();
            }
            assertTrue(known, "rows of an unknown writer " + owner);
        }
    }

    /**
     * For every writer, at position {@code index - firstIndex}: the number {@code k} of its
     * statements that survived (its largest seq), after checking that its rows are exactly the
     * state after its first {@code k} statements, so that nothing is torn, reordered or missing in
     * the middle. Rows of other writers are not looked at (see {@link #assertOnlyOwnRows}).
     */
    int[] survivingPrefixes(Map<Integer, Map<Long, List<Long>>> rows) {
        int[] k = new int[writers.size()];
        for (Writer w : writers) {
            Map<Long, List<Long>> actual = rows.getOrDefault(w.index, Map.of());
            long max = 0;
            for (List<Long> vs : actual.values()) {
                max = Math.max(max, vs.get(1));
            }
            int survived = (int) max;
            assertTrue(survived <= w.acked() + (w.hasInFlight() ? 1 : 0),
                    () -> w.describe(survived) + ": a statement that was never sent survived");
            Map<Long, List<Long>> expected = w.stateAfter(survived);
            if (!expected.equals(actual)) {
                fail(w.describe(survived) + ": rows are not the state after its first " + survived
                        + " statements; id: expected {v, seq} / actual {v, seq}: " + diff(expected, actual));
            }
            k[w.index - firstIndex] = survived;
        }
        return k;
    }

    /** The first few ids whose rows differ, with both values. */
    private static String diff(Map<Long, List<Long>> expected, Map<Long, List<Long>> actual) {
        TreeSet<Long> ids = new TreeSet<>(expected.keySet());
        ids.addAll(actual.keySet());
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (long id : ids) {
            List<Long> e = expected.get(id);
            List<Long> a = actual.get(id);
            if (e == null ? a != null : !e.equals(a)) {
                if (shown++ == 10) {
                    sb.append(" ...");
                    break;
                }
                sb.append(' ').append(id).append(": ").append(e).append(" / ").append(a);
            }
        }
        return sb.toString();
    }
}
