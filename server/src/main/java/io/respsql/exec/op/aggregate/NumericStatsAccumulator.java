package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Numeric;
import io.respsql.storage.Column;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * var_pop, var_samp, stddev_pop, stddev_samp of NUMERIC and (PostgreSQL's dialect) of integers,
 * as NUMERIC (issue 25): PostgreSQL's numeric_stddev_internal over the exact sums of X and X²
 * ((N·ΣX² − (ΣX)²) / (N·(N−1) or N²) at select_div_scale, rounded half away from zero; the square
 * root of that at the same scale). Per group the sums are longs at the group's scale while they
 * fit (no allocation per row), BigDecimals once a group's do not.
 */
final class NumericStatsAccumulator extends Accumulator {
    private final AggregateSpec.Kind fn;
    private long[] counts = new long[0];
    private int[] scales = new int[0];
    private long[] sumX = new long[0];
    private long[] sumX2 = new long[0];
    private boolean[] nan = new boolean[0];
    /** Per group ΣX and ΣX² once they left the long form; null until some group's did. */
    private BigDecimal[] bigX;
    private BigDecimal[] bigX2;

    NumericStatsAccumulator(AggregateSpec.Kind fn, Expression arg, boolean distinct) {
        super(arg, distinct);
        this.fn = fn;
    }

    @Override
    void grow(int capacity) {
        int k = grown(counts.length, capacity);
        counts = Arrays.copyOf(counts, k);
        scales = Arrays.copyOf(scales, k);
        sumX = Arrays.copyOf(sumX, k);
        sumX2 = Arrays.copyOf(sumX2, k);
        nan = Arrays.copyOf(nan, k);
        if (bigX != null) {
            bigX = Arrays.copyOf(bigX, k);
            bigX2 = Arrays.copyOf(bigX2, k);
        }
    }

    @Override
    void accumulate(EvalContext ctx, int g) {
        if (seen != null) {
            if (kind == Keys.TEXT) {
                byte[] b = arg.evalText(ctx);
                if (ctx.isNull || !seen.firstText(g, b, ctx.textOffset, ctx.textLength)) {
                    return;
                }
            } else {
                long v = arg.evalLong(ctx);
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
        long c = counts[g]++;
        if (big == Numeric.NAN) {
            nan[g] = true;
            return;
        }
        if (c == 0 || (c == 1 && nan[g])) {
            scales[g] = s;
        }
        if (big == null && (bigX == null || bigX[g] == null)) {
            int sc = scales[g];
            long v = u;
            if (s < sc) {
                v = rescaled(u, sc - s);
            }
            if (s <= sc && v != Long.MIN_VALUE) {
                long sq = v * v;
                long x = sumX[g] + v;
                long x2 = sumX2[g] + sq;
                if (Math.multiplyHigh(v, v) == 0 && sq >= 0 && ((sumX[g] ^ x) & (v ^ x)) >= 0 && x2 >= 0) {
                    sumX[g] = x;
                    sumX2[g] = x2;
                    return;
                }
            }
            promote(g);
        } else if (bigX == null || bigX[g] == null) {
            promote(g);
        }
        BigDecimal d = big != null ? big : BigDecimal.valueOf(u, s);
        bigX[g] = bigX[g].add(d);
        bigX2[g] = bigX2[g].add(d.multiply(d));
    }

    /** u·10^by, or Long.MIN_VALUE when that leaves a long. */
    private static long rescaled(long u, int by) {
        long r = u;
        for (int i = 0; i < by; i++) {
            long m = r * 10;
            if (m / 10 != r) {
                return Long.MIN_VALUE;
            }
            r = m;
        }
        return r;
    }

    private void promote(int g) {
        if (bigX == null) {
            bigX = new BigDecimal[counts.length];
            bigX2 = new BigDecimal[counts.length];
        }
        bigX[g] = BigDecimal.valueOf(sumX[g], scales[g]);
        bigX2[g] = BigDecimal.valueOf(sumX2[g], 2 * scales[g]);
    }

    @Override
    void write(Column c, int row, int g) {
        long total = counts[g];
        boolean sample = fn == AggregateSpec.Kind.VAR_SAMP || fn == AggregateSpec.Kind.STDDEV_SAMP;
        if (total == 0 || (sample && total <= 1)) {
            Outputs.writeNull(c, row);
            return;
        }
        String text;
        if (nan[g]) {
            text = "NaN";
        } else {
            text = result(g, total, sample).toPlainString();
        }
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        Outputs.writeText(c, row, b, 0, b.length);
    }

    private BigDecimal result(int g, long count, boolean sample) {
        BigDecimal x = bigX != null && bigX[g] != null ? bigX[g] : BigDecimal.valueOf(sumX[g], scales[g]);
        BigDecimal x2 = bigX != null && bigX[g] != null ? bigX2[g] : BigDecimal.valueOf(sumX2[g], 2 * scales[g]);
        BigDecimal n = BigDecimal.valueOf(count);
        BigDecimal num = n.multiply(x2).subtract(x.multiply(x));
        int ds = Math.max(x.scale(), 0);
        if (num.scale() < 2 * ds) {
            num = num.setScale(2 * ds);
        }
        if (num.signum() <= 0) {
            return BigDecimal.ZERO; // PostgreSQL: round-off can make it negative; 0
        }
        BigDecimal den = sample ? n.multiply(BigDecimal.valueOf(count - 1)) : n.multiply(n);
        int rscale = Numeric.divScale(0, num.scale(), num, 0, 0, den);
        BigDecimal v = num.divide(den, rscale, RoundingMode.HALF_UP);
        if (fn == AggregateSpec.Kind.STDDEV_POP || fn == AggregateSpec.Kind.STDDEV_SAMP) {
            v = v.sqrt(new MathContext(v.precision() + rscale + 10, RoundingMode.DOWN)).setScale(rscale, RoundingMode.HALF_UP);
        }
        return v;
    }
}
