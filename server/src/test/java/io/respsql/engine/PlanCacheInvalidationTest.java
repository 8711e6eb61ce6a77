package io.respsql.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of schema change empties the plan cache, and the next run plans against the new schema. */
class PlanCacheInvalidationTest {
    private final PlanCacheDifferentialTest.Side side = new PlanCacheDifferentialTest.Side();

    private void cached(String sql, String reply) {
        assertEquals(reply, side.run(sql), sql);
        long hits = side.engine.planCacheHits();
        assertEquals(reply, side.run(sql), sql);
        assertEquals(hits + 1, side.engine.planCacheHits(), "second run of " + sql + " is a hit");
        assertTrue(side.engine.planCacheEntries() > 0);
    }

    private void ddl(String sql) {
        String r = side.run(sql);
        assertTrue(r.startsWith("ok") || r.startsWith("integer"), sql + ": " + r);
        assertEquals(0, side.engine.planCacheEntries(), "after " + sql);
    }

    @Test
    void eachDdlKindEmptiesTheCache() {
        assertOk(side.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
        assertOk(side.run("INSERT INTO t VALUES (1, 10), (2, 20)"));
        cached("SELECT v FROM t WHERE id = 1", "rows [10]");
        ddl("CREATE INDEX t_v ON t (v)");
        cached("SELECT id FROM t WHERE v = 20", "rows [2]");
        ddl("DROP INDEX t_v");
        cached("SELECT id FROM t WHERE v = 20", "rows [2]");
        ddl("CREATE VIEW tv AS SELECT id, v FROM t");
        cached("SELECT v FROM t WHERE id = 2", "rows [20]");
        ddl("DROP VIEW tv");
        cached("SELECT v FROM t WHERE id = 2", "rows [20]");
        ddl("CREATE TABLE u (k INT)");
        cached("SELECT v FROM t WHERE id = 2", "rows [20]");
        ddl("DROP TABLE t");
        assertTrue(side.run("SELECT v FROM t WHERE id = 2").startsWith("failed: "), "the dropped table's plan is gone");
        // A new table of the same name with other columns: planned afresh.
        ddl("CREATE TABLE t (id INT PRIMARY KEY, v TEXT)");
        assertOk(side.run("INSERT INTO t VALUES (2, 'two')"));
        cached("SELECT v FROM t WHERE id = 2", "rows [two]");
        side.engine.flushAll();
        assertEquals(0, side.engine.planCacheEntries(), "after FLUSHALL");
        assertTrue(side.run("SELECT v FROM t WHERE id = 2").startsWith("failed: "));
    }

    @Test
    void aBlockRolledBackEmptiesTheCache() {
        assertOk(side.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
        side.engine.beginBlock();
        assertOk(side.run("CREATE INDEX t_v ON t (v)"));
        cached("SELECT id FROM t WHERE v = 20", "rows []");
        side.engine.rollbackBlock();
        assertEquals(0, side.engine.planCacheEntries());
        cached("SELECT id FROM t WHERE v = 20", "rows []");
    }

    @Test
    void zeroEntriesTurnsTheCacheOff() {
        assertOk(side.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
        cached("SELECT v FROM t WHERE id = 1", "rows []");
        side.engine.planCacheLimits(0, 1 << 20);
        assertEquals(0, side.engine.planCacheEntries());
        long hits = side.engine.planCacheHits();
        side.run("SELECT v FROM t WHERE id = 1");
        side.run("SELECT v FROM t WHERE id = 1");
        assertEquals(hits, side.engine.planCacheHits());
        side.engine.planCacheLimits(2, 1 << 20);
        side.run("SELECT v FROM t WHERE id = 1");
        side.run("SELECT v FROM t WHERE id = 1 OR id = 2");
        side.run("SELECT v FROM t WHERE id > 1");
        assertEquals(2, side.engine.planCacheEntries(), "bounded: the least recently used went");
    }

    /** The statement replied OK (what the 2010 reply +OK says). */
    private static void assertOk(String outcome) {
        org.junit.jupiter.api.Assertions.assertTrue(outcome.startsWith("ok, changed "), outcome);
    }
}
