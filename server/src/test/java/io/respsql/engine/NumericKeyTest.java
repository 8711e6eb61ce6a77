package io.respsql.engine;

import io.respsql.sql.Dialect;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NUMERIC keys by value (textfn): IN (subquery), hash joins, anti-joins, GROUP BY, DISTINCT and
 * COUNT(DISTINCT) match 1, 1.0 and 1.00 as one value, and, the match key being the stripped
 * unscaled long in a reused buffer, do so without allocating per row: the bytes one run allocates
 * do not grow with the probing table. Before, IN (subquery) and joins built a BigDecimal and a
 * String per row.
 */
class NumericKeyTest {
    private final SqlEngine engine = new SqlEngine(new Catalog());
    private int rows;

    @BeforeEach
    void postgres() {
        Dialect.postgres(true);
        CollectedRows.run(engine, "CREATE TABLE t (id INT PRIMARY KEY, p NUMERIC(10,2), q NUMERIC)");
        CollectedRows.run(engine, "CREATE TABLE s (v NUMERIC, w NUMERIC(6,3))");
        CollectedRows.run(engine, "INSERT INTO s VALUES (1, 1.000), (2.5, 2.500), (3.00, 3), (10.1, 10.100)");
    }

    @AfterEach
    void back() {
        Dialect.postgres(false);
    }

    /** Rows whose p and q cycle through 0.00 .. 19.99 (q with its own scale: 1.5 and 1.50 both occur). */
    private void addRows(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int id = rows++;
            b.append(b.length() == 0 ? "INSERT INTO t VALUES " : ", ");
            int c = id % 2000;
            String p = (c / 100) + "." + (c % 100 < 10 ? "0" : "") + (c % 100);
            String q = id % 2 == 0 ? p : String.valueOf(c / 100.0);
            b.append('(').append(id).append(", ").append(p).append(", ").append(q).append(')');
            if (b.length() > 60_000 || i == n - 1) {
                CollectedRows.run(engine, b.toString());
                b.setLength(0);
            }
        }
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private long bytesOf(String sql) {
        for (int i = 0; i < 20; i++) {
            CollectedRows.run(engine, sql);
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            long before = allocated();
            CollectedRows.run(engine, sql);
            best = Math.min(best, allocated() - before);
        }
        return best;
    }

    @Test
    void matchedByValueWithoutAllocatingPerRow() {
        String[] queries = {
            "SELECT count(*) FROM t WHERE p IN (SELECT v FROM s)",
            "SELECT count(*) FROM t WHERE q IN (SELECT w FROM s)",
            "SELECT count(*) FROM t WHERE q NOT IN (SELECT v FROM s)",
            "SELECT count(*) FROM t JOIN s ON t.q = s.w",
            "SELECT count(*) FROM t WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.v = t.p)",
        };
        addRows(40_000);
        // per 2,000 rows: p and q take 1.00, 2.50, 3.00 and 10.10 once each (q as 1.0 or 1.00 ...)
        String[] expected = {"rows [80]", "rows [80]", "rows [39920]", "rows [80]", "rows [39920]"};
        long[] small = new long[queries.length];
        for (int k = 0; k < queries.length; k++) {
            assertEquals(expected[k], CollectedRows.run(engine, queries[k]), queries[k]);
            small[k] = bytesOf(queries[k]);
        }
        addRows(160_000);
        String[] expectedLarge = {"rows [400]", "rows [400]", "rows [199600]", "rows [400]", "rows [199600]"};
        for (int k = 0; k < queries.length; k++) {
            assertEquals(expectedLarge[k], CollectedRows.run(engine, queries[k]), queries[k]);
            long large = bytesOf(queries[k]);
            // 160,000 more rows: well under a byte per row more
            assertTrue(large - small[k] < 100_000, queries[k] + ": one run allocated " + small[k] + " bytes over 40,000 rows, "
                    + large + " over 200,000");
        }
        // grouping by value: 2,000 groups whatever the scale of q; the first value seen is shown
        assertEquals("rows [2000]", CollectedRows.run(engine, "SELECT count(*) FROM (SELECT q FROM t GROUP BY q) g"));
        assertEquals("rows [2000]", CollectedRows.run(engine, "SELECT count(*) FROM (SELECT DISTINCT q FROM t) g"));
        assertEquals("rows [2000]", CollectedRows.run(engine, "SELECT count(DISTINCT q) FROM t"));
        assertEquals("rows [1.50]", CollectedRows.run(engine, "SELECT q FROM t WHERE q = 1.5 GROUP BY q"));
        long grouped = bytesOf("SELECT count(*) FROM (SELECT q FROM t GROUP BY q) g");
        addRows(200_000);
        long groupedLarge = bytesOf("SELECT count(*) FROM (SELECT q FROM t GROUP BY q) g");
        assertTrue(groupedLarge - grouped < 100_000, "GROUP BY q: one run allocated " + grouped + " bytes over 200,000 rows, "
                + groupedLarge + " over 400,000");
    }
}
