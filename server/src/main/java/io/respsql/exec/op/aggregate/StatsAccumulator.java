package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * var_pop, var_samp, stddev_pop, stddev_samp of float8 (issue 25): PostgreSQL's float8_accum,
 * the Youngs-Cramer update of (N, Sx, Sxx) per value, so the printed digits are PostgreSQL's.
 * Per group three primitive slots; nothing allocated per row.
 */
final class StatsAccumulator extends Accumulator {
    private final AggregateSpec.Kind fn;
    private double[] n = new double[0];
    private double[] sx = new double[0];
    private double[] sxx = new double[0];

    StatsAccumulator(AggregateSpec.Kind fn, Expression arg, boolean distinct) {
        super(arg, distinct);
        this.fn = fn;
    }

    @Override
    void grow(int capacity) {
        int k = grown(n.length, capacity);
        n = Arrays.copyOf(n, k);
        sx = Arrays.copyOf(sx, k);
        sxx = Arrays.copyOf(sxx, k);
    }

    @Override
    void addLong(int g, long v) {
        addDouble(g, (double) v);
    }

    @Override
    void addDouble(int g, double x) {
        double prevN = n[g];
        double prevSx = sx[g];
        double count = prevN + 1.0;
        double sum = prevSx + x;
        double s2 = sxx[g];
        if (prevN > 0.0) {
            double tmp = x * count - sum;
            s2 += tmp * tmp / (count * prevN);
            if (Double.isInfinite(sum) || Double.isInfinite(s2)) {
                if (!Double.isInfinite(prevSx) && !Double.isInfinite(x)) {
                    throw overflow();
                }
                s2 = Double.NaN;
            }
        } else if (Double.isNaN(x) || Double.isInfinite(x)) {
            s2 = Double.NaN;
        }
        n[g] = count;
        sx[g] = sum;
        sxx[g] = s2;
    }

    static SqlException overflow() {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    }

    @Override
    void write(Column c, int row, int g) {
        double count = n[g];
        boolean sample = fn == AggregateSpec.Kind.VAR_SAMP || fn == AggregateSpec.Kind.STDDEV_SAMP;
        if (count == 0.0 || (sample && count <= 1.0)) {
            Outputs.writeNull(c, row);
            return;
        }
        double v = sxx[g] / (sample ? count - 1.0 : count);
        if (fn == AggregateSpec.Kind.STDDEV_POP || fn == AggregateSpec.Kind.STDDEV_SAMP) {
            v = Math.sqrt(v);
        }
        Outputs.writeDouble(c, row, v);
    }
}
