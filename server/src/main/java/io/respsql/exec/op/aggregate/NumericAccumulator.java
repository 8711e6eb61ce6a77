package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Numeric;
import io.respsql.storage.Column;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * SUM, AVG, MIN and MAX of NUMERIC (and PostgreSQL's AVG of integers), exactly (issue 25). Per
 * group the value in its long form (unscaled long and scale) while it fits 18 digits, a
 * BigDecimal beyond: adding a value of the group's scale is one long addition with an overflow
 * test, so a NUMERIC(10,2) column's sum allocates nothing per row. SUM's scale is the largest of
 * its inputs'; AVG is the sum divided by the count at PostgreSQL's division scale; MIN/MAX keep
 * the value as it was (its scale too).
 */
final class NumericAccumulator extends Accumulator {
    private final AggregateSpec.Kind fn;
    private long[] values = new long[0];
    private int[] scales = new int[0];
    private long[] counts = new long[0];
    private boolean[] any = new boolean[0];
    /** Per group the value when it left the long form; null until some group's did. */
    private BigDecimal[] bigs;
    /** Scratch for the arithmetic of the slow paths (not shared with the statement's context). */
    private final EvalContext tmp = new EvalContext(1);

    NumericAccumulator(AggregateSpec.Kind fn, Expression arg, boolean distinct) {
        super(arg, distinct);
        this.fn = fn;
    }

    @Override
    void grow(int capacity) {
        int n = grown(any.length, capacity);
        values = Arrays.copyOf(values, n);
        scales = Arrays.copyOf(scales, n);
        counts = Arrays.copyOf(counts, n);
        any = Arrays.copyOf(any, n);
        if (bigs != null) {
            bigs = Arrays.copyOf(bigs, n);
        }
    }

    @Override
    void accumulate(EvalContext ctx, int g) {
        if (seen != null) {
            if (kind == io.respsql.exec.op.Keys.TEXT) {
                long u = arg.evalNumeric(ctx); // by value: SUM(DISTINCT x) takes 1.0 and 1.00 once
                if (ctx.isNull || !seen.firstNumeric(g, u, ctx.numScale, ctx.numBig)) {
                    return;
                }
            } else {
                long v = arg.evalLong(ctx); // AVG(DISTINCT integer)
                if (ctx.isNull || !seen.firstLong(g, v)) {
                    return;
                }
            }
        }
        long u = arg.evalNumeric(ctx);
        if (ctx.isNull) {
            return;
        }
        add(g, u, ctx.numScale, ctx.numBig);
    }

    @Override
    void accumulateBatch(EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            accumulate(ctx, gids[i]);
        }
    }

    private void add(int g, long u, int s, BigDecimal big) {
        counts[g]++;
        if (!any[g]) {
            set(g, u, s, big);
            any[g] = true;
            return;
        }
        BigDecimal have = bigs == null ? null : bigs[g];
        switch (fn) {
            case MIN:
            case MAX: {
                int c = Numeric.compare(u, s, big, values[g], scales[g], have);
                if (fn == AggregateSpec.Kind.MIN ? c < 0 : c > 0) {
                    set(g, u, s, big);
                }
                return;
            }
            default: {
                if (big == null && have == null && s == scales[g]) {
                    long r = values[g] + u; // both below 10^18 in magnitude: no overflow
                    if (r <= Numeric.MAX_FAST && r >= -Numeric.MAX_FAST) {
                        values[g] = r;
                        return;
                    }
                }
                long r = Numeric.add(tmp, values[g], scales[g], have, u, s, big, false);
                set(g, r, tmp.numScale, tmp.numBig);
            }
        }
    }

    private void set(int g, long u, int s, BigDecimal big) {
        values[g] = u;
        scales[g] = s;
        if (big != null && bigs == null) {
            bigs = new BigDecimal[any.length];
        }
        if (bigs != null) {
            bigs[g] = big;
        }
    }

    @Override
    void write(Column c, int row, int g) {
        if (!any[g]) {
            Outputs.writeNull(c, row);
            return;
        }
        long u = values[g];
        BigDecimal big = bigs == null ? null : bigs[g];
        int s = scales[g];
        if (fn == AggregateSpec.Kind.AVG) {
            u = Numeric.divide(tmp, u, s, big, counts[g], 0, null);
            s = tmp.numScale;
            big = tmp.numBig;
        }
        byte[] b = Numeric.text(u, s, big).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Outputs.writeText(c, row, b, 0, b.length);
    }
}
