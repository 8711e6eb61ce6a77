package io.respsql.exec.kernel;

import io.respsql.storage.Chunks;
import io.respsql.storage.IntColumn;
import io.respsql.storage.RowAllocator;
import io.respsql.storage.TestColumns;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IntKernel#addWithin} against a row-at-a-time model: row lists of consecutive slots (a
 * key-ordered primary key), lists mixing stretches and jumps, stretches across a chunk boundary, NULLs
 * inside stretches, and a value out of range anywhere (every addition taken back, the first misfit
 * in list order named).
 */
class IntKernelAddWithinTest {
    private static final int ROWS = Chunks.SIZE * 2 + 1000;

    @Test
    void matchesARowAtATimeModel() {
        SplittableRandom rnd = new SplittableRandom(13);
        for (int trial = 0; trial < 200; trial++) {
            IntColumn c = TestColumns.ints("v", ROWS);
            int[] model = new int[ROWS];
            boolean[] isNull = new boolean[ROWS];
            for (int r = 0; r < ROWS; r++) {
                model[r] = rnd.nextInt(-1000, 1000);
                c.set(r, model[r]);
            }
            int nulls = trial % 3 == 0 ? 0 : rnd.nextInt(1, 40);
            for (int k = 0; k < nulls; k++) {
                int r = rnd.nextInt(ROWS);
                isNull[r] = true;
                c.setNull(r);
            }
            int[] rows = new int[5000];
            int n = 0;
            int at = trial % 2 == 0 ? Chunks.SIZE - rnd.nextInt(1, 3000) : rnd.nextInt(ROWS);
            while (n < rows.length) {
                int len = rnd.nextInt(1, 600);
                for (int k = 0; k < len && n < rows.length && at < ROWS; k++) {
                    rows[n++] = at++;
                }
                at = rnd.nextInt(4) == 0 ? rnd.nextInt(ROWS) : at + rnd.nextInt(0, 50);
                if (at >= ROWS) {
                    at = rnd.nextInt(ROWS);
                }
            }
            if (trial % 5 == 0) { // one stretch of consecutive slots (a primary key in key order), across a chunk boundary
                int from = Chunks.SIZE - rnd.nextInt(1, 5000);
                n = rnd.nextInt(16, rows.length);
                for (int i = 0; i < n; i++) {
                    rows[i] = from + i;
                }
            }
            // distinct rows only, as an index walk yields
            java.util.BitSet seen = new java.util.BitSet();
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (!seen.get(rows[i])) {
                    seen.set(rows[i]);
                    rows[m++] = rows[i];
                }
            }
            int misfit = -1;
            if (trial % 4 != 1) {
                int r = rows[rnd.nextInt(m)];
                if (!isNull[r]) {
                    model[r] = 2_000_000;
                    c.set(r, model[r]);
                }
            }
            int delta = 7;
            int lo = -10_000;
            int hi = 1_000_000;
            for (int i = 0; i < m; i++) {
                int r = rows[i];
                if (!isNull[r] && (model[r] < lo || model[r] > hi)) {
                    misfit = r;
                    break;
                }
            }
            int got = IntKernel.of(c).addWithin(rows, m, delta, lo, hi);
            assertEquals(misfit, got, "trial " + trial);
            for (int r = 0; r < ROWS; r++) {
                int expected = model[r] + (misfit < 0 && seen.get(r) && !isNull[r] ? delta : 0);
                assertEquals(isNull[r], c.isNull(r), "NULL stays NULL, row " + r);
                assertEquals(isNull[r] ? 0 : expected, c.get(r), "trial " + trial + " row " + r + " (a NULL's slot holds 0)");
            }
        }
    }

    /**
     * The whole-table walk (firstOutside over the live rows, then addToLive) against a model: live
     * rows released here and there (partial bitmap words), NULLs, a chunk boundary, a misfit or none.
     */
    @Test
    void theLiveWalkMatchesARowAtATimeModel() {
        SplittableRandom rnd = new SplittableRandom(29);
        for (int trial = 0; trial < 60; trial++) {
            RowAllocator live = new RowAllocator();
            int rows = Chunks.SIZE + rnd.nextInt(1, 9000);
            IntColumn c = TestColumns.ints("v", rows);
            int[] model = new int[rows];
            boolean[] isNull = new boolean[rows];
            for (int r = 0; r < rows; r++) {
                assertEquals(r, live.allocate());
                model[r] = rnd.nextInt(-1000, 1000);
                c.set(r, model[r]);
            }
            boolean[] gone = new boolean[rows];
            for (int k = trial % 3 == 0 ? 0 : rnd.nextInt(1, 300); k > 0; k--) {
                int r = rnd.nextInt(rows);
                if (!gone[r]) {
                    gone[r] = true;
                    live.release(r);
                }
            }
            for (int k = trial % 4 == 0 ? 0 : rnd.nextInt(1, 40); k > 0; k--) {
                int r = rnd.nextInt(rows);
                isNull[r] = true;
                c.setNull(r);
            }
            if (trial % 2 == 1) {
                int r = rnd.nextInt(rows);
                model[r] = 2_000_000; // outside for a live non-NULL row; a released or NULL one is not looked at
                c.set(r, model[r]);
                isNull[r] = false;
            }
            int lo = -10_000;
            int hi = 1_000_000;
            int misfit = -1;
            for (int r = 0; r < rows && misfit < 0; r++) {
                if (!gone[r] && !isNull[r] && (model[r] < lo || model[r] > hi)) {
                    misfit = r;
                }
            }
            assertEquals(misfit, IntKernel.of(c).firstOutside(live, lo, hi), "trial " + trial);
            IntKernel.of(c).addToLive(live, -3);
            for (int r = 0; r < rows; r++) {
                int expected = isNull[r] ? 0 : model[r] + (gone[r] ? 0 : -3);
                assertEquals(expected, c.get(r), "trial " + trial + " row " + r);
            }
        }
    }
    /**
     * {@link IntKernel#addWithinAscending} (one key's posting list: strided ascending rows) against
     * a row-at-a-time model: strides that cross chunk boundaries, NULLs, the INT extremes as the
     * range's ends (the unsigned range test), a misfit at the last row, anywhere or nowhere, and an
     * empty range (every non-NULL row a misfit).
     */
    @Test
    void theAscendingKernelMatchesARowAtATimeModel() {
        SplittableRandom rnd = new SplittableRandom(41);
        for (int trial = 0; trial < 240; trial++) {
            IntColumn c = TestColumns.ints("v", ROWS);
            int[] model = new int[ROWS];
            boolean[] isNull = new boolean[ROWS];
            int delta = switch (trial % 3) {
                case 0 -> 1;
                case 1 -> -1;
                default -> rnd.nextInt(-100, 100);
            };
            long low = Math.max(Integer.MIN_VALUE, (long) Integer.MIN_VALUE - delta);
            long high = Math.min(Integer.MAX_VALUE, (long) Integer.MAX_VALUE - delta);
            boolean empty = trial % 17 == 5;
            int lo = empty ? 1 : (int) low; // as UpdateOperator.increment: |delta| >= 2^32 gives lo 1, hi 0
            int hi = empty ? 0 : (int) high;
            for (int r = 0; r < ROWS; r++) {
                model[r] = rnd.nextInt(8) == 0 ? (rnd.nextBoolean() ? lo : hi) : rnd.nextInt(-1000, 1000);
                c.set(r, model[r]);
            }
            for (int k = trial % 3 == 2 ? 0 : rnd.nextInt(1, 200); k > 0; k--) {
                int r = rnd.nextInt(ROWS);
                isNull[r] = true;
                c.setNull(r);
            }
            int stride = rnd.nextInt(1, 300);
            int first = rnd.nextInt(stride);
            int n = 0;
            int[] rows = new int[ROWS];
            for (int r = first; r < ROWS; r += stride + (rnd.nextInt(10) == 0 ? rnd.nextInt(3) : 0)) {
                rows[n++] = r;
            }
            if (trial % 4 == 1) {
                n = Math.min(n, rnd.nextInt(1, 40)); // short lists, within one chunk
            }
            int where = trial % 4;
            if (where != 3 && !empty && delta != 0) { // a misfit: at the last row, or at one anywhere (3: none)
                int r = where == 0 ? rows[n - 1] : rows[rnd.nextInt(n)];
                model[r] = delta > 0 ? hi + 1 : lo - 1; // just outside (delta != 0: that end is not the INT extreme)
                c.set(r, model[r]);
                isNull[r] = false;
            }
            int misfit = -1;
            for (int i = 0; i < n; i++) {
                int r = rows[i];
                if (!isNull[r] && (model[r] < lo || model[r] > hi)) {
                    misfit = r;
                    break;
                }
            }
            java.util.BitSet in = new java.util.BitSet();
            for (int i = 0; i < n; i++) {
                in.set(rows[i]);
            }
            int got = IntKernel.of(c).addWithinAscending(rows, n, delta, lo, hi);
            assertEquals(misfit, got, "trial " + trial);
            for (int r = 0; r < ROWS; r++) {
                int expected = isNull[r] ? 0 : model[r] + (misfit < 0 && in.get(r) ? delta : 0);
                assertEquals(isNull[r], c.isNull(r), "NULL stays NULL, row " + r);
                assertEquals(expected, c.get(r), "trial " + trial + " row " + r);
            }
        }
    }
}
