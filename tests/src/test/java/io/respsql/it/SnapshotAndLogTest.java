package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import io.respsql.persist.AppendOnlyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots and the append-only file together: one capture at a time (a save and a log rewrite
 * exclude each other), and which file a restart loads.
 */
class SnapshotAndLogTest {
    @TempDir
    Path dir;

    private void fill(RespConnection c) throws java.io.IOException {
        assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, fk INT, name TEXT)"));
        assertEquals("+OK\r\n", c.call("SQL", "CREATE INDEX t:fk:index ON t (fk)"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (1, 10, 'one'), (2, 10, 'two'), (3, 20, 'three')"));
    }

    @Test
    void aSaveAndALogRewriteNeverRunAtOnce() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
             RespConnection c = s.raw()) {
            fill(c);
            AppendOnlyFile aof = s.server().appendOnlyFile();
            RewriteGate gate = new RewriteGate(aof);
            try {
                assertEquals("+Background append only file rewriting started\r\n", c.call("BGREWRITEAOF"));
                assertTrue(gate.awaitHeld());
                assertEquals("-ERR Background append only file rewriting already in progress\r\n", c.call("BGSAVE"));
                assertEquals("-ERR Background append only file rewriting already in progress\r\n", c.call("SAVE"));
                assertTrue(c.call("INFO", "persistence").contains("rdb_bgsave_in_progress:0\r\n"));
            } finally {
                gate.release();
            }
            assertTrue(aof.rewriteDone().get(30, TimeUnit.SECONDS));
            aof.rewriteHook(null);
            // The slot is free again: a save runs, and then a rewrite is refused while it does not.
            assertEquals("+OK\r\n", c.call("SAVE"));
            assertEquals("+Background saving started\r\n", c.call("BGSAVE"));
            String reply = c.call("BGREWRITEAOF");
            assertTrue(reply.equals("+Background append only file rewriting started\r\n")
                    || reply.equals("-ERR Background save already in progress\r\n"), reply);
        }
    }

    @Test
    void withTheLogOnButNoLogYetARestartLoadsTheSnapshotAndStartsTheLogFromIt() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("SAVE"));
            before = AofTest.dumpAll(s);
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = s.raw()) {
            assertEquals(before, AofTest.dumpAll(s));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (4, 20, 'four')"));
            before = AofTest.dumpAll(s);
        }
        // Now the log exists and holds the snapshot's data plus the insert: it alone is loaded.
        Files.delete(dir.resolve("dump.rsql"));
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true))) {
            assertEquals(before, AofTest.dumpAll(s));
        }
    }
}
