package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
 * CHECK, UNIQUE, PRIMARY KEY, NOT NULL and FOREIGN KEY constraints over PostgreSQL's protocol (and
 * RESP for MULTI/EXEC and restarts): each kind on each write path (INSERT, INSERT ... SELECT,
 * UPDATE, DELETE, ALTER TABLE ... ADD CONSTRAINT, a MULTI block, a restart from the log and from a
 * snapshot), with PostgreSQL's SQLSTATEs and messages; a violation changes nothing.
 */
@Timeout(120)
class ConstraintsTest {
    @TempDir
    Path dir;
    private TestServer server;
    private Connection pg;
    private Statement st;

    @BeforeEach
    void start() throws SQLException {
        server = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
        connect();
    }

    private void connect() throws SQLException {
        pg = DriverManager.getConnection("jdbc:postgresql://" + server.host() + ":" + server.server().pgPort() + "/respsql", "tester", "");
        st = pg.createStatement();
    }

    @AfterEach
    void stop() throws SQLException {
        if (pg != null) {
            pg.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void restart() throws SQLException {
        pg.close();
        server.close();
        server = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
        connect();
    }

    private SQLException fails(String sqlState, String message, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
        assertEquals(sqlState, e.getSQLState(), sql + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
        return e;
    }

    private String rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i == 1 ? "" : ",").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return String.join(" ", out);
    }

    @Test
    void checkConstraintsOnEveryWritePath() throws SQLException {
        st.execute("CREATE TABLE t (a int CHECK (a > 0), b int, c text, CONSTRAINT b_small CHECK (b < 10), CHECK (a < b OR b IS NULL))");
        st.execute("INSERT INTO t VALUES (1, 5, 'x'), (2, NULL, 'y')"); // NULL passes
        fails("23514", "new row for relation \"t\" violates check constraint \"t_a_check\"", "INSERT INTO t VALUES (0, 5, 'z')");
        fails("23514", "violates check constraint \"b_small\"", "INSERT INTO t VALUES (3, 4, 'ok'), (4, 10, 'no')");
        fails("23514", "violates check constraint \"t_check\"", "INSERT INTO t VALUES (9, 5, 'z')");
        fails("23514", "violates check constraint \"t_a_check\"", "UPDATE t SET a = a - 1");
        fails("23514", "violates check constraint \"b_small\"", "UPDATE t SET b = 20 WHERE a = 1");
        fails("23514", "violates check constraint \"t_a_check\"", "INSERT INTO t SELECT a - 5, b, c FROM t");
        assertEquals("1,5,x 2,null,y", rows("SELECT * FROM t ORDER BY a"));
        fails("0A000", "cannot use subquery in check constraint", "CREATE TABLE bad (a int CHECK (a IN (SELECT 1)))");
        fails("42P01", "does not exist", "SELECT * FROM bad");
        assertEquals(1, st.executeUpdate("UPDATE t SET c = 'changed' WHERE a = 1")); // assigns no checked column
        st.execute("INSERT INTO t SELECT a + 2, b, c FROM t");
        assertEquals("1,5,changed 2,null,y 3,5,changed 4,null,y", rows("SELECT * FROM t ORDER BY a"));
        // ALTER TABLE ... ADD CHECK validates the rows already there; a failure changes nothing
        fails("23514", "check constraint \"c_short\" of relation \"t\" is violated by some row",
                "ALTER TABLE t ADD CONSTRAINT c_short CHECK (length(c) < 5)");
        st.execute("INSERT INTO t VALUES (5, 6, 'longer')");
        st.execute("ALTER TABLE t ADD CONSTRAINT c_long CHECK (length(c) > 0)");
        fails("23514", "violates check constraint \"c_long\"", "INSERT INTO t VALUES (6, 7, '')");
        st.execute("ALTER TABLE t DROP CONSTRAINT c_long");
        st.execute("INSERT INTO t VALUES (6, 7, '')");
        fails("42704", "constraint \"c_long\" of relation \"t\" does not exist", "ALTER TABLE t DROP CONSTRAINT c_long");
        st.execute("ALTER TABLE t DROP CONSTRAINT IF EXISTS c_long");
        restart(); // from the log: the constraints come back with the table
        fails("23514", "violates check constraint \"t_a_check\"", "INSERT INTO t VALUES (-1, 1, 'z')");
        fails("23514", "violates check constraint \"b_small\"", "UPDATE t SET b = 11 WHERE a = 6");
        assertEquals("1,5,changed 2,null,y 3,5,changed 4,null,y 5,6,longer 6,7,", rows("SELECT * FROM t ORDER BY a"));
    }

    @Test
    void keyAndNotNullViolationsNameTheirConstraint() throws SQLException {
        st.execute("CREATE TABLE k (id int PRIMARY KEY, a int, b int, n text NOT NULL, u int UNIQUE, CONSTRAINT ab UNIQUE (a, b))");
        st.execute("INSERT INTO k VALUES (1, 1, 1, 'x', 1)");
        fails("23505", "duplicate key value violates unique constraint \"k_pkey\"", "INSERT INTO k VALUES (1, 2, 2, 'y', 2)");
        fails("23505", "duplicate key value violates unique constraint \"ab\"", "INSERT INTO k VALUES (2, 1, 1, 'y', 2)");
        fails("23505", "duplicate key value violates unique constraint \"k_u_key\"", "INSERT INTO k VALUES (2, 1, 2, 'y', 1)");
        fails("23502", "null value in column \"n\" of relation \"k\" violates not-null constraint", "INSERT INTO k VALUES (2, 1, 2, NULL, 2)");
        st.execute("INSERT INTO k VALUES (2, 1, 2, 'y', 2)");
        fails("23505", "duplicate key value violates unique constraint \"ab\"", "UPDATE k SET b = 1 WHERE id = 2");
        st.execute("CREATE TABLE k2 (a int, b int, PRIMARY KEY (a, b))");
        st.execute("INSERT INTO k2 VALUES (1, 1)");
        fails("23505", "duplicate key value violates unique constraint \"k2_pkey\"", "INSERT INTO k2 VALUES (1, 1)");
        st.execute("ALTER TABLE k DROP CONSTRAINT ab");
        st.execute("INSERT INTO k VALUES (3, 1, 1, 'z', 3)");
        fails("23505", "could not create unique index \"ab2\"", "ALTER TABLE k ADD CONSTRAINT ab2 UNIQUE (a, b)");
        st.execute("ALTER TABLE k ADD CONSTRAINT nu UNIQUE (n)");
        fails("23505", "duplicate key value violates unique constraint \"nu\"", "INSERT INTO k VALUES (4, 9, 9, 'z', 4)");
        assertEquals("1 2 3", rows("SELECT id FROM k ORDER BY id"));
    }

    @Test
    void foreignKeysOnInsertUpdateAndTheReferencedSide() throws SQLException {
        st.execute("CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE)");
        st.execute("CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p, pcode text, "
                + "CONSTRAINT c_code FOREIGN KEY (pcode) REFERENCES p (code) ON DELETE CASCADE ON UPDATE CASCADE)");
        st.execute("INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        st.execute("INSERT INTO c VALUES (10, 1, 'a'), (11, NULL, 'b'), (12, 2, NULL)"); // MATCH SIMPLE: NULL passes
        fails("23503", "insert or update on table \"c\" violates foreign key constraint \"c_pid_fkey\"", "INSERT INTO c VALUES (13, 9, 'a')");
        fails("23503", "violates foreign key constraint \"c_code\"", "INSERT INTO c VALUES (13, 1, 'a'), (14, 1, 'zz')");
        fails("23503", "violates foreign key constraint \"c_pid_fkey\"", "INSERT INTO c SELECT id + 100, id + 5, NULL FROM p");
        fails("23503", "violates foreign key constraint \"c_pid_fkey\"", "UPDATE c SET pid = 7 WHERE id = 10");
        assertEquals("10,1,a 11,null,b 12,2,null", rows("SELECT * FROM c ORDER BY id"));
        // the referenced side: NO ACTION refuses, CASCADE follows
        fails("23503", "update or delete on table \"p\" violates foreign key constraint \"c_pid_fkey\" on table \"c\"",
                "DELETE FROM p WHERE id = 1");
        fails("23503", "violates foreign key constraint \"c_pid_fkey\" on table \"c\"", "UPDATE p SET id = 5 WHERE id = 2");
        assertEquals(1, st.executeUpdate("UPDATE p SET code = 'bb' WHERE id = 2")); // ON UPDATE CASCADE
        assertEquals("10,1,a 11,null,bb 12,2,null", rows("SELECT * FROM c ORDER BY id"));
        assertEquals(1, st.executeUpdate("DELETE FROM p WHERE id = 3")); // nothing references it
        st.execute("UPDATE c SET pid = NULL WHERE id = 10");
        assertEquals(1, st.executeUpdate("DELETE FROM p WHERE id = 1")); // ON DELETE CASCADE of c_code takes row 10
        assertEquals("11,null,bb 12,2,null", rows("SELECT * FROM c ORDER BY id"));
        assertEquals("2,bb", rows("SELECT * FROM p ORDER BY id"));
        // DROP TABLE of a referenced table is refused
        fails("2BP01", "cannot drop table p because other objects depend on it", "DROP TABLE p");
        // restart from the log: the foreign keys are back
        restart();
        fails("23503", "violates foreign key constraint \"c_pid_fkey\"", "INSERT INTO c VALUES (20, 42, NULL)");
        fails("23503", "violates foreign key constraint \"c_pid_fkey\" on table \"c\"", "DELETE FROM p");
        st.execute("DROP TABLE c");
        st.execute("DROP TABLE p");
    }

    @Test
    void setNullSetDefaultRestrictAndSelfReference() throws SQLException {
        st.execute("CREATE TABLE p (id int PRIMARY KEY)");
        st.execute("CREATE TABLE n (id int, pid int DEFAULT 0 REFERENCES p ON DELETE SET NULL ON UPDATE SET DEFAULT)");
        st.execute("CREATE TABLE r (id int, pid int REFERENCES p ON DELETE RESTRICT)");
        st.execute("INSERT INTO p VALUES (0), (1), (2)");
        st.execute("INSERT INTO n VALUES (1, 1), (2, 2)");
        st.execute("INSERT INTO r VALUES (1, 2)");
        assertEquals(1, st.executeUpdate("DELETE FROM p WHERE id = 1"));
        assertEquals("1,null 2,2", rows("SELECT * FROM n ORDER BY id"));
        fails("23503", "violates foreign key constraint \"r_pid_fkey\" on table \"r\"", "DELETE FROM p WHERE id = 2");
        assertEquals("1,null 2,2", rows("SELECT * FROM n ORDER BY id")); // the refused DELETE set nothing NULL
        st.execute("DELETE FROM r");
        assertEquals(1, st.executeUpdate("UPDATE p SET id = 5 WHERE id = 2"));
        assertEquals("1,null 2,0", rows("SELECT * FROM n ORDER BY id")); // SET DEFAULT
        st.execute("INSERT INTO n VALUES (3, 5)");
        assertEquals(1, st.executeUpdate("DELETE FROM p WHERE id = 0"));
        assertEquals("1,null 2,null 3,5", rows("SELECT * FROM n ORDER BY id"));
        // SET DEFAULT to a key no row has: the referenced row's change is refused
        fails("23503", "violates foreign key constraint \"n_pid_fkey\"", "UPDATE p SET id = 6 WHERE id = 5");
        assertEquals("1,null 2,null 3,5", rows("SELECT * FROM n ORDER BY id"));
        // ON DELETE SET NULL (cols): only the columns listed (PostgreSQL 15)
        st.execute("CREATE TABLE p2 (tid int, id int, PRIMARY KEY (tid, id))");
        st.execute("CREATE TABLE c2 (tid int, id int, FOREIGN KEY (tid, id) REFERENCES p2 ON DELETE SET NULL (id))");
        fails("42P10", "column \"tid\" referenced in ON DELETE SET action must be part of foreign key",
                "CREATE TABLE c3 (tid int, x int, FOREIGN KEY (x) REFERENCES p ON DELETE SET NULL (tid))");
        fails("0A000", "a column list with SET NULL is only supported for ON DELETE actions",
                "CREATE TABLE c3 (x int REFERENCES p ON UPDATE SET NULL (x))");
        st.execute("INSERT INTO p2 VALUES (1, 1), (1, 2)");
        st.execute("INSERT INTO c2 VALUES (1, 1), (1, 2)");
        assertEquals(1, st.executeUpdate("DELETE FROM p2 WHERE id = 1"));
        assertEquals("1,2 1,null", rows("SELECT * FROM c2 ORDER BY id"));
        // a table referencing itself: a row may reference one inserted in the same statement
        st.execute("CREATE TABLE tree (id int PRIMARY KEY, parent int REFERENCES tree ON DELETE CASCADE)");
        st.execute("INSERT INTO tree VALUES (2, 1), (1, NULL), (3, 2), (4, 1)");
        fails("23503", "violates foreign key constraint \"tree_parent_fkey\"", "INSERT INTO tree VALUES (5, 50)");
        assertEquals(1, st.executeUpdate("DELETE FROM tree WHERE id = 2"));
        assertEquals("1,null 4,1", rows("SELECT * FROM tree ORDER BY id"));
        assertEquals(1, st.executeUpdate("DELETE FROM tree WHERE id = 1"));
        assertEquals("", rows("SELECT * FROM tree ORDER BY id"));
    }

    @Test
    void alterTableAddForeignKeyValidatesAndTheReferencedKeyMustBeUnique() throws SQLException {
        st.execute("CREATE TABLE p (id int PRIMARY KEY, v int)");
        st.execute("CREATE TABLE c (id int, pid int)");
        st.execute("INSERT INTO p VALUES (1, 1)");
        st.execute("INSERT INTO c VALUES (1, 1), (2, 2)");
        fails("42830", "there is no unique constraint matching given keys for referenced table \"p\"",
                "ALTER TABLE c ADD FOREIGN KEY (pid) REFERENCES p (v)");
        fails("23503", "violates foreign key constraint \"c_pid_fkey\"", "ALTER TABLE c ADD FOREIGN KEY (pid) REFERENCES p");
        st.execute("INSERT INTO c VALUES (3, 3)"); // the failed ALTER left nothing behind
        st.execute("DELETE FROM c WHERE pid > 1");
        st.execute("ALTER TABLE c ADD CONSTRAINT fk FOREIGN KEY (pid) REFERENCES p");
        fails("23503", "violates foreign key constraint \"fk\"", "INSERT INTO c VALUES (3, 3)");
        // a second foreign key on the same column shares its index; neither index can go while needed
        st.execute("ALTER TABLE c ADD CONSTRAINT fk2 FOREIGN KEY (pid) REFERENCES p ON DELETE CASCADE");
        fails("2BP01", "cannot drop index c:pid:fk", "DROP INDEX \"c:pid:fk\"");
        st.execute("CREATE UNIQUE INDEX pv ON p (v)");
        st.execute("ALTER TABLE c ADD CONSTRAINT fk3 FOREIGN KEY (pid) REFERENCES p (v)");
        fails("2BP01", "cannot drop index pv", "DROP INDEX pv");
        st.execute("ALTER TABLE c DROP CONSTRAINT fk3");
        st.execute("DROP INDEX pv");
        st.execute("ALTER TABLE c DROP CONSTRAINT fk");
        fails("23503", "violates foreign key constraint \"fk2\"", "INSERT INTO c VALUES (3, 3)");
        st.execute("ALTER TABLE c DROP CONSTRAINT fk2");
        st.execute("INSERT INTO c VALUES (3, 3)");
        st.execute("DROP TABLE p"); // nothing references it now
        // an integer column may reference a FLOAT key (PostgreSQL: int4 references numeric)
        st.execute("CREATE TABLE pf (k float8 PRIMARY KEY)");
        st.execute("INSERT INTO pf VALUES (1.5), (2)");
        st.execute("CREATE TABLE cf (k int REFERENCES pf, u int UNIQUE DEFERRABLE INITIALLY IMMEDIATE)");
        st.execute("INSERT INTO cf VALUES (2, 1)");
        fails("23503", "violates foreign key constraint \"cf_k_fkey\"", "INSERT INTO cf VALUES (1, 2)");
        fails("23503", "violates foreign key constraint \"cf_k_fkey\" on table \"cf\"", "DELETE FROM pf WHERE k = 2");
        assertEquals(1, st.executeUpdate("DELETE FROM pf WHERE k = 1.5"));
    }

    @Test
    void aMultiBlockIsAtomicAndTheRespDialectEnforcesToo() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE p (id INT PRIMARY KEY)"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE c (id INT PRIMARY KEY, fk INT REFERENCES p ON DELETE CASCADE, v INT CHECK (v >= 0))"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO p VALUES (1), (2)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO c VALUES (1, 1, 0), (2, 2, 0)"));
            assertTrue(c.call("SQL", "INSERT INTO c VALUES (3, 3, 0)").startsWith("-ERR insert or update on table \"c\" violates foreign key"));
            assertTrue(c.call("SQL", "UPDATE c SET v = v - 1").startsWith("-ERR new row for relation \"c\" violates check constraint \"c_v_check\""));
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "DELETE FROM p WHERE id = 1"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "INSERT INTO c VALUES (5, 7, 0)"));
            String exec = c.call("EXEC");
            assertTrue(exec.contains("violates foreign key constraint"), exec);
            assertEquals("*2\r\n$5\r\n1,1,0\r\n$5\r\n2,2,0\r\n", c.call("SQL", "SELECT * FROM c ORDER BY id"));
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "DELETE FROM p WHERE id = 1"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "INSERT INTO c VALUES (5, 2, 0)"));
            assertTrue(c.call("EXEC").startsWith("*2\r\n"));
            assertEquals("*2\r\n$5\r\n2,2,0\r\n$5\r\n5,2,0\r\n", c.call("SQL", "SELECT * FROM c ORDER BY id"));
            String desc = c.call("SQL", "DESC c");
            assertTrue(desc.contains("CONSTRAINT c_v_check | CHECK (v >= 0)"), desc);
            assertTrue(desc.contains("CONSTRAINT c_fk_fkey | FOREIGN KEY (fk) REFERENCES p(id) ON DELETE CASCADE"), desc);
            // a snapshot keeps the constraints
            assertEquals("+OK\r\n", c.call("SAVE"));
        }
        pg.close();
        server.close();
        server = TestServer.start(cfg -> cfg.pgPort(0).dir(dir).appendOnly(false));
        connect();
        fails("23503", "violates foreign key constraint \"c_fk_fkey\"", "INSERT INTO c VALUES (9, 9, 0)");
        fails("23514", "violates check constraint \"c_v_check\"", "UPDATE c SET v = -1");
        // a CHECK written in PostgreSQL's dialect keeps its meaning when a RESP (sqlite dialect) client writes
        st.execute("CREATE TABLE pgc (s text CHECK (s::int > 0 AND s ILIKE '1%'))");
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO pgc VALUES ('12')"));
            assertTrue(c.call("SQL", "INSERT INTO pgc VALUES ('2')").contains("violates check constraint \"pgc_s_check\""));
        }
        assertEquals(1, st.executeUpdate("DELETE FROM p WHERE id = 2"));
        assertEquals("", rows("SELECT * FROM c"));
    }

    /** Polls {@code sql} on {@code c} until it answers {@code expected} (a deadline of 30 s). */
    private static String await(RespConnection c, String sql, java.util.function.Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String got = c.call("SQL", sql);
        while (!done.test(got) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            got = c.call("SQL", sql);
        }
        return got;
    }

    @Test
    void aReplicaGetsTheConstraintsByFullSyncAndByTheStream() throws Exception {
        try (TestServer replica = TestServer.start(); RespConnection m = server.raw()) {
            // before the link: these arrive in the full sync's snapshot
            assertEquals("+OK\r\n", m.call("SQL", "CREATE TABLE p (id INT PRIMARY KEY)"));
            assertEquals("+OK\r\n", m.call("SQL", "CREATE TABLE c (id INT, fk INT REFERENCES p ON DELETE CASCADE, v INT CHECK (v > 0))"));
            assertEquals("+OK\r\n", m.call("SQL", "INSERT INTO p VALUES (1), (2)"));
            assertEquals("+OK\r\n", m.call("SQL", "INSERT INTO c VALUES (1, 1, 1), (2, 2, 2)"));
            ReplicatedTransactionTest.replicate(server, replica);
            RespConnection r = replica.raw();
            String desc = await(r, "DESC c", d -> d.contains("c_fk_fkey"));
            assertTrue(desc.contains("CONSTRAINT c_v_check | CHECK (v > 0)"), desc);
            assertTrue(desc.contains("CONSTRAINT c_fk_fkey | FOREIGN KEY (fk) REFERENCES p(id) ON DELETE CASCADE"), desc);
            // by the stream: an ALTER and a cascading DELETE
            assertEquals("+OK\r\n", m.call("SQL", "ALTER TABLE c ADD CONSTRAINT v_small CHECK (v < 100)"));
            assertEquals(":1\r\n", m.call("SQL", "DELETE FROM p WHERE id = 1"));
            assertEquals("*1\r\n$5\r\n2,2,2\r\n", await(r, "SELECT * FROM c ORDER BY id", x -> x.startsWith("*1\r\n")));
            assertTrue(await(r, "DESC c", d -> d.contains("v_small")).contains("CONSTRAINT v_small | CHECK (v < 100)"));
        }
    }
}
