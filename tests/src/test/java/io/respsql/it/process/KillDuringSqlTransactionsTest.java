package io.respsql.it.process;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kill -9 while clients run interactive transactions (SQL "BEGIN" ... "COMMIT" / "ROLLBACK", one
 * statement per round trip, writers waiting for each other's transactions) with
 * {@code appendfsync always}, then restart on the same directory: every transaction whose COMMIT
 * was acknowledged is wholly present, none that was rolled back or left unfinished is there at all.
 *
 * <p>Transaction n of writer w: BEGIN, three INSERTs (parts 0..2, v = 0), an UPDATE setting v = n
 * on them, an UPDATE adding 1 to the writer's counter row, then ROLLBACK when n % 3 == 0, else
 * COMMIT. After the restart, per writer, the transactions present must be exactly the committed
 * numbers up to some k (those acknowledged, and perhaps the one whose COMMIT was in flight), each
 * whole at v = n, and the counter must equal their number.
 */
class KillDuringSqlTransactionsTest {
    private static final int WRITERS = 3;

    @TempDir
    Path dir;

    private static final String[] OPTIONS = {"--appendonly", "yes", "--appendfsync", "always", "--save", ""};

    private static int id(int writer, int tx, int part) {
        return writer * 1_000_000 + tx * 10 + part;
    }

    private static boolean rolledBack(int n) {
        return n % 3 == 0;
    }

    private static final class TxWriter extends Thread {
        final int writer;
        final RespConnection conn;
        final CountDownLatch started;
        /** The last transaction whose COMMIT (or ROLLBACK) was acknowledged. */
        volatile int acked;
        volatile String failure;

        TxWriter(int writer, RespConnection conn, CountDownLatch started) {
            super("tx-writer-" + writer);
            this.writer = writer;
            this.conn = conn;
            this.started = started;
        }

        private void expect(String reply, String... command) throws IOException {
            String got = conn.call(command);
            if (!got.equals(reply)) {
                throw new IllegalStateException(String.join(" ", command) + " replied " + got);
            }
        }

        @Override
        public void run() {
            try {
                for (int n = 1; ; n++) {
                    expect("+OK\r\n", "SQL", "BEGIN");
                    for (int part = 0; part < 3; part++) {
                        expect("+OK\r\n", "SQL", "INSERT INTO txs VALUES (" + id(writer, n, part) + ", " + writer + ", "
                                + n + ", " + part + ", 0)");
                    }
                    expect(":3\r\n", "SQL", "UPDATE txs SET v = " + n + " WHERE w = " + writer + " AND n = " + n);
                    expect(":1\r\n", "SQL", "UPDATE txs SET v = v + 1 WHERE id = " + id(writer, 0, 0));
                    expect("+OK\r\n", "SQL", rolledBack(n) ? "ROLLBACK" : "COMMIT");
                    acked = n;
                    started.countDown();
                }
            } catch (IllegalStateException e) {
                failure = "writer " + writer + ": " + e.getMessage();
            } catch (IOException | RuntimeException e) {
                // the server was killed: the transaction in flight may or may not be there, whole
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {2601, 2602, 2603})
    void everyAcknowledgedCommitIsWholeAndNothingElseIsThere(long seed) throws Exception {
        Random random = new Random(seed);
        long delayMillis = 100 + random.nextInt(1200);
        List<TxWriter> writers = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(dir, OPTIONS)) {
            try (RespConnection setup = server.raw()) {
                assertEquals("+OK\r\n", setup.call("SQL", "CREATE TABLE txs (id int primary key, w int, n int, part int, v int)"));
                assertEquals("+OK\r\n", setup.call("SQL", "CREATE INDEX txs:w ON txs (w)"));
                for (int w = 0; w < WRITERS; w++) {
                    assertEquals("+OK\r\n", setup.call("SQL", "INSERT INTO txs VALUES (" + id(w, 0, 0) + ", " + w + ", 0, 0, 0)"));
                }
            }
            CountDownLatch started = new CountDownLatch(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                writers.add(new TxWriter(w, server.raw(), started));
            }
            writers.forEach(Thread::start);
            assertTrue(started.await(60, TimeUnit.SECONDS), "every writer had a transaction acknowledged");
            // The kill point: a random moment while the writers run (this is the experiment, not a wait).
            Thread.sleep(delayMillis);
            server.kill9();
            for (TxWriter w : writers) {
                w.join(30_000);
            }
        }
        for (TxWriter w : writers) {
            assertEquals(null, w.failure);
        }
        try (ServerProcess restarted = ServerProcess.start(dir, OPTIONS); RespConnection c = restarted.raw()) {
            int total = 0;
            for (TxWriter w : writers) {
                List<String> rows = bulks(c.call("SQL", "SELECT id, n, part, v FROM txs WHERE w = " + w.writer));
                Map<Integer, List<String>> byTx = new TreeMap<>();
                long counter = -1;
                for (String row : rows) {
                    String[] f = row.split(",");
                    int n = Integer.parseInt(f[1]);
                    if (n == 0) {
                        counter = Long.parseLong(f[3]);
                    } else {
                        byTx.computeIfAbsent(n, k -> new ArrayList<>()).add(f[2] + ":" + f[3]);
                    }
                }
                int last = byTx.isEmpty() ? 0 : ((TreeMap<Integer, List<String>>) byTx).lastKey();
                int committed = 0;
                for (int n = 1; n <= last; n++) {
                    List<String> parts = byTx.get(n);
                    if (rolledBack(n)) {
                        assertEquals(null, parts, "writer " + w.writer + ": rolled-back transaction " + n + " is there");
                    } else {
                        committed++;
                        assertEquals(List.of("0:" + n, "1:" + n, "2:" + n), parts == null ? null : sorted(parts),
                                "writer " + w.writer + " transaction " + n + " (acknowledged " + w.acked + ")");
                    }
                }
                assertEquals(committed, counter, "writer " + w.writer + ": counter row against transactions present");
                assertTrue(last >= w.acked || rolledBack(w.acked) && last >= w.acked - 1,
                        "writer " + w.writer + ": last present " + last + ", acknowledged " + w.acked);
                assertTrue(last <= w.acked + 1, "writer " + w.writer + ": last present " + last + ", acknowledged " + w.acked);
                total += committed;
            }
            assertEquals(":" + (total * 3 + WRITERS) + "\r\n", c.call("SQL", "SELECT COUNT(*) FROM txs"));
            System.out.printf("kill -9 during SQL transactions, seed %d: killed %d ms after every writer's first "
                    + "transaction; %d committed present, acknowledged per writer %s%n", seed, delayMillis, total,
                    writers.stream().map(w -> Integer.toString(w.acked)).toList());
        }
    }

    private static List<String> sorted(List<String> l) {
        List<String> copy = new ArrayList<>(l);
        copy.sort(null);
        return copy;
    }

    /** The bulk strings of a multi-bulk reply (rows contain no CR or LF). */
    private static List<String> bulks(String reply) {
        String[] lines = reply.split("\r\n");
        assertTrue(lines[0].startsWith("*"), reply);
        List<String> out = new ArrayList<>();
        for (int i = 2; i < lines.length; i += 2) {
            out.add(lines[i]);
        }
        return out;
    }
}
