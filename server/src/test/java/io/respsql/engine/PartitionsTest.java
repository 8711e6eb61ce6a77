package io.respsql.engine;

import io.respsql.sql.Dialect;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Declarative partitioning in the engine (PostgreSQL's dialect): DDL, routing, reads of the parent, row movement. */
class PartitionsTest {
    private SqlEngine engine;
    private boolean prior;

    @BeforeEach
    void setUp() {
        prior = Dialect.set(true);
        engine = new SqlEngine(new Catalog());
    }

    @AfterEach
    void tearDown() {
        Dialect.set(prior);
    }

    private void ok(String sql) {
        String r = CollectedRows.run(engine, sql);
        assertTrue(!r.startsWith("failed"), sql + ": " + r);
    }

    private void fails(String sql, String sqlState) {
        String r = CollectedRows.run(engine, sql);
        assertTrue(r.startsWith("failed: " + sqlState), sql + ": " + r);
    }

    private String run(String sql) {
        return CollectedRows.run(engine, sql);
    }

    @Test
    void rangeRoutingAndReads() {
        ok("CREATE TABLE r (a int, b text) PARTITION BY RANGE (a)");
        ok("CREATE TABLE r1 PARTITION OF r FOR VALUES FROM (MINVALUE) TO (10)");
        ok("CREATE TABLE r2 PARTITION OF r FOR VALUES FROM (10) TO (20)");
        ok("INSERT INTO r VALUES (1, 'x'), (15, 'y'), (9, 'z')");
        assertEquals("rows [1,x, 9,z, 15,y]", run("SELECT * FROM r ORDER BY a"));
        assertEquals("rows [1,x, 9,z]", run("SELECT * FROM r1 ORDER BY a"));
        assertEquals("rows [15,y]", run("SELECT a, b FROM r2"));
        assertEquals("rows [r1,1, r1,9, r2,15]", run("SELECT tableoid, a FROM r ORDER BY a"));
        fails("INSERT INTO r VALUES (25, 'no')", "23514");
        fails("INSERT INTO r2 VALUES (5, 'no')", "23514");
        fails("CREATE TABLE r3 PARTITION OF r FOR VALUES FROM (15) TO (30)", "42P17");
        assertEquals("rows [3]", run("SELECT count(*) FROM r"));
        // row movement
        ok("UPDATE r SET a = a + 10 WHERE a = 9");
        assertEquals("rows [15,y, 19,z]", run("SELECT * FROM r2 ORDER BY a"));
        fails("UPDATE r SET a = 50", "23514");
        assertEquals("rows [1,x, 15,y, 19,z]", run("SELECT * FROM r ORDER BY a"));
        ok("DELETE FROM r WHERE a > 16");
        assertEquals("rows [1,x, 15,y]", run("SELECT * FROM r ORDER BY a"));
        ok("DROP TABLE r");
        fails("SELECT * FROM r1", "42P01");
    }

    @Test
    void listDefaultAndSubpartitions() {
        ok("CREATE TABLE l (a text, b int) PARTITION BY LIST (lower(a))");
        ok("CREATE TABLE l_ab PARTITION OF l FOR VALUES IN ('a', 'b')");
        ok("CREATE TABLE l_null PARTITION OF l FOR VALUES IN (NULL)");
        ok("CREATE TABLE l_cd PARTITION OF l FOR VALUES IN ('c', 'd') PARTITION BY RANGE (b)");
        ok("CREATE TABLE l_cd1 PARTITION OF l_cd FOR VALUES FROM (1) TO (10)");
        ok("CREATE TABLE l_def PARTITION OF l DEFAULT");
        ok("INSERT INTO l VALUES ('A', 1), (NULL, 2), ('c', 5), ('zz', 7)");
        fails("INSERT INTO l VALUES ('c', 50)", "23514");
        assertEquals("rows [l_ab,A, l_cd1,c, l_def,zz, l_null,NULL]", run("SELECT tableoid, a FROM l ORDER BY 1"));
        fails("INSERT INTO l_def VALUES ('a', 1)", "23514");
        fails("CREATE TABLE l_zz PARTITION OF l FOR VALUES IN ('zz')", "23514");
        ok("ALTER TABLE l DETACH PARTITION l_ab");
        assertEquals("rows [3]", run("SELECT count(*) FROM l"));
        ok("CREATE TABLE l_e (b int, a text)");
        ok("INSERT INTO l_e VALUES (1, 'e')");
        ok("ALTER TABLE l ATTACH PARTITION l_e FOR VALUES IN ('e')");
        assertEquals("rows [e,1]", run("SELECT a, b FROM l WHERE a = 'e'"));
    }

    @Test
    void atomicInABlockAndOnConflict() {
        ok("CREATE TABLE h (k int PRIMARY KEY, v text) PARTITION BY LIST (k)");
        ok("CREATE TABLE h1 PARTITION OF h FOR VALUES IN (1, 2)");
        ok("CREATE TABLE h2 PARTITION OF h FOR VALUES IN (3, 4)");
        ok("INSERT INTO h VALUES (1, 'a'), (3, 'b')");
        fails("INSERT INTO h VALUES (2, 'x'), (9, 'y')", "23514");
        assertEquals("rows [1,a, 3,b]", run("SELECT * FROM h ORDER BY k"));
        ok("INSERT INTO h VALUES (1, 'c'), (4, 'd') ON CONFLICT (k) DO UPDATE SET v = excluded.v");
        assertEquals("rows [1,c, 3,b, 4,d]", run("SELECT * FROM h ORDER BY k"));
        ok("INSERT INTO h VALUES (1, 'q') ON CONFLICT DO NOTHING");
        assertEquals("rows [1,c, 3,b, 4,d]", run("SELECT * FROM h ORDER BY k"));
        fails("INSERT INTO h1 VALUES (1, 'dup')", "23505");
        // a partition's own column options: UNIQUE and a DEFAULT of its own
        ok("CREATE TABLE h3 PARTITION OF h (v UNIQUE DEFAULT 'own') FOR VALUES IN (5, 6)");
        ok("INSERT INTO h3 (k) VALUES (5)");
        fails("INSERT INTO h VALUES (6, 'own')", "23505");
        assertEquals("rows [5,own]", run("SELECT * FROM h3"));
    }

    @Test
    void hashAndPropagatedDdl() {
        // PostgreSQL's regression classes: an operator class named on the key hashes a number as itself plus the seed
        ok("CREATE TABLE hp (a int, b text) PARTITION BY HASH (a part_test_int4_ops)");
        for (int r = 0; r < 4; r++) {
            ok("CREATE TABLE hp" + r + " PARTITION OF hp FOR VALUES WITH (MODULUS 4, REMAINDER " + r + ")");
        }
        fails("CREATE TABLE hpx PARTITION OF hp FOR VALUES WITH (MODULUS 3, REMAINDER 0)", "42P17");
        ok("INSERT INTO hp VALUES (11, 'x'), (12, 'y')");
        assertEquals("rows [hp0,12, hp3,11]", run("SELECT tableoid, a FROM hp ORDER BY 1"));
        fails("INSERT INTO hp1 VALUES (11, 'x')", "23514");
        // ALTER TABLE and CREATE INDEX of a partitioned table reach its partitions
        ok("ALTER TABLE hp ADD COLUMN c int DEFAULT 7");
        assertEquals("rows [11,x,7]", run("SELECT * FROM hp3"));
        fails("ALTER TABLE hp3 DROP COLUMN c", "42P16");
        ok("CREATE UNIQUE INDEX hp_a ON hp (a)");
        fails("INSERT INTO hp VALUES (11, 'dup')", "23505");
        // sub-partitions: a write to the middle table keeps to its own bound
        ok("CREATE TABLE m (a int, b int) PARTITION BY RANGE (a)");
        ok("CREATE TABLE m1 PARTITION OF m FOR VALUES FROM (0) TO (10) PARTITION BY LIST (b)");
        ok("CREATE TABLE m1a PARTITION OF m1 FOR VALUES IN (1)");
        ok("CREATE TABLE m1b PARTITION OF m1 FOR VALUES IN (2)");
        ok("INSERT INTO m1 VALUES (5, 1)");
        fails("INSERT INTO m1 VALUES (50, 1)", "23514");
        fails("UPDATE m1 SET a = 50", "23514");
        ok("UPDATE m1 SET b = 2");
        assertEquals("rows [m1b,5,2]", run("SELECT tableoid, * FROM m"));
        fails("CREATE TABLE m2 PARTITION OF m FOR VALUES FROM (MINVALUE) TO (5)", "42P17");
    }
}
