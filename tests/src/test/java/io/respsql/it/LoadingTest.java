package io.respsql.it;

import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * While a multi-million-row snapshot loads at startup the server already listens: commands that
 * need data are answered {@code -LOADING} (as Redis, whose clients retry on that prefix), INFO
 * answers {@code loading:1} with {@code loading_loaded_perc} rising, and then the data is there.
 */
class LoadingTest {
    /** Rows of the snapshot: 2^22, enough that loading it takes a measurable while. */
    private static final int DOUBLINGS = 22;
    private static final long ROWS = 1L << DOUBLINGS;

    @TempDir
    Path dir;

    @Test
    void aServerLoadingItsSnapshotAnswersLoadingAndReportsProgress() throws Exception {
        long t0 = System.nanoTime();
        try (TestServer s = TestServer.start(c -> c.dir(dir));
             RespConnection c = new RespConnection(TestServer.HOST, s.port())) {
            // Built through the server itself: one row, then doubled by INSERT ... SELECT.
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "loop-write-max-ms", "0"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE big (id BIGINT PRIMARY KEY, name TEXT, v DOUBLE)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO big VALUES (0, 'row zero', 0.5)"));
            for (int i = 0; i < DOUBLINGS; i++) {
                long n = 1L << i;
                String reply = c.call("SQL", "INSERT INTO big SELECT id + " + n + ", 'row number ' || (id + " + n + "), v * 2 FROM big");
                assertTrue(reply.startsWith("+OK") || reply.startsWith(":"), reply);
            }
            assertEquals(":" + ROWS + "\r\n", c.call("SELECT", "COUNT(*)", "FROM", "big"));
            assertEquals("+OK\r\n", c.call("SAVE"));
        }
        long snapshotBytes = Files.size(dir.resolve("dump.rsql"));
        System.out.printf("snapshot of %d rows: %d bytes, built and saved in %d ms%n", ROWS, snapshotBytes,
                (System.nanoTime() - t0) / 1_000_000);

        ServerConfig config = new ServerConfig().bind(TestServer.HOST).port(0).save("").dir(dir);
        long started = System.nanoTime();
        RespSqlServer server = RespSqlServer.startLoading(config);
        try {
            int loadingReplies = 0;
            int loadingInfos = 0;
            List<Double> percents = new ArrayList<>();
            String pingDuringLoad = null;
            String count;
            try (RespConnection c = new RespConnection(TestServer.HOST, server.port())) {
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (true) {
                    assertTrue(System.nanoTime() < deadline, "the data set did not load within 120 s");
                    Map<String, String> info = fields(c.call("INFO", "persistence"));
                    count = c.call("SELECT", "COUNT(*)", "FROM", "big");
                    if (!count.startsWith("-LOADING")) {
                        break;
                    }
                    assertEquals("-LOADING RespSQL is loading the dataset in memory\r\n", count);
                    loadingReplies++;
                    if ("1".equals(info.get("loading"))) {
                        loadingInfos++;
                        assertEquals("0", info.get("async_loading"));
                        assertEquals(String.valueOf(snapshotBytes), info.get("loading_total_bytes"));
                        percents.add(Double.parseDouble(info.get("loading_loaded_perc")));
                        assertTrue(Long.parseLong(info.get("loading_loaded_bytes")) <= snapshotBytes);
                        assertTrue(Long.parseLong(info.get("loading_eta_seconds")) >= 0);
                        assertTrue(info.containsKey("loading_start_time"));
                    }
                    if (pingDuringLoad == null) {
                        pingDuringLoad = c.call("PING"); // Redis 7's PING is not flagged "loading"
                    }
                }
            }
            long loadMillis = (System.nanoTime() - started) / 1_000_000;
            server.awaitLoaded();
            System.out.printf("loaded in about %d ms; %d -LOADING replies, %d INFO loading:1, percents seen %s%n",
                    loadMillis, loadingReplies, loadingInfos, distinct(percents));
            assertEquals(":" + ROWS + "\r\n", count);
            assertTrue(loadingReplies > 0, "no -LOADING reply while loading");
            assertEquals("-LOADING RespSQL is loading the dataset in memory\r\n", pingDuringLoad);
            List<Double> seen = distinct(percents);
            assertTrue(seen.size() >= 2, "loading_loaded_perc did not move: " + seen);
            for (int i = 1; i < percents.size(); i++) {
                assertTrue(percents.get(i) >= percents.get(i - 1), "loading_loaded_perc went back: " + percents);
            }
            try (RespConnection c = new RespConnection(TestServer.HOST, server.port())) {
                Map<String, String> info = fields(c.call("INFO", "persistence"));
                assertEquals("0", info.get("loading"));
                assertFalse(info.containsKey("loading_loaded_perc"));
                assertEquals(":1\r\n", c.call("SELECT", "COUNT(*)", "FROM", "big", "WHERE", "id", "=", "4194303"));
                assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO big VALUES (-1, 'after', 1)"));
            }
            replicaLoadsAsynchronously(server, ROWS + 1);
        } finally {
            server.close();
        }

        // Again: a PostgreSQL client is told the server is starting up, and SHUTDOWN SAVE while
        // loading saves nothing (as Redis), so the file being loaded is not replaced by part of it.
        byte[] before = Files.readAllBytes(dir.resolve("dump.rsql"));
        ServerConfig again = new ServerConfig().bind(TestServer.HOST).port(0).pgPort(0).save("").dir(dir);
        RespSqlServer second = RespSqlServer.startLoading(again);
        try {
            try (RespConnection c = new RespConnection(TestServer.HOST, second.port())) {
                assertEquals("-LOADING RespSQL is loading the dataset in memory\r\n", c.call("SELECT", "COUNT(*)", "FROM", "big"));
                java.sql.SQLException pg = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> java.sql.DriverManager.getConnection("jdbc:postgresql://" + TestServer.HOST + ":"
                                + second.pgPort() + "/respsql", "tester", "").close());
                assertEquals("57P03", pg.getSQLState(), pg.getMessage());
                assertTrue(fields(c.call("INFO", "persistence")).get("loading").equals("1"), "still loading");
                String aof = c.call("CONFIG", "SET", "appendonly", "yes"); // would log the data not yet here
                assertTrue(aof.startsWith("-ERR") && aof.contains("the data set is loading"), aof);
                c.sendCommand("SHUTDOWN", "SAVE");
                assertTrue(c.awaitClosedByServer(30_000), "SHUTDOWN while loading did not stop the server");
            }
            second.awaitLoaded(); // returns: stopped while loading is no failure
            assertTrue(second.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS));
        } finally {
            second.close();
        }
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(dir.resolve("dump.rsql"))),
                "the snapshot changed by a SHUTDOWN while loading");
        assertFalse(Files.exists(dir.resolve("appendonly.aof")));
    }

    /**
     * A replica's full sync of the same data: INFO replication shows the transfer
     * (master_sync_in_progress, master_sync_perc, ...), and while the received snapshot loads the
     * replica keeps serving its old data (no -LOADING) with INFO persistence async_loading:1 and the
     * loading_* fields, as Redis's swapdb load.
     */
    private void replicaLoadsAsynchronously(RespSqlServer master, long rows) throws Exception {
        Path replicaDir = Files.createDirectory(dir.resolve("replica"));
        try (TestServer replica = TestServer.start(c -> c.dir(replicaDir));
             RespConnection c = new RespConnection(TestServer.HOST, replica.port())) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE old (a INT)"));
            assertEquals("+OK\r\n", c.call("REPLICAOF", TestServer.HOST, String.valueOf(master.port())));
            int syncing = 0;
            int asyncLoading = 0;
            List<Double> syncPercents = new ArrayList<>();
            List<Double> loadPercents = new ArrayList<>();
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (true) {
                assertTrue(System.nanoTime() < deadline, "the replica did not sync within 120 s");
                Map<String, String> repl = fields(c.call("INFO", "replication"));
                // the count before INFO persistence: when that still says async_loading:1, the load
                // was not yet handed over when the count ran (both run on the loop, in this order)
                String count = c.call("SELECT", "COUNT(*)", "FROM", "old");
                Map<String, String> persistence = fields(c.call("INFO", "persistence"));
                if ("up".equals(repl.get("master_link_status"))) {
                    break;
                }
                if ("1".equals(repl.get("master_sync_in_progress"))) {
                    syncing++;
                    syncPercents.add(Double.parseDouble(repl.get("master_sync_perc")));
                    assertTrue(repl.containsKey("master_sync_total_bytes") && repl.containsKey("master_sync_read_bytes")
                            && repl.containsKey("master_sync_left_bytes"), repl.toString());
                }
                if ("1".equals(persistence.get("async_loading"))) {
                    asyncLoading++;
                    assertEquals("0", persistence.get("loading"));
                    loadPercents.add(Double.parseDouble(persistence.get("loading_loaded_perc")));
                    assertEquals(":0\r\n", count); // the old data, still served
                }
            }
            System.out.printf("replica: %d polls syncing, master_sync_perc seen %s; %d polls async_loading:1, "
                    + "loading_loaded_perc seen %s%n", syncing, distinct(syncPercents), asyncLoading, distinct(loadPercents));
            assertTrue(syncing > 0, "master_sync_in_progress:1 never seen");
            assertTrue(asyncLoading > 0, "async_loading:1 never seen while the replica loaded " + rows + " rows");
            assertEquals(":" + rows + "\r\n", c.call("SELECT", "COUNT(*)", "FROM", "big"));
        }
    }

    private static List<Double> distinct(List<Double> values) {
        List<Double> out = new ArrayList<>();
        for (Double v : values) {
            if (out.isEmpty() || !out.get(out.size() - 1).equals(v)) {
                out.add(v);
            }
        }
        return out;
    }

    /** The {@code name:value} lines of an INFO bulk reply. */
    private static Map<String, String> fields(String reply) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : reply.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("$") && !line.startsWith("#")) {
                m.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return m;
    }
}
