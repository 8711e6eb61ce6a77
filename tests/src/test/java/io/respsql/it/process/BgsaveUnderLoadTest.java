package io.respsql.it.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BGSAVE while 50 clients write multi-row statements: the snapshot, loaded into a fresh process,
 * is a state that existed at the moment BGSAVE ran. For every client it holds exactly a prefix of
 * its statements (all-or-nothing per multi-row statement), at least every statement acknowledged
 * before BGSAVE was sent, and at most those acknowledged by the time its reply arrived plus the
 * one in flight (replies on different connections are not ordered, so that is the exact bound).
 */
class BgsaveUnderLoadTest {
    private static final int WRITERS = 50;
    private static final int ROWS_PER_STATEMENT = 3;
    private static final long SEED = 4242;

    @TempDir
    Path dir;

    @Test
    void snapshotIsTheStateWhenBgsaveRan() throws Exception {
        Path live = Files.createDirectory(dir.resolve("live"));
        Path copy = Files.createDirectory(dir.resolve("copy"));
        String[] options = {"--save", "", "--appendonly", "no"};
        WriteLoad load;
        int[] before = new int[WRITERS];
        int[] after = new int[WRITERS];
        try (ServerProcess server = ServerProcess.start(live, options)) {
            load = new WriteLoad(server, WRITERS, SEED, ROWS_PER_STATEMENT);
            load.startAndAwaitLoad();
            long delayMillis = 100 + new Random(SEED).nextInt(400);
            Thread.sleep(delayMillis); // let the table grow under load before the save (the experiment)
            var control = server.raw();
            for (Writer w : load.writers) {
                before[w.index] = w.acked();
            }
            String reply = Fixture.call(control, "BGSAVE");
            for (Writer w : load.writers) {
                after[w.index] = w.acked();
            }
            assertEquals("+Background saving started\r\n", reply);
            Fixture.awaitInfo(server, "rdb_bgsave_in_progress", "0", Duration.ofSeconds(60));
            assertEquals("ok", Fixture.info(server, "persistence", "rdb_last_bgsave_status"));
            load.stop();
            load.join();
            long acknowledgedAtSave = 0;
            for (int b : before) {
                acknowledgedAtSave += b;
            }
            System.out.printf("BGSAVE under load, seed %d: %d statements acknowledged when BGSAVE was sent, %d by the end%n",
                    SEED, acknowledgedAtSave, load.acknowledged());
        }
        Files.copy(live.resolve("dump.rsql"), copy.resolve("dump.rsql"));
        try (ServerProcess fresh = ServerProcess.start(copy, options)) {
            Map<Integer, Map<Long, List<Long>>> rows = WriteLoad.readRows(fresh);
            WriteLoad.assertOnlyOwnRows(rows, load);
            int[] k = load.survivingPrefixes(rows);
            for (Writer w : load.writers) {
                int i = w.index;
                assertTrue(k[i] >= before[i], () -> w.describe(k[i]) + ": " + before[i]
                        + " statements were acknowledged before BGSAVE was sent, the snapshot has " + k[i]);
                assertTrue(k[i] <= after[i] + 1, () -> w.describe(k[i]) + ": " + after[i]
                        + " statements were acknowledged when the BGSAVE reply arrived, the snapshot has " + k[i]);
            }
        }
    }
}
