package io.respsql.it;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Snapshots over the wire: SAVE/BGSAVE, restart from the file, SHUTDOWN, save rules, bad files. */
class PersistenceTest {
    private static final long AWAIT_MILLIS = 20_000;

    @TempDir
    Path dir;

    private TestServer start() {
        return start(c -> { });
    }

    private TestServer start(Consumer<ServerConfig> more) {
        return TestServer.start(c -> {
            c.dir(dir);
            more.accept(c);
        });
    }

    private static void sql(TestServer s, String... statements) {
        for (String st : statements) {
            TestServer.dispatch(s.lettuce(), "SQL", st);
        }
    }

    private static Object q(TestServer s, String statement) {
        return TestServer.dispatch(s.lettuce(), "SQL", statement);
    }

    /** One INFO persistence field. */
    private static String info(TestServer s, String field) {
        for (String line : s.lettuce().info("persistence").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no INFO field " + field);
    }

    /** Waits (bounded) until the server has finished {@code saves} successful saves and none runs. */
    private static void awaitSaves(TestServer s, long saves) throws InterruptedException {
        long deadline = System.currentTimeMillis() + AWAIT_MILLIS;
        while (Long.parseLong(info(s, "rdb_saves")) < saves || !info(s, "rdb_bgsave_in_progress").equals("0")) {
            assertTrue(System.currentTimeMillis() < deadline, "no completed save within " + AWAIT_MILLIS + " ms");
            Thread.sleep(10); // no event over the wire to await: poll INFO
        }
    }

    /** Tables with every column type, indexes, deletes, moved primary keys and rewritten text. */
    private static void sample(TestServer s) {
        sql(s, "CREATE TABLE emp (id INT PRIMARY KEY, division INT, big BIGINT, salary FLOAT, name TEXT)",
               "CREATE INDEX emp:division:index ON emp (division)",
               "CREATE INDEX emp:name ON emp (name)",
               "CREATE TABLE words (w TEXT PRIMARY KEY, n INT)",
               "CREATE TABLE empty (id BIGINT PRIMARY KEY, f FLOAT)");
        StringBuilder values = new StringBuilder();
        for (int i = 1; i <= 2000; i++) {
            values.append(values.length() == 0 ? "" : ",").append('(').append(i).append(',').append(i % 7).append(',')
                  .append(i * 3_000_000_000L).append(',').append(i * 1.25 - 100).append(",'it''s \"n\" ").append(i)
                  .append(" — ünï,cødé')");
        }
        sql(s, "INSERT INTO emp VALUES " + values,
               "INSERT INTO emp VALUES (5000,1,-9223372036854775808,-0.0,''),(5001,1,9223372036854775807,1e300,'x')",
               "DELETE FROM emp WHERE id BETWEEN 100 AND 300",
               "DELETE FROM emp WHERE division = 5 AND id < 1000",
               "UPDATE emp SET id = id + 10000 WHERE id BETWEEN 1500 AND 1600",
               "INSERT INTO words VALUES ('b', 2), ('a', 1), ('', 0), ('日本', 3)");
        for (int round = 0; round < 30; round++) {
            sql(s, "UPDATE emp SET name = 'rewrite " + round + " ''q''' WHERE division = 3");
        }
    }

    /** DUMP of every table, then each table's rows in slot order (a full scan walks slots). */
    private static List<Object> state(TestServer s) {
        List<Object> out = new ArrayList<>();
        for (String t : List.of("emp", "words", "empty")) {
            out.add(TestServer.dispatch(s.lettuce(), "DUMP", t));
        }
        assertTrue(((String) ((List<?>) q(s, "EXPLAIN SCANSELECT * FROM emp WHERE big >= -9223372036854775808")).get(0))
                .startsWith("full scan of emp"));
        out.add(q(s, "SCANSELECT * FROM emp WHERE big >= -9223372036854775808"));
        out.add(q(s, "SCANSELECT * FROM words WHERE n >= 0"));
        out.add(q(s, "SELECT id, name FROM emp WHERE division = 3"));
        out.add(q(s, "SELECT w FROM words WHERE w BETWEEN '' AND 'z'"));
        return out;
    }

    /** Inserts that take freed slots first, then new ones. */
    private static void after(TestServer s) {
        sql(s, "INSERT INTO emp VALUES (9000,3,1,2.5,'after'),(9001,4,1,2.5,'after'),(9002,4,1,2.5,'x')",
               "INSERT INTO words VALUES ('c', 3)", "INSERT INTO empty VALUES (1, 0.5)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SAVE", "BGSAVE"})
    void restartFromTheSnapshotRestoresEveryTableSlotAndIndex(String command) throws Exception {
        List<Object> saved;
        List<Object> afterInserts;
        try (TestServer s = start()) {
            sample(s);
            saved = state(s);
            Object reply = TestServer.dispatch(s.lettuce(), command);
            assertEquals(command.equals("SAVE") ? "OK" : "Background saving started", reply);
            awaitSaves(s, 1);
            assertEquals("ok", info(s, "rdb_last_bgsave_status"));
            after(s);
            afterInserts = state(s);
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = start()) {
            assertEquals(saved, state(s));
            assertEquals("0", info(s, "rdb_changes_since_last_save"));
            after(s);
            assertEquals(afterInserts, state(s), "inserts after the restart take the same slots");
            assertTrue(((String) ((List<?>) q(s, "EXPLAIN SELECT * FROM emp WHERE name = 'after'")).get(0))
                    .startsWith("index probe on emp using emp:name"), "the secondary index was rebuilt");
        }
    }

    @Test
    void backgroundSaveHoldsExactlyWhatWasCommittedBeforeIt() throws Exception {
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE marker (id INT PRIMARY KEY, v INT, t TEXT)", "INSERT INTO marker VALUES (1, 0, 'zero')");
            // One connection, pipelined: the server runs them in order, so BGSAVE sits between.
            RedisAsyncCommands<String, String> async = s.lettuceAsync();
            List<RedisFuture<Object>> replies = new ArrayList<>();
            replies.add(TestServer.dispatchAsync(async, "SQL", "UPDATE marker SET v = 1, t = 'one' WHERE id = 1"));
            replies.add(TestServer.dispatchAsync(async, "BGSAVE"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "UPDATE marker SET v = 2, t = 'two' WHERE id = 1"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "INSERT INTO marker VALUES (2, 2, 'later')"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "CREATE TABLE later (id INT)"));
            for (RedisFuture<Object> f : replies) {
                f.get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
            }
            awaitSaves(s, 1);
            assertEquals("3", info(s, "rdb_changes_since_last_save"), "the changes after the capture stay counted");
        }
        try (TestServer s = start()) {
            assertEquals(List.of("1,1,one"), q(s, "SELECT * FROM marker WHERE id >= 0"));
            assertEquals(1L, s.lettuce().dbsize());
        }
    }

