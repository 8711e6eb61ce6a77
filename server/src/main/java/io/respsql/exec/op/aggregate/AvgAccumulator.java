package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * AVG([DISTINCT] x) as DOUBLE; NULL with no value. Integers sum exactly in a long while they fit
 * (the mean of large integers stays exact to a double's precision), falling back to the double
 * sum kept alongside once a group's long sum would overflow.
 */
final class AvgAccumulator extends Accumulator {
    private long[] counts = new long[0];
    private long[] sums = new long[0];
    private double[] dsums = new double[0];
    private boolean[] overflowed = new boolean[0];

    AvgAccumulator(Expression arg, boolean distinct) {
        super(arg, distinct);
    }

    @Override
    void grow(int capacity) {
        int n = grown(counts.length, capacity);
        counts = Arrays.copyOf(counts, n);
        sums = Arrays.copyOf(sums, n);
        dsums = Arrays.copyOf(dsums, n);
        overflowed = Arrays.copyOf(overflowed, n);
    }

    @Override
    void addLong(int g, long v) {
        long s = sums[g];
        long r = s + v;
        if (((s ^ r) & (v ^ r)) < 0) {
            overflowed[g] = true;
        }
        sums[g] = r;
        dsums[g] += v;
        counts[g]++;
    }

    @Override
    void addDouble(int g, double d) {
        dsums[g] += d;
        counts[g]++;
        overflowed[g] = true;
    }

    // ---- parallel ----
    @Override
    boolean mergeable() {
        return seen == null;
    }

    @Override
    void merge(Accumulator from, int fromGroup, int g) {
        AvgAccumulator f = (AvgAccumulator) from;
        long n = f.counts[fromGroup];
        if (n == 0) {
            return;
        }
        long s = sums[g];
        long v = f.sums[fromGroup];
        long r = s + v;
        if (((s ^ r) & (v ^ r)) < 0 || f.overflowed[fromGroup]) {
            overflowed[g] = true;
        }
        sums[g] = r;
        dsums[g] += f.dsums[fromGroup];
        counts[g] += n;
    }

    @Override
    void write(Column c, int row, int g) {
        long n = counts[g];
        if (n == 0) {
            Outputs.writeNull(c, row);
        } else {
            Outputs.writeDouble(c, row, (overflowed[g] ? dsums[g] : (double) sums[g]) / n);
        }
    }
}
