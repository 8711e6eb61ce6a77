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
 * Window functions over NUMERIC allocate no object per row: a window run buffers every row in
 * primitive arrays (so its bytes grow with the rows alike for every type), and the NUMERIC path
 * (scaled longs summed and slid in a long, results formatted into the work table's text arena)
 * adds no more per row than that over an INT column does, beyond the result text itself.
 */
class WindowNumericAllocationTest {
    private final SqlEngine engine = new SqlEngine(new Catalog());
    private int rows;

    @BeforeEach
    void postgres() {
        Dialect.postgres(true);
        assertEquals("ok, changed 1", CollectedRows.run(engine, "CREATE TABLE t (id INT PRIMARY KEY, p NUMERIC(10,2), k INT)"));
    }

    @AfterEach
    void back() {
        Dialect.postgres(false);
    }

    private void addRows(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int id = rows++;
            b.append(b.length() == 0 ? "INSERT INTO t VALUES " : ", ");
            b.append('(').append(id).append(", ").append(1000 + id % 997).append('.').append(10 + id % 90).append(", ").append(id % 1000).append(')');
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
        for (int i = 0; i < 10; i++) {
            CollectedRows.run(engine, sql);
        }
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 8; i++) {
            long before = allocated();
            CollectedRows.run(engine, sql);
            best = Math.min(best, allocated() - before);
        }
        return best;
    }

    @Test
    void numericWindowAggregatesAllocateNothingPerRowBeyondTheirBuffers() {
        String numeric = "SELECT max(s) FROM (SELECT sum(p) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING "
                + "EXCLUDE CURRENT ROW) s FROM t) x";
        String integer = numeric.replace("(p)", "(k)");
        addRows(20_000);
        long numSmall = bytesOf(numeric);
        long intSmall = bytesOf(integer);
        addRows(40_000);
        long numLarge = bytesOf(numeric);
        long intLarge = bytesOf(integer);
        double numPerRow = (numLarge - numSmall) / 40_000.0;
        double intPerRow = (intLarge - intSmall) / 40_000.0;
        // Measured about 55 bytes more per row: the argument buffer's scale beside each value (4 bytes,
        // twice for the sort's spare, doubled by growth) and the result's text in the work table (about
        // 11 bytes and an 8-byte reference instead of an 8-byte long, doubled by growth). A String or a
        // BigDecimal per result would add 40 to 90 bytes more.
        assertTrue(numPerRow - intPerRow < 90, "NUMERIC window run: " + numPerRow + " bytes per row, INT: " + intPerRow);
    }
}
