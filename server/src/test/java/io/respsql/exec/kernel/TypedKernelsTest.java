package io.respsql.exec.kernel;

import io.respsql.storage.Chunks;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.RowAllocator;
import io.respsql.storage.TestColumns;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BIGINT and FLOAT kernels (generated from the template IntKernelAddWithinTest covers for INT)
 * against row-at-a-time models, through the API the UPDATE uses ({@link NumericKernel}, a long
 * step): strided and consecutive row lists across a chunk boundary, ascending posting lists, the
 * live-row walk, NULLs skipped, BIGINT values at the edges of the 64-bit range (the first misfit
 * named, every addition taken back), FLOAT values that no 64-bit step overflows.
 */
class TypedKernelsTest {
    private static final int ROWS = Chunks.SIZE + 5000;

    @Test
    void kernelsByDeclaredType() {
        assertTrue(NumericKernel.of(TestColumns.longs("b", 1)) instanceof LongKernel);
        assertTrue(NumericKernel.of(TestColumns.doubles("f", 1)) instanceof DoubleKernel);
        assertTrue(NumericKernel.of(TestColumns.ints("i", 1)) instanceof IntKernel);
        assertFalse(NumericKernel.of(TestColumns.doubles("f", 1)).exactUndo(), "a FLOAT's subtraction rounds");
        assertTrue(NumericKernel.of(TestColumns.longs("b", 1)).exactUndo());
        assertEquals(Long.MIN_VALUE, NumericKernel.of(TestColumns.longs("b", 1)).delta(Long.MIN_VALUE, 1), "-MIN: the general path");
        assertEquals(-5, NumericKernel.of(TestColumns.longs("b", 1)).delta(5, -1));
        assertEquals(1L << 33, NumericKernel.of(TestColumns.ints("i", 1)).delta(Long.MAX_VALUE, 1), "INT clamps");
    }

    /** A row list: strided with jumps (trial odd) or one stretch of consecutive slots over the chunk boundary (even). */
    private static int[] rows(SplittableRandom rnd, int trial) {
        int n = rnd.nextInt(1, 3000);
        int[] rows = new int[n];
        int at = trial % 2 == 0 ? Chunks.SIZE - rnd.nextInt(1, 2000) : rnd.nextInt(50);
        for (int i = 0; i < n; i++) {
            rows[i] = at;
            at += trial % 2 == 0 ? 1 : rnd.nextInt(1, 30);
            if (at >= ROWS) {
                return java.util.Arrays.copyOf(rows, i + 1);
            }
        }
        return rows;
    }

