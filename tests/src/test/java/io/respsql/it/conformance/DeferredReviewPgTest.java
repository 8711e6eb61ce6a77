package io.respsql.it.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Second reader's finding on deferred foreign keys, compared with PostgreSQL 15: ROLLBACK TO a
 * savepoint takes back what SET CONSTRAINTS ... IMMEDIATE did after it (the checks it made count
 * no more, the mode is the savepoint's), so an orphan whose referenced row was rolled back is
 * still refused at COMMIT.
 */
class DeferredReviewPgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE spk (id int4 PRIMARY KEY)",
            "CREATE TABLE sfk (id int4 PRIMARY KEY, ref int4 REFERENCES spk DEFERRABLE INITIALLY DEFERRED)");
    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("deferred-review", LOAD);
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    /** The statements as one psql session (PostgreSQL's error or null) and one by one on RespSQL (its last reply). */
    private static String[] run(String... sqls) throws Exception {
        String pgError = null;
        try {
            both.pg.query(String.join("; ", sqls));
        } catch (IOException e) {
            pgError = e.getMessage();
        }
        String last = null;
        for (String s : sqls) {
            last = both.conn.call("SQL", s);
        }
        return new String[] {pgError, last};
    }

    @Test
    void rollbackToSavepointTakesBackAnImmediateCheck() throws Exception {
        String[] r = run("BEGIN", "INSERT INTO sfk VALUES (1, 60)", "SAVEPOINT s", "INSERT INTO spk VALUES (60)",
                "SET CONSTRAINTS ALL IMMEDIATE", "ROLLBACK TO SAVEPOINT s", "COMMIT");
        both.conn.call("SQL", "ROLLBACK");
        assertEquals(r[0] != null && r[0].contains("violates foreign key constraint"), r[1].startsWith("-ERR")
                && r[1].contains("violates foreign key constraint"), "PostgreSQL: " + r[0] + "; RespSQL: " + r[1]);
        both.same("SELECT * FROM sfk ORDER BY id");
        both.same("SELECT * FROM spk ORDER BY id");
    }
}
