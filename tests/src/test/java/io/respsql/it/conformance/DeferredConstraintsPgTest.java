package io.respsql.it.conformance;

import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deferred foreign keys (regress24): {@code DEFERRABLE [INITIALLY DEFERRED | IMMEDIATE]},
 * {@code SET CONSTRAINTS ALL | name DEFERRED | IMMEDIATE}, checked at COMMIT with PostgreSQL's
 * error (the transaction rolled back); each transaction run in PostgreSQL 15 too (one psql session)
 * and the tables compared after it. Also DEFAULT with an operator expression (PostgreSQL's b_expr).
 */
class DeferredConstraintsPgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE dpk (id int4 PRIMARY KEY)",
            "CREATE TABLE dfk (id int4 PRIMARY KEY, ref int4 REFERENCES dpk DEFERRABLE INITIALLY DEFERRED)",
            "CREATE TABLE ifk (id int4 PRIMARY KEY, ref int4 CONSTRAINT ifk_named REFERENCES dpk DEFERRABLE)",
            "CREATE TABLE nfk (id int4 PRIMARY KEY, ref int4 REFERENCES dpk)",
            "INSERT INTO dpk VALUES (1)",
            "CREATE TABLE rc (a int4 CONSTRAINT rc_pos CHECK (a > 0), b int4, CONSTRAINT rc_b_key UNIQUE (b))",
            "CREATE TABLE rcf (x int4 CONSTRAINT rcf_fk REFERENCES rc (b))",
            "INSERT INTO rc VALUES (1, 1)");
    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("deferred", LOAD);
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    /**
     * Runs the statements as one session in PostgreSQL and one by one on RespSQL's connection:
     * returns PostgreSQL's error (or null), and asserts RespSQL's first error is the same message at
     * the statement {@code failsAt} (-1: none fails).
     */
    private static String transaction(int failsAt, String... sqls) throws Exception {
        String pgError = null;
        try {
            both.pg.query(String.join("; ", sqls));
        } catch (IOException e) {
            pgError = e.getMessage();
        }
        for (int i = 0; i < sqls.length; i++) {
            String reply = both.conn.call("SQL", sqls[i]);
            if (i == failsAt) {
                assertTrue(reply.startsWith("-ERR "), sqls[i] + " gave " + reply);
                String msg = reply.substring(5).trim();
                assertTrue(pgError != null && pgError.contains(msg), "RespSQL: " + msg + "; PostgreSQL: " + pgError);
                return pgError;
            }
            assertTrue(!reply.startsWith("-"), sqls[i] + " gave " + reply);
        }
        assertNull(pgError, "PostgreSQL failed where RespSQL did not");
        return null;
    }

    @Test
    void anInitiallyDeferredKeyIsCheckedAtCommit() throws Exception {
        // the referenced row comes later in the transaction: fine
        transaction(-1, "BEGIN", "INSERT INTO dfk VALUES (10, 2)", "INSERT INTO dpk VALUES (2)", "COMMIT");
        both.same("SELECT * FROM dfk ORDER BY id");
        // it never comes: COMMIT fails with PostgreSQL's error, nothing of the transaction stays
        transaction(3, "BEGIN", "INSERT INTO dpk VALUES (3)", "INSERT INTO dfk VALUES (11, 99)", "COMMIT");
        both.same("SELECT * FROM dfk ORDER BY id");
        both.same("SELECT * FROM dpk ORDER BY id");
        // the orphan is deleted (or fixed) before COMMIT: fine
        transaction(-1, "BEGIN", "INSERT INTO dfk VALUES (12, 98)", "UPDATE dfk SET ref = 1 WHERE id = 12", "COMMIT");
        transaction(-1, "BEGIN", "INSERT INTO dfk VALUES (13, 97)", "DELETE FROM dfk WHERE id = 13", "COMMIT");
        both.same("SELECT * FROM dfk ORDER BY id");
        // outside a transaction block the statement is its own transaction: checked at its end
        both.error("INSERT INTO dfk VALUES (14, 96)", "violates foreign key constraint \"dfk_ref_fkey\"");
        // SET CONSTRAINTS ... IMMEDIATE checks what was deferred so far
        transaction(2, "BEGIN", "INSERT INTO dfk VALUES (15, 95)", "SET CONSTRAINTS dfk_ref_fkey IMMEDIATE", "ROLLBACK");
        both.conn.call("SQL", "ROLLBACK");
        both.same("SELECT * FROM dfk ORDER BY id");
    }

    @Test
    void setConstraintsDefersADeferrableKey() throws Exception {
        // DEFERRABLE (initially immediate): refused at once unless deferred
        transaction(1, "BEGIN", "INSERT INTO ifk VALUES (1, 50)", "COMMIT");
        both.conn.call("SQL", "ROLLBACK");
        transaction(-1, "BEGIN", "SET CONSTRAINTS ALL DEFERRED", "INSERT INTO ifk VALUES (1, 50)", "INSERT INTO dpk VALUES (50)",
                "COMMIT");
        transaction(-1, "BEGIN", "SET CONSTRAINTS ifk_named DEFERRED", "INSERT INTO ifk VALUES (2, 51)",
                "INSERT INTO dpk VALUES (51)", "SET CONSTRAINTS ALL IMMEDIATE", "COMMIT");
        transaction(3, "BEGIN", "SET CONSTRAINTS ALL DEFERRED", "INSERT INTO ifk VALUES (3, 52)", "SET CONSTRAINTS ALL IMMEDIATE",
                "COMMIT");
        both.conn.call("SQL", "ROLLBACK");
        both.same("SELECT * FROM ifk ORDER BY id");
        both.same("SELECT * FROM dpk ORDER BY id");
        // a key that is not deferrable, a name that is no constraint
        transaction(1, "BEGIN", "SET CONSTRAINTS nfk_ref_fkey DEFERRED", "COMMIT");
        both.conn.call("SQL", "ROLLBACK");
        transaction(1, "BEGIN", "SET CONSTRAINTS no_such_constraint DEFERRED", "COMMIT");
        both.conn.call("SQL", "ROLLBACK");
        // outside a transaction block: a warning, nothing deferred
        transaction(-1, "SET CONSTRAINTS ALL DEFERRED");
        both.error("INSERT INTO ifk VALUES (4, 53)", "violates foreign key constraint \"ifk_named\"");
        both.same("SELECT conname, CASE WHEN condeferrable THEN 't' ELSE 'f' END, CASE WHEN condeferred THEN 't' ELSE 'f' END FROM pg_constraint WHERE contype = 'f' ORDER BY conname");
    }

    @Test
    void aDefaultIsAnExpressionWithOperators() throws Exception {
        transaction(-1, "CREATE TABLE dexpr (i int4, a int4 DEFAULT 100 + (200 - 199) * 2 NOT NULL, b int4 DEFAULT -1 * 3,"
                + " c text DEFAULT 'x' || 'y')");
        transaction(-1, "INSERT INTO dexpr (i) VALUES (1)");
        both.same("SELECT * FROM dexpr ORDER BY i");
        both.error("INSERT INTO dexpr (i, a) VALUES (2, NULL)", "violates not-null constraint");
    }

    /** ALTER TABLE ... RENAME CONSTRAINT (CHECK, FOREIGN KEY, UNIQUE), ALTER INDEX of a key constraint's name. */
    @Test
    void renameConstraint() throws Exception {
        transaction(-1, "ALTER TABLE rc RENAME CONSTRAINT rc_pos TO rc_positive");
        both.error("INSERT INTO rc VALUES (-1, 5)", "violates check constraint \"rc_positive\"");
        transaction(-1, "ALTER TABLE rcf RENAME CONSTRAINT rcf_fk TO rcf_fk2");
        both.error("INSERT INTO rcf VALUES (7)", "violates foreign key constraint \"rcf_fk2\"");
        transaction(-1, "ALTER TABLE rc RENAME CONSTRAINT rc_b_key TO rc_b_unique");
        both.error("INSERT INTO rc VALUES (2, 1)", "duplicate key value violates unique constraint \"rc_b_unique\"");
        transaction(-1, "ALTER INDEX rc_b_unique RENAME TO rc_b_idx");
        both.error("INSERT INTO rc VALUES (2, 1)", "duplicate key value violates unique constraint \"rc_b_idx\"");
        both.error("ALTER TABLE rc RENAME CONSTRAINT nope TO x", "constraint \"nope\" for table \"rc\" does not exist");
        both.error("ALTER TABLE rc RENAME CONSTRAINT rc_positive TO rc_b_idx", "constraint \"rc_b_idx\" for relation \"rc\" already exists");
        // taken back by a ROLLBACK
        transaction(-1, "BEGIN", "ALTER TABLE rc RENAME CONSTRAINT rc_positive TO rc_other", "ROLLBACK");
        both.error("INSERT INTO rc VALUES (-1, 5)", "violates check constraint \"rc_positive\"");
        both.same("SELECT conname FROM pg_constraint WHERE conname LIKE 'rc%' ORDER BY conname");
    }

    @TempDir
    static Path dir;

    /** The deferral survives a snapshot and the append-only file. */
    @Test
    void theDeferralIsKept() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true))) {
            RespConnection c = s.raw();
            ok(c.call("SQL", "SET sql_dialect TO postgresql"));
            ok(c.call("SQL", "CREATE TABLE p (id int4 PRIMARY KEY)"));
            ok(c.call("SQL", "CREATE TABLE c1 (r int4 REFERENCES p DEFERRABLE INITIALLY DEFERRED)"));
            ok(c.call("SAVE"));
            ok(c.call("SQL", "CREATE TABLE c2 (r int4 REFERENCES p DEFERRABLE)"));
        }
        for (int round = 0; round < 2; round++) { // from the snapshot and the log, then from a new snapshot
            try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true))) {
                RespConnection c = s.raw();
                ok(c.call("SQL", "SET sql_dialect TO postgresql"));
                assertEquals("*2\r\n$13\r\nc1_r_fkey,t,t\r\n$13\r\nc2_r_fkey,t,f\r\n", c.call("SQL",
                        "SELECT conname, CASE WHEN condeferrable THEN 't' ELSE 'f' END, CASE WHEN condeferred THEN 't' ELSE 'f' END FROM pg_constraint WHERE contype = 'f' ORDER BY conname"));
                ok(c.call("SQL", "BEGIN"));
                ok(c.call("SQL", "INSERT INTO c1 VALUES (" + (7 + round) + ")"));
                ok(c.call("SQL", "INSERT INTO p VALUES (" + (7 + round) + ")"));
                ok(c.call("SQL", "COMMIT"));
                ok(c.call("SQL", "BEGIN"));
                ok(c.call("SQL", "INSERT INTO c1 VALUES (99)"));
                String commit = c.call("SQL", "COMMIT");
                assertTrue(commit.startsWith("-ERR insert or update on table \"c1\" violates foreign key constraint \"c1_r_fkey\""), commit);
                assertTrue(c.call("SQL", "INSERT INTO c2 VALUES (98)").contains("c2_r_fkey"));
                // a MULTI/EXEC block is one transaction: checked at its end
                ok(c.call("MULTI"));
                c.call("SQL", "INSERT INTO c1 VALUES (" + (20 + round) + ")");
                c.call("SQL", "INSERT INTO p VALUES (" + (20 + round) + ")");
                assertTrue(c.call("EXEC").startsWith("*2\r\n"));
                ok(c.call("MULTI"));
                c.call("SQL", "INSERT INTO p VALUES (" + (30 + round) + ")");
                c.call("SQL", "INSERT INTO c1 VALUES (97)");
                String exec = c.call("EXEC");
                assertTrue(exec.startsWith("-ERR EXEC aborted at its end: insert or update on table \"c1\" violates foreign key"), exec);
                assertEquals("*" + (2 + 2 * round) + "\r\n", c.call("SQL", "SELECT * FROM c1 ORDER BY r").split("(?<=\r\n)")[0]);
                assertEquals("*0\r\n", c.call("SQL", "SELECT * FROM p WHERE id >= 30"));
                if (round == 0) {
                    continue; // the next start replays the log (the snapshot has the tables only)
                }
                ok(c.call("SAVE"));
            }
        }
    }

    private static void ok(String reply) {
        assertTrue(!reply.startsWith("-"), reply);
    }
}
