package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALTER TABLE, DROP TABLE ... CASCADE, TRUNCATE and CREATE TABLE AS over the wire, in PostgreSQL's
 * dialect (pgjdbc, and RESP after {@code SET sql_dialect TO postgresql}): each action, a failing
 * action leaving the table as it was, MULTI/EXEC, a restart from the append-only file and from a
 * snapshot, and a replica converging.
 */
class AlterTableTest {
    private static final String OK = "+OK\r\n";
    private static final String QUEUED = "+QUEUED\r\n";

    @TempDir
    Path dir;

    private static Connection pg(TestServer s) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + s.host() + ":" + s.server().pgPort() + "/respsql", "tester", "");
    }

    /** Every row of {@code sql}, each as its values joined by '|' (NULL as "null"). */
    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    private static List<String> columns(Statement st, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT * FROM " + table + " LIMIT 0")) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.add(rs.getMetaData().getColumnName(i) + ":" + rs.getMetaData().getColumnTypeName(i));
            }
        }
        return out;
    }

    private static String sqlState(Statement st, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
        return e.getSQLState();
    }

    @Test
    void eachActionChangesTheTableAsPostgresql() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, fk int, n text)");
            st.execute("CREATE INDEX t_fk ON t (fk)");
            st.execute("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, NULL), (3, 30, 'c')");

            st.execute("ALTER TABLE t ADD COLUMN c int DEFAULT 7 NOT NULL");
            st.execute("ALTER TABLE t ADD d text");
            st.execute("ALTER TABLE t ADD COLUMN IF NOT EXISTS d int");
            assertEquals(List.of("1|10|a|7|null", "2|20|null|7|null", "3|30|c|7|null"), rows(st, "SELECT * FROM t ORDER BY id"));
            st.execute("INSERT INTO t (id, fk) VALUES (4, 40)");
            assertEquals(List.of("4|7"), rows(st, "SELECT id, c FROM t WHERE id = 4"));

            st.execute("ALTER TABLE t RENAME COLUMN n TO name");
            st.execute("ALTER TABLE t ALTER COLUMN c SET DEFAULT 8, ALTER d SET DEFAULT 'x'");
            st.execute("INSERT INTO t (id, fk) VALUES (5, 50)");
            assertEquals(List.of("5|8|x"), rows(st, "SELECT id, c, d FROM t WHERE id = 5"));
            st.execute("ALTER TABLE t ALTER COLUMN c DROP DEFAULT, ALTER COLUMN c DROP NOT NULL");
            st.execute("INSERT INTO t (id, fk) VALUES (6, 60)");
            assertEquals(List.of("6|null"), rows(st, "SELECT id, c FROM t WHERE id = 6"));
            assertEquals("23502", sqlState(st, "ALTER TABLE t ALTER COLUMN c SET NOT NULL"));
            st.execute("ALTER TABLE t ALTER COLUMN fk SET NOT NULL");
            assertEquals("23502", sqlState(st, "INSERT INTO t (id) VALUES (7)"));

            st.execute("ALTER TABLE t ALTER COLUMN fk TYPE bigint");
            st.execute("ALTER TABLE t ALTER COLUMN name SET DATA TYPE text");
            assertEquals("42804", sqlState(st, "ALTER TABLE t ALTER COLUMN name TYPE int"));
            // the DEFAULT 'x' cannot become an int: refused as PostgreSQL does, the column unchanged
            assertEquals("42804", sqlState(st, "ALTER TABLE t ALTER COLUMN d TYPE int USING length(d)"));
            st.execute("ALTER TABLE t ALTER COLUMN d DROP DEFAULT, ALTER COLUMN d TYPE int USING length(d)");
            assertEquals(List.of("1|10|null", "5|50|1"), rows(st, "SELECT id, fk, d FROM t WHERE id IN (1, 5) ORDER BY id"));
            assertTrue(columns(st, "t").contains("fk:int8"), columns(st, "t").toString());
            // the index over fk was built again over the new column: a probe finds the row
            assertEquals(List.of("3"), rows(st, "SELECT id FROM t WHERE fk = 30"));

            st.execute("ALTER TABLE t DROP COLUMN fk");
            assertEquals("42703", sqlState(st, "SELECT fk FROM t"));
            assertEquals("42704", sqlState(st, "DROP INDEX t_fk"));
            st.execute("ALTER TABLE t DROP COLUMN IF EXISTS nothing");
            assertEquals("42703", sqlState(st, "ALTER TABLE t DROP COLUMN nothing"));
            st.execute("ALTER TABLE t RENAME TO u");
            assertEquals("42P01", sqlState(st, "SELECT * FROM t"));
            assertEquals(List.of("id:int4", "name:text", "c:int4", "d:int4"), columns(st, "u"));
            st.execute("ALTER TABLE IF EXISTS t ADD COLUMN z int");
            assertEquals("42P01", sqlState(st, "ALTER TABLE t ADD COLUMN z int"));
            // constraint actions (the constraints branch): validated against the rows already there, then enforced
            st.execute("ALTER TABLE u ADD COLUMN e int DEFAULT 1 CHECK (e > 0)");
            assertEquals("23514", sqlState(st, "INSERT INTO u (id, e) VALUES (100, 0)"));
            assertEquals("23514", sqlState(st, "ALTER TABLE u ADD CONSTRAINT u_c CHECK (id < 0)"));
            st.execute("ALTER TABLE u ADD CONSTRAINT u_c CHECK (id >= 0)");
            assertEquals("23514", sqlState(st, "INSERT INTO u (id) VALUES (-5)"));
            st.execute("ALTER TABLE u DROP CONSTRAINT u_c");
            st.execute("INSERT INTO u (id) VALUES (-5)");
        }
    }

    @Test
    void aFailingLaterActionLeavesTheTableUnchanged() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v int, w text)");
            st.execute("CREATE INDEX t_v ON t (v)");
            st.execute("INSERT INTO t VALUES (1, 1, 'a'), (2, NULL, 'b')");
            List<String> before = rows(st, "SELECT * FROM t ORDER BY id");
            List<String> shape = columns(st, "t");
            assertEquals("23502", sqlState(st,
                    "ALTER TABLE t ADD COLUMN x int DEFAULT 5, DROP COLUMN v, RENAME COLUMN w TO ww, ALTER COLUMN id TYPE bigint, ALTER COLUMN x SET NOT NULL, ADD COLUMN y int NOT NULL"));
            assertEquals(before, rows(st, "SELECT * FROM t ORDER BY id"));
            assertEquals(shape, columns(st, "t"));
            assertEquals(List.of("1"), rows(st, "SELECT id FROM t WHERE v = 1")); // the index is back
            st.execute("DROP INDEX t_v"); // and known to the catalog
            assertEquals("42601", sqlState(st, "ALTER TABLE t ADD COLUMN")); // a syntax error changes nothing either
            st.execute("CREATE UNIQUE INDEX t_w ON t (w)");
            assertEquals("23505", sqlState(st, "ALTER TABLE t ALTER COLUMN w TYPE text USING 'same'"));
            assertEquals(before, rows(st, "SELECT * FROM t ORDER BY id"));
        }
    }

    @Test
    void viewsDependingOnAColumnOrTableRefuseWithoutCascade() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v int, w int)");
            st.execute("INSERT INTO t VALUES (1, 2, 3)");
            st.execute("CREATE VIEW tv AS SELECT id, v FROM t");
            st.execute("CREATE VIEW tvv AS SELECT v FROM tv");
            st.execute("ALTER TABLE t DROP COLUMN w"); // no view uses it
            assertEquals("2BP01", sqlState(st, "ALTER TABLE t DROP COLUMN v"));
            assertEquals(List.of("2"), rows(st, "SELECT v FROM tvv"));
            assertEquals("2BP01", sqlState(st, "DROP TABLE t"));
            assertEquals("2BP01", sqlState(st, "DROP TABLE t RESTRICT"));
            st.execute("ALTER TABLE t DROP COLUMN v CASCADE");
            assertEquals("42P01", sqlState(st, "SELECT * FROM tv"));
            assertEquals("42P01", sqlState(st, "SELECT * FROM tvv"));
            st.execute("CREATE VIEW tv AS SELECT id FROM t");
            st.execute("CREATE TABLE u (a int)");
            st.execute("DROP TABLE t, u CASCADE");
            assertEquals("42P01", sqlState(st, "SELECT * FROM tv"));
            assertEquals("42P01", sqlState(st, "SELECT * FROM u"));
            st.execute("DROP TABLE IF EXISTS t, u");
            st.execute("CREATE TABLE a (x int)");
            assertEquals("42P01", sqlState(st, "DROP TABLE a, missing"));
            assertEquals(List.of(), rows(st, "SELECT * FROM a")); // still there: nothing was dropped
        }
    }

    @Test
    void truncateEmptiesAndKeepsTheDefinition() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v text DEFAULT 'd')");
            st.execute("CREATE TABLE u (id int)");
            st.execute("INSERT INTO t (id) VALUES (1), (2)");
            st.execute("INSERT INTO u VALUES (1)");
            st.execute("TRUNCATE t, u RESTART IDENTITY CASCADE");
            assertEquals(List.of(), rows(st, "SELECT * FROM t"));
            assertEquals(List.of(), rows(st, "SELECT * FROM u"));
            st.execute("INSERT INTO t (id) VALUES (1)"); // the primary key's index was emptied too
            assertEquals(List.of("1|d"), rows(st, "SELECT * FROM t WHERE id = 1"));
            assertEquals("23505", sqlState(st, "INSERT INTO t VALUES (1, 'x')"));
            st.execute("TRUNCATE TABLE ONLY u");
            assertEquals("42P01", sqlState(st, "TRUNCATE t, missing"));
            assertEquals(List.of("1|d"), rows(st, "SELECT * FROM t"));
        }
    }

    @Test
    void createTableAsAndSelectInto() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v text, f float8) WITH (fillfactor = 70)");
            st.execute("INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b', 2.5)");
            st.execute("CREATE TABLE c AS SELECT id, v || '!' AS vv FROM t WHERE id > 1");
            assertEquals(List.of("2|b!"), rows(st, "SELECT * FROM c"));
            assertEquals(List.of("id:int4", "vv:text"), columns(st, "c"));
            st.execute("CREATE TABLE e (x, y) AS SELECT id, f FROM t WITH NO DATA");
            assertEquals(List.of(), rows(st, "SELECT * FROM e"));
            assertEquals(List.of("x:int4", "y:float8"), columns(st, "e"));
            st.execute("SELECT id, f INTO s FROM t ORDER BY id");
            assertEquals(List.of("1|1.5", "2|2.5"), rows(st, "SELECT * FROM s ORDER BY id"));
            assertEquals("42P07", sqlState(st, "CREATE TABLE c AS SELECT 1"));
            st.execute("CREATE TABLE IF NOT EXISTS c AS SELECT 1");
            assertEquals("22023", sqlState(st, "CREATE TABLE x (a int) WITH (\"Fillfactor\" = 10)"));
            st.execute("CREATE UNLOGGED TABLE x (a int) WITH (FILLFACTOR = 10, autovacuum_enabled = false, toast.autovacuum_enabled = false)");
        }
    }

    @Test
    void varcharRefusesALongerValueInPostgresqlsDialect() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE v (id int PRIMARY KEY, s varchar(3), t character varying(2), u text)");
            st.execute("INSERT INTO v VALUES (1, 'abc', 'é€', 'long text')");
            assertEquals("22001", sqlState(st, "INSERT INTO v VALUES (2, 'abcd', 'a', 'x')"));
            assertEquals("22001", sqlState(st, "UPDATE v SET t = 'abc' WHERE id = 1"));
            assertEquals("22001", sqlState(st, "UPDATE v SET s = s || 'x'"));
            st.execute("INSERT INTO v VALUES (3, 'ab    ', 'a ', NULL)"); // blanks past the length are cut, as PostgreSQL does
            assertEquals(List.of("1|abc|é€", "3|ab |a "), rows(st, "SELECT id, s, t FROM v ORDER BY id"));
            st.execute("ALTER TABLE v ADD COLUMN w varchar(1) DEFAULT 'z'");
            assertEquals("22001", sqlState(st, "ALTER TABLE v ADD COLUMN x varchar(1) DEFAULT 'zz'"));
            assertEquals("22001", sqlState(st, "ALTER TABLE v ALTER COLUMN s TYPE varchar(2)"));
            st.execute("ALTER TABLE v ALTER COLUMN s TYPE varchar(5)");
            st.execute("UPDATE v SET s = 'abcde' WHERE id = 1");
            assertEquals("22001", sqlState(st, "UPDATE v SET s = 'abcdef' WHERE id = 1"));
            try (RespConnection r = s.raw()) {
                assertEquals(OK, r.call("SAVE"));
            }
        }
        // the length survives a snapshot
        try (TestServer s = TestServer.start(c -> c.dir(dir).pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            assertEquals("22001", sqlState(st, "UPDATE v SET s = 'abcdef' WHERE id = 1"));
            assertEquals("22001", sqlState(st, "INSERT INTO v (id, w) VALUES (9, 'ab')"));
            assertEquals(List.of("1|abcde|z"), rows(st, "SELECT id, s, w FROM v WHERE id = 1"));
        }
    }

    @Test
    void indexesAndViewsAreRenamedToo() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v int)");
            st.execute("CREATE INDEX t_v ON t (v)");
            st.execute("CREATE VIEW tv AS SELECT id FROM t");
            st.execute("ALTER INDEX t_v RENAME TO t_v2");
            st.execute("ALTER INDEX IF EXISTS missing RENAME TO other");
            assertEquals("42704", sqlState(st, "DROP INDEX t_v"));
            st.execute("ALTER VIEW tv RENAME TO tv2");
            st.execute("ALTER TABLE tv2 RENAME TO tv3");
            st.execute("INSERT INTO t VALUES (1, 2)");
            assertEquals(List.of("1"), rows(st, "SELECT * FROM tv3"));
            st.execute("DROP INDEX t_v2");
        }
    }

    @Test
    void aLargeTableGetsItsNewColumnsWithoutVisitingTheRows() throws Exception {
        int n = 150_000; // more than two 64K-row chunks: the shared-chunk path
        try (TestServer s = TestServer.start(c -> c.dir(dir).pgPort(0)); Connection c = pg(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE big (id int PRIMARY KEY, fk int)");
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= n; ) {
                b.setLength(0);
                b.append("INSERT INTO big VALUES ");
                for (int k = 0; k < 5000 && i <= n; k++, i++) {
                    b.append(k == 0 ? "(" : ",(").append(i).append(',').append(i % 100).append(')');
                }
                st.execute(b.toString());
            }
            st.execute("DELETE FROM big WHERE id % 1000 = 0");
            st.execute("ALTER TABLE big ADD COLUMN c int DEFAULT 7, ADD COLUMN d text DEFAULT 'x', ADD COLUMN e float8, ADD COLUMN f bigint DEFAULT -1 NOT NULL");
            assertEquals(List.of("149850|1048950|149850|0|-149850"),
                    rows(st, "SELECT count(*), sum(c), count(d), count(e), sum(f) FROM big WHERE d = 'x'"));
            st.execute("UPDATE big SET c = 8, d = 'y', e = 0.5 WHERE fk = 3");
            st.execute("INSERT INTO big (id, fk) VALUES (1000, 3), (" + (n + 1) + ", 3)");
            assertEquals(List.of("1502|12014|1502|1500"), rows(st, "SELECT count(*), sum(c), count(d), count(e) FROM big WHERE fk = 3 AND c >= 7"));
            assertEquals(List.of("1"), rows(st, "SELECT count(*) FROM big WHERE id = " + (n + 1) + " AND c = 7 AND d = 'x' AND e IS NULL AND f = -1"));
            try (RespConnection r = s.raw()) {
                assertEquals(OK, r.call("SAVE"));
            }
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).pgPort(0)); Connection c = pg(s); Statement st = c.createStatement();
                RespConnection r = s.raw()) {
            assertEquals(List.of("149852|1050464|1500"), rows(st, "SELECT count(*), sum(c), count(e) FROM big"));
            // a block takes back an ADD COLUMN and a TRUNCATE of the large table
            assertEquals(OK, r.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals(OK, r.call("MULTI"));
            assertEquals(QUEUED, r.call("SQL", "ALTER TABLE big ADD COLUMN g int DEFAULT 1"));
            assertEquals(QUEUED, r.call("SQL", "UPDATE big SET g = 2 WHERE fk = 5"));
            assertEquals(QUEUED, r.call("SQL", "TRUNCATE big"));
            assertEquals(QUEUED, r.call("SQL", "INSERT INTO big (id, fk) VALUES (1, 1), (1, 1)"));
            assertTrue(r.call("EXEC").contains("-"));
            assertEquals(List.of("149852|1050464|1500"), rows(st, "SELECT count(*), sum(c), count(e) FROM big"));
            assertEquals("42703", sqlState(st, "SELECT g FROM big"));
            assertEquals(List.of("1500"), rows(st, "SELECT count(*) FROM big WHERE fk = 5"));
            // a type change too large for the write bound is refused, changing nothing; without a bound it runs
            assertEquals(OK, r.call("CONFIG", "SET", "loop-write-max-ms", "1"));
            assertEquals("54000", sqlState(st, "ALTER TABLE big ALTER COLUMN c TYPE bigint"));
            assertTrue(columns(st, "big").contains("c:int4"), columns(st, "big").toString());
            assertEquals(OK, r.call("CONFIG", "SET", "loop-write-max-ms", "0"));
            st.execute("ALTER TABLE big ALTER COLUMN c TYPE bigint");
            assertEquals(List.of("149852|1050464"), rows(st, "SELECT count(*), sum(c) FROM big"));
            assertTrue(columns(st, "big").contains("c:int8"), columns(st, "big").toString());
        }
    }

    /** The writes of {@link #durability}, on a RESP connection in PostgreSQL's dialect, one block among them. */
    private static void write(RespConnection c) throws Exception {
        assertEquals(OK, c.call("SQL", "SET sql_dialect TO postgresql"));
        assertEquals(OK, c.call("SQL", "CREATE TABLE t (id int PRIMARY KEY, v int, w text)"));
        assertEquals(OK, c.call("SQL", "INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')"));
        assertEquals(OK, c.call("SQL", "ALTER TABLE t ADD COLUMN k int DEFAULT 5, RENAME COLUMN w TO ww"));
        assertEquals(OK, c.call("MULTI"));
        assertEquals(QUEUED, c.call("SQL", "ALTER TABLE t DROP COLUMN v"));
        assertEquals(QUEUED, c.call("SQL", "INSERT INTO t (id, ww) VALUES (4, 'd')"));
        assertEquals(QUEUED, c.call("SQL", "ALTER TABLE t ALTER COLUMN k TYPE bigint USING k * 2"));
        String exec = c.call("EXEC");
        assertTrue(exec.startsWith("*3\r\n+OK\r\n+OK\r\n+OK\r\n"), exec);
        // a block whose last statement fails takes back its ALTER and TRUNCATE
        assertEquals(OK, c.call("MULTI"));
        assertEquals(QUEUED, c.call("SQL", "ALTER TABLE t ADD COLUMN gone int"));
        assertEquals(QUEUED, c.call("SQL", "TRUNCATE t"));
        assertEquals(QUEUED, c.call("SQL", "INSERT INTO t (id) VALUES (1)")); // the table is empty now: goes in
        assertEquals(QUEUED, c.call("SQL", "INSERT INTO t (id) VALUES (1)")); // duplicate key: the block fails
        String failed = c.call("EXEC");
        assertTrue(failed.contains("-"), failed);
        assertEquals(OK, c.call("SQL", "CREATE TABLE c AS SELECT id, ww FROM t WHERE id < 3"));
        assertEquals(OK, c.call("SQL", "TRUNCATE c"));
        assertEquals(OK, c.call("SQL", "INSERT INTO c VALUES (9, 'z')"));
    }

    private static final String ROWS = "SELECT * FROM t ORDER BY id";

    private static String read(RespConnection c) throws Exception {
        return c.call("SQL", ROWS) + c.call("SQL", "SELECT * FROM c");
    }

    @Test
    void durability() throws Exception {
        String expected;
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
                RespConnection c = s.raw(); RespConnection plain = s.raw()) {
            write(c);
            expected = read(plain);
            assertEquals("*4\r\n$6\r\n1,a,10\r\n$6\r\n2,b,10\r\n$6\r\n3,c,10\r\n$6\r\n4,d,10\r\n*1\r\n$3\r\n9,z\r\n", expected);
        }
        // restart from the append-only file
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection plain = s.raw()) {
            assertEquals(expected, read(plain));
            assertEquals(OK, plain.call("SAVE"));
        }
        // restart from the snapshot alone
        Files.delete(dir.resolve("appendonly.aof"));
        try (TestServer s = TestServer.start(c -> c.dir(dir)); RespConnection plain = s.raw()) {
            assertEquals(expected, read(plain));
        }
        // a replica converges
        Path replicaDir = Files.createDirectory(dir.resolve("replica"));
        Path masterDir = Files.createDirectory(dir.resolve("master"));
        try (TestServer master = TestServer.start(c -> c.dir(masterDir));
                TestServer replica = TestServer.start(c -> c.dir(replicaDir));
                RespConnection m = master.raw()) {
            ReplicatedTransactionTest.replicate(master, replica);
            write(m);
            RespConnection r = replica.raw();
            long deadline = System.nanoTime() + 30_000_000_000L;
            String got = read(r);
            while (!got.equals(expected) && System.nanoTime() < deadline) {
                Thread.sleep(10);
                got = read(r);
            }
            assertEquals(expected, got);
        }
    }
}
