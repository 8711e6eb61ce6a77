package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Outputs;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.PgArray;
import io.respsql.storage.Column;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * MIN/MAX of an array (arrays): the group's least or greatest non-NULL array in PostgreSQL's
 * array_cmp order ({@link PgArray#compare}), kept as its text per group. Allocates per value:
 * only array aggregates come here.
 */
final class ArrayMinMaxAccumulator extends Accumulator {
    private final boolean max;
    private String[] best = new String[0];
    private PgArray.Value[] bestValue = new PgArray.Value[0];

    ArrayMinMaxAccumulator(Expression arg, boolean max) {
        super(arg, false);
        this.max = max;
    }

    @Override
    void grow(int capacity) {
        int n = grown(best.length, capacity);
        best = Arrays.copyOf(best, n);
        bestValue = Arrays.copyOf(bestValue, n);
    }

    @Override
    void accumulate(EvalContext ctx, int g) {
        byte[] b = arg.evalText(ctx);
        if (ctx.isNull) {
            return;
        }
        PgArray.Value v = PgArray.read(b, ctx.textOffset, ctx.textLength);
        if (bestValue[g] != null) {
            int c = PgArray.compare(v, bestValue[g], arg.type().element());
            if (max ? c <= 0 : c >= 0) {
                return;
            }
        }
        bestValue[g] = v;
        best[g] = new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
    }

    @Override
    void accumulateBatch(EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            accumulate(ctx, gids[i]);
        }
    }

    @Override
    void write(Column c, int row, int g) {
        if (g >= best.length || best[g] == null) {
            Outputs.writeNull(c, row);
            return;
        }
        byte[] b = best[g].getBytes(StandardCharsets.UTF_8);
        Outputs.writeText(c, row, b, 0, b.length);
    }
}
