package io.respsql.it.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Second reader's findings on partition routing, each statement compared with PostgreSQL 15: an
 * UPDATE through the parent reads the table as it was before the statement (not partition by
 * partition), and a data-modifying WITH writing to a partitioned table routes its rows.
 */
class PartitionsReviewPgTest {
    private static final List<String> LOAD = List.of(
            "CREATE TABLE u (a int, v int) PARTITION BY RANGE (a)",
            "CREATE TABLE u1 PARTITION OF u FOR VALUES FROM (0) TO (10)",
            "CREATE TABLE u2 PARTITION OF u FOR VALUES FROM (10) TO (20)",
            "CREATE TABLE d (a int, v int) PARTITION BY RANGE (a)",
            "CREATE TABLE d1 PARTITION OF d FOR VALUES FROM (0) TO (10)",
            "CREATE TABLE d2 PARTITION OF d FOR VALUES FROM (10) TO (20)",
            "CREATE TABLE k (a int, v int, t text) PARTITION BY RANGE (a)",
            "CREATE TABLE k1 PARTITION OF k FOR VALUES FROM (0) TO (10)",
            "CREATE TABLE k2 PARTITION OF k FOR VALUES FROM (10) TO (30)",
            "CREATE TABLE w (a int, b text) PARTITION BY RANGE (a)",
            "CREATE TABLE w1 PARTITION OF w FOR VALUES FROM (0) TO (10)",
            "CREATE TABLE w2 PARTITION OF w FOR VALUES FROM (10) TO (20)");
    private static PgPair both;

    @BeforeAll
    static void start() throws Exception {
        both = PgPair.start("partitions-review", LOAD);
    }

    @AfterAll
    static void stop() throws Exception {
        if (both != null) {
            both.close();
        }
    }

    @Test
    void updateThroughParentReadsTheStatementsStartingRows() throws Exception {
        both.same("INSERT INTO u VALUES (1, 1), (2, 2), (11, 11), (12, 12)");
        sameOrRefused("UPDATE u SET v = (SELECT max(v) FROM u) + 1", "SELECT a, v FROM u ORDER BY a");
        both.same("INSERT INTO d VALUES (1, 1), (2, 2), (11, 11), (12, 12)");
        sameOrRefused("DELETE FROM d WHERE v < (SELECT max(v) FROM d) - 10 OR v > (SELECT min(v) FROM d) + 10", "SELECT a, v FROM d ORDER BY a");
    }

    /**
     * {@code write} does on RespSQL what it does on PostgreSQL ({@code check}'s rows the same after
     * it), or RespSQL refuses it as not supported and changes nothing: never a different answer.
     */
    private static void sameOrRefused(String write, String check) throws Exception {
        String before = both.conn.call("SQL", check);
        both.pg.query(write);
        String reply = both.conn.call("SQL", write);
        if (reply.startsWith("-")) {
            assertTrue(reply.contains("not supported"), write + " gave " + reply);
            assertEquals(before, both.conn.call("SQL", check), write);
            return;
        }
        both.same(check);
    }

    /** An UPDATE that sets no key column keeps its rows where they are; one that sets a key column still moves them. */
    @Test
    void updatesOfKeyAndNonKeyColumns() throws Exception {
        both.same("INSERT INTO k VALUES (1, 1, 'a'), (5, 2, 'b'), (12, 3, 'c')");
        both.same("UPDATE k SET v = v + 1, t = 'x' WHERE a = 5");
        both.same("UPDATE k1 SET v = 7 WHERE a = 1");
        both.same("SELECT a, v, t FROM k1 ORDER BY a");
        both.same("UPDATE k SET \"a\" = 15 WHERE a = 1");
        both.same("SELECT a, v, t FROM k2 ORDER BY a");
        both.error("UPDATE k1 SET a = 13 WHERE a = 5", "violates partition constraint");
        both.same("UPDATE k SET a = a + 10 WHERE v = 3");
        both.same("SELECT a, v, t FROM k ORDER BY a");
    }

    /** A foreign key on a partitioned table, or referencing one, holds as PostgreSQL's, or is refused (0A000). */
    @Test
    void foreignKeysOfAPartitionTreeHoldOrAreRefused() throws Exception {
        both.same("CREATE TABLE fpar (id int PRIMARY KEY)");
        both.same("INSERT INTO fpar VALUES (1)");
        if (sameOrRefusedDdl("CREATE TABLE fc (r int REFERENCES fpar) PARTITION BY RANGE (r)")) {
            both.same("CREATE TABLE fc1 PARTITION OF fc FOR VALUES FROM (0) TO (100)");
            both.same("INSERT INTO fc VALUES (1)");
            both.error("INSERT INTO fc1 VALUES (7)", "violates foreign key constraint");
            both.error("DELETE FROM fpar", "violates foreign key constraint");
        }
        both.same("CREATE TABLE fpp (id int PRIMARY KEY) PARTITION BY RANGE (id)");
        both.same("CREATE TABLE fpp1 PARTITION OF fpp FOR VALUES FROM (0) TO (100)");
        both.same("INSERT INTO fpp VALUES (1)");
        if (sameOrRefusedDdl("CREATE TABLE fch (r int REFERENCES fpp)")) {
            both.same("INSERT INTO fch VALUES (1)");
            both.error("INSERT INTO fch VALUES (2)", "violates foreign key constraint");
        }
    }

    /** Runs DDL on both: true when RespSQL took it as PostgreSQL did, false when it refused it as not supported. */
    private static boolean sameOrRefusedDdl(String ddl) throws Exception {
        both.pg.query(ddl);
        String reply = both.conn.call("SQL", ddl);
        if (reply.startsWith("-")) {
            assertTrue(reply.contains("not supported"), ddl + " gave " + reply);
            return false;
        }
        return true;
    }

    @Test
    void modifyingWithRoutesItsRows() throws Exception {
        // routed as PostgreSQL routes it, or refused (0A000) and nothing written: never rows outside every partition
        String with = "WITH x AS (INSERT INTO w VALUES (1, 'a'), (15, 'b') RETURNING a) SELECT count(*) FROM x";
        both.pg.query(with);
        String reply = both.conn.call("SQL", with);
        if (reply.startsWith("-")) {
            assertTrue(reply.contains("not supported"), reply);
            both.conn.call("SQL", "INSERT INTO w VALUES (1, 'a'), (15, 'b')");
        }
        both.same("SELECT a, b FROM w1 ORDER BY a");
        both.same("SELECT a, b FROM w2 ORDER BY a");
        both.same("DELETE FROM w WHERE a > 0");
        both.same("SELECT a, b FROM w ORDER BY a");
    }
}
