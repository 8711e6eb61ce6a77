package io.respsql.it.process;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kill -9 while clients write MULTI/EXEC blocks with {@code appendfsync always}, then restart on
 * the same directory: every block whose EXEC was acknowledged is wholly present, and no block is
 * partly present (only each client's one block in flight may or may not be there, whole).
 *
 * <p>Each block of writer w, number n, is five statements: three INSERTs of one row each (parts
 * 0..2 with v = 0), an UPDATE that sets v = n on those three rows, and an UPDATE that adds 1 to
 * the writer's counter row. After the restart, per writer, the blocks present must be exactly
 * 1..k, each with its three rows at v = n, and the counter must be k. The kill moment comes from
 * the seed.
 */
class KillDuringTransactionsTest {
    private static final int WRITERS = 4;

    @TempDir
    Path dir;

    private static final String[] OPTIONS = {"--appendonly", "yes", "--appendfsync", "always", "--save", ""};

    private static int id(int writer, int block, int part) {
        return writer * 1_000_000 + block * 10 + part;
    }

    /** One writer: sends each block pipelined (MULTI ... EXEC in one write) and counts the acknowledged ones. */
    private static final class BlockWriter extends Thread {
        final int writer;
        final RespConnection conn;
        final CountDownLatch started;
        volatile int acked;
        volatile String failure;

        BlockWriter(int writer, RespConnection conn, CountDownLatch started) {
            super("block-writer-" + writer);
            this.writer = writer;
            this.conn = conn;
            this.started = started;
        }

        @Override
        public void run() {
            try {
                for (int n = 1; ; n++) {
                    ByteArrayOutputStream req = new ByteArrayOutputStream();
                    req.write(RespConnection.encode("MULTI"));
                    for (int part = 0; part < 3; part++) {
                        req.write(RespConnection.encode("SQL", "INSERT INTO blocks VALUES (" + id(writer, n, part) + ", "
                                + writer + ", " + n + ", " + part + ", 0)"));
                    }
                    req.write(RespConnection.encode("SQL", "UPDATE blocks SET v = " + n + " WHERE w = " + writer
                            + " AND n = " + n));
                    req.write(RespConnection.encode("SQL", "UPDATE blocks SET v = v + 1 WHERE id = " + id(writer, 0, 0)));
                    req.write(RespConnection.encode("EXEC"));
                    conn.send(req.toByteArray());
                    String[] replies = new String[7];
                    for (int i = 0; i < replies.length; i++) {
                        replies[i] = conn.readReply();
                    }
                    String exec = replies[6];
                    String expected = "*5\r\n+OK\r\n+OK\r\n+OK\r\n:3\r\n:1\r\n";
                    if (!exec.equals(expected)) {
                        failure = "block " + n + " of writer " + writer + ": EXEC replied " + exec;
                        return;
                    }
                    acked = n;
                    started.countDown();
                }
            } catch (IOException | RuntimeException e) {
                // the server was killed: the block in flight may or may not have been applied
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1401, 1402, 1403})
    void everyAcknowledgedBlockIsWholeAndNoBlockIsPartial(long seed) throws Exception {
        Random random = new Random(seed);
        long delayMillis = 100 + random.nextInt(1200);
        List<BlockWriter> writers = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(dir, OPTIONS)) {
            try (RespConnection setup = server.raw()) {
                assertEquals("+OK\r\n", setup.call("SQL", "CREATE TABLE blocks (id int primary key, w int, n int, part int, v int)"));
                assertEquals("+OK\r\n", setup.call("SQL", "CREATE INDEX blocks:w ON blocks (w)"));
                for (int w = 0; w < WRITERS; w++) {
                    assertEquals("+OK\r\n", setup.call("SQL", "INSERT INTO blocks VALUES (" + id(w, 0, 0) + ", " + w + ", 0, 0, 0)"));
                }
            }
            CountDownLatch started = new CountDownLatch(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                writers.add(new BlockWriter(w, server.raw(), started));
            }
            writers.forEach(Thread::start);
            assertTrue(started.await(60, TimeUnit.SECONDS), "every writer had a block acknowledged");
            // The kill point: a random moment while the writers run (this is the experiment, not a wait).
            Thread.sleep(delayMillis);
            server.kill9();
            for (BlockWriter w : writers) {
                w.join(30_000);
            }
        }
        for (BlockWriter w : writers) {
            assertEquals(null, w.failure);
        }
        try (ServerProcess restarted = ServerProcess.start(dir, OPTIONS); RespConnection c = restarted.raw()) {
            int total = 0;
            for (BlockWriter w : writers) {
                // through the index on w
                List<String> rows = bulks(c.call("SQL", "SELECT id, n, part, v FROM blocks WHERE w = " + w.writer));
                Map<Integer, List<String>> byBlock = new TreeMap<>();
                long counter = -1;
                for (String row : rows) {
                    String[] f = row.split(",");
                    int n = Integer.parseInt(f[1]);
                    if (n == 0) {
                        counter = Long.parseLong(f[3]);
                    } else {
                        byBlock.computeIfAbsent(n, k -> new ArrayList<>()).add(f[2] + ":" + f[3]);
                    }
                }
                int k = byBlock.size();
                for (int n = 1; n <= k; n++) {
                    List<String> parts = byBlock.get(n);
                    assertEquals(List.of("0:" + n, "1:" + n, "2:" + n), parts == null ? null : sorted(parts),
                            "writer " + w.writer + " block " + n + " of " + k + " (acknowledged " + w.acked + ")");
                }
                assertEquals(k, counter, "writer " + w.writer + ": counter row against blocks present");
                assertTrue(k >= w.acked, "writer " + w.writer + ": " + k + " blocks present, " + w.acked + " acknowledged");
                assertTrue(k <= w.acked + 1, "writer " + w.writer + ": " + k + " blocks present, " + w.acked + " acknowledged");
                total += k;
            }
            assertEquals(":" + (total * 3 + WRITERS) + "\r\n", c.call("SQL", "SELECT COUNT(*) FROM blocks"));
            System.out.printf("kill -9 during MULTI blocks, seed %d: killed %d ms after every writer's first block; "
                    + "%d blocks present, acknowledged per writer %s%n", seed, delayMillis, total,
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
