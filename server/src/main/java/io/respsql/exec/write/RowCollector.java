package io.respsql.exec.write;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.scan.IndexLookup;
import io.respsql.expr.EvalContext;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Runs a rows plan ({@link io.respsql.plan.StatementPlanner#planRows}) and keeps the slot of
 * relation 0 of every tuple: UPDATE and DELETE collect their rows before the first change, so
 * changing them cannot disturb the scan or index walk that finds them.
 */
final class RowCollector {
    private RowCollector() {
    }

    /**
     * {@link #collect(Operator, EvalContext, IntArrayList)} stopped by {@code cancel} (a statement
     * timeout; null: none): only here, before the first change, so a stopped write changed nothing.
     */
    static void collect(Operator root, EvalContext ctx, IntArrayList into, io.respsql.expr.Cancellation cancel) {
        ctx.cancel = cancel;
        try {
            collect(root, ctx, into);
        } finally {
            ctx.cancel = null;
        }
    }

    static void collect(Operator root, EvalContext ctx, IntArrayList into) {
        into.clear();
        if (root instanceof IndexLookup lookup && root.relations() == 1L) { // relation 0: the table
            lookup.collectSlots(ctx, into);
            return;
        }
        if (root instanceof io.respsql.exec.op.scan.IndexRange range && root.relations() == 1L) {
            range.collectSlots(ctx, into);
            return;
        }
        root.run(ctx, c -> {
            into.add(c.slots[0]);
            return true;
        });
    }
}
