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
        assertTrue(r.equals("+OK\r\n") || r.startsWith(":"), sql + ": " + r);
        assertEquals(0, side.engine.planCacheEntries(), "after " + sql);
    }

    @Test
    void eachDdlKindEmptiesTheCache() {
        assertEquals("+OK\r\n", side.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
        assertEquals("+OK\r\n", side.run("INSERT INTO t VALUES (1, 10), (2, 20)"));
        cached("SELECT v FROM t WHERE id = 1", "*1\r\n$2\r\n10\r\n");
        ddl("CREATE INDEX t_v ON t (v)");
        cached("SELECT id FROM t WHERE v = 20", "*1\r\n$1\r\n2\r\n");
        ddl("DROP INDEX t_v");
        cached("SELECT id FROM t WHERE v = 20", "*1\r\n$1\r\n2\r\n");
        ddl("CREATE VIEW tv AS SELECT id, v FROM t");
        cached("SELECT v FROM t WHERE id = 2", "*1\r\n$2\r\n20\r\n");
        ddl("DROP VIEW tv");
        cached("SELECT v FROM t WHERE id = 2", "*1\r\n$2\r\n20\r\n");
        ddl("CREATE TABLE u (k INT)");
        cached("SELECT v FROM t WHERE id = 2", "*1\r\n$2\r\n20\r\n");
        ddl("DROP TABLE t");
        assertTrue(side.run("SELECT v FROM t WHERE id = 2").startsWith("-ERR "), "the dropped table's plan is gone");
        // A new table of the same name with other columns: planned afresh.
        ddl("CREATE TABLE t (id INT PRIMARY KEY, v TEXT)");
        assertEquals("+OK\r\n", side.run("INSERT INTO t VALUES (2, 'two')"));
        cached("SELECT v FROM t WHERE id = 2", "*1\r\n$3\r\ntwo\r\n");
        side.engine.flushAll();
        assertEquals(0, side.engine.planCacheEntries(), "after FLUSHALL");
        assertTrue(side.run("SELECT v FROM t WHERE id = 2").startsWith("-ERR "));
    }

    @Test
    void aBlockRolledBackEmptiesTheCache() {
        assertEquals("+OK\r\n", side.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
        side.engine.beginBlock();
        assertEquals("+OK\r\n", side.run("CREATE INDEX t_v ON t (v)"));
        cached("SELECT id FROM t WHERE v = 20", "*0\r\n");
        side.engine.rollbackBlock();
        assertEquals(0, side.engine.planCacheEntries());
        cached("SELECT id FROM t WHERE v = 20", "*0\r\n");
    }

    @Test
    void zeroEntriesTurnsTheCacheOff() {
        assertEquals("+OK\r\n", side.run("CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
        cached("SELECT v FROM t WHERE id = 1", "*0\r\n");
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
}
