package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/** COUNT(*) (no argument: every tuple) and COUNT([DISTINCT] x) (non-NULL values). Never NULL. */
final class CountAccumulator extends Accumulator {
    private long[] counts = new long[0];

    CountAccumulator(Expression arg, boolean distinct) {
        super(arg, distinct);
    }

    @Override
    void grow(int capacity) {
        counts = Arrays.copyOf(counts, grown(counts.length, capacity));
    }

    @Override
    void accumulate(EvalContext ctx, int g) {
        if (arg == null) {
            counts[g]++;
        } else {
            super.accumulate(ctx, g);
        }
    }

    @Override
    void accumulateBatch(EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        long[] c = counts;
        if (arg == null) {
            for (int i = 0; i < n; i++) {
                c[gids[i]]++;
            }
            return;
        }
        if (seen != null || kind != io.respsql.exec.op.Keys.LONG) {
            super.accumulateBatch(ctx, relation, sel, n, gids, s);
            return;
        }
        boolean[] nulls = s.nulls;
        if (!arg.evalLongBatch(ctx, relation, sel, n, s.longs, nulls)) {
            for (int i = 0; i < n; i++) {
                c[gids[i]]++;
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            if (!nulls[i]) {
                c[gids[i]]++;
            }
        }
    }

    @Override
    void addLong(int g, long v) {
        counts[g]++;
    }

    @Override
    void addDouble(int g, double d) {
        counts[g]++;
    }

    @Override
    void addText(int g, byte[] b, int off, int len) {
        counts[g]++;
    }

    // ---- parallel ----
    @Override
    boolean mergeable() {
        return seen == null;
    }

    @Override
    void merge(Accumulator from, int fromGroup, int g) {
        counts[g] += ((CountAccumulator) from).counts[fromGroup];
    }

    @Override
    void write(Column c, int row, int g) {
        Outputs.writeLong(c, row, counts[g]);
    }
}