    /**
     * Increments pipelined right behind a BGSAVE (over the whole table, a primary-key range walked
     * through the cursor, a secondary-index range) write into chunks the save captured: the saved
     * file holds the values from before them, the server the values after.
     */
    @Test
    void backgroundSaveKeepsTheValuesFromBeforeIncrementsBehindIt() throws Exception {
        int rows = 150_000; // three chunks
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY, g INT, v INT)", "CREATE INDEX t:g ON t (g)");
            for (int from = 0; from < rows; from += 5000) {
                StringBuilder values = new StringBuilder();
                for (int i = from; i < from + 5000; i++) {
                    values.append(values.length() == 0 ? "" : ",").append('(').append(i).append(',').append(i % 50)
                          .append(',').append(i % 13 == 4 ? "NULL" : Integer.toString(i % 1000)).append(')');
                }
                sql(s, "INSERT INTO t VALUES " + values);
            }
            RedisAsyncCommands<String, String> async = s.lettuceAsync();
            List<RedisFuture<Object>> replies = new ArrayList<>();
            replies.add(TestServer.dispatchAsync(async, "BGSAVE"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "UPDATE t SET v = v + 7 WHERE id > 0"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "UPDATE t SET v = v + 100 WHERE id BETWEEN 70000 AND 140000"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "UPDATE t SET v = v + 1000 WHERE g BETWEEN 10 AND 19"));
            replies.add(TestServer.dispatchAsync(async, "SQL", "UPDATE t SET v = v + 10000"));
            List<Object> got = new ArrayList<>();
            for (RedisFuture<Object> f : replies) {
                got.add(f.get(AWAIT_MILLIS, TimeUnit.MILLISECONDS));
            }
            assertEquals(List.of("Background saving started", (long) rows - 1, 70_001L, (long) rows / 5, (long) rows), got);
            awaitSaves(s, 1);
            assertEquals((long) rows / 13 + 1, q(s, "SELECT COUNT(*) FROM t WHERE v IS NULL"));
            // v = id % 1000 + 10000, + 7 for id > 0, + 100 in 70000..140000, + 1000 for g = id % 50 in 10..19
            assertEquals(List.of("10000", "10008", "11020", "11067", "10108", "11117"),
                    q(s, "SELECT v FROM t WHERE id IN (0, 1, 13, 60, 70001, 70010) ORDER BY id"));
            assertEquals((long) rows - rows / 13 - 1, q(s, "SELECT COUNT(*) FROM t WHERE v >= 10000"));
        }
        try (TestServer s = start()) {
            assertEquals((long) rows / 13 + 1, q(s, "SELECT COUNT(*) FROM t WHERE v IS NULL"));
            assertEquals((long) rows - rows / 13 - 1, q(s, "SELECT COUNT(*) FROM t WHERE v = id % 1000"),
                    "the saved file holds the values from before the increments");
        }
    }

    @Test
    void backgroundSaveUnderTwentyWritersIsAConsistentCut() throws Exception {
        int writers = 20;
        int rowsPerWriter = 8000; // 160,000 rows: three chunks, so writes copy chunks mid-save
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE big (id INT PRIMARY KEY, w INT, v BIGINT, t TEXT)", "CREATE INDEX big:w ON big (w)");
            for (int w = 0; w < writers; w++) {
                for (int from = 0; from < rowsPerWriter; from += 1000) {
                    StringBuilder values = new StringBuilder();
                    for (int i = from; i < from + 1000; i++) {
                        // writers interleave across slots, so every chunk holds every writer's rows
                        int id = i * writers + w;
                        values.append(values.length() == 0 ? "" : ",").append('(').append(id).append(',').append(w)
                              .append(",0,'v0')");
                    }
                    sql(s, "INSERT INTO big VALUES " + values);
                }
            }
            // Each writer sets all its rows to its next sequence number, over and over.
            AtomicLongArray ackedBeforeSave = new AtomicLongArray(writers);
            AtomicLongArray sentBeforeReply = new AtomicLongArray(writers);
            AtomicBoolean saveSent = new AtomicBoolean();
            AtomicBoolean replied = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch warmedUp = new CountDownLatch(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                RedisCommands<String, String> c = s.newLettuceConnection().sync();
                done.add(pool.submit(() -> {
                    for (long seq = 1; !stop.get(); seq++) {
                        if (!replied.get()) {
                            sentBeforeReply.set(writer, seq);
                        }
                        Object n = TestServer.dispatch(c, "SQL",
                                "UPDATE big SET v = " + seq + ", t = 'v" + seq + "' WHERE w = " + writer);
                        assertEquals((long) rowsPerWriter, n);
                        if (!saveSent.get()) {
                            ackedBeforeSave.set(writer, seq);
                        }
                        if (seq == 3) {
                            warmedUp.countDown();
                        }
                    }
                    return null;
                }));
            }
            assertTrue(warmedUp.await(AWAIT_MILLIS, TimeUnit.MILLISECONDS));
            long[] floor = new long[writers];
            saveSent.set(true);
            for (int w = 0; w < writers; w++) {
                floor[w] = ackedBeforeSave.get(w);
            }
            assertEquals("Background saving started", TestServer.dispatch(s.lettuce(), "BGSAVE"));
            replied.set(true);
            long[] ceiling = new long[writers];
            for (int w = 0; w < writers; w++) {
                ceiling[w] = sentBeforeReply.get(w);
            }
            awaitSaves(s, 1);
            String cow = info(s, "rdb_last_cow_chunks");
            stop.set(true);
            for (Future<?> f : done) {
                f.get(AWAIT_MILLIS, TimeUnit.MILLISECONDS);
            }
            pool.shutdown();
            assertTrue(Long.parseLong(cow) >= 0);

            try (TestServer loaded = start()) {
                for (int w = 0; w < writers; w++) {
                    List<?> minMax = (List<?>) q(loaded, "SELECT MIN(v), MAX(v), COUNT(*) FROM big WHERE w = " + w);
                    String[] parts = ((String) minMax.get(0)).split(",");
                    long v = Long.parseLong(parts[0]);
                    assertEquals(parts[0], parts[1], "writer " + w + ": all rows from one statement");
                    assertEquals(Integer.toString(rowsPerWriter), parts[2]);
                    assertTrue(v >= floor[w] && v <= ceiling[w],
                            "writer " + w + ": " + v + " not in [" + floor[w] + ", " + ceiling[w] + "]");
                    assertEquals((long) rowsPerWriter, q(loaded, "SELECT COUNT(*) FROM big WHERE w = " + w + " AND t = 'v" + v + "'"));
                }
            }
        }
    }

    @Test
    void bgsaveWhileOneRunsIsRefusedOrScheduled() throws Exception {
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1),(2),(3)");
            try (RespConnection c = s.raw()) {
                // One write: the server reads all four in one go, before the first save can report back.
                byte[] all = concat(RespConnection.encode("BGSAVE"), RespConnection.encode("BGSAVE"),
                        RespConnection.encode("SAVE"), RespConnection.encode("BGSAVE", "SCHEDULE"));
                c.send(all);
                assertEquals("+Background saving started\r\n", c.readReply());
                assertEquals("-ERR Background save already in progress\r\n", c.readReply());
                assertEquals("-ERR Background save already in progress\r\n", c.readReply());
                assertEquals("+Background saving scheduled\r\n", c.readReply());
                assertEquals("-ERR syntax error\r\n", c.call("BGSAVE", "NOW"));
            }
            awaitSaves(s, 2); // the scheduled one ran after the first
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    @Test
    void lastsaveAndChangeCounter() throws Exception {
        try (TestServer s = start()) {
            long started = s.lettuce().lastsave().getTime() / 1000;
            assertTrue(Math.abs(started - System.currentTimeMillis() / 1000) <= 5, "the start time before any save");
            assertEquals("0", info(s, "rdb_changes_since_last_save"));
            assertEquals("0", info(s, "rdb_saves"));
            assertEquals("-1", info(s, "rdb_last_bgsave_time_sec"));
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1,1),(2,2),(3,3)",
                   "UPDATE t SET v = 0 WHERE id >= 2", "UPDATE t SET v = 0 WHERE id > 100");
            assertEquals("6", info(s, "rdb_changes_since_last_save"), "1 CREATE + 3 inserted + 2 updated");
            long before = System.currentTimeMillis() / 1000;
            assertEquals("OK", s.lettuce().save());
            long after = System.currentTimeMillis() / 1000;
            long last = s.lettuce().lastsave().getTime() / 1000;
            assertTrue(last >= before && last <= after, last + " not in [" + before + ", " + after + "]");
            assertEquals("0", info(s, "rdb_changes_since_last_save"));
            assertEquals("1", info(s, "rdb_saves"));
            assertTrue(Long.parseLong(info(s, "rdb_last_capture_usec")) >= 0);
        }
    }

    @Test
    void configKeys() throws Exception {
        try (TestServer s = start()) {
            RedisCommands<String, String> c = s.lettuce();
            assertEquals(dir.toString(), c.configGet("dir").get("dir"));
            assertEquals("dump.rsql", c.configGet("dbfilename").get("dbfilename"));
            assertEquals("", c.configGet("save").get("save"));
            assertEquals("OK", c.configSet("dbfilename", "other.rsql"));
            assertEquals("OK", c.configSet("save", "3600 1 300 100"));
            assertEquals("3600 1 300 100", c.configGet("save").get("save"));
            assertEquals("OK", c.save());
            assertTrue(Files.exists(dir.resolve("other.rsql")));
            assertFalse(Files.exists(dir.resolve("dump.rsql")));
            Exception e = assertThrows(Exception.class, () -> c.configSet("dir", dir.resolve("nope").toString()));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'dir') - no such directory '"
                    + dir.resolve("nope") + "'", e.getMessage());
            e = assertThrows(Exception.class, () -> c.configSet("dbfilename", "a/b"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'dbfilename') - "
                    + "dbfilename must be a file name without path separators", e.getMessage());
            e = assertThrows(Exception.class, () -> c.configSet("save", "10"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'save') - "
                    + "save needs <seconds> <changes> pairs, got 1 number(s)", e.getMessage());
        }
    }

    @Test
    void saveRuleStartsABackgroundSave() throws Exception {
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
            assertEquals("0", info(s, "rdb_saves"), "no rules, no save");
            assertEquals("OK", s.lettuce().configSet("save", "1 2"));
            awaitSaves(s, 1); // two changes, and more than a second since the start
            assertEquals("0", info(s, "rdb_changes_since_last_save"));
        }
        try (TestServer s = start()) {
            assertEquals(List.of("1"), q(s, "SELECT * FROM t WHERE id = 1"));
        }
    }

    // ---- SHUTDOWN --------------------------------------------------------------------------

    /** Sends SHUTDOWN with {@code args}; asserts the server closes the connection and stops. */
    private static void shutdown(TestServer s, String... args) throws Exception {
        try (RespConnection c = s.raw()) {
            String[] words = new String[args.length + 1];
            words[0] = "SHUTDOWN";
            System.arraycopy(args, 0, words, 1, args.length);
            c.sendCommand(words);
            assertTrue(c.awaitClosedByServer((int) AWAIT_MILLIS), "SHUTDOWN closes the connection without a reply");
        }
        assertTrue(s.server().awaitTermination(AWAIT_MILLIS, TimeUnit.MILLISECONDS), "the server stopped");
    }

    @Test
    void shutdownSaveNosaveAndDefault() throws Exception {
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
            shutdown(s, "NOSAVE");
        }
        assertFalse(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
            shutdown(s); // save "": no rules, no save
        }
        assertFalse(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = start()) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
            shutdown(s, "SAVE");
        }
        try (TestServer s = start(c -> c.save("3600 1"))) {
            assertEquals(List.of("1"), q(s, "SELECT * FROM t WHERE id = 1"));
            sql(s, "INSERT INTO t VALUES (2)");
            shutdown(s); // rules configured: saves
        }
        try (TestServer s = start(); RespConnection c = s.raw()) {
            // Pipelined: the reply to the command before SHUTDOWN still goes out, then the connection ends.
            c.send(concat(RespConnection.encode("PING"), RespConnection.encode("SHUTDOWN", "NOSAVE"),
                    RespConnection.encode("SQL", "INSERT INTO t VALUES (3)")));
            assertEquals("+PONG\r\n", c.readReply());
            assertTrue(c.awaitClosedByServer((int) AWAIT_MILLIS));
            assertTrue(s.server().awaitTermination(AWAIT_MILLIS, TimeUnit.MILLISECONDS));
        }
        try (TestServer s = start()) {
            assertEquals(2L, q(s, "SELECT COUNT(*) FROM t"));
            try (RespConnection c = s.raw()) {
                assertEquals("-ERR syntax error\r\n", c.call("SHUTDOWN", "MAYBE"));
                assertEquals("-ERR syntax error\r\n", c.call("SHUTDOWN", "SAVE", "NOSAVE"));
            }
        }
    }

    @Test
    void shutdownWhoseSaveFailsKeepsTheServerRunning() throws Exception {
        Path gone = Files.createDirectory(dir.resolve("gone"));
        try (TestServer s = TestServer.start(c -> c.dir(gone))) {
            sql(s, "CREATE TABLE t (id INT PRIMARY KEY)");
            Files.delete(gone);
            try (RespConnection c = s.raw()) {
                String reply = c.call("SHUTDOWN", "SAVE");
                assertTrue(reply.startsWith("-ERR Errors trying to SHUTDOWN: saving the snapshot failed: "), reply);
                assertEquals("+PONG\r\n", c.call("PING"));
                assertTrue(c.call("SAVE").startsWith("-ERR saving the snapshot failed: "));
            }
            assertEquals("PONG", s.lettuce().ping());
        }
    }

    // ---- bad files -------------------------------------------------------------------------

    private Path savedSnapshot() throws Exception {
        try (TestServer s = start()) {
            sample(s);
            assertEquals("OK", s.lettuce().save());
        }
        return dir.resolve("dump.rsql");
    }

    @Test
    void corruptSnapshotStopsTheStartWithItsChecksums() throws Exception {
        Path file = savedSnapshot();
        byte[] bytes = Files.readAllBytes(file);
        int trailer = bytes.length - 12;
        bytes[trailer / 2] ^= 0x40;
        Files.write(file, bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, trailer);
        int stored = ByteBuffer.wrap(bytes, trailer, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        UncheckedIOException e = assertThrows(UncheckedIOException.class, this::start);
        String expected = String.format(Locale.ROOT, "Bad snapshot checksum in %s: expected %08x, found %08x",
                file, stored, (int) crc.getValue());
        assertEquals(expected, e.getMessage());
    }

    @Test
    void truncatedSnapshotStopsTheStart() throws Exception {
        Path file = savedSnapshot();
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 100));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, this::start);
        assertEquals("Snapshot " + file + " is truncated at offset " + (bytes.length - 100), e.getMessage());
    }
}
