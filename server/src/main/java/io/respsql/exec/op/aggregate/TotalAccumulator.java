package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/** TOTAL([DISTINCT] x): the sum as a DOUBLE, 0.0 when there is no value (SQLite). */
final class TotalAccumulator extends Accumulator {
    private double[] sums = new double[0];

    TotalAccumulator(Expression arg, boolean distinct) {
        super(arg, distinct);
    }

    @Override
    void grow(int capacity) {
        sums = Arrays.copyOf(sums, grown(sums.length, capacity));
    }

    @Override
    void addLong(int g, long v) {
        sums[g] += v;
    }

    @Override
    void addDouble(int g, double d) {
        sums[g] += d;
    }

    @Override
    void write(Column c, int row, int g) {
        Outputs.writeDouble(c, row, sums[g]);
    }
}
