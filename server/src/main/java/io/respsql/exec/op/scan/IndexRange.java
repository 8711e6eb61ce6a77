package io.respsql.exec.op.scan;

import io.respsql.exec.op.BatchConsumer;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;

import java.util.List;

/**
 * The rows of an index with keys between the tightest lower and upper bound (none: that end is
 * open; no bound at all walks the whole index, for ORDER BY), ascending or descending. Work is
 * proportional to the entries visited. The filter re-checks what the keys do not decide.
 */
public final class IndexRange implements Operator {
    private final TableIndex index;
    private final int relation;
    private final KeyBounds keys;
    private final boolean descending;
    private final Expression filter;
    private final String description;
    /** Set by the planner: a LIMIT above stops the walk after the rows it needs (only order-keeping joins between). */
    private boolean stoppedByLimit;

    /**
     * What a run needs: its cursor, selection vector and bounds. Kept in the run's context
     * ({@link EvalContext#keep}), not here: a correlated subquery runs this once per outer row
     * and a cached plan once per request, and neither allocates them again.
     */
    private static final class Run {
        LongIntBTree.Cursor cursor;
        int[] sel;
        final long[] bounds = new long[2];
        final int[] pos = new int[1];
    }

    private Run start(EvalContext ctx) {
        Object kept = ctx.take(this);
        return kept != null ? (Run) kept : new Run();
    }

    private LongIntBTree.Cursor cursor(Run run) {
        LongIntBTree.Cursor c = run.cursor;
        return c != null ? c : (run.cursor = index.tree().cursor());
    }

    private static int[] sel(Run run) {
        int[] sel = run.sel;
        return sel != null ? sel : (run.sel = new int[TableScan.BATCH]);
    }

    public IndexRange(TableIndex index, int relation, KeyBounds keys, boolean descending,
                      Expression filter, String description) {
        this.index = index;
        this.relation = relation;
        this.keys = keys;
        this.descending = descending;
        this.filter = filter;
        this.description = description;
    }

    /** Set by {@link #mayScan}: the table, when the rows may come in slot order from a scan instead. */
    private Table scanTable;

    /** Below this many index entries a range never turns into a scan (either is cheap). */
    static final long SCAN_MIN_ROWS = 10_000;
    /**
     * A range covering more than 1 in this many of the index's keys is read by a scan: a row of an
     * index range is a random access to each column read (rows come in key order, not slot order),
     * a scan reads the columns in order through a tight key-bounds loop.
     */
    static final int SCAN_FRACTION = 10;

    /**
     * Lets a run read {@code table}'s rows by a scan checking the key bounds instead of walking the
     * index, when the bounds cover a large share of the keys (interpolated between the index's
     * smallest and largest key; integer and temporal single-column indexes only). The planner
     * calls it only when nothing relies on key order.
     */
    public void mayScan(Table table) {
        ColumnType ct = index.column().type();
        if (index.columnCount() == 1 && !index.descending(0) && !descending
                && (ct == ColumnType.INT || ct == ColumnType.BIGINT || ct == ColumnType.DATE || ct == ColumnType.TIMESTAMP)) {
            this.scanTable = table;
        }
    }

    /** Whether this run's bounds {@code lo..hi} are better served by a scan ({@link #mayScan}). */
    private boolean scanInstead(Run run, long lo, long hi) {
        if (scanTable == null || stoppedByLimit) {
            return false;
        }
        LongIntBTree tree = index.tree();
        if (tree.size() < SCAN_MIN_ROWS) {
            return false;
        }
        LongIntBTree.Cursor c = cursor(run); // the run's: it seeks again for the walk
        if (!c.first()) {
            return false;
        }
        long min = c.key();
        c.last();
        long max = c.key();
        double from = Math.max((double) lo, (double) min);
        double to = Math.min((double) hi, (double) max);
        return to >= from && (to - from + 1) * SCAN_FRACTION > (double) max - (double) min + 1;
    }

