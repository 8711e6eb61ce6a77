package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import io.respsql.persist.AppendOnlyFile;
import io.respsql.persist.CheckAof;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULTI/EXEC blocks in the append-only file: a block that took effect is one MULTI ... EXEC group
 * of its write records; blocks taken back, aborted or only reading leave nothing; a restart loads
 * the same data, also after a rewrite that ran while blocks were committed.
 */
class TransactionAofTest {
    private static final String MULTI = "*1\r\n$5\r\nMULTI\r\n";
    private static final String EXEC = "*1\r\n$4\r\nEXEC\r\n";

    @TempDir
    Path dir;

    private TestServer start() {
        TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
        // what is logged is under test here, not the event-loop bound: a loaded machine (CI beside
        // builds) can take a one-row SELECT in MULTI past 50 ms, which would abort the block
        try (RespConnection c = s.raw()) {
            org.junit.jupiter.api.Assertions.assertEquals("+OK\r\n", c.call("CONFIG", "SET", "loop-statement-max-ms", "0"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return s;
    }

    private Path aof() {
        return dir.resolve("appendonly.aof");
    }

    private static String record(String sql) {
        return "*2\r\n$3\r\nSQL\r\n$" + sql.getBytes(StandardCharsets.UTF_8).length + "\r\n" + sql + "\r\n";
    }

    private static String block(RespConnection c, String... statements) throws Exception {
        assertEquals("+OK\r\n", c.call("MULTI"));
        for (String st : statements) {
            assertEquals("+QUEUED\r\n", c.call("SQL", st));
        }
        return c.call("EXEC");
    }

    @Test
    void onlyBlocksThatTookEffectAreLoggedEachAsOneGroup() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = start(); RespConnection c = s.raw(); RespConnection other = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key, v int)"));
            assertEquals("*3\r\n+OK\r\n*1\r\n$4\r\n1,10\r\n:1\r\n",
                    block(c, "INSERT INTO t VALUES (1, 10)", "SELECT * FROM t", "UPDATE t SET v = v + 1"));
            // taken back
            assertTrue(block(c, "DELETE FROM t", "INSERT INTO t VALUES (1, 0), (1, 0)").startsWith("-ERR EXEC aborted"));
            // only reads
            assertEquals("*1\r\n*1\r\n$4\r\n1,11\r\n", block(c, "SELECT * FROM t"));
            // refused at queue time
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "DELETE FROM t"));
            assertTrue(c.call("SQL", "DELETE FROM").startsWith("-ERR"));
            assertTrue(c.call("EXEC").startsWith("-EXECABORT"));
            // aborted by WATCH
            assertEquals("+OK\r\n", c.call("WATCH", "t"));
            assertEquals("+OK\r\n", other.call("SQL", "INSERT INTO t VALUES (2, 20)"));
            assertEquals("*-1\r\n", block(c, "DELETE FROM t"));
            before = AofTest.dumpAll(s);
        }
        assertEquals(record("CREATE TABLE t (id int primary key, v int)") + MULTI + record("INSERT INTO t VALUES (1, 10)")
                + record("UPDATE t SET v = v + 1") + EXEC + record("INSERT INTO t VALUES (2, 20)"),
                Files.readString(aof(), StandardCharsets.UTF_8));
        try (TestServer s = start()) {
            assertEquals(before, AofTest.dumpAll(s));
        }
    }

    @Test
    void blocksCommittedDuringARewriteReachTheNewFile() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = start(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key, v int)"));
            assertEquals("*1\r\n+OK\r\n", block(c, "INSERT INTO t VALUES (1, 1), (2, 2)"));
            AppendOnlyFile log = s.server().appendOnlyFile();
            RewriteGate gate = new RewriteGate(log);
            assertEquals("+Background append only file rewriting started\r\n", c.call("BGREWRITEAOF"));
            assertTrue(gate.awaitHeld());
            assertEquals("*3\r\n:2\r\n+OK\r\n:1\r\n",
                    block(c, "UPDATE t SET v = v * 10", "CREATE TABLE u (id int)", "DELETE FROM t WHERE id = 1"));
            assertTrue(block(c, "DROP TABLE t", "SELECT * FROM nosuch").startsWith("-ERR EXEC aborted"));
            gate.release();
            assertTrue(log.rewriteDone().get(30, TimeUnit.SECONDS));
            log.rewriteHook(null);
            assertEquals("*1\r\n+OK\r\n", block(c, "INSERT INTO u VALUES (7)"));
            before = AofTest.dumpAll(s);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, CheckAof.run(new String[] {aof().toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err), out.toString(StandardCharsets.UTF_8));
        String file = new String(Files.readAllBytes(aof()), StandardCharsets.ISO_8859_1);
        assertTrue(file.startsWith("RSQLSNAP"), "a snapshot preamble");
        assertTrue(file.endsWith(MULTI + record("UPDATE t SET v = v * 10") + record("CREATE TABLE u (id int)")
                + record("DELETE FROM t WHERE id = 1") + EXEC + MULTI + record("INSERT INTO u VALUES (7)") + EXEC),
                file.substring(Math.max(0, file.length() - 400)));
        try (TestServer s = start()) {
            assertEquals(before, AofTest.dumpAll(s));
        }
    }
}
