package io.respsql.exec.op.window;

/**
 * LAG and LEAD: the value {@code offset} rows before (after) the current row in its partition,
 * else the default (NULL when none). The offset and default are evaluated per row, as in
 * PostgreSQL: a NULL offset gives NULL, a negative one looks the other way.
 */
final class OffsetEvaluator extends WindowEvaluator {
    private final boolean lag;
    private final ValueBuffer value;
    private final ValueBuffer offset;
    private final ValueBuffer dflt;

    OffsetEvaluator(boolean lag, ResultColumn out, ValueBuffer value, ValueBuffer offset, ValueBuffer dflt) {
        super(out);
        this.lag = lag;
        this.value = value;
        this.offset = offset;
        this.dflt = dflt;
    }

    @Override
    void partition(int ps, int pe) {
        long span = pe - ps;
        for (int i = ps; i < pe; i++) {
            int row = outRows[i];
            long o = 1;
            if (offset != null) {
                if (offset.isNull(i)) {
                    out.setNull(row);
                    continue;
                }
                // Clamped so i +- o cannot overflow; anything beyond the partition is outside alike.
                o = Math.max(-span - 1, Math.min(span + 1, offset.getLong(i)));
            }
            long target = lag ? i - o : i + o;
            if (target >= ps && target < pe) {
                out.copy(row, value, (int) target);
            } else if (dflt != null) {
                out.copy(row, dflt, i);
            } else {
                out.setNull(row);
            }
        }
    }
}
