package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;

import java.util.Arrays;

/** SUM([DISTINCT] x): exact 64-bit for integers (overflow is an error), double for DOUBLE; NULL with no value. */
final class SumAccumulator extends Accumulator {
    private long[] sums = new long[0];
    private double[] dsums = new double[0];
    private boolean[] any = new boolean[0];

    SumAccumulator(Expression arg, boolean distinct) {
        super(arg, distinct);
    }

    @Override
    void grow(int capacity) {
        int n = grown(any.length, capacity);
        any = Arrays.copyOf(any, n);
        if (kind == io.respsql.exec.op.Keys.DOUBLE) {
            dsums = Arrays.copyOf(dsums, n);
        } else {
            sums = Arrays.copyOf(sums, n);
        }
    }

    @Override
    void accumulateBatch(io.respsql.expr.EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        if (seen != null) {
            super.accumulateBatch(ctx, relation, sel, n, gids, s);
            return;
        }
        boolean[] nulls = s.nulls;
        boolean[] any = this.any;
        if (kind == io.respsql.exec.op.Keys.DOUBLE) {
            double[] d = s.doubles;
            boolean anyNull = arg.evalDoubleBatch(ctx, relation, sel, n, d, nulls);
            double[] ds = dsums;
            for (int i = 0; i < n; i++) {
                if (anyNull && nulls[i]) {
                    continue;
                }
                int g = gids[i];
                ds[g] += d[i];
                any[g] = true;
            }
            return;
        }
        if (kind != io.respsql.exec.op.Keys.LONG) {
            return; // a bare NULL argument: nothing to take
        }
        long[] v = s.longs;
        boolean anyNull = arg.evalLongBatch(ctx, relation, sel, n, v, nulls);
        long[] sums = this.sums;
        for (int i = 0; i < n; i++) {
            if (anyNull && nulls[i]) {
                continue;
            }
            int g = gids[i];
            long x = v[i];
            long a = sums[g];
            long r = a + x;
            if (((a ^ r) & (x ^ r)) < 0) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
            }
            sums[g] = r;
            any[g] = true;
        }
    }

    @Override
    void addLong(int g, long v) {
        long s = sums[g];
        long r = s + v;
        if (((s ^ r) & (v ^ r)) < 0) {
            throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        sums[g] = r;
        any[g] = true;
    }

    @Override
    void addDouble(int g, double d) {
        dsums[g] += d;
        any[g] = true;
    }

    // ---- parallel ----
    @Override
    boolean mergeable() {
        return seen == null;
    }

    @Override
    void merge(Accumulator from, int fromGroup, int g) {
        SumAccumulator f = (SumAccumulator) from;
        if (!f.any[fromGroup]) {
            return;
        }
        if (kind == io.respsql.exec.op.Keys.DOUBLE) {
            addDouble(g, f.dsums[fromGroup]);
        } else {
            addLong(g, f.sums[fromGroup]);
        }
    }

    @Override
    void write(Column c, int row, int g) {
        if (!any[g]) {
            Outputs.writeNull(c, row);
        } else if (kind == io.respsql.exec.op.Keys.DOUBLE) {
            Outputs.writeDouble(c, row, dsums[g]);
        } else {
            Outputs.writeLong(c, row, sums[g]);
        }
    }
}
