package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.TableIndex;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/**
 * The rows of an index with keys between the tightest lower and upper bound (none: that end is
 * open; no bound at all walks the whole index, for ORDER BY), ascending or descending. Work is
 * proportional to the entries visited. The filter re-checks what the keys do not decide.
 */
public final class IndexRange implements Operator {
    private final TableIndex index;
    private final int relation;
    private final KeyProbe[] lows;
    private final KeyProbe[] highs;
    private final boolean descending;
    private final Expression filter;
    private final String description;
    /** Set by the planner: a LIMIT above stops the walk after the rows it needs (only order-keeping joins between). */
    private boolean stoppedByLimit;
    /** A cursor kept between runs that do not overlap (a correlated subquery runs this once per outer row). */
    private LongIntBTree.Cursor spare;

    public IndexRange(TableIndex index, int relation, KeyProbe[] lows, KeyProbe[] highs, boolean descending,
                      Expression filter, String description) {
        this.index = index;
        this.relation = relation;
        this.lows = lows;
        this.highs = highs;
        this.descending = descending;
        this.filter = filter;
        this.description = description;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (!bounds(ctx)) {
            return true;
        }
        long lo = boundLo;
        long hi = boundHi;
        LongIntBTree.Cursor c = spare != null ? spare : index.tree().cursor();
        spare = null;
        try {
            return walk(c, lo, hi, ctx, out);
        } finally {
            spare = c;
        }
    }

    /** Set by {@link #bounds}, read at once by its caller. */
    private long boundLo;
    private long boundHi;

    /** Evaluates the bounds into {@link #boundLo}..{@link #boundHi}; false when no key can be in range. */
    private boolean bounds(EvalContext ctx) {
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        for (KeyProbe p : lows) {
            long k = p.key(ctx);
            if (p.none) {
                return false;
            }
            lo = Math.max(lo, k);
        }
        for (KeyProbe p : highs) {
            long k = p.key(ctx);
            if (p.none) {
                return false;
            }
            hi = Math.min(hi, k);
        }
        boundLo = lo;
        boundHi = hi;
        return lo <= hi;
    }

    /**
     * The rows {@link #run} would push, appended to {@code into} in the same order (UPDATE and
     * DELETE collect their rows first). Without a filter, ascending, the cursor's rows go straight
     * into the list, a leaf run at a time where a key repeats: no consumer call per row (a
     * {@code WHERE id > 0} over the whole table).
     */
    public void collectSlots(EvalContext ctx, IntArrayList into) {
        if (filter != null || descending) {
            int rel = relation;
            run(ctx, t -> into.add(t.slots[rel]));
            return;
        }
        if (!bounds(ctx)) {
            return;
        }
        long lo = boundLo;
        long hi = boundHi;
        if (index.unique() || index.isPrimary()) {
            // at most one row per key: size the list once (the engine releases a large buffer
            // after each statement, so a 5M-row range would otherwise regrow it from empty)
            long size = index.tree().size();
            long span = hi - lo; // negative when it overflows
            long rows = span >= 0 && span < size ? span + 1 : size;
            into.ensureCapacity((int) Math.min(into.size() + rows, Integer.MAX_VALUE - 16));
        }
        LongIntBTree.Cursor c = spare != null ? spare : index.tree().cursor();
        spare = null;
        try {
            collect(c, lo, hi, into);
        } finally {
            spare = c;
        }
    }

    /**
     * True when the rows are exactly the index's pairs with keys in the bounds, ascending, each
     * once: no filter, not descending. Then {@link #keyBounds} and a cursor of {@link #index()}
     * walk them without this operator (UPDATE's increment, a batch at a time).
     */
    public boolean plainKeyRange() {
        return filter == null && !descending;
    }

    /**
     * Evaluates the bounds for this run: {@code into[0]..into[1]} (inclusive), false when no key
     * can be in range. Only for {@link #plainKeyRange()}.
     */
    public boolean keyBounds(EvalContext ctx, long[] into) {
        if (!bounds(ctx)) {
            return false;
        }
        into[0] = boundLo;
        into[1] = boundHi;
        return true;
    }

    public TableIndex index() {
        return index;
    }

    private static void collect(LongIntBTree.Cursor c, long lo, long hi, IntArrayList into) {
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

    /**
     * A walk of the whole index (no bound: ORDER BY served by the index) visits every entry, unless
     * a LIMIT stops it ({@link #stoppedByLimit()}); a bounded range's size is not known without
     * probing, so it counts nothing.
     */
    @Override
    public long rowsTouched() {
        return lows.length == 0 && highs.length == 0 && !stoppedByLimit ? index.tree().size() : 0;
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
