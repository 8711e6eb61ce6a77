package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writes made in PostgreSQL's dialect ({@code SET sql_dialect TO postgresql}) survive a restart
 * from the append-only file and reach a replica with the same meaning: they are logged and
 * streamed as {@code PGSQL} records and replayed in that dialect, also inside a MULTI block that
 * switches dialect half-way. The statements mean something else in the default dialect ({@code ::}
 * does not parse there, x / 0 is NULL there and an error in PostgreSQL's, LIKE ignores case only
 * there), so a replay in the wrong one fails or gives other rows.
 */
class DialectLogTest {
    private static final String OK = "+OK\r\n";
    private static final String QUEUED = "+QUEUED\r\n";
    private static final String ROWS = "SELECT id, v, s FROM t ORDER BY id";

    @TempDir
    Path dir;

    /** The writes, on a connection in PostgreSQL's dialect; the block switches to sqlite and back. */
    private static void write(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(OK, c.call("SQL", "CREATE TABLE t (id int4 PRIMARY KEY, v int4, s text)"));
        assertEquals(OK, c.call("SQL", "INSERT INTO t VALUES (1, '5'::int, 'abc'), (2, 2.7::int, 'ABD'), (3, 3, 'x')"));
        assertEquals(":1\r\n", c.call("SQL", "DELETE FROM t WHERE s LIKE 'a%'")); // case-sensitive: 'ABD' stays
        assertEquals(OK, c.call("MULTI"));
        assertEquals(QUEUED, c.call("SQL", "INSERT INTO t VALUES (4, '40'::int4, 'aa')"));
        assertEquals(QUEUED, c.call("SQL", "SET sql_dialect TO sqlite"));
        assertEquals(QUEUED, c.call("SQL", "UPDATE t SET v = v + 100 WHERE s LIKE 'A%'")); // ignores case: 'ABD' and 'aa'
        assertEquals(QUEUED, c.call("SQL", "UPDATE t SET v = 1 / 0 WHERE id = 3")); // NULL here, an error in PostgreSQL's
        assertEquals(QUEUED, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(QUEUED, c.call("SQL", "UPDATE t SET s = s || '!' WHERE s LIKE 'a%'")); // only 'aa'
        String exec = c.call("EXEC");
        assertTrue(exec.startsWith("*6\r\n+OK\r\n+OK\r\n:2\r\n:1\r\n+OK\r\n:1\r\n"), exec);
    }

    /** The rows the writes leave, as a default-dialect connection reads them. */
    private static final String EXPECTED = "*3\r\n"
            + "$9\r\n2,103,ABD\r\n"
            + "$4\r\n3,,x\r\n"
            + "$9\r\n4,140,aa!\r\n";

    @Test
    void aRestartFromTheAppendOnlyFileReadsTheSameRows() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw(); RespConnection plain = s.raw()) {
            write(c);
            assertEquals(EXPECTED, plain.call("SQL", ROWS));
        }
        String aof = Files.readString(dir.resolve("appendonly.aof"), StandardCharsets.ISO_8859_1);
        assertTrue(aof.contains("*2\r\n$5\r\nPGSQL\r\n$"), aof);
        assertTrue(aof.contains("*2\r\n$3\r\nSQL\r\n$35\r\nUPDATE t SET v = 1 / 0 WHERE id = 3\r\n"), aof);
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true));
                RespConnection plain = s.raw(); RespConnection pg = s.raw()) {
            assertEquals(EXPECTED, plain.call("SQL", ROWS));
            assertEquals(OK, pg.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals(EXPECTED, pg.call("SQL", ROWS));
        }
    }

    @Test
    void writesOverThePostgresqlProtocolReplayInItsDialect() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS).pgPort(0));
                java.sql.Connection pg = java.sql.DriverManager.getConnection(
                        "jdbc:postgresql://" + s.host() + ":" + s.server().pgPort() + "/respsql", "tester", "");
                java.sql.Statement st = pg.createStatement()) {
            st.execute("CREATE TABLE p (id int4 PRIMARY KEY, v int4, s text)");
            st.execute("INSERT INTO p VALUES (1, '5'::int, 'Ab'), (2, 2.7::int, 'ab')");
            assertEquals(1, st.executeUpdate("DELETE FROM p WHERE s LIKE 'a%'"));
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection plain = s.raw()) {
            assertEquals("*1\r\n$6\r\n1,5,Ab\r\n", plain.call("SQL", "SELECT id, v, s FROM p ORDER BY id"));
        }
    }

    @Test
    void aFileWithoutPostgresWritesHasOnlySqlRecords() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw()) {
            assertEquals(OK, c.call("SQL", "CREATE TABLE t (id int PRIMARY KEY, v int)"));
            assertEquals(OK, c.call("SQL", "INSERT INTO t VALUES (1, 1 / 0)"));
        }
        String create = "CREATE TABLE t (id int PRIMARY KEY, v int)";
        String insert = "INSERT INTO t VALUES (1, 1 / 0)";
        assertEquals("*2\r\n$3\r\nSQL\r\n$" + create.length() + "\r\n" + create + "\r\n"
                        + "*2\r\n$3\r\nSQL\r\n$" + insert.length() + "\r\n" + insert + "\r\n",
                Files.readString(dir.resolve("appendonly.aof"), StandardCharsets.ISO_8859_1));
    }

    @Test
    void aReplicaGetsTheSameRowsAndLogsThemInTheirDialect() throws Exception {
        Path replicaDir = Files.createDirectory(dir.resolve("replica"));
        try (TestServer master = TestServer.start();
                TestServer replica = TestServer.start(c -> c.dir(replicaDir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection m = master.raw()) {
            ReplicatedTransactionTest.replicate(master, replica); // before the writes: they arrive as the stream, not a snapshot
            write(m);
            RespConnection r = replica.raw();
            long deadline = System.nanoTime() + 30_000_000_000L;
            String rows = r.call("SQL", ROWS);
            while (!rows.equals(EXPECTED) && System.nanoTime() < deadline) {
                Thread.sleep(10);
                rows = r.call("SQL", ROWS);
            }
            assertEquals(EXPECTED, rows);
            assertEquals("up", ReplicatedTransactionTest.info(r, "replication", "master_link_status"));
            // The replica's own file logs what it applied in the dialect it ran in (written after the apply: polled).
            Path file = replicaDir.resolve("appendonly.aof");
            String aof = Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
            while (!aof.contains("UPDATE t SET s = s || '!'") && System.nanoTime() < deadline) {
                Thread.sleep(10);
                aof = Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
            }
            assertTrue(aof.contains("*2\r\n$5\r\nPGSQL\r\n$43\r\nUPDATE t SET s = s || '!' WHERE s LIKE 'a%'\r\n"), aof);
            assertFalse(aof.contains("PGSQL\r\n$35\r\nUPDATE t SET v = 1 / 0"), aof);
        }
    }
}
