package io.respsql.exec.kernel;

import io.respsql.storage.Chunks;
import io.respsql.storage.IntColumn;
import io.respsql.storage.RowAllocator;
import io.respsql.storage.TestColumns;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IntKernel#setAll} against {@link IntColumn#set} row by row: rows in any order across
 * three chunks (ascending strided lists as an fk key's posting list, and shuffled ones), NULLs
 * among them become values, rows not listed keep their value and NULL, and a capture taken
 * before keeps every old value (copy-on-write per chunk).
 */
class IntKernelSetAllTest {
    private static final int ROWS = Chunks.SIZE * 2 + 1000;

    @Test
    void matchesSetRowByRow() {
        SplittableRandom rnd = new SplittableRandom(29);
        for (int trial = 0; trial < 60; trial++) {
            IntColumn c = TestColumns.ints("v", ROWS);
            IntColumn model = TestColumns.ints("m", ROWS);
            int[] old = new int[ROWS];
            boolean[] oldNull = new boolean[ROWS];
            for (int r = 0; r < ROWS; r++) {
                old[r] = rnd.nextInt();
                c.set(r, old[r]);
                model.set(r, old[r]);
                if (trial % 3 != 0 && rnd.nextInt(50) == 0) {
                    oldNull[r] = true;
                    c.setNull(r);
                    model.setNull(r);
                }
            }
            int stride = rnd.nextInt(1, 300);
            int n = 0;
            int[] rows = new int[ROWS / stride + 1];
            for (int r = rnd.nextInt(stride); r < ROWS; r += stride) {
                rows[n++] = r;
            }
            if (trial % 2 == 1) { // any order
                for (int i = n - 1; i > 0; i--) {
                    int j = rnd.nextInt(i + 1);
                    int t = rows[i];
                    rows[i] = rows[j];
                    rows[j] = t;
                }
            }
            int[][] kept = trial % 4 == 0 ? TestColumns.captureInts(c, 1) : null;
            int value = rnd.nextInt();
            IntKernel.of(c).setAll(rows, n, value);
            for (int i = 0; i < n; i++) {
                model.set(rows[i], value);
            }
            for (int r = 0; r < ROWS; r++) {
                assertEquals(model.isNull(r), c.isNull(r), "NULL of row " + r);
                assertEquals(model.get(r), c.get(r), "row " + r);
            }
            if (kept != null) {
                for (int r = 0; r < ROWS; r++) {
                    assertEquals(oldNull[r] ? 0 : old[r], kept[r >>> Chunks.SHIFT][r & Chunks.MASK], "the capture's row " + r);
                }
            }
        }
    }
}
