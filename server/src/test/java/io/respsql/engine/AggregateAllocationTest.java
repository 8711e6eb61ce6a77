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
 * PostgreSQL's aggregates (issue 25) allocate nothing per row: FILTER, the statistical aggregates
 * over float8, integers and NUMERIC(10,2) (NUMERIC results), bool_* and bit_*, and GROUP BY ROLLUP
 * (one hash aggregation per set): the bytes one run allocates do not grow with the table.
 */
class AggregateAllocationTest {
    private final SqlEngine engine = new SqlEngine(new Catalog());
    private int rows;

    @BeforeEach
    void postgres() {
        Dialect.postgres(true);
        assertEquals("ok, changed 1", CollectedRows.run(engine,
                "CREATE TABLE t (id INT PRIMARY KEY, g INT, x FLOAT, p NUMERIC(10,2), i INT, b BOOLEAN)"));
    }

    @AfterEach
    void back() {
        Dialect.postgres(false);
    }

    private void addRows(int n) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < n; k++) {
            int id = rows++;
            sb.append(sb.length() == 0 ? "INSERT INTO t VALUES " : ", ");
            sb.append('(').append(id).append(", ").append(id % 7).append(", ").append(id % 13).append(".5, ")
                    .append(100 + id % 997).append('.').append(id % 90 + 10).append(", ").append(id % 1000).append(", ")
                    .append(id % 11 == 0 ? "false" : "true").append(')');
            if (sb.length() > 60_000 || k == n - 1) {
                CollectedRows.run(engine, sb.toString());
                sb.setLength(0);
            }
        }
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private long bytesOf(String sql) {
        for (int k = 0; k < 15; k++) {
            CollectedRows.run(engine, sql);
        }
        long best = Long.MAX_VALUE;
        for (int k = 0; k < 8; k++) {
            long before = allocated();
            CollectedRows.run(engine, sql);
            best = Math.min(best, allocated() - before);
        }
        return best;
    }

    @Test
    void statisticalFilteredAndRolledUpAggregatesAllocateNothingPerRow() {
        String[] queries = {
            "SELECT g, var_pop(x), stddev_samp(x), var_samp(i), stddev_pop(p), covar_pop(x, i), corr(x, p), regr_slope(i, x)"
                + " FROM t GROUP BY g",
            "SELECT g, count(*) FILTER (WHERE i > 500), sum(p) FILTER (WHERE b), bool_and(b), bool_or(i > 998), bit_or(i), bit_xor(i)"
                + " FROM t GROUP BY g",
            "SELECT g, b, count(*), sum(i), grouping(g, b) FROM t GROUP BY ROLLUP (g, b)",
        };
        addRows(60_000);
        long[] small = new long[queries.length];
        for (int q = 0; q < queries.length; q++) {
            small[q] = bytesOf(queries[q]);
        }
        addRows(200_000);
        for (int q = 0; q < queries.length; q++) {
            long large = bytesOf(queries[q]);
            assertTrue(large - small[q] < 100_000, queries[q] + ": one run allocated " + small[q] + " bytes over 60,000 rows, "
                    + large + " over 260,000");
        }
        assertEquals("rows [8]", CollectedRows.run(engine, "SELECT count(*) FROM (SELECT g, count(*) FROM t GROUP BY ROLLUP (g)) s"));
    }
}
