package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NULLs, tables without a primary key, DEFAULT/NOT NULL, UNIQUE and multi-column indexes and
 * views survive a restart: through a snapshot (SAVE) and through the append-only log.
 * The state is compared as DUMP of everything SHOW TABLES lists.
 */
class NullPersistenceTest {
    @TempDir
    Path dir;

    static void fill(RespConnection c) throws java.io.IOException {
        String[] statements = {
            "CREATE TABLE t (id INT PRIMARY KEY, n INT, f FLOAT DEFAULT 2.5, s TEXT NOT NULL DEFAULT 'd', b BIGINT)",
            "CREATE UNIQUE INDEX t_sb ON t (s, b DESC)",
            "INSERT INTO t VALUES (1, NULL, NULL, 'a,b', NULL), (2, 5, 0.5, '', 7)",
            "INSERT INTO t (id, n) VALUES (3, NULL)",
            "CREATE TABLE p (a INT, b TEXT)",
            "INSERT INTO p VALUES (1, NULL), (1, NULL), (NULL, 'x')",
            "CREATE INDEX p_ab ON p (a, b)",
            "CREATE VIEW tv AS SELECT id, s FROM t",
        };
        for (String st : statements) {
            assertEquals("+OK\r\n", c.call("SQL", st), st);
        }
    }

    @Test
    void aSnapshotKeepsNullsKeylessTablesIndexesAndViews() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            fill(c);
            before = AofTest.dumpAll(s);
            assertEquals("+OK\r\n", c.call("SAVE"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")));
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = s.raw()) {
            assertEquals(before, AofTest.dumpAll(s));
            assertEquals(List.of("t", "p", "tv"), s.dispatch("SHOW", "TABLES"));
            // The restored UNIQUE index still refuses a duplicate; NULL is no value of it.
            assertEquals("-ERR UNIQUE index 't_sb' of table 't' already has (s, b) = ('', 7)\r\n",
                    c.call("SQL", "INSERT INTO t VALUES (9, 1, 1, '', 7)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (9, 1, 1, 'a,b', NULL)"));
        }
    }

    @Test
    void theAppendOnlyLogReplaysNullsKeylessTablesIndexesAndViews() throws Exception {
        Map<String, List<Object>> before;
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
             RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("SQL", "DROP VIEW tv"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE VIEW IF NOT EXISTS pv AS SELECT a FROM p"));
            before = AofTest.dumpAll(s);
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true))) {
            assertEquals(before, AofTest.dumpAll(s));
        }
    }
}
