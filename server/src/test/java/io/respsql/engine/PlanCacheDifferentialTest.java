package io.respsql.engine;

import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random point statements run through the plan cache and, on a copy of the same data, with the
 * cache off: every outcome and every row must be the same, and so must the tables at the end.
 * The values range over the kinds and edge cases whose plans depend on a literal's value
 * (fractions against integer keys, values beyond INT, quoted numbers, numbers into TEXT).
 */
class PlanCacheDifferentialTest {
    static final class Side {
        final SqlEngine engine = new SqlEngine(new Catalog());

        /** The outcome, and the rows of a query (the engine's facts, no wire form). */
        String run(String sql) {
            return CollectedRows.run(engine, sql);
        }
    }

    private static final String[] SETUP = {
        "CREATE TABLE t (id INT PRIMARY KEY, v INT, f DOUBLE, s TEXT, b BIGINT)",
        "CREATE INDEX t_v ON t (v)",
        "CREATE TABLE u (k INT, w TEXT)",
    };

    private static final String[] TEMPLATES = {
        "SELECT v FROM t WHERE id = %i",
        "SELECT * FROM t WHERE id = %n",
        "SELECT id, s FROM t WHERE v > %i AND v <= %i",
        "SELECT id FROM t WHERE v BETWEEN %n AND %n",
        "SELECT id FROM t WHERE id IN (%n, %n, %n)",
        "SELECT id FROM t WHERE s = %s",
        "SELECT id FROM t WHERE s LIKE %s",
        "SELECT count(*) FROM t WHERE v < %i",
        "SELECT id FROM t WHERE f > %n",
        "SELECT id FROM t WHERE v + %i = %i",
        "SELECT id FROM t WHERE b = %n",
        "SELECT id FROM t WHERE %i = id",
        "SELECT id FROM t WHERE id = -%i",
        "SELECT id FROM t WHERE v = %i OR s = %s",
        "SELECT id FROM t WHERE id = %i ORDER BY 1 LIMIT %i",
        "SELECT id, v FROM t WHERE v > %i ORDER BY v DESC, id LIMIT %i",
        "SELECT id FROM t WHERE id BETWEEN %i AND %i ORDER BY id LIMIT %i OFFSET %i",
        "SELECT t.id, u.w FROM t JOIN u ON u.k = t.id WHERE t.v < %i ORDER BY t.id DESC, u.w LIMIT %i",
        "SELECT id FROM t ORDER BY id limit %i",
        "SELECT count(*) FROM t WHERE id IN (SELECT k FROM u ORDER BY k LIMIT %i)",
        "SELECT id + %i FROM t WHERE id = %i",
        "SELECT t.id, u.w FROM t JOIN u ON u.k = t.id AND u.k > %i WHERE t.v < %i",
        "SELECT k FROM u WHERE w = %s",
        // derived tables: their WHERE literals are parameters too, the outer ones as well (a top-k bound)
        "SELECT id, rn FROM (SELECT id, v, row_number() OVER (PARTITION BY v ORDER BY id DESC) AS rn FROM t) z "
                + "WHERE rn = %i ORDER BY v, id LIMIT %i",
        "SELECT v, id FROM (SELECT id, v, rank() OVER (PARTITION BY v ORDER BY s, id) AS r FROM t WHERE id > %i) z "
                + "WHERE r <= %i ORDER BY v, id LIMIT %i",
        "SELECT id FROM (SELECT id, v, row_number() OVER (PARTITION BY s ORDER BY v) AS rn FROM t) z WHERE rn < %n ORDER BY id",
        "SELECT z.id, u.w FROM (SELECT id, v FROM t WHERE v < %i) z JOIN u ON u.k = z.id WHERE z.id > %i",
        "SELECT count(*) FROM (SELECT v FROM t WHERE s = %s OR v = %n) z",
        "SELECT id FROM (SELECT id, v + %i AS w FROM t) z WHERE w > %i",
        "SELECT id FROM t WHERE v IS NULL AND id > %i",
        "UPDATE t SET v = v + %i WHERE id = %i",
        "UPDATE t SET v = %n WHERE id = %i",
        "UPDATE t SET s = %s WHERE id = %i",
        "UPDATE t SET s = %n WHERE id = %i",
        "UPDATE t SET f = %n WHERE v = %i",
        "UPDATE t SET b = %n, v = %i WHERE id = %n",
        "UPDATE t SET id = %i WHERE id = %i",
        "UPDATE u SET w = %s WHERE k = %i",
        "DELETE FROM t WHERE id = %i",
        "DELETE FROM u WHERE k > %i AND w = %s",
        "INSERT INTO t VALUES (%i, %i, %n, %s, %n)",
        "INSERT INTO u VALUES (%i, %s)",
    };

    private static final String[] NUMBERS = {"2.5", "2.0", "1e3", "3000000000", "9223372036854775807",
        "99999999999999999999", "0005", "'7'", "'x'", "0", "-1", ".5", "5.", "NULL"};
    private static final String[] STRINGS = {"'abc'", "'a%'", "'it''s'", "'5'", "''", "'%'", "'b_c'", "x", "12"};

