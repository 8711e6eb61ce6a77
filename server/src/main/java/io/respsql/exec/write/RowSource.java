package io.respsql.exec.write;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.scan.KeyBounds;
import io.respsql.expr.EvalContext;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.TableIndex;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Where an UPDATE or DELETE finds its rows, as the planner chose it once (SQLite's update.c asks
 * where.c the same way, at plan time): the operator that finds them, and the shape of what it
 * gives, so the write operators pick their loops from the plan, never by looking at the operator.
 * Relation 0 of the statement is the table written.
 */
public final class RowSource {
    /** What the rows are, as far as the plan knows before running. */
    public enum Shape {
        /** Every live row of the table (a scan without filter): chunk-wise kernels need no row list. */
        ALL_ROWS,
        /**
         * Exactly the pairs of {@link #index} with keys within {@link #keys}, ascending (a range or
         * one key of a non-unique index, no filter): walked by a cursor a batch at a time.
         */
        KEY_RANGE,
        /** A probe of a unique index by one key, no filter: the lookup operator is run. */
        SINGLE_KEY,
        /** Whatever the operator gives (any predicate, an IN list, a join-free OR): it is run. */
        ROW_LIST
    }

    final Shape shape;
    final Operator op;
    final TableIndex index;
    final KeyBounds keys;
    /** A join's rows (UPDATE ... FROM, DELETE ... USING): the other relations each tuple carries; else null. */
    final int[] joined;

    private RowSource(Shape shape, Operator op, TableIndex index, KeyBounds keys) {
        this(shape, op, index, keys, null);
    }

    private RowSource(Shape shape, Operator op, TableIndex index, KeyBounds keys, int[] joined) {
        this.shape = shape;
        this.op = op;
        this.index = index;
        this.keys = keys;
        this.joined = joined;
    }

    /**
     * The rows of a join of the table (relation 0) with others: each table row once, with the
     * slots of {@code joined} of the first tuple it came in (PostgreSQL: one of the rows it joins,
     * which one unspecified) kept in {@link WriteRun#joined}.
     */
    /** Rows handed over by the caller for each run ({@link WriteRun#give}): ON CONFLICT's rows, each with its EXCLUDED row (relation 1). */
    public static RowSource given() {
        return new RowSource(Shape.ROW_LIST, null, null, null, new int[]{1});
    }

    public static RowSource joined(Operator join, int[] joined) {
        return new RowSource(Shape.ROW_LIST, join, null, null, joined);
    }

    public static RowSource allRows(Operator scan) {
        return new RowSource(Shape.ALL_ROWS, scan, null, null);
    }

    public static RowSource keyRange(Operator op, TableIndex index, KeyBounds keys) {
        return new RowSource(Shape.KEY_RANGE, op, index, keys);
    }

    public static RowSource singleKey(Operator lookup) {
        return new RowSource(Shape.SINGLE_KEY, lookup, null, null);
    }

    public static RowSource rowList(Operator op) {
        return new RowSource(Shape.ROW_LIST, op, null, null);
    }

    public Shape shape() {
        return shape;
    }

    /**
     * The rows, collected into {@code into} before the first change (so changing them cannot
     * disturb the walk that finds them), stopped by {@code cancel} (a statement timeout; null:
     * none) only here, so a stopped write changed nothing.
     */
    void collect(WriteRun run, IntArrayList into, io.respsql.expr.Cancellation cancel) {
        into.clear();
        EvalContext ctx = run.ctx;
        ctx.cancel = cancel;
        try {
            if (shape == Shape.KEY_RANGE) {
                collectRange(run, into);
            } else if (op == null) {
                run.takeGiven(into, joined);
            } else if (joined != null) {
                run.collectJoined(into, joined);
                op.run(ctx, run.collect);
            } else {
                run.collectInto(into);
                op.run(ctx, run.collect);
            }
        } finally {
            ctx.cancel = null;
            run.collectInto(null);
        }
    }

    /**
     * A key range's rows straight from the cursor, a leaf run at a time where a key repeats: no
     * consumer call per row (a {@code WHERE id > 0} over the whole table, {@code fk = 7}).
     */
    private void collectRange(WriteRun run, IntArrayList into) {
        long[] b = run.bounds;
        if (!keys.eval(run.ctx, b)) {
            return;
        }
        long lo = b[0];
        long hi = b[1];
        if (index.unique() || index.isPrimary()) {
            // at most one row per key: size the list once (the engine releases a large buffer
            // after each statement, so a 5M-row range would otherwise regrow it from empty)
            long size = index.tree().size();
            long span = hi - lo; // negative when it overflows
            long rows = span >= 0 && span < size ? span + 1 : size;
            into.ensureCapacity((int) Math.min(into.size() + rows, Integer.MAX_VALUE - 16));
        }
        LongIntBTree.Cursor c = run.cursor(index);
        for (boolean ok = c.seek(lo); ok && c.key() <= hi; ok = c.next()) {
            int n = c.runRemaining();
            if (n == 1) {
                into.add(c.row());
            } else {
                int at = into.size();
                into.size(at + n);
                c.copyRun(into.elements(), at);
            }
        }
    }
}
