package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequences, SERIAL and identity columns over RESP (issue 24, "keys the database hands out"):
 * PostgreSQL's statements and errors, one value per call and per row (never folded or cached),
 * per-connection currval/lastval, and a value never handed out twice after a restart from the
 * append-only file or a snapshot.
 */
class SequencesTest {
    private static final String OK = "+OK\r\n";

    @TempDir
    Path dir;

    private static String pg(RespConnection c, String sql) throws Exception {
        return c.call("SQL", sql);
    }

    private static RespConnection pgConnection(TestServer s) throws Exception {
        RespConnection c = s.raw();
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        return c;
    }

    /** The one BIGINT a QUERY-less SELECT of one value gives in the 2010 row form. */
    private static long value(String reply) {
        assertTrue(reply.startsWith("*1\r\n$"), reply);
        String[] lines = reply.split("\r\n");
        return Long.parseLong(lines[2]);
    }

    @Test
    void nextvalCurrvalSetvalLastvalAsPostgresql() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = pgConnection(s); RespConnection other = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE SEQUENCE s"));
            assertEquals("-ERR relation \"s\" already exists\r\n", pg(c, "CREATE SEQUENCE s"));
            assertEquals(OK, pg(c, "CREATE SEQUENCE IF NOT EXISTS s"));
            assertEquals("-ERR lastval is not yet defined in this session\r\n", pg(c, "SELECT lastval()"));
            assertEquals("-ERR currval of sequence \"s\" is not yet defined in this session\r\n", pg(c, "SELECT currval('s')"));
            assertEquals(1, value(pg(c, "SELECT nextval('s')")));
            assertEquals(2, value(pg(c, "SELECT nextval('S')")));
            assertEquals(2, value(pg(c, "SELECT currval('s')")));
            assertEquals(3, value(pg(other, "SELECT nextval('public.s')")));
            assertEquals(2, value(pg(c, "SELECT currval('s')"))); // currval is the session's own
            assertEquals(3, value(pg(other, "SELECT lastval()")));
            assertEquals(10, value(pg(c, "SELECT setval('s', 10)")));
            assertEquals(10, value(pg(c, "SELECT lastval()"))); // setval of the last nextval's sequence moves lastval too
            assertEquals(11, value(pg(c, "SELECT nextval('s')")));
            assertEquals(20, value(pg(c, "SELECT setval('s', 20, false)")));
            assertEquals(20, value(pg(c, "SELECT nextval('s')")));
            assertEquals(11 + 10, value(pg(c, "SELECT nextval('s') + 0")));
            assertEquals("-ERR relation \"nope\" does not exist\r\n", pg(c, "SELECT nextval('nope')"));
            assertEquals("-ERR setval: value 0 is out of bounds for sequence \"s\" (1..9223372036854775807)\r\n",
                    pg(c, "SELECT setval('s', 0)"));
            // one value per row
            assertEquals(OK, pg(c, "CREATE TABLE t (id int4)"));
            assertEquals(OK, pg(c, "INSERT INTO t VALUES (1), (2), (3)"));
            assertEquals("*3\r\n$2\r\n22\r\n$2\r\n23\r\n$2\r\n24\r\n", pg(c, "SELECT nextval('s') FROM t"));
            assertEquals(OK, pg(c, "DISCARD SEQUENCES"));
            assertEquals("-ERR lastval is not yet defined in this session\r\n", pg(c, "SELECT lastval()"));
            assertEquals("-ERR currval of sequence \"s\" is not yet defined in this session\r\n", pg(c, "SELECT currval('s')"));
            assertEquals(OK, pg(c, "DROP SEQUENCE s"));
            assertEquals("-ERR relation \"s\" does not exist\r\n", pg(c, "SELECT nextval('s')"));
            assertEquals("-ERR relation \"s\" does not exist\r\n", pg(c, "DROP SEQUENCE s"));
            assertEquals(OK, pg(c, "DROP SEQUENCE IF EXISTS s"));
        }
    }

    @Test
    void optionsBoundsAndCycle() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE SEQUENCE d INCREMENT BY -2 MINVALUE -5 MAXVALUE 3 START WITH 3"));
            assertEquals(3, value(pg(c, "SELECT nextval('d')")));
            assertEquals(1, value(pg(c, "SELECT nextval('d')")));
            assertEquals(-1, value(pg(c, "SELECT nextval('d')")));
            assertEquals(-3, value(pg(c, "SELECT nextval('d')")));
            assertEquals(-5, value(pg(c, "SELECT nextval('d')")));
            assertEquals("-ERR nextval: reached minimum value of sequence \"d\" (-5)\r\n", pg(c, "SELECT nextval('d')"));
            assertEquals(OK, pg(c, "ALTER SEQUENCE d CYCLE"));
            assertEquals(3, value(pg(c, "SELECT nextval('d')")));
            assertEquals(OK, pg(c, "ALTER SEQUENCE d RESTART WITH 1"));
            assertEquals(1, value(pg(c, "SELECT nextval('d')")));
            assertEquals(OK, pg(c, "CREATE SEQUENCE small AS smallint START 32766"));
            assertEquals(32766, value(pg(c, "SELECT nextval('small')")));
            assertEquals(32767, value(pg(c, "SELECT nextval('small')")));
            assertEquals("-ERR nextval: reached maximum value of sequence \"small\" (32767)\r\n", pg(c, "SELECT nextval('small')"));
            assertEquals("-ERR INCREMENT must not be zero\r\n", pg(c, "CREATE SEQUENCE z INCREMENT 0"));
            assertEquals("-ERR MINVALUE (10) must be less than MAXVALUE (5)\r\n", pg(c, "CREATE SEQUENCE z MINVALUE 10 MAXVALUE 5"));
            assertEquals("-ERR START value (0) cannot be less than MINVALUE (1)\r\n", pg(c, "CREATE SEQUENCE z START 0"));
            assertEquals("-ERR MAXVALUE (100000) is out of range for sequence data type smallint\r\n",
                    pg(c, "CREATE SEQUENCE z AS smallint MAXVALUE 100000"));
            assertEquals(OK, pg(c, "DROP SEQUENCE d, small"));
            assertEquals("-ERR relation \"d\" does not exist\r\n", pg(c, "SELECT nextval('d')"));
        }
    }

    @Test
    void serialAndIdentityColumns() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE TABLE t (id serial PRIMARY KEY, v text)"));
            assertEquals(OK, pg(c, "INSERT INTO t (v) VALUES ('a'), ('b')"));
            assertEquals(OK, pg(c, "INSERT INTO t (v) VALUES ('c')"));
            assertEquals(OK, pg(c, "CREATE TABLE w (v text, id serial)"));
            assertEquals(OK, pg(c, "INSERT INTO w VALUES ('short row: id takes its DEFAULT')"));
            assertEquals(1, value(pg(c, "SELECT id FROM w")));
            assertTrue(pg(c, "DROP SEQUENCE w_id_seq").startsWith("-ERR cannot drop sequence w_id_seq because other objects depend on it"));
            assertEquals(OK, pg(c, "CREATE SEQUENCE by_name"));
            assertEquals(OK, pg(c, "CREATE TABLE n (v int8 DEFAULT nextval('by_name'::text))"));
            assertEquals(OK, pg(c, "DROP SEQUENCE by_name")); // looked up by name when it runs: no dependency
            assertEquals("-ERR relation \"by_name\" does not exist\r\n", pg(c, "INSERT INTO n SELECT nextval('by_name')"));
            assertEquals("*3\r\n$3\r\n1,a\r\n$3\r\n2,b\r\n$3\r\n3,c\r\n", pg(c, "SELECT id, v FROM t ORDER BY id"));
            assertEquals(3, value(pg(c, "SELECT currval('t_id_seq')")));
            assertEquals(OK, pg(c, "CREATE TABLE g (id int GENERATED ALWAYS AS IDENTITY (START WITH 100 INCREMENT BY 10), v text)"));
            assertEquals(OK, pg(c, "INSERT INTO g (v) VALUES ('x'), ('y')"));
            assertTrue(pg(c, "INSERT INTO g (id, v) VALUES (1, 'z')").startsWith("-ERR cannot insert a non-DEFAULT value into column \"id\""));
            assertEquals(OK, pg(c, "INSERT INTO g (id, v) OVERRIDING SYSTEM VALUE VALUES (1, 'z')"));
            assertEquals(OK, pg(c, "INSERT INTO g (id, v) OVERRIDING USER VALUE VALUES (5, 'w')"));
            assertEquals("-ERR column \"id\" can only be updated to DEFAULT\r\n", pg(c, "UPDATE g SET id = 7"));
            assertEquals("*4\r\n$3\r\n1,z\r\n$5\r\n100,x\r\n$5\r\n110,y\r\n$5\r\n120,w\r\n", pg(c, "SELECT id, v FROM g ORDER BY id"));
            assertEquals(OK, pg(c, "CREATE TABLE b (id bigint GENERATED BY DEFAULT AS IDENTITY, v text)"));
            assertEquals(OK, pg(c, "INSERT INTO b (id, v) VALUES (50, 'explicit')"));
            assertEquals(OK, pg(c, "INSERT INTO b (v) VALUES ('generated')"));
            assertEquals("*2\r\n$8\r\n1,generated\r\n$11\r\n50,explicit\r\n".replace("$8\r\n1,generated", "$11\r\n1,generated"),
                    pg(c, "SELECT id, v FROM b ORDER BY id"));
            assertTrue(pg(c, "DROP SEQUENCE g_id_seq").startsWith("-ERR cannot drop sequence g_id_seq"));
            assertEquals(":2\r\n", pg(c, "DROP TABLE t")); // the table and its primary key's index
            assertEquals("-ERR relation \"t_id_seq\" does not exist\r\n", pg(c, "SELECT nextval('t_id_seq')"));
            // the name a SERIAL's sequence would take is taken: the next free one
            assertEquals(OK, pg(c, "CREATE SEQUENCE u_id_seq"));
            assertEquals(OK, pg(c, "CREATE TABLE u (id bigserial, v text)"));
            assertEquals(OK, pg(c, "INSERT INTO u (v) VALUES ('a')"));
            assertEquals(1, value(pg(c, "SELECT currval('u_id_seq1')")));
        }
    }

    @Test
    void theDefaultDialectsPlanCacheNeverFoldsOrRepeatsNextval() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            assertEquals(OK, c.call("SQL", "CREATE SEQUENCE s"));
            assertEquals(OK, c.call("SQL", "CREATE TABLE t (id bigint DEFAULT nextval('s'), v int)"));
            for (int i = 1; i <= 5; i++) {
                assertEquals(OK, c.call("SQL", "INSERT INTO t (v) VALUES (" + i + ")"));
            }
            for (int i = 6; i <= 8; i++) {
                assertEquals(i, value(c.call("SQL", "SELECT nextval('s')")));
            }
            assertEquals(OK, c.call("SQL", "INSERT INTO t (v) VALUES (9), (10)"));
            // an identity column's rules hold for a cached INSERT and for a streamed (bulk) one alike
            assertEquals(OK, c.call("SQL", "CREATE TABLE g (id INT GENERATED ALWAYS AS IDENTITY, v INT)"));
            for (int i = 0; i < 3; i++) {
                assertTrue(c.call("SQL", "INSERT INTO g (id, v) VALUES (" + i + ", 1)").startsWith("-ERR cannot insert a non-DEFAULT value"));
            }
            StringBuilder bulk = new StringBuilder("INSERT INTO g (id, v) VALUES (0, 0)");
            for (int i = 1; i < 300; i++) {
                bulk.append(", (").append(i).append(", ").append(i).append(')');
            }
            assertTrue(c.call("SQL", bulk.toString()).startsWith("-ERR cannot insert a non-DEFAULT value"));
            assertEquals(":0\r\n", c.call("SQL", "SELECT COUNT(*) FROM g")); // nothing written
            assertEquals("*7\r\n$3\r\n1,1\r\n$3\r\n2,2\r\n$3\r\n3,3\r\n$3\r\n4,4\r\n$3\r\n5,5\r\n$3\r\n9,9\r\n$5\r\n10,10\r\n",
                    c.call("SQL", "SELECT id, v FROM t ORDER BY id"));
        }
    }

    private static final String[] NO_SAVE = {};

    /** Values handed out (reads, failed writes, rows) before a restart are never handed out after it. */
    @Test
    void aRestartFromTheAppendOnlyFileContinuesAfterEveryValueHandedOut() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE TABLE t (id serial PRIMARY KEY, v int4 UNIQUE)"));
            assertEquals(OK, pg(c, "INSERT INTO t (v) VALUES (1), (2)"));
            assertTrue(pg(c, "INSERT INTO t (v) VALUES (3), (1)").startsWith("-ERR")); // 3 and 4 consumed, no row
            assertEquals(5, value(pg(c, "SELECT nextval('t_id_seq')"))); // a read: not a logged write
            assertEquals(OK, pg(c, "CREATE SEQUENCE s START 7"));
            assertEquals(7, value(pg(c, "SELECT nextval('s')")));
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = pgConnection(s)) {
            assertEquals(6, value(pg(c, "SELECT nextval('t_id_seq')")));
            assertEquals(8, value(pg(c, "SELECT nextval('s')")));
            assertEquals(OK, pg(c, "INSERT INTO t (v) VALUES (10)"));
            assertEquals("*3\r\n$3\r\n1,1\r\n$3\r\n2,2\r\n$4\r\n7,10\r\n", pg(c, "SELECT id, v FROM t ORDER BY id"));
        }
    }

    @Test
    void aSnapshotKeepsSequencesAndIdentityColumns() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE TABLE g (id int GENERATED ALWAYS AS IDENTITY, v text)"));
            assertEquals(OK, pg(c, "INSERT INTO g (v) VALUES ('a'), ('b')"));
            assertEquals(OK, pg(c, "CREATE SEQUENCE s INCREMENT 5 MAXVALUE 1000 CYCLE"));
            assertEquals(1, value(pg(c, "SELECT nextval('s')")));
            assertEquals(6, value(pg(c, "SELECT nextval('s')")));
            assertEquals(OK, c.call("SAVE"));
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection c = pgConnection(s)) {
            assertEquals(11, value(pg(c, "SELECT nextval('s')")));
            assertTrue(pg(c, "INSERT INTO g (id, v) VALUES (9, 'z')").startsWith("-ERR cannot insert a non-DEFAULT value"));
            assertEquals(OK, pg(c, "INSERT INTO g (v) VALUES ('c')"));
            assertEquals("*3\r\n$3\r\n1,a\r\n$3\r\n2,b\r\n$3\r\n3,c\r\n", pg(c, "SELECT id, v FROM g ORDER BY id"));
            assertEquals(":1\r\n", pg(c, "DROP TABLE g"));
            assertEquals("-ERR relation \"g_id_seq\" does not exist\r\n", pg(c, "SELECT nextval('g_id_seq')"));
        }
    }

    @Test
    void selectFromASequenceReadsItsState() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE SEQUENCE s START 5"));
            assertEquals("*1\r\n$5\r\n5,0,0\r\n", pg(c, "SELECT * FROM s"));
            assertEquals(5, value(pg(c, "SELECT nextval('s')")));
            assertEquals("*1\r\n$5\r\n5,0,1\r\n", pg(c, "SELECT * FROM s"));
            assertEquals("*1\r\n$1\r\n5\r\n", pg(c, "SELECT last_value FROM s"));
            assertEquals(5, value(pg(c, "SELECT pg_sequence_last_value('s')")));
        }
    }

    /** A replica follows the master's sequences (reads, failed writes, blocks) and, promoted, hands out only new values. */
    @Test
    void aReplicaConvergesAndAfterFailoverNeverRepeatsAValue() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start(); RespConnection m = pgConnection(master)) {
            ReplicatedTransactionTest.replicate(master, replica);
            assertEquals(OK, pg(m, "CREATE TABLE t (id bigserial PRIMARY KEY, v int4 UNIQUE)"));
            assertEquals(OK, pg(m, "INSERT INTO t (v) VALUES (1), (2)"));
            assertTrue(pg(m, "INSERT INTO t (v) VALUES (3), (2)").startsWith("-ERR")); // consumes 3 and 4
            assertEquals(5, value(pg(m, "SELECT nextval('t_id_seq')")));
            assertEquals(OK, m.call("MULTI"));
            assertEquals("+QUEUED\r\n", pg(m, "SELECT nextval('t_id_seq')"));
            assertEquals("+QUEUED\r\n", pg(m, "INSERT INTO t (v) VALUES (7)"));
            assertTrue(m.call("EXEC").startsWith("*2\r\n"));
            String state = pg(m, "SELECT last_value, is_called FROM t_id_seq");
            assertEquals("*1\r\n$3\r\n7,1\r\n", state);
            RespConnection r = pgConnection(replica);
            long deadline = System.nanoTime() + 30_000_000_000L;
            String seen = pg(r, "SELECT last_value, is_called FROM t_id_seq");
            while (!seen.equals(state) && System.nanoTime() < deadline) {
                Thread.sleep(10);
                seen = pg(r, "SELECT last_value, is_called FROM t_id_seq");
            }
            assertEquals(state, seen);
            assertTrue(pg(r, "SELECT nextval('t_id_seq')").startsWith("-ERR cannot execute nextval()"), "a replica is read-only");
            assertEquals(OK, r.call("REPLICAOF", "NO", "ONE"));
            assertEquals(8, value(pg(r, "SELECT nextval('t_id_seq')")));
            assertEquals(OK, pg(r, "INSERT INTO t (v) VALUES (9)"));
            assertEquals("*4\r\n$3\r\n1,1\r\n$3\r\n2,2\r\n$3\r\n7,7\r\n$3\r\n9,9\r\n", pg(r, "SELECT id, v FROM t ORDER BY id"));
        }
    }

    /** In MULTI/EXEC: DDL is taken back with the block, a value handed out is not (as PostgreSQL), also after a restart. */
    @Test
    void aBlockThatFailsTakesItsDdlBackButNoValue() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = pgConnection(s)) {
            assertEquals(OK, pg(c, "CREATE SEQUENCE s"));
            assertEquals(OK, c.call("MULTI"));
            assertEquals("+QUEUED\r\n", pg(c, "CREATE SEQUENCE made_in_block"));
            assertEquals("+QUEUED\r\n", pg(c, "SELECT nextval('s')"));
            assertEquals("+QUEUED\r\n", pg(c, "INSERT INTO missing VALUES (1)"));
            assertTrue(c.call("EXEC").startsWith("-ERR EXEC aborted"));
            assertEquals("-ERR relation \"made_in_block\" does not exist\r\n", pg(c, "SELECT nextval('made_in_block')"));
            assertEquals(2, value(pg(c, "SELECT nextval('s')")));
            assertEquals(OK, c.call("MULTI"));
            assertEquals("+QUEUED\r\n", pg(c, "SELECT nextval('s')"));
            assertEquals("+QUEUED\r\n", pg(c, "INSERT INTO missing VALUES (1)"));
            assertTrue(c.call("EXEC").startsWith("-ERR EXEC aborted"));
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = pgConnection(s)) {
            assertEquals(4, value(pg(c, "SELECT nextval('s')")));
            assertEquals("-ERR relation \"made_in_block\" does not exist\r\n", pg(c, "SELECT nextval('made_in_block')"));
        }
    }
}
