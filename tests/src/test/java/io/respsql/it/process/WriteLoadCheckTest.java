package io.respsql.it.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The check the durability tests rely on, against a live server with no persistence: it accepts
 * the state the writers left, and it catches a lost statement in the middle and a torn multi-row
 * statement.
 */
class WriteLoadCheckTest {
    @TempDir
    Path dir;

    @Test
    void acceptsTheLiveStateAndCatchesGapsAndTornStatements() throws Exception {
        try (ServerProcess server = ServerProcess.launchWith(dir, List.of())) {
            server.awaitReady();
            WriteLoad load = new WriteLoad(server, 3, 7, 3);
            load.startAndAwaitLoad();
            while (load.writers.stream().anyMatch(w -> w.acked() < 50)) {
                Thread.onSpinWait();
            }
            load.stop();
            load.join();
            int[] acked = load.writers.stream().mapToInt(Writer::acked).toArray();
            assertArrayEquals(acked, load.survivingPrefixes(WriteLoad.readRows(server)));

            // A torn statement: one row of writer 0's first insert (three rows) is missing.
            Writer w0 = load.writers.get(0);
            Map<Integer, Map<Long, List<Long>>> rows = WriteLoad.readRows(server);
            long firstId = rows.get(0).keySet().stream().mapToLong(Long::longValue).min().orElseThrow();
            assertEquals("1", WriteLoad.sql(server.jedis(), "DELETE FROM t WHERE id = " + (firstId + 1)));
            assertThrows(AssertionError.class, () -> load.survivingPrefixes(WriteLoad.readRows(server)), w0::getName);

            // A lost update in the middle: rows as after statement k except one v that missed an increment.
            List<Long> was = rows.get(0).get(firstId + 1);
            assertEquals("OK", WriteLoad.sql(server.jedis(),
                    "INSERT INTO t VALUES (" + (firstId + 1) + ", " + was.get(0) + ", " + was.get(1) + ")"));
            assertArrayEquals(acked, load.survivingPrefixes(WriteLoad.readRows(server)));
            Writer w1 = load.writers.get(1);
            long someId = rows.get(1).entrySet().stream().filter(e -> e.getValue().get(0) > 0)
                    .findFirst().orElseThrow().getKey();
            assertEquals("1", WriteLoad.sql(server.jedis(), "UPDATE t SET v = v - 1 WHERE id = " + someId));
            assertThrows(AssertionError.class, () -> load.survivingPrefixes(WriteLoad.readRows(server)), w1::getName);
        }
    }
}
