package io.respsql.engine;

import io.respsql.sql.Dialect;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SUM/AVG/MIN/MAX of a NUMERIC(10,2) column (issue 25): exact to the cent, and, the column being
 * scaled longs summed in a long, without allocating per row: the bytes one run allocates do not
 * grow with the table.
 */
class NumericSumTest {
    private final SqlEngine engine = new SqlEngine(new Catalog());
    private BigDecimal expected = BigDecimal.ZERO;
    private int rows;

    @BeforeEach
    void postgres() {
        Dialect.postgres(true);
        assertEquals("ok, changed 1", CollectedRows.run(engine, "CREATE TABLE t (id INT PRIMARY KEY, p NUMERIC(10,2))"));
    }

    @AfterEach
    void back() {
        Dialect.postgres(false);
    }

    private void addRows(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int id = rows++;
            if (b.length() == 0) {
                b.append("INSERT INTO t VALUES ");
            } else {
                b.append(", ");
            }
            String cents = (1000 + id % 997) + "." + (id % 100 < 10 ? "0" : "") + (id % 100);
            expected = expected.add(new BigDecimal(cents));
            b.append('(').append(id).append(", ").append(cents).append(')');
            if (b.length() > 60_000 || i == n - 1) {
                CollectedRows.run(engine, b.toString());
                b.setLength(0);
            }
        }
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** The fewest bytes one run of {@code sql} allocated, over several runs after a warm-up. */
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
    void exactToTheCentWithoutAllocatingPerRow() {
        String sum = "SELECT sum(p), min(p), max(p), count(p) FROM t";
        addRows(100_000);
        assertEquals("rows [" + expected.toPlainString() + ",1000.00,1996.99,100000]", CollectedRows.run(engine, sum));
        long small = bytesOf(sum);
        addRows(200_000);
        assertEquals("rows [" + expected.toPlainString() + ",1000.00,1996.99,300000]", CollectedRows.run(engine, sum));
        long large = bytesOf(sum);
        // 200,000 more rows: well under a byte per row more (chunk-sized buffers at most)
        assertTrue(large - small < 100_000, "one run allocated " + small + " bytes over 100,000 rows, " + large + " over 300,000");
        assertEquals("rows [" + expected.divide(BigDecimal.valueOf(300_000), 16, java.math.RoundingMode.HALF_UP).toPlainString() + "]",
                CollectedRows.run(engine, "SELECT avg(p) FROM t"));
    }
}
