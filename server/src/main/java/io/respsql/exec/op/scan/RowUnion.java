package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;

import java.util.List;

/**
 * An OR of conditions each served by an index: the rows of every branch's access path, each row
 * once (gathered, sorted by slot, duplicates dropped), then the filter of the other conditions.
 */
public final class RowUnion implements Operator {
    private final Operator[] parts;
    private final int relation;
    private final Expression filter;
    private final String description;

    public RowUnion(Operator[] parts, int relation, Expression filter, String description) {
        this.parts = parts;
        this.relation = relation;
        this.filter = filter;
        this.description = description;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        IntArrayList rows = new IntArrayList();
        for (Operator p : parts) {
            p.run(ctx, c -> rows.add(c.slots[relation]));
        }
        int[] a = rows.elements();
        int n = rows.size();
        IntArrays.quickSort(a, 0, n);
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            if (i > 0 && a[i] == a[i - 1]) {
                continue;
            }
            slots[relation] = a[i];
            if ((filter == null || filter.isTrue(ctx)) && !out.accept(ctx)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        for (Operator part : parts) {
            each.accept(part);
        }
    }

    @Override
    public long relations() {
        return 1L << relation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + description);
    }
}
