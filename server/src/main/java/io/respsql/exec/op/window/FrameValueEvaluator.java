package io.respsql.exec.op.window;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * FIRST_VALUE, LAST_VALUE and NTH_VALUE: the value at the frame's first, last or n-th row (its
 * excluded rows left out), NULL when the frame has no such row. NTH_VALUE's n is read per row, as
 * PostgreSQL does: NULL gives NULL, below 1 is an error.
 */
final class FrameValueEvaluator extends WindowEvaluator {
    private final WindowFunctionKind kind;
    private final ValueBuffer value;
    /** NTH_VALUE's n; null for the others. */
    private final ValueBuffer nth;
    private final FrameBounds bounds;

    FrameValueEvaluator(WindowFunctionKind kind, ResultColumn out, ValueBuffer value, ValueBuffer nth, FrameBounds bounds) {
        super(out);
        this.kind = kind;
        this.value = value;
        this.nth = nth;
        this.bounds = bounds;
    }

    @Override
    void bind(int[] outRows, int[] peerStart, int[] peerEnd, int rows) {
        super.bind(outRows, peerStart, peerEnd, rows);
        bounds.bind(peerStart, peerEnd);
    }

    @Override
    void partition(int ps, int pe) {
        bounds.partition(ps, pe);
        for (int i = ps; i < pe; i++) {
            int row = outRows[i];
            long n;
            if (kind == WindowFunctionKind.NTH_VALUE) {
                if (nth.isNull(i)) {
                    out.setNull(row);
                    continue;
                }
                n = nth.getLong(i);
                if (n <= 0) {
                    throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_NTH_VALUE, "argument of nth_value must be greater than zero, got " + n);
                }
                n--;
            } else {
                n = 0;
            }
            bounds.compute(i);
            int size = bounds.size();
            if (n >= size) {
                out.setNull(row);
            } else {
                out.copy(row, value, bounds.row(kind == WindowFunctionKind.LAST_VALUE ? size - 1 : (int) n, i));
            }
        }
    }
}