    @Test
    void cachedAndUncachedRepliesAreTheSame() {
        for (long seed = 1; seed <= 4; seed++) {
            runSeed(seed);
        }
    }

    /** A derived table's statement takes the cache (the top-k bound and the inner WHERE as parameters), and each run is right. */
    @Test
    void derivedTableStatementsAreCached() {
        Side cached = new Side();
        Side plain = new Side();
        plain.engine.planCacheLimits(0, 0);
        for (String s : SETUP) {
            cached.run(s);
            plain.run(s);
        }
        for (int i = 1; i <= 40; i++) {
            String ins = "INSERT INTO t VALUES (" + i + ", " + (i % 5) + ", 0, 'x', 0)";
            cached.run(ins);
            plain.run(ins);
        }
        String q = "SELECT v, id FROM (SELECT id, v, row_number() OVER (PARTITION BY v ORDER BY id DESC) AS rn FROM t "
                + "WHERE id > %d) z WHERE rn = %d ORDER BY v LIMIT 3";
        long hits = cached.engine.planCacheHits();
        for (int k = 1; k <= 4; k++) {
            String sql = String.format(q, k * 3, k);
            assertEquals(plain.run(sql), cached.run(sql), sql);
        }
        assertEquals(hits + 3, cached.engine.planCacheHits());
        // v = id % 5: each partition's largest id, v 0 -> 40, v 1 -> 36, v 2 -> 37 (a cached run with new values)
        assertEquals("rows [0,40, 1,36, 2,37]", cached.run(String.format(q, 0, 1)));
    }

    private void runSeed(long seed) {
        Side cached = new Side();
        Side plain = new Side();
        plain.engine.planCacheLimits(0, 0);
        cached.engine.planCacheLimits(50, 1 << 20); // small: evictions happen too
        for (String s : SETUP) {
            assertEquals(plain.run(s), cached.run(s), s);
        }
        Random r = new Random(seed);
        for (int i = 1; i <= 60; i++) {
            String ins = "INSERT INTO t VALUES (" + i + ", " + (i % 7 == 0 ? "NULL" : Integer.toString(r.nextInt(30)))
                    + ", " + (r.nextInt(100) / 4.0) + ", '" + (char) ('a' + r.nextInt(4)) + (char) ('a' + r.nextInt(4))
                    + "', " + r.nextInt(5) + ")";
            assertEquals(plain.run(ins), cached.run(ins), ins);
            String ins2 = "INSERT INTO u VALUES (" + r.nextInt(70) + ", '" + (char) ('a' + r.nextInt(4)) + "')";
            assertEquals(plain.run(ins2), cached.run(ins2), ins2);
        }
        for (int n = 0; n < 4000; n++) {
            String sql = statement(r);
            assertEquals(rows(sql, plain.run(sql)), rows(sql, cached.run(sql)), sql);
            if (n % 500 == 499) {
                String ddl = r.nextBoolean() ? "CREATE INDEX t_b" + n + " ON t (b)" : "DROP INDEX t_v";
                assertEquals(plain.run(ddl), cached.run(ddl), ddl);
            }
        }
        DifferentialSupport.assertSameDumps(plain, cached, "", "t", "u");
        assertTrue(cached.engine.planCacheHits() > 1000, "hits: " + cached.engine.planCacheHits());
        assertEquals(0, plain.engine.planCacheHits());
    }

    /**
     * The outcome, with its rows in sorted order when the statement is a join without ORDER BY: the
     * join order is chosen from the tables' row counts, and a plan cached when they differed may
     * join in another order, so only the rows, not their order, must be the same.
     */
    private static String rows(String sql, String reply) {
        if (!sql.startsWith("SELECT") || !sql.contains(" JOIN ") || sql.contains("ORDER BY") || !reply.startsWith("rows [")) {
            return reply;
        }
        String inner = reply.substring("rows [".length(), reply.length() - 1);
        java.util.List<String> rows = new java.util.ArrayList<>(java.util.Arrays.asList(inner.split(", ")));
        java.util.Collections.sort(rows);
        return "rows " + rows;
    }

    private static String statement(Random r) {
        return DifferentialSupport.statement(TEMPLATES, r, (k, rnd) -> {
            if (k == 'i') {
                return rnd.nextInt(8) == 0 ? NUMBERS[rnd.nextInt(NUMBERS.length)] : Integer.toString(rnd.nextInt(70));
            }
            if (k == 'n') {
                return rnd.nextInt(3) == 0 ? NUMBERS[rnd.nextInt(NUMBERS.length)] : Integer.toString(rnd.nextInt(70));
            }
            return rnd.nextInt(3) == 0 ? STRINGS[rnd.nextInt(STRINGS.length)]
                    : "'" + (char) ('a' + rnd.nextInt(4)) + (char) ('a' + rnd.nextInt(4)) + "'";
        });
    }
}
