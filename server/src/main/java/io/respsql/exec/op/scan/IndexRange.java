package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
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
    private final KeyProbe[] lows;
    private final KeyProbe[] highs;
    private final boolean descending;
    private final Expression filter;
    private final String description;
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
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        for (KeyProbe p : lows) {
            long k = p.key(ctx);
            if (p.none) {
                return true;
            }
            lo = Math.max(lo, k);
        }
        for (KeyProbe p : highs) {
            long k = p.key(ctx);
            if (p.none) {
                return true;
            }
            hi = Math.min(hi, k);
        }
        if (lo > hi) {
            return true;
        }
        LongIntBTree.Cursor c = spare != null ? spare : index.tree().cursor();
        spare = null;
        try {
            return walk(c, lo, hi, ctx, out);
        } finally {
            spare = c;
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
     * A walk of the whole index (no bound: ORDER BY served by the index) visits every entry; a
     * bounded range's size is not known without probing, so it counts nothing.
     */
    @Override
    public long rowsTouched() {
        return lows.length == 0 && highs.length == 0 ? index.tree().size() : 0;
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