    /**
     * A batch of the rows in range: by the scan ({@code row} the next live slot to look at) or the
     * cursor; the filter applied. Returns the count, 0 at the end. {@code pos[0]}: where the scan goes
     * on (the slot after the last one taken), moved on; null for the cursor.
     */
    private int nextBatch(EvalContext ctx, int[] pos, LongIntBTree.Cursor c, long lo, long hi, int[] sel) {
        boolean scan = pos != null;
        while (true) {
            if (ctx.cancel != null) {
                ctx.cancel.check();
            }
            int n;
            if (scan) {
                io.respsql.storage.RowAllocator rows = scanTable.rows();
                n = rows.nextLiveBatch(pos[0], sel, TableScan.BATCH);
                if (n == 0) {
                    return 0;
                }
                pos[0] = sel[n - 1] + 1;
                n = keep(index.column(), sel, n, lo, hi);
            } else {
                n = c.fill(hi, sel, TableScan.BATCH);
                if (n == 0) {
                    return 0;
                }
            }
            if (filter != null) {
                n = filter.filter(ctx, relation, sel, n);
            }
            if (n > 0) {
                return n;
            }
        }
    }

    /**
     * Keeps the slots whose (non-NULL) value lies in {@code lo..hi}. Without NULLs no branch on the
     * outcome: each slot is written, then kept or overwritten (a wide range over unordered keys
     * would mispredict a branch about every other row).
     */
    private static int keep(Column col, int[] sel, int n, long lo, long hi) {
        // one copy of the loops per column class on purpose (not merged): lc.get / ic.get stay
        // monomorphic inlined array reads, not a virtual call per row
        boolean nulls = col.mayHaveNulls();
        int kept = 0;
        if (col instanceof LongColumn) {
            LongColumn lc = (LongColumn) col;
            if (!nulls) {
                for (int i = 0; i < n; i++) {
                    int s = sel[i];
                    long v = lc.get(s);
                    sel[kept] = s;
                    kept += v >= lo & v <= hi ? 1 : 0;
                }
                return kept;
            }
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                long v = lc.get(s);
                if (v >= lo && v <= hi && !lc.isNull(s)) {
                    sel[kept++] = s;
                }
            }
        } else {
            IntColumn ic = (IntColumn) col;
            if (!nulls) {
                for (int i = 0; i < n; i++) {
                    int s = sel[i];
                    long v = ic.get(s);
                    sel[kept] = s;
                    kept += v >= lo & v <= hi ? 1 : 0;
                }
                return kept;
            }
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                long v = ic.get(s);
                if (v >= lo && v <= hi && !ic.isNull(s)) {
                    sel[kept++] = s;
                }
            }
        }
        return kept;
    }

    /**
     * As {@link #run}, a batch at a time (ascending only; for a descending range each row goes
     * through {@link #run}): {@code ctx.slots[relation]} is not set for the batches.
     */
    public boolean runBatches(EvalContext ctx, BatchConsumer out) {
        if (descending) {
            int[] one = new int[1];
            return run(ctx, t -> {
                one[0] = t.slots[relation];
                return out.acceptBatch(t, one, 1);
            });
        }
        Run run = start(ctx);
        try {
            if (!keys.eval(ctx, run.bounds)) {
                return true;
            }
            long lo = run.bounds[0];
            long hi = run.bounds[1];
            int[] sel = sel(run);
            int[] pos = null;
            LongIntBTree.Cursor c = null;
            if (scanInstead(run, lo, hi)) {
                pos = run.pos;
                pos[0] = 0;
            } else if (!(c = cursor(run)).seek(lo)) {
                return true;
            }
            int n;
            while ((n = nextBatch(ctx, pos, c, lo, hi, sel)) > 0) {
                if (!out.acceptBatch(ctx, sel, n)) {
                    return false;
                }
            }
            return true;
        } finally {
            ctx.keep(this, run);
        }
    }

    /** The relation number whose slots this range produces. */
    public int relation() {
        return relation;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        Run run = start(ctx);
        try {
            if (!keys.eval(ctx, run.bounds)) {
                return true;
            }
            long lo = run.bounds[0];
            long hi = run.bounds[1];
            if (scanInstead(run, lo, hi)) {
                int[] sel = sel(run);
                int[] pos = run.pos;
                pos[0] = 0;
                int[] slots = ctx.slots;
                int n;
                while ((n = nextBatch(ctx, pos, null, lo, hi, sel)) > 0) {
                    for (int i = 0; i < n; i++) {
                        slots[relation] = sel[i];
                        if (!out.accept(ctx)) {
                            return false;
                        }
                    }
                }
                return true;
            }
            return walk(cursor(run), lo, hi, ctx, out);
        } finally {
            ctx.keep(this, run);
        }
    }

    public TableIndex index() {
        return index;
    }

    private boolean walk(LongIntBTree.Cursor c, long lo, long hi, EvalContext ctx, TupleConsumer out) {
        int[] slots = ctx.slots;
        if (descending) {
            for (boolean ok = c.seekLast(hi); ok && c.key() >= lo; ok = c.prev()) {
                slots[relation] = c.row();
                if ((filter == null || filter.isTrue(ctx)) && !out.accept(ctx)) {
                    return false;
                }
            }
        } else {
            for (boolean ok = c.seek(lo); ok && c.key() <= hi; ok = c.next()) {
                slots[relation] = c.row();
                if ((filter == null || filter.isTrue(ctx)) && !out.accept(ctx)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Set by the planner: 1 when every bound is a constant, 2 when parameters are among them, 0 otherwise. */
    private int boundValues;

    /**
     * Marks the bounds as computable before the run, without rows: constants, or constants and the
     * statement's parameters ({@code withParameters}). Only then is {@link #estimatedRows} asked.
     */
    public void boundsKnownBeforeRun(boolean withParameters) {
        boundValues = withParameters ? 2 : 1;
    }

    /** Whether {@link #estimatedRows} can be asked ({@code params}: the run's parameter values are at hand). */
    public boolean estimable(boolean params) {
        return (boundValues == 1 || boundValues == 2 && params) && keys.bounded()
                && !stoppedByLimit;
    }

    /**
     * The index entries between this run's bounds ({@code ctx}: the parameters, if any), for the
     * yes/no of offloading a statement ({@code bg-query-min-rows}), not a cost model: the bounds'
     * share of the span between the smallest and largest key (two descents of the index) times its
     * entries, as {@link #scanInstead} judges; keys spread unevenly make it a guess. 0 when no key
     * can be in range.
     */
    public long estimatedRows(EvalContext ctx) {
        Run run = start(ctx); // the estimate's context is kept by its plan: nothing allocated per statement
        try {
            return estimatedRows(run, ctx);
        } finally {
            ctx.keep(this, run);
        }
    }

    private long estimatedRows(Run run, EvalContext ctx) {
        if (!keys.eval(ctx, run.bounds)) {
            return 0;
        }
        long lo = run.bounds[0];
        long hi = run.bounds[1];
        LongIntBTree tree = index.tree();
        LongIntBTree.Cursor c = cursor(run);
        if (!c.first()) {
            return 0;
        }
        long min = c.key();
        c.last();
        long max = c.key();
        double from = Math.max((double) lo, (double) min);
        double to = Math.min((double) hi, (double) max);
        if (to < from) {
            return 0;
        }
        double share = Math.min(1, (to - from + 1) / ((double) max - (double) min + 1));
        return (long) Math.ceil(share * tree.size());
    }

    /**
     * A walk of the whole index (no bound: ORDER BY served by the index) visits every entry, unless
     * a LIMIT stops it ({@link #stoppedByLimit()}); a bounded range's size is not known without
     * probing, so it counts nothing.
     */
    @Override
    public long rowsTouched() {
        return !keys.bounded() && !stoppedByLimit ? index.tree().size() : 0;
    }

    /**
     * Marks the walk as one a LIMIT stops early (ORDER BY col LIMIT n over key probes): it visits
     * about the rows the LIMIT needs, not the whole index, so it counts as a bounded range does.
     */
    public void stoppedByLimit() {
        stoppedByLimit = true;
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
        return description + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter));
    }
}
