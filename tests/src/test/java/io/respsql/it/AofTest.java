package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import io.respsql.persist.AofLoadException;
import io.respsql.persist.AppendOnlyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The append-only file over the wire: what a server writes, a restarted server on the same
 * directory loads back (every table's DUMP identical), a crash's cut-short last record is dropped,
 * damage elsewhere stops the start, and with {@code appendfsync always} no reply precedes its fsync.
 */
class AofTest {
    @TempDir
    Path dir;

    private TestServer start(FsyncPolicy fsync) {
        return start(c -> c.appendOnly(true).appendFsync(fsync));
    }

    private TestServer start(Consumer<ServerConfig> more) {
        return TestServer.start(c -> {
            c.dir(dir);
            more.accept(c);
        });
    }

    private Path aof() {
        return dir.resolve("appendonly.aof");
    }

    /** Every table's DUMP, by table name. */
    static Map<String, List<Object>> dumpAll(TestServer s) {
        Map<String, List<Object>> all = new LinkedHashMap<>();
        for (Object t : (List<?>) s.dispatch("SHOW", "TABLES")) {
            all.put((String) t, castList(s.dispatch("DUMP", (String) t)));
        }
        return all;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object o) {
        return (List<Object>) o;
    }

    private static void sql(TestServer s, String statement) {
        s.dispatch("SQL", statement);
    }

    /** Writes of every kind: all column types, indexes, deletes, primary-key updates, DROP/CREATE, FLUSHALL. */
    private static void workload(TestServer s) {
        sql(s, "CREATE TABLE gone (id int primary key, x int)");
        sql(s, "INSERT INTO gone VALUES (1,1),(2,2)");
        s.dispatch("FLUSHALL");
        sql(s, "CREATE TABLE t (id int primary key, big BIGINT, f FLOAT, name TEXT)");
        sql(s, "CREATE INDEX t:big:index ON t (big)");
        sql(s, "CREATE INDEX t:name:index ON t (name)");
        sql(s, "INSERT INTO t VALUES (1, 9000000000, 1.5, 'one'), (2, -7, -0.25, 'it''s two'), (3, 0, 1e300, 'drei')");
        sql(s, "INSERT INTO t VALUES (4, 4, 0.1, 'héllo wörld ✓')");
        sql(s, "INSERT INTO t VALUES (5, 5, 5, five)");
        sql(s, "DELETE FROM t WHERE id = 3");
        sql(s, "UPDATE t SET id = 30, f = f * 2 WHERE id = 2");
        sql(s, "UPDATE t SET big = big + 1 WHERE big BETWEEN 0 AND 10");
        sql(s, "CREATE TABLE k (name TEXT PRIMARY KEY, n int)");
        sql(s, "INSERT INTO k VALUES ('b', 2), ('a', 1)");
        sql(s, "DROP TABLE k");
        sql(s, "CREATE TABLE k (name TEXT PRIMARY KEY, n BIGINT)");
        sql(s, "INSERT INTO k VALUES ('z', 26)");
        sql(s, "DROP INDEX t:name:index");
        s.dispatch("INSERT", "INTO", "k", "VALUES", "(y,25)"); // split by a client, joined by the server
    }

    @Test
    void restartLoadsEveryWrite() {
        Map<String, List<Object>> before;
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            workload(s);
            before = dumpAll(s);
            assertTrue(((String) s.dispatch("INFO", "persistence")).contains("aof_enabled:1\r\n"));
        }
        assertEquals(2, before.size());
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            assertEquals(before, dumpAll(s));
            sql(s, "INSERT INTO t VALUES (6, 6, 6, six)");
            before = dumpAll(s);
        }
        try (TestServer s = start(FsyncPolicy.NO)) {
            assertEquals(before, dumpAll(s));
        }
    }

    @Test
    void recordsAreRespMultibulks() throws IOException {
        try (TestServer s = start(FsyncPolicy.ALWAYS)) {
            sql(s, "CREATE TABLE t (id int primary key)");
            s.dispatch("FLUSHALL");
            s.dispatch("INSERT", "INTO", "nosuch", "VALUES", "(1)"); // fails: not logged
        } catch (io.lettuce.core.RedisCommandExecutionException expected) {
            // the failing INSERT
        }
        assertEquals(record("CREATE TABLE t (id int primary key)") + "*1\r\n$8\r\nFLUSHALL\r\n",
                Files.readString(aof(), StandardCharsets.UTF_8));
    }

    @Test
    void failedStatementsAndReadsAreNotLogged() throws IOException {
        try (TestServer s = start(FsyncPolicy.ALWAYS); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key)"));
            assertTrue(c.call("SQL", "INSERT INTO t VALUES (x)").startsWith("-ERR"));
            assertEquals("*0\r\n", c.call("SQL", "SELECT * FROM t"));
            assertEquals(":0\r\n", c.call("SQL", "DELETE FROM t WHERE id = 5"));
        }
        // A DELETE matching nothing still took effect as a statement; it replays to the same state.
        assertEquals(record("CREATE TABLE t (id int primary key)") + record("DELETE FROM t WHERE id = 5"),
                Files.readString(aof()));
    }

    private static String record(String sql) {
        return "*2\r\n$3\r\nSQL\r\n$" + sql.getBytes(StandardCharsets.UTF_8).length + "\r\n" + sql + "\r\n";
    }

    /** Offsets where each record of the file starts. */
    private static List<Integer> recordStarts(byte[] file) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < file.length; i++) {
            if (file[i] == '*' && (i == 0 || file[i - 1] == '\n')) {
                starts.add(i);
            }
        }
        return starts;
    }

    @Test
    void statementsSentAsArgumentsAreLoggedAsTheirJoinedText() throws IOException {
        // A plan-cache hit runs from the arguments' bytes without a String (issue 13): its record
        // must be the bytes the joined String gave, cached or not, ASCII or not, in a block or not.
        try (TestServer s = start(FsyncPolicy.ALWAYS); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "kv", "(id int primary key, v int, s text)"));
            assertEquals("+OK\r\n", c.call("INSERT", "INTO", "kv", "VALUES", "(5, 0, 'a')"));
            assertEquals("+OK\r\n", c.call("INSERT", "INTO", "kv", "VALUES", "(6, 0, 'b')"));
            for (int i = 0; i < 3; i++) { // planned, then hits
                assertEquals(":1\r\n", c.call("UPDATE", "kv", "SET", "v = v + 1", "WHERE", "id = " + (5 + i % 2)));
            }
            assertEquals(":1\r\n", c.call("UPDATE", "kv", "SET", "s = 'é''x'", "WHERE", "id = 5"));
            assertEquals(":0\r\n", c.call("UPDATE", "kv", "SET", "v = v + 1", "WHERE", "id = 7"));
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("UPDATE", "kv", "SET", "v = v + 1", "WHERE", "id = 6"));
            assertEquals("+QUEUED\r\n", c.call("DELETE", "FROM", "kv", "WHERE", "id = 5"));
            assertEquals("*2\r\n:1\r\n:1\r\n", c.call("EXEC"));
            assertEquals(":1\r\n", c.call("SQL", "UPDATE", "kv", "SET v = v + 1", "WHERE id = 6"));
        }
        assertEquals(record("CREATE TABLE kv (id int primary key, v int, s text)")
                + record("INSERT INTO kv VALUES (5, 0, 'a')") + record("INSERT INTO kv VALUES (6, 0, 'b')")
                + record("UPDATE kv SET v = v + 1 WHERE id = 5") + record("UPDATE kv SET v = v + 1 WHERE id = 6")
                + record("UPDATE kv SET v = v + 1 WHERE id = 5") + record("UPDATE kv SET s = 'é''x' WHERE id = 5")
                + record("UPDATE kv SET v = v + 1 WHERE id = 7")
                + "*1\r\n$5\r\nMULTI\r\n" + record("UPDATE kv SET v = v + 1 WHERE id = 6")
                + record("DELETE FROM kv WHERE id = 5") + "*1\r\n$4\r\nEXEC\r\n"
                + record("UPDATE kv SET v = v + 1 WHERE id = 6"),
                Files.readString(aof(), StandardCharsets.UTF_8));
    }

    @Test
    void truncatedLastRecordIsDroppedAndTheFileCut() throws IOException {
        Map<String, List<Object>> beforeLast;
        try (TestServer s = start(FsyncPolicy.ALWAYS)) {
            sql(s, "CREATE TABLE t (id int primary key, name TEXT)");
            sql(s, "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
            beforeLast = dumpAll(s);
            sql(s, "INSERT INTO t VALUES (3, 'the last one')");
        }
        byte[] full = Files.readAllBytes(aof());
        List<Integer> starts = recordStarts(full);
        int last = starts.get(starts.size() - 1);
        // inside "*2", after the count, inside "$3\r\nSQL", inside the statement, before the final LF
        for (int cut : new int[] {last + 1, last + 4, last + 8, last + 25, full.length - 1}) {
            Files.write(aof(), java.util.Arrays.copyOf(full, cut));
            try (TestServer s = start(FsyncPolicy.ALWAYS)) {
                assertEquals(beforeLast, dumpAll(s), "cut at " + cut);
                String info = (String) s.dispatch("INFO", "persistence");
                assertTrue(info.contains("aof_last_load_truncated_bytes:" + (cut - last) + "\r\n"), info);
                assertEquals(last, Files.size(aof()), "file truncated to the last good record");
                sql(s, "INSERT INTO t VALUES (4, 'after')");
            }
            try (TestServer s = start(FsyncPolicy.ALWAYS)) {
                assertEquals(List.of("1,a", "2,b", "4,after"), s.dispatch("SELECT", "id,name", "FROM", "t",
                        "WHERE", "id > 0 ORDER BY id"));
                assertTrue(((String) s.dispatch("INFO", "persistence")).contains("aof_last_load_truncated_bytes:0\r\n"));
            }
        }
    }

    @Test
    void damageBeforeTheEndStopsTheStart() throws IOException {
        try (TestServer s = start(FsyncPolicy.ALWAYS)) {
            sql(s, "CREATE TABLE t (id int primary key)");
            sql(s, "INSERT INTO t VALUES (1)");
            sql(s, "INSERT INTO t VALUES (2)");
        }
        byte[] file = Files.readAllBytes(aof());
        int second = recordStarts(file).get(1);
        file[second] = 'Q';
        Files.write(aof(), file);
        ServerConfig config = new ServerConfig().bind(TestServer.HOST).port(0).dir(dir).appendOnly(true);
        AofLoadException e = assertThrows(AofLoadException.class, () -> RespSqlServer.start(config).close());
        assertEquals("Bad AOF record at offset " + second + " in " + aof() + ": expected '*', found 'Q'. "
                + "Run scripts/respsql-check-aof --fix " + aof() + " to truncate it there.", e.getMessage());
    }

    @Test
    void aStatementThatFailsOnReplayStopsTheStart() throws IOException {
        Files.writeString(aof(), record("INSERT INTO nosuch VALUES (1)"));
        ServerConfig config = new ServerConfig().bind(TestServer.HOST).port(0).dir(dir).appendOnly(true);
        AofLoadException e = assertThrows(AofLoadException.class, () -> RespSqlServer.start(config).close());
        assertTrue(e.getMessage().startsWith("Bad AOF record at offset 0 in " + aof() + ": replaying it failed: ERR "),
                e.getMessage());
    }

    @Test
    void alwaysFsyncsBeforeTheReplyIsSent() throws Exception {
        try (TestServer s = start(FsyncPolicy.ALWAYS); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key)"));
            AppendOnlyFile aof = s.server().appendOnlyFile();
            CountDownLatch inFsync = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicLong syncedSize = new AtomicLong();
            aof.fsyncObserver(size -> {
                syncedSize.set(size);
                inFsync.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            c.sendCommand("SQL", "INSERT INTO t VALUES (1)");
            assertTrue(inFsync.await(30, TimeUnit.SECONDS), "fsync after the INSERT");
            // The event loop is inside the fsync: a reply flushed before it would already be here
            // (loopback delivers a write before the send returns).
            assertEquals(0, c.available(), "no reply before the record is fsynced");
            assertEquals(Files.size(aof()), syncedSize.get(), "the record is in the file when it is fsynced");
            release.countDown();
            assertEquals("+OK\r\n", c.readReply());
            aof.fsyncObserver(null);
        }
    }

    @Test
    void everysecFsyncsInTheBackground() throws Exception {
        try (TestServer s = start(FsyncPolicy.EVERYSEC); RespConnection c = s.raw()) {
            CountDownLatch fsynced = new CountDownLatch(1);
            AtomicLong syncedSize = new AtomicLong();
            AtomicLong thread = new AtomicLong();
            s.server().appendOnlyFile().fsyncObserver(size -> {
                syncedSize.set(size);
                thread.set(Thread.currentThread().getName().equals("respsql-aof-fsync") ? 1 : 0);
                fsynced.countDown();
            });
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key)"));
            // The reply came after write(): the record is in the file, though maybe not on disk yet.
            long size = Files.size(aof());
            assertEquals(record("CREATE TABLE t (id int primary key)").length(), size);
            assertTrue(fsynced.await(10, TimeUnit.SECONDS), "a background fsync within about a second");
            assertEquals(size, syncedSize.get());
            assertEquals(1, thread.get(), "fsynced by the background thread");
            assertTrue(c.call("INFO", "persistence").contains("aof_fsync_lag_usec:0\r\n"));
        }
    }

    @Test
    void pipelinedWritesFromManyConnectionsShareFsyncs() throws Exception {
        int connections = 8;
        int perConnection = 50;
        try (TestServer s = start(FsyncPolicy.ALWAYS)) {
            sql(s, "CREATE TABLE t (id int primary key, c int)");
            AtomicInteger fsyncs = new AtomicInteger();
            s.server().appendOnlyFile().fsyncObserver(size -> fsyncs.incrementAndGet());
            List<RespConnection> conns = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                conns.add(s.raw());
            }
            for (int i = 0; i < connections; i++) {
                java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
                for (int k = 0; k < perConnection; k++) {
                    int id = i * perConnection + k;
                    batch.writeBytes(RespConnection.encode("SQL", "INSERT INTO t VALUES (" + id + "," + i + ")"));
                }
                conns.get(i).send(batch.toByteArray());
            }
            for (RespConnection c : conns) {
                for (int k = 0; k < perConnection; k++) {
                    assertEquals("+OK\r\n", c.readReply());
                }
            }
            int records = connections * perConnection;
            assertEquals((long) records, s.dispatch("SELECT", "COUNT(*)", "FROM", "t"));
            assertTrue(fsyncs.get() >= 1 && fsyncs.get() < records / 4,
                    fsyncs.get() + " fsyncs for " + records + " records");
        }
    }

    @Test
    void writeErrorsRefuseWritesUntilTheFileCanBeWrittenAgain() throws Exception {
        try (TestServer s = start(FsyncPolicy.EVERYSEC); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key)"));
            AppendOnlyFile aof = s.server().appendOnlyFile();
            aof.failWrites("No space left on device");
            // This write took effect; its record stays buffered and is retried.
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (1)"));
            String refused = "-ERR Errors writing to the AOF file: No space left on device\r\n";
            assertEquals(refused, c.call("SQL", "INSERT INTO t VALUES (2)"));
            assertEquals(refused, c.call("INSERT", "INTO", "t", "VALUES", "(2)"));
            assertEquals(refused, c.call("FLUSHALL"));
            assertEquals("*1\r\n$1\r\n1\r\n", c.call("SELECT", "*", "FROM", "t"));
            assertTrue(c.call("INFO", "persistence").contains("aof_last_write_status:err\r\n"));
            aof.failWrites(null);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (c.call("INFO", "persistence").contains("aof_last_write_status:err")) {
                assertTrue(System.nanoTime() < deadline, "the cron retries the write within 10 s");
                Thread.onSpinWait();
            }
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (2)"));
        }
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            assertEquals(List.of("1", "2"), s.dispatch("SELECT", "*", "FROM", "t", "WHERE", "id > 0 ORDER BY id"));
        }
    }

    private static String checkAof(Path file) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int status = io.respsql.persist.CheckAof.run(new String[] {file.toString()},
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        return status + " " + out.toString(StandardCharsets.UTF_8).trim();
    }

    @Test
    void bgrewriteaofWritesASnapshotPreambleAndAppendsAfterIt() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            workload(s);
            long sizeBefore = Files.size(aof());
            assertEquals("Background append only file rewriting started", s.dispatch("BGREWRITEAOF"));
            assertTrue(s.server().appendOnlyFile().rewriteDone().get(30, TimeUnit.SECONDS));
            byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(aof()), 8);
            assertEquals("RSQLSNAP", new String(head, StandardCharsets.US_ASCII));
            assertEquals("0 AOF is valid: 0 records, " + Files.size(aof()) + " bytes", checkAof(aof()));
            sql(s, "INSERT INTO t VALUES (6, 6, 6, six)");
            sql(s, "UPDATE t SET id = 60 WHERE id = 6");
            before = dumpAll(s);
            String info = (String) s.dispatch("INFO", "persistence");
            assertTrue(info.contains("aof_rewrites:1\r\n") && info.contains("aof_last_bgrewrite_status:ok\r\n"), info);
            assertTrue(sizeBefore > 0);
        }
        assertTrue(checkAof(aof()).startsWith("0 AOF is valid: 2 records, "), checkAof(aof()));
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            assertEquals(before, dumpAll(s));
            sql(s, "DELETE FROM t WHERE id = 60");
            before = dumpAll(s);
        }
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            assertEquals(before, dumpAll(s));
        }
    }

    @Test
    void writesDuringARewriteReachTheNewFile() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = start(FsyncPolicy.ALWAYS); RespConnection c = s.raw()) {
            workload(s);
            AppendOnlyFile aof = s.server().appendOnlyFile();
            RewriteGate gate = new RewriteGate(aof);
            assertEquals("+Background append only file rewriting started\r\n", c.call("BGREWRITEAOF"));
            assertTrue(gate.awaitHeld());
            assertEquals("-ERR Background append only file rewriting already in progress\r\n", c.call("BGREWRITEAOF"));
            assertTrue(c.call("INFO", "persistence").contains("aof_rewrite_in_progress:1\r\n"));
            // Writes to rows the capture holds (copy-on-write), new rows, schema changes.
            assertEquals(":3\r\n", c.call("SQL", "UPDATE t SET f = f + 1 WHERE id < 10"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (100, 1, 2.5, hundred)"));
            assertEquals(":1\r\n", c.call("SQL", "DELETE FROM t WHERE id = 1"));
            assertEquals(":2\r\n", c.call("SQL", "DROP TABLE k"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE late (id BIGINT PRIMARY KEY)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO late VALUES (1)"));
            gate.release();
            assertTrue(aof.rewriteDone().get(30, TimeUnit.SECONDS));
            aof.rewriteHook(null);
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO late VALUES (2)"));
            before = dumpAll(s);
            assertTrue(c.call("INFO", "persistence").contains("aof_rewrite_in_progress:0\r\n"));
        }
        assertFalse(Files.exists(dir.resolve("appendonly.aof.rewrite-" + ProcessHandle.current().pid() + ".tmp")));
        assertTrue(checkAof(aof()).startsWith("0 AOF is valid: 7 records, "), checkAof(aof()));
        try (TestServer s = start(FsyncPolicy.ALWAYS)) {
            assertEquals(before, dumpAll(s));
        }
    }

    @Test
    void appendonlyNoCancelsARewriteAndYesStartsAFreshOne() throws Exception {
        Map<String, List<Object>> before;
        Path tmp = dir.resolve("appendonly.aof.rewrite-" + ProcessHandle.current().pid() + ".tmp");
        try (TestServer s = start(FsyncPolicy.EVERYSEC); RespConnection c = s.raw()) {
            workload(s);
            AppendOnlyFile aof = s.server().appendOnlyFile();
            RewriteGate gate = new RewriteGate(aof);
            assertEquals("+Background append only file rewriting started\r\n", c.call("BGREWRITEAOF"));
            assertTrue(gate.awaitHeld());
            assertTrue(Files.exists(tmp));
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "appendonly", "no"));
            gate.release();
            assertFalse(aof.rewriteDone().get(30, TimeUnit.SECONDS), "the rewrite was cancelled");
            aof.rewriteHook(null);
            assertFalse(Files.exists(tmp));
            String info = c.call("INFO", "persistence");
            assertTrue(info.contains("aof_enabled:0\r\n") && info.contains("aof_rewrite_in_progress:0\r\n"), info);
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (50, 5, 5, not_logged)"));
            assertEquals(":1\r\n", c.call("SQL", "DELETE FROM t WHERE id = 50"));
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "appendonly", "yes"));
            assertTrue(aof.rewriteDone().get(30, TimeUnit.SECONDS));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (51, 5, 5, logged)"));
            before = dumpAll(s);
        }
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            assertEquals(before, dumpAll(s));
        }
    }

    @Test
    void configSetAppendonlyWritesTheCurrentDataThenLogs() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = start(c -> { })) {
            workload(s);
            assertFalse(Files.exists(aof()));
            assertTrue(((String) s.dispatch("INFO", "persistence")).contains("aof_enabled:0\r\n"));
            assertEquals("OK", s.dispatch("CONFIG", "SET", "appendonly", "yes"));
            assertEquals("yes", s.lettuce().configGet("appendonly").get("appendonly"));
            sql(s, "INSERT INTO t VALUES (7, 7, 7, seven)"); // during the rewrite or after it
            assertTrue(s.server().appendOnlyFile().rewriteDone().get(30, TimeUnit.SECONDS));
            assertTrue(Files.exists(aof()));
            assertTrue(((String) s.dispatch("INFO", "persistence")).contains("aof_enabled:1\r\n"));
            assertEquals("OK", s.dispatch("CONFIG", "SET", "appendfsync", "always"));
            sql(s, "INSERT INTO t VALUES (8, 8, 8, eight)");
            before = dumpAll(s);
            assertEquals("OK", s.dispatch("CONFIG", "SET", "appendonly", "no"));
            sql(s, "INSERT INTO t VALUES (9, 9, 9, not_logged)");
        }
        try (TestServer s = start(FsyncPolicy.EVERYSEC)) {
            assertEquals(before, dumpAll(s));
        }
    }
}
