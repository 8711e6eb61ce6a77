package io.respsql.it.process;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Master and replicas as separate server processes on loopback: the replicas' DUMPs are
 * byte-identical to the master's after {@code WAIT}; a replica killed with SIGKILL and restarted
 * resyncs partially (no full sync on the master's counters), one kept away longer than the backlog
 * fully; writes on a replica get {@code -READONLY}, a master short of replicas {@code -NOREPLICAS};
 * ROLE's shapes; a replica whose master is down keeps serving reads and says the link is down.
 */
class ReplicationTest {
    private static final Duration LINK = Duration.ofSeconds(60);
    private static final int ROWS = 100_000;

    @TempDir
    Path dir;

    private Path sub(String name) throws IOException {
        return Files.createDirectories(dir.resolve(name));
    }

    /** Masters ping their replicas every 10 s by default, which moves the offset: not in these tests. */
    private static final String[] QUIET = {"--save", "", "--repl-ping-replica-period", "3600"};

    private static String[] opts(String... more) {
        String[] all = new String[QUIET.length + more.length];
        System.arraycopy(QUIET, 0, all, 0, QUIET.length);
        System.arraycopy(more, 0, all, QUIET.length, more.length);
        return all;
    }

    private static String replicaOf(ServerProcess master) {
        return ServerProcess.HOST + " " + master.port();
    }

    private static String call(RespConnection c, String... args) {
        return Fixture.call(c, args);
    }

    /** Polls {@code INFO replication} (there is no event to wait on) until {@code field} reads {@code value}. */
    private static void awaitReplication(ServerProcess server, String field, String value) throws InterruptedException {
        long deadline = System.nanoTime() + LINK.toNanos();
        RespConnection c = server.raw();
        String now;
        while (!value.equals(now = Fixture.info(c, "replication", field))) {
            assertTrue(System.nanoTime() < deadline, "INFO replication " + field + " is " + now + ", not " + value
                    + "; output:\n" + server.outputText());
            Thread.sleep(10);
        }
    }

    private static long stat(ServerProcess server, String field) {
        return Long.parseLong(Fixture.info(server, "stats", field));
    }

    private static void insertRows(RespConnection c, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i += 1000) {
            sb.setLength(0);
            sb.append("INSERT INTO fk VALUES ");
            for (int k = i; k < Math.min(to, i + 1000); k++) {
                sb.append(k == i ? "" : ",").append('(').append(k).append(',').append(k % 1000).append(',')
                  .append(k * 7).append(",'row ").append(k).append("')");
            }
            assertEquals("+OK\r\n", call(c, "SQL", sb.toString()));
        }
    }

    private static void fkSchema(RespConnection c) {
        assertEquals("+OK\r\n", call(c, "SQL", "CREATE TABLE fk (id INT PRIMARY KEY, fk INT, v BIGINT, name TEXT)"));
        assertEquals("+OK\r\n", call(c, "SQL", "CREATE INDEX fk:fk:index ON fk (fk)"));
    }

    /** FK-range updates, deletes that free slots, inserts that reuse them, and a primary-key update. */
    private static void churn(RespConnection c, int round) {
        for (int r = 0; r < 8; r++) {
            int lo = (round * 97 + r * 113) % 900;
            String reply = call(c, "SQL", "UPDATE fk SET v = v + " + (r + 1) + ", name = 'u" + round + "' WHERE fk BETWEEN "
                    + lo + " AND " + (lo + 50));
            assertTrue(reply.startsWith(":"), reply);
        }
        int d = (round * 31) % 1000;
        assertTrue(call(c, "SQL", "DELETE FROM fk WHERE fk = " + d).startsWith(":"));
        int base = 1_000_000 + round * 100;
        StringBuilder sb = new StringBuilder("INSERT INTO fk VALUES ");
        for (int k = 0; k < 50; k++) {
            sb.append(k == 0 ? "" : ",").append('(').append(base + k).append(',').append(d).append(",0,'again')");
        }
        assertEquals("+OK\r\n", call(c, "SQL", sb.toString()));
        assertEquals(":1\r\n", call(c, "SQL", "UPDATE fk SET id = " + (2_000_000 + round) + " WHERE id = " + (base + 1)));
    }

    @Test
    void twoReplicasAreByteIdenticalAfterWait() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts());
             ServerProcess r1 = ServerProcess.start(sub("r1"), "--save", "", "--replicaof", replicaOf(master))) {
            awaitReplication(r1, "master_link_status", "up");
            RespConnection m = master.raw();
            Fixture.run(master, Fixture.first());
            Fixture.run(master, Fixture.second());
            fkSchema(m);
            insertRows(m, 0, ROWS);
            // The second replica joins while a writer keeps changing the data: what is written after
            // its capture reaches it after the snapshot.
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try (RespConnection w = new RespConnection(ServerProcess.HOST, master.port())) {
                    for (int round = 0; round < 40; round++) {
                        churn(w, round);
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            writer.start();
            try (ServerProcess r2 = ServerProcess.start(sub("r2"), "--save", "", "--replicaof", replicaOf(master))) {
                writer.join();
                assertNull(failed.get(), () -> "writer failed: " + failed.get());
                awaitReplication(r2, "master_link_status", "up");
                assertEquals(":2\r\n", call(m, "WAIT", "2", "5000"));
                Map<String, String> expected = Fixture.dumps(master);
                assertTrue(expected.get("fk").length() > ROWS * 20, "the fk table is not in the dump");
                assertEquals(expected, Fixture.dumps(r1));
                assertEquals(expected, Fixture.dumps(r2));
                assertEquals(Fixture.info(master, "replication", "master_repl_offset"),
                        Fixture.info(r2, "replication", "slave_repl_offset"));
                assertEquals("2", Fixture.info(master, "replication", "connected_slaves"));
                String info = call(m, "INFO", "replication");
                assertTrue(Pattern.compile("slave0:ip=127\\.0\\.0\\.1,port=" + r1.port() + ",state=online,offset=\\d+,lag=\\d+")
                        .matcher(info).find(), info);
                assertTrue(Pattern.compile("slave1:ip=127\\.0\\.0\\.1,port=" + r2.port() + ",state=online,offset=\\d+,lag=\\d+")
                        .matcher(info).find(), info);
                assertEquals(2, stat(master, "sync_full"));
                assertEquals(Fixture.info(master, "replication", "master_replid"),
                        Fixture.info(r1, "replication", "master_replid"));
            }
        }
    }

    @Test
    void replicaKilledAndRestartedResyncsPartially() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts("--repl-backlog-size", "64mb"))) {
            RespConnection m = master.raw();
            fkSchema(m);
            insertRows(m, 0, 20_000);
            ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "", "--replicaof", replicaOf(master));
            ServerProcess restarted = null;
            try {
                awaitReplication(replica, "master_link_status", "up");
                churn(m, 0);
                assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
                // The replica's own snapshot records the stream position it stands for.
                assertEquals("+Background saving started\r\n", call(replica.raw(), "BGSAVE"));
                Fixture.awaitInfo(replica, "rdb_bgsave_in_progress", "0", LINK);
                churn(m, 1);
                insertRows(m, 20_000, 25_000);
                replica.kill9();
                churn(m, 2);
                long fullBefore = stat(master, "sync_full");
                long partialBefore = stat(master, "sync_partial_ok");
                restarted = replica.restart();
                awaitReplication(restarted, "master_link_status", "up");
                assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
                assertEquals(fullBefore, stat(master, "sync_full"), "the restarted replica did a full sync");
                assertEquals(partialBefore + 1, stat(master, "sync_partial_ok"));
                assertEquals(Fixture.dumps(master), Fixture.dumps(restarted));
            } finally {
                replica.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    @Test
    void shortDropResyncsPartiallyLongAbsenceFully() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts("--repl-backlog-size", "16kb"))) {
            RespConnection m = master.raw();
            fkSchema(m);
            insertRows(m, 0, 2_000);
            ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "", "--replicaof", replicaOf(master));
            ServerProcess restarted = null;
            try {
                awaitReplication(replica, "master_link_status", "up");
                assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
                // A dropped link (the master closes it) with a little written meanwhile: partial.
                long partial = stat(master, "sync_partial_ok");
                String addr = replicaAddr(m);
                assertEquals(":1\r\n", call(m, "CLIENT", "KILL", "ADDR", addr));
                assertEquals(":2\r\n", call(m, "SQL", "UPDATE fk SET v = 0 WHERE fk = 3")); // ids 3 and 1003
                awaitStat(master, "sync_partial_ok", partial + 1);
                assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
                assertEquals(Fixture.dumps(master), Fixture.dumps(replica));

                // Away while more than the backlog (16 KiB) is written: full sync.
                replica.kill9();
                long full = stat(master, "sync_full");
                long partialErr = stat(master, "sync_partial_err");
                insertRows(m, 2_000, 4_000);
                restarted = replica.restart();
                awaitReplication(restarted, "master_link_status", "up");
                assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
                assertEquals(full + 1, stat(master, "sync_full"));
                assertEquals(partialErr + 1, stat(master, "sync_partial_err"));
                assertEquals(Fixture.dumps(master), Fixture.dumps(restarted));
                String info = call(m, "INFO", "replication");
                assertTrue(info.contains("repl_backlog_size:16384\r\n"), info);
                assertTrue(info.contains("repl_backlog_histlen:16384\r\n"), info);
                // Resized live, keeping what fits.
                assertEquals("+OK\r\n", call(m, "CONFIG", "SET", "repl-backlog-size", "32kb"));
                awaitField(master, "replication", "repl_backlog_size", "32768");
                assertEquals("16384", Fixture.info(master, "replication", "repl_backlog_histlen"));
            } finally {
                replica.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    private static String replicaAddr(RespConnection m) {
        String list = call(m, "CLIENT", "LIST");
        Matcher x = Pattern.compile("addr=(\\S+) [^\n]*cmd=(replconf|psync)").matcher(list);
        assertTrue(x.find(), list);
        return x.group(1);
    }

    private static void awaitStat(ServerProcess server, String field, long value) throws InterruptedException {
        long deadline = System.nanoTime() + LINK.toNanos();
        while (stat(server, field) != value) {
            assertTrue(System.nanoTime() < deadline, field + " is " + stat(server, field) + ", not " + value);
            Thread.sleep(10);
        }
    }

    @Test
    void readonlyNoreplicasRoleWaitAndMasterDown() throws Exception {
        ServerProcess master = ServerProcess.start(sub("master"), opts());
        try (master; ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "",
                "--replicaof", replicaOf(master))) {
            awaitReplication(replica, "master_link_status", "up");
            RespConnection m = master.raw();
            RespConnection r = replica.raw();
            assertEquals("+OK\r\n", call(m, "SQL", "CREATE TABLE t (id INT PRIMARY KEY, name TEXT)"));
            assertEquals("+OK\r\n", call(m, "INSERT", "INTO", "t", "VALUES", "(1,'one'),(2,'two')"));
            assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
            String offset = Fixture.info(master, "replication", "master_repl_offset");

            // ROLE, in Redis's shapes.
            String role = call(m, "ROLE");
            String portText = Integer.toString(replica.port());
            assertEquals("*3\r\n$6\r\nmaster\r\n:" + offset + "\r\n*1\r\n*3\r\n$9\r\n127.0.0.1\r\n$" + portText.length()
                    + "\r\n" + portText + "\r\n$" + offset.length() + "\r\n" + offset + "\r\n", role);
            assertEquals("*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:" + master.port() + "\r\n$9\r\nconnected\r\n:"
                    + offset + "\r\n", call(r, "ROLE"));

            String clients = call(m, "CLIENT", "LIST");
            assertTrue(Pattern.compile("flags=S [^\n]*cmd=(replconf|psync)").matcher(clients).find(), clients);

            // A read-only replica refuses writes of every form, and serves reads.
            String readonly = "-READONLY You can't write against a read only replica.\r\n";
            assertEquals(readonly, call(r, "INSERT", "INTO", "t", "VALUES", "(3,'three')"));
            assertEquals(readonly, call(r, "SQL", "DELETE FROM t WHERE id = 1"));
            assertEquals(readonly, call(r, "SQL", "CREATE TABLE other (id INT)"));
            assertEquals(readonly, call(r, "FLUSHALL"));
            assertEquals("*1\r\n$5\r\n2,two\r\n", call(r, "SELECT", "*", "FROM", "t", "WHERE", "id = 2"));
            assertEquals("1", Fixture.info(replica, "replication", "slave_read_only"));
            assertTrue(call(r, "WAIT", "1", "0").startsWith("-ERR WAIT cannot be used with replica instances"));

            // min-replicas-to-write: one good replica is enough for 1, not for 2.
            assertEquals("+OK\r\n", call(m, "CONFIG", "SET", "min-replicas-to-write", "2"));
            assertEquals("-NOREPLICAS Not enough good replicas to write.\r\n",
                    call(m, "INSERT", "INTO", "t", "VALUES", "(3,'three')"));
            assertEquals("-NOREPLICAS Not enough good replicas to write.\r\n", call(m, "FLUSHALL"));
            assertEquals("*1\r\n$5\r\n1,one\r\n", call(m, "SELECT", "*", "FROM", "t", "WHERE", "id = 1"));
            assertEquals("+OK\r\n", call(m, "CONFIG", "SET", "min-replicas-to-write", "1"));
            assertEquals("+OK\r\n", call(m, "INSERT", "INTO", "t", "VALUES", "(3,'three')"));
            assertEquals("*2\r\n$21\r\nmin-replicas-to-write\r\n$1\r\n1\r\n", call(m, "CONFIG", "GET", "min-replicas-to-write"));
            assertEquals("+OK\r\n", call(m, "CONFIG", "SET", "min-replicas-to-write", "0"));
            // WAIT for more replicas than there are: the timeout, then the count that acknowledged.
            long t0 = System.nanoTime();
            assertEquals(":1\r\n", call(m, "WAIT", "2", "300"));
            assertTrue(System.nanoTime() - t0 >= 290_000_000L, "WAIT returned before its timeout");

            // The master goes away: the replica keeps serving what it has and says the link is down.
            master.kill9();
            awaitReplication(replica, "master_link_status", "down");
            assertEquals("*1\r\n$7\r\n3,three\r\n", call(r, "SELECT", "*", "FROM", "t", "WHERE", "id = 3"));
            String info = call(r, "INFO", "replication");
            assertTrue(info.contains("role:slave\r\n"), info);
            assertTrue(Pattern.compile("master_link_down_since_seconds:\\d+\r\n").matcher(info).find(), info);
            assertTrue(call(r, "ROLE").matches("(?s)\\*5\r\n\\$5\r\nslave\r\n.*\\$\\d+\r\n(connect|connecting)\r\n:-1\r\n"),
                    call(r, "ROLE"));

            // Promoted: keeps its data, takes writes, and its old id is its second id.
            String oldId = Fixture.info(replica, "replication", "master_replid");
            assertEquals("+OK\r\n", call(r, "REPLICAOF", "NO", "ONE"));
            assertEquals(oldId, Fixture.info(replica, "replication", "master_replid2"));
            assertNotEquals(oldId, Fixture.info(replica, "replication", "master_replid"));
            assertEquals("+OK\r\n", call(r, "INSERT", "INTO", "t", "VALUES", "(4,'four')"));
            assertTrue(call(r, "ROLE").startsWith("*3\r\n$6\r\nmaster\r\n"));
            assertEquals("-ERR Invalid master port\r\n", call(r, "REPLICAOF", "127.0.0.1", "notaport"));
        }
    }

    @Test
    void promotedReplicaLetsTheOtherContinue() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts());
             ServerProcess a = ServerProcess.start(sub("a"), opts("--replicaof", replicaOf(master)));
             ServerProcess b = ServerProcess.start(sub("b"), "--save", "", "--replicaof", replicaOf(master))) {
            awaitReplication(a, "master_link_status", "up");
            awaitReplication(b, "master_link_status", "up");
            RespConnection m = master.raw();
            fkSchema(m);
            insertRows(m, 0, 5_000);
            assertEquals(":2\r\n", call(m, "WAIT", "2", "5000"));
            master.kill9();
            // What Sentinel does: promote a, point b at it. b continues from a's stream (no full sync).
            assertEquals("+OK\r\n", call(a.raw(), "REPLICAOF", "NO", "ONE"));
            assertEquals("+OK\r\n", call(b.raw(), "REPLICAOF", ServerProcess.HOST, Integer.toString(a.port())));
            awaitReplication(b, "master_link_status", "up");
            RespConnection na = a.raw();
            churn(na, 0);
            assertEquals(":1\r\n", call(na, "WAIT", "1", "5000"));
            assertEquals(0, stat(a, "sync_full"));
            assertEquals(1, stat(a, "sync_partial_ok"));
            assertEquals(Fixture.dumps(a), Fixture.dumps(b));
            List<String> lines = new ArrayList<>(b.output());
            assertTrue(lines.stream().anyMatch(l -> l.contains("Successful partial resynchronization")), b.outputText());
            assertEquals(Fixture.info(a, "replication", "master_replid"), Fixture.info(b, "replication", "master_replid"));
        }
    }

    @Test
    void pingsKeepAnIdleLinkUpAndASilentMasterTimesOut() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), "--save", "", "--repl-ping-replica-period", "1");
             ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "", "--repl-timeout", "3",
                     "--replicaof", replicaOf(master))) {
            awaitReplication(replica, "master_link_status", "up");
            long before = Long.parseLong(Fixture.info(replica, "replication", "slave_repl_offset"));
            // No writes: the offset moves by the master's PINGs (14 bytes each) alone.
            long deadline = System.nanoTime() + LINK.toNanos();
            long now;
            while ((now = Long.parseLong(Fixture.info(replica, "replication", "slave_repl_offset"))) < before + 28) {
                assertTrue(System.nanoTime() < deadline, "no PING reached the replica");
                Thread.sleep(50);
            }
            assertEquals(0, (now - before) % 14, "offset moved by something else than PINGs: " + (now - before));
            assertEquals("up", Fixture.info(replica, "replication", "master_link_status"));
            assertTrue(Long.parseLong(Fixture.info(replica, "replication", "master_last_io_seconds_ago")) <= 2);
            // A master that stops answering (SIGSTOP) without closing its connections: the replica
            // gives up the link after repl-timeout and says so.
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(master.pid())).start().waitFor());
            try {
                awaitReplication(replica, "master_link_status", "down");
                assertTrue(replica.outputText().contains("MASTER timeout"), replica.outputText());
            } finally {
                new ProcessBuilder("kill", "-CONT", Long.toString(master.pid())).start().waitFor();
            }
            awaitReplication(replica, "master_link_status", "up");
        }
    }

    @Test
    void replicaAuthenticatesWithMasterauth() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts("--requirepass", "s3cret"));
             ServerProcess good = ServerProcess.start(sub("good"), "--save", "", "--masterauth", "s3cret",
                     "--replicaof", replicaOf(master));
             ServerProcess bad = ServerProcess.start(sub("bad"), "--save", "", "--masterauth", "wrong",
                     "--replicaof", replicaOf(master))) {
            awaitReplication(good, "master_link_status", "up");
            bad.awaitLine(Pattern.compile("Unable to AUTH to MASTER: WRONGPASS"), LINK);
            assertEquals("down", Fixture.info(bad, "replication", "master_link_status"));
            RespConnection m = master.raw();
            assertEquals("+OK\r\n", call(m, "AUTH", "s3cret"));
            assertEquals("+OK\r\n", call(m, "SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
            assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
            assertTrue(call(good.raw(), "DUMP", "t").contains("CREATE TABLE t"));
            assertEquals("1", Fixture.info(m, "replication", "connected_slaves"));
        }
    }

    @Test
    void aReplicaThatDoesNotReadIsDisconnectedNotWaitedFor() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"),
                opts("--client-output-buffer-limit", "replica 1mb 0 0"))) {
            RespConnection m = master.raw();
            fkSchema(m);
            // A replica that asks for the stream and then never reads it.
            RespConnection stuck = master.raw();
            stuck.sendCommand("PSYNC", "?", "-1");
            awaitField(master, "replication", "connected_slaves", "1");
            StringBuilder sb = new StringBuilder();
            long slowest = 0;
            for (int i = 0; i < 300; i++) {
                sb.setLength(0);
                sb.append("INSERT INTO fk VALUES ");
                for (int k = 0; k < 500; k++) {
                    int id = i * 500 + k;
                    sb.append(k == 0 ? "" : ",").append('(').append(id).append(",1,2,'").append("x".repeat(150)).append("')");
                }
                long t0 = System.nanoTime();
                assertEquals("+OK\r\n", call(m, "SQL", sb.toString()));
                slowest = Math.max(slowest, System.nanoTime() - t0);
            }
            awaitField(master, "replication", "connected_slaves", "0");
            assertTrue(stat(master, "client_output_buffer_limit_disconnections") >= 1);
            assertTrue(master.outputText().contains("(replica) scheduled to be closed ASAP"), master.outputText());
            assertTrue(slowest < 5_000_000_000L, "an INSERT waited " + slowest / 1_000_000 + " ms");
        }
    }

    private static void awaitField(ServerProcess server, String section, String field, String value) throws InterruptedException {
        long deadline = System.nanoTime() + LINK.toNanos();
        RespConnection c = server.raw();
        String now;
        while (!value.equals(now = Fixture.info(c, section, field))) {
            assertTrue(System.nanoTime() < deadline, "INFO " + section + " " + field + " is " + now + ", not " + value);
            Thread.sleep(10);
        }
    }

    @Test
    void aReplicaWithAnAppendOnlyFileLogsTheSyncedData() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts())) {
            RespConnection m = master.raw();
            Fixture.run(master, Fixture.first());
            Path replicaDir = sub("replica");
            Map<String, String> expected;
            try (ServerProcess replica = ServerProcess.start(replicaDir, "--save", "", "--appendonly", "yes",
                    "--replicaof", replicaOf(master))) {
                awaitReplication(replica, "master_link_status", "up");
                Fixture.run(master, Fixture.second());
                fkSchema(m);
                insertRows(m, 0, 3_000);
                churn(m, 0);
                assertEquals(":1\r\n", call(m, "WAIT", "1", "5000"));
                Fixture.awaitInfo(replica, "aof_rewrite_in_progress", "0", LINK);
                expected = Fixture.dumps(master);
                assertEquals(expected, Fixture.dumps(replica));
                replica.kill9();
            }
            // Alone on its directory, the replica's own log holds the snapshot it received and the stream after it.
            try (ServerProcess alone = ServerProcess.start(replicaDir, "--save", "", "--appendonly", "yes")) {
                assertEquals(expected, Fixture.dumps(alone));
                assertEquals("master", Fixture.info(alone, "replication", "role"));
            }
        }
    }

    @Test
    void waitCountsAcknowledgementsOfTheClientsOwnLastWrite() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts());
             ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "", "--replicaof", replicaOf(master))) {
            awaitReplication(replica, "master_link_status", "up");
            RespConnection a = master.raw();
            RespConnection b = master.raw();
            assertEquals("+OK\r\n", call(a, "SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
            assertEquals(":1\r\n", call(a, "WAIT", "1", "5000"));
            // The replica stops acknowledging; another client writes after a's last write.
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(replica.pid())).start().waitFor());
            try {
                assertEquals("+OK\r\n", call(b, "INSERT", "INTO", "t", "VALUES", "(1)"));
                // a's own write was acknowledged: WAIT does not wait for b's.
                long t0 = System.nanoTime();
                assertEquals(":1\r\n", call(a, "WAIT", "1", "2000"));
                assertTrue(System.nanoTime() - t0 < 1_500_000_000L, "WAIT waited for another client's write");
                // b's write is not acknowledged: b waits out its timeout and gets 0.
                t0 = System.nanoTime();
                assertEquals(":0\r\n", call(b, "WAIT", "1", "300"));
                assertTrue(System.nanoTime() - t0 >= 290_000_000L, "WAIT returned before its timeout");
                // A blocked client is not served meanwhile; it is afterwards.
                b.sendCommand("WAIT", "1", "0");
                b.sendCommand("PING");
                assertEquals("+PONG\r\n", call(a, "PING"));
            } finally {
                new ProcessBuilder("kill", "-CONT", Long.toString(replica.pid())).start().waitFor();
            }
            assertEquals(":1\r\n", b.readReply());
            assertEquals("+PONG\r\n", b.readReply());
        }
    }

    /**
     * MULTI/EXEC blocks reach replicas whole: a committed block is applied as on the master and
     * counts for WAIT only once replicated; a block taken back on the master never reaches them.
     */
    @Test
    void transactionsReachReplicasAsOneUnit() throws Exception {
        try (ServerProcess master = ServerProcess.start(sub("master"), opts());
             ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "", "--replicaof", replicaOf(master))) {
            awaitReplication(replica, "master_link_status", "up");
            RespConnection a = master.raw();
            assertEquals("+OK\r\n", call(a, "SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            assertEquals(":1\r\n", call(a, "WAIT", "1", "5000"));
            // With the replica stopped, WAIT after EXEC must wait for the block itself.
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(replica.pid())).start().waitFor());
            try {
                assertEquals("+OK\r\n", call(a, "MULTI"));
                assertEquals("+QUEUED\r\n", call(a, "SQL", "INSERT INTO t VALUES (1,10),(2,20),(3,30)"));
                assertEquals("+QUEUED\r\n", call(a, "SQL", "UPDATE t SET v = v + 1 WHERE id >= 2"));
                assertEquals("*2\r\n+OK\r\n:2\r\n", call(a, "EXEC"));
                assertEquals(":0\r\n", call(a, "WAIT", "1", "300"));
            } finally {
                new ProcessBuilder("kill", "-CONT", Long.toString(replica.pid())).start().waitFor();
            }
            assertEquals(":1\r\n", call(a, "WAIT", "1", "5000"));
            // A block that fails on the master is taken back there and sent nowhere.
            assertEquals("+OK\r\n", call(a, "MULTI"));
            assertEquals("+QUEUED\r\n", call(a, "SQL", "INSERT INTO t VALUES (4,40)"));
            assertEquals("+QUEUED\r\n", call(a, "SQL", "INSERT INTO t VALUES (1,99)"));
            assertTrue(call(a, "EXEC").startsWith("-ERR EXEC aborted: statement 2 of 2 failed"));
            assertEquals("+OK\r\n", call(a, "SQL", "INSERT INTO t VALUES (5,50)"));
            assertEquals(":1\r\n", call(a, "WAIT", "1", "5000"));
            assertEquals(Fixture.dumps(master), Fixture.dumps(replica));
            assertEquals("*4\r\n$4\r\n1,10\r\n$4\r\n2,21\r\n$4\r\n3,31\r\n$4\r\n5,50\r\n",
                    call(replica.raw(), "SQL", "SELECT * FROM t ORDER BY id"));
        }
    }

    /**
     * A replica applies a MULTI group only when all of it has arrived: against a scripted master
     * that sends the block's first half and stops, the replica shows none of it (and its offset
     * stays at the group's start); the rest arrives, and all of it shows.
     */
    @Test
    void aHalfArrivedBlockIsNotApplied() throws Exception {
        // A real snapshot holding table t, for the scripted master's full sync.
        Path seedDir = sub("seed");
        byte[] snapshot;
        try (ServerProcess seed = ServerProcess.start(seedDir, "--save", "")) {
            assertEquals("+OK\r\n", call(seed.raw(), "SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            assertEquals("+OK\r\n", call(seed.raw(), "SAVE"));
            snapshot = Files.readAllBytes(seedDir.resolve("dump.rsql"));
        }
        try (java.net.ServerSocket fake = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(ServerProcess.HOST));
             ServerProcess replica = ServerProcess.start(sub("replica"), "--save", "",
                     "--replicaof", ServerProcess.HOST + " " + fake.getLocalPort())) {
            fake.setSoTimeout((int) LINK.toMillis());
            try (java.net.Socket link = fake.accept()) {
                java.io.InputStream in = link.getInputStream();
                java.io.OutputStream out = link.getOutputStream();
                // The replica pipelines REPLCONF listening-port, REPLCONF capa and PSYNC ? -1.
                StringBuilder got = new StringBuilder();
                while (!got.toString().matches("(?s).*PSYNC\\r\\n\\$\\d+\\r\\n[^\\r]+\\r\\n\\$\\d+\\r\\n-?\\d+\\r\\n")) {
                    int b = in.read();
                    assertTrue(b >= 0, "the replica closed the link during the handshake: " + got);
                    got.append((char) b);
                }
                out.write("+OK\r\n+OK\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.write(("+FULLRESYNC " + "0123456789abcdef0123456789abcdef01234567" + " 0\r\n$" + snapshot.length
                        + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.write(snapshot);
                byte[] multi = "*1\r\n$5\r\nMULTI\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                byte[] ins = record("INSERT INTO t VALUES (1,10)");
                byte[] upd = record("UPDATE t SET v = 11 WHERE id = 1");
                byte[] exec = "*1\r\n$4\r\nEXEC\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                byte[] lone = record("INSERT INTO t VALUES (7,70)");
                out.write(lone);
                out.write(multi);
                out.write(ins);
                out.flush();
                awaitReplication(replica, "slave_repl_offset", Integer.toString(lone.length));
                RespConnection r = replica.raw();
                // The lone record before the block is applied; the half block is not.
                assertEquals("*1\r\n$4\r\n7,70\r\n", call(r, "SQL", "SELECT * FROM t ORDER BY id"));
                out.write(upd);
                out.write(exec);
                out.flush();
                awaitReplication(replica, "slave_repl_offset",
                        Integer.toString(lone.length + multi.length + ins.length + upd.length + exec.length));
                assertEquals("*2\r\n$4\r\n1,11\r\n$4\r\n7,70\r\n", call(r, "SQL", "SELECT * FROM t ORDER BY id"));
            }
        }
    }

    private static byte[] record(String sql) {
        byte[] b = sql.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return ("*2\r\n$3\r\nSQL\r\n$" + b.length + "\r\n" + sql + "\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
