package io.respsql.exec.op.scan;

import io.respsql.exec.op.BatchConsumer;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.RowAllocator;
import io.respsql.storage.Table;

import java.util.List;

/**
 * Every live row of a table, a batch at a time: up to {@link #BATCH} live slots into a selection
 * vector, narrowed by the filter's batch loop ({@link Expression#filter}), then pushed.
 */
public final class TableScan implements Operator {
    public static final int BATCH = 1024;
    private final Table table;
    private final int relation;
    private final Expression filter;
    private final String label;

    public TableScan(Table table, int relation, Expression filter, String label) {
        this.table = table;
        this.relation = relation;
        this.filter = filter;
        this.label = label;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        // The selection vector is run state: kept in the context for the next run (a correlated
        // subquery per outer row, a cached plan per request), never in this operator (the plan).
        Object kept = ctx.take(this);
        int[] sel = kept != null ? (int[]) kept : new int[BATCH];
        try {
            RowAllocator rows = table.rows();
            int[] slots = ctx.slots;
            io.respsql.expr.Cancellation cancel = ctx.cancel;
            int row = 0;
            int n;
            while ((n = rows.nextLiveBatch(row, sel, BATCH)) > 0) {
                if (cancel != null) {
                    cancel.check(); // one volatile read per batch: a background query stops within a batch
                }
                row = sel[n - 1] + 1;
                if (filter != null) {
                    n = filter.filter(ctx, relation, sel, n);
                }
                for (int i = 0; i < n; i++) {
                    slots[relation] = sel[i];
                    if (!out.accept(ctx)) {
                        return false;
                    }
                }
            }
            return true;
        } finally {
            ctx.keep(this, sel);
        }
    }

    /** The scanned table's live rows now. */
    public long tableRows() {
        return table.rowCount();
    }

    /** The relation number whose slots this scan produces. */
    public int relation() {
        return relation;
    }

    /**
     * As {@link #run}, but hands each filtered batch to {@code out} whole ({@link BatchConsumer}):
     * {@code ctx.slots[relation]} is not set for it.
     */
    public boolean runBatches(EvalContext ctx, BatchConsumer out) {
        // The selection vector is run state: kept in the context for the next run (a correlated
        // subquery per outer row, a cached plan per request), never in this operator (the plan).
        Object kept = ctx.take(this);
        int[] sel = kept != null ? (int[]) kept : new int[BATCH];
        try {
            RowAllocator rows = table.rows();
            io.respsql.expr.Cancellation cancel = ctx.cancel;
            int row = 0;
            int n;
            while ((n = rows.nextLiveBatch(row, sel, BATCH)) > 0) {
                if (cancel != null) {
                    cancel.check();
                }
                row = sel[n - 1] + 1;
                if (filter != null) {
                    n = filter.filter(ctx, relation, sel, n);
                }
                if (n > 0 && !out.acceptBatch(ctx, sel, n)) {
                    return false;
                }
            }
            return true;
        } finally {
            ctx.keep(this, sel);
        }
    }

    // ---- parallel ----
    /**
     * Whether the scan may be split over threads: its table is a read view's (it never changes
     * while the statement runs), not a work table filled by the run, and its filter keeps no
     * state of its own ({@link io.respsql.expr.Reentrant}: the stripes share it).
     */
    public boolean splittable() {
        return table.rows().isReadOnly() && !table.isWorkTable() && io.respsql.expr.Reentrant.check(filter);
    }

    /** One past the largest row slot of the scanned table (stripes split up to here). */
    public int highWater() {
        return table.rows().highWater();
    }

    /**
     * As {@link #runBatches}, over stripe {@code stripe} of {@code stripes} only: the morsels of
     * {@code unit} row slots numbered stripe, stripe + stripes, ... ({@link io.respsql.exec.op.Morsels}),
     * in row order, in {@code ctx} (a stripe's own context). {@code sel} is the stripe's selection vector.
     */
    public boolean runStripe(EvalContext ctx, BatchConsumer out, int stripe, int stripes, int unit, int[] sel) {
        return runMorsels(ctx, out, stripe, stripes, Integer.MAX_VALUE, unit, sel);
    }

    /**
     * The morsels numbered {@code first}, {@code first + step}, ... ({@code count} of them at most)
     * of {@code unit} row slots each, as {@link #runStripe}.
     */
    public boolean runMorsels(EvalContext ctx, BatchConsumer out, int first, int step, int count, int unit, int[] sel) {
        RowAllocator rows = table.rows();
        io.respsql.expr.Cancellation cancel = ctx.cancel;
        int hw = rows.highWater();
        int done = 0;
        for (long start = (long) first * unit; start < hw && done < count; start += (long) step * unit, done++) {
            int end = (int) Math.min(hw, start + unit);
            int row = (int) start;
            while (row < end) {
                int n = rows.nextLiveBatch(row, sel, Math.min(BATCH, end - row));
                if (n == 0) {
                    break;
                }
                if (cancel != null) {
                    cancel.check();
                }
                if (sel[n - 1] >= end) {
                    while (n > 0 && sel[n - 1] >= end) {
                        n--;
                    }
                    row = end;
                } else {
                    row = sel[n - 1] + 1;
                }
                if (n > 0 && filter != null) {
                    n = filter.filter(ctx, relation, sel, n);
                }
                if (n > 0 && !out.acceptBatch(ctx, sel, n)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A base table's live rows now; a work table's are counted where its rows come from (the source's plan). */
    @Override
    public long rowsTouched() {
        return table.isWorkTable() ? 0 : table.rowCount();
    }

    @Override
    public long relations() {
        return 1L << relation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + describe());
    }

    public String describe() {
        return "full scan of " + label + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter));
    }
}