    @Test
    void bigintMatchesARowAtATimeModel() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int trial = 0; trial < 120; trial++) {
            LongColumn c = TestColumns.longs("v", ROWS);
            long[] model = new long[ROWS];
            boolean[] isNull = new boolean[ROWS];
            for (int r = 0; r < ROWS; r++) {
                model[r] = rnd.nextLong(-1L << 62, 1L << 62);
                c.set(r, model[r]);
                if (trial % 3 != 0 && rnd.nextInt(40) == 0) {
                    isNull[r] = true;
                    c.setNull(r);
                }
            }
            int[] rows = rows(rnd, trial);
            long delta = trial % 4 == 0 ? Long.MAX_VALUE - (1L << 62) + 1 : rnd.nextLong(-1000, 1000);
            if (trial % 5 == 1 && delta != 0) { // a misfit: the value just past the edge the step crosses
                int r = rows[rnd.nextInt(rows.length)];
                model[r] = delta > 0 ? Long.MAX_VALUE - delta + 1 : Long.MIN_VALUE - delta - 1;
                c.set(r, model[r]);
                isNull[r] = false;
            }
            int misfit = -1;
            for (int r : rows) {
                long x = model[r];
                if (!isNull[r] && (delta >= 0 ? x > Long.MAX_VALUE - delta : x < Long.MIN_VALUE - delta)) {
                    misfit = r;
                    break;
                }
            }
            NumericKernel k = NumericKernel.of(c);
            assertEquals(misfit, k.firstOutside(rows, rows.length, delta), "trial " + trial);
            int got = trial % 2 == 1 && trial % 3 == 0 ? k.addWithinAscending(rows, rows.length, delta) : k.addWithin(rows, rows.length, delta);
            assertEquals(misfit, got, "trial " + trial);
            java.util.BitSet in = new java.util.BitSet();
            for (int r : rows) {
                in.set(r);
            }
            for (int r = 0; r < ROWS; r++) {
                assertEquals(isNull[r], c.isNull(r), "NULL stays NULL, row " + r);
                long expected = isNull[r] ? 0 : model[r] + (misfit < 0 && in.get(r) ? delta : 0);
                assertEquals(expected, c.get(r), "trial " + trial + " row " + r);
            }
        }
    }

    @Test
    void floatAddsEveryStepAndTheLiveWalkSkipsNullsAndFreedRows() {
        SplittableRandom rnd = new SplittableRandom(11);
        double[] specials = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE, -0.0};
        for (int trial = 0; trial < 60; trial++) {
            DoubleColumn c = TestColumns.doubles("v", ROWS);
            RowAllocator live = new RowAllocator();
            double[] model = new double[ROWS];
            boolean[] isNull = new boolean[ROWS];
            for (int r = 0; r < ROWS; r++) {
                assertEquals(r, live.allocate());
                model[r] = rnd.nextInt(50) == 0 ? specials[rnd.nextInt(specials.length)] : rnd.nextDouble(-1e6, 1e6);
                c.set(r, model[r]);
                if (trial % 3 != 0 && rnd.nextInt(40) == 0) {
                    isNull[r] = true;
                    c.setNull(r);
                }
            }
            boolean[] gone = new boolean[ROWS];
            for (int k = trial % 4 == 0 ? 0 : rnd.nextInt(1, 300); k > 0; k--) {
                int r = rnd.nextInt(ROWS);
                if (!gone[r]) {
                    gone[r] = true;
                    live.release(r);
                }
            }
            long delta = trial % 5 == 0 ? (trial % 2 == 0 ? Long.MAX_VALUE : -Long.MAX_VALUE) : rnd.nextLong(-1000, 1000);
            NumericKernel k = NumericKernel.of(c);
            assertEquals(-1, k.firstOutside(live, delta), "no 64-bit step overflows a double");
            k.addToLive(live, delta);
            int[] rows = rows(rnd, trial);
            assertEquals(-1, trial % 2 == 0 ? k.addWithin(rows, rows.length, delta) : k.addWithinAscending(rows, rows.length, delta));
            java.util.BitSet in = new java.util.BitSet();
            for (int r : rows) {
                in.set(r);
            }
            for (int r = 0; r < ROWS; r++) {
                assertEquals(isNull[r], c.isNull(r), "NULL stays NULL, row " + r);
                double expected = model[r];
                if (!gone[r]) {
                    expected += delta; // the general path's x + (double) k
                }
                if (in.get(r)) {
                    expected += delta;
                }
                assertEquals(isNull[r] ? 0.0 : expected, c.get(r), "trial " + trial + " row " + r);
            }
        }
    }

    @Test
    void setAllStoresOneValueAndClearsNulls() {
        SplittableRandom rnd = new SplittableRandom(3);
        LongColumn b = TestColumns.longs("b", ROWS);
        DoubleColumn f = TestColumns.doubles("f", ROWS);
        for (int r = 0; r < ROWS; r += 3) {
            b.setNull(r);
            f.setNull(r);
        }
        int[] rows = rows(rnd, 1);
        NumericKernel.of(b).setAll(rows, rows.length, Long.MIN_VALUE, 0.5);
        NumericKernel.of(f).setAll(rows, rows.length, 7, -0.0);
        java.util.BitSet in = new java.util.BitSet();
        for (int r : rows) {
            in.set(r);
        }
        for (int r = 0; r < ROWS; r++) {
            assertEquals(r % 3 == 0 && !in.get(r), b.isNull(r), "row " + r);
            assertEquals(r % 3 == 0 && !in.get(r), f.isNull(r), "row " + r);
            if (in.get(r)) {
                assertEquals(Long.MIN_VALUE, b.get(r));
                assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(f.get(r)));
            }
        }
    }
}
