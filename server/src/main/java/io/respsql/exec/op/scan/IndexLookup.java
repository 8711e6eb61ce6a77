package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.TableIndex;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.Arrays;
import java.util.List;

/**
 * The rows of an index whose key equals one of the probe values ({@code col = v}, {@code col IN
 * (...)}; the primary key or a secondary index alike), in key order, each key once; the filter
 * re-checks what the keys do not decide (text prefixes, other conditions).
 */
public final class IndexLookup implements Operator {
    private final TableIndex index;
    private final int relation;
    private final KeyProbe[] keys;
    private final Expression filter;
    private final String description;
    /** A cursor kept between runs that do not overlap (a correlated subquery runs this once per outer row). */
    private LongIntBTree.Cursor spare;

    public IndexLookup(TableIndex index, int relation, KeyProbe[] keys, Expression filter, String description) {
        this.index = index;
        this.relation = relation;
        this.keys = keys;
        this.filter = filter;
        this.description = description;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        LongIntBTree.Cursor c = spare != null ? spare : index.tree().cursor();
        spare = null;
        try {
            return probeAll(c, ctx, out);
        } finally {
            spare = c;
        }
    }

    private boolean probeAll(LongIntBTree.Cursor c, EvalContext ctx, TupleConsumer out) {
        if (keys.length == 1) {
            long k = keys[0].key(ctx);
            return keys[0].none || probe(c, k, ctx, out);
        }
        long[] ks = new long[keys.length];
        int n = 0;
        for (KeyProbe p : keys) {
            long k = p.key(ctx);
            if (!p.none) {
                ks[n++] = k;
            }
        }
        Arrays.sort(ks, 0, n);
        for (int i = 0; i < n; i++) {
            if ((i == 0 || ks[i] != ks[i - 1]) && !probe(c, ks[i], ctx, out)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The rows {@link #run} would push, appended to {@code into} in the same order (UPDATE and
     * DELETE collect their rows first). Without a filter a key's rows are copied a leaf run at a
     * time ({@link LongIntBTree.Cursor#copyRun}), not one consumer call per row: the FK-range UPDATE.
     */
    public void collectSlots(EvalContext ctx, IntArrayList into) {
        if (keys.length != 1 || filter != null) {
            int rel = relation;
            run(ctx, t -> into.add(t.slots[rel]));
            return;
        }
        long key = keys[0].key(ctx);
        if (keys[0].none) {
            return;
        }
        LongIntBTree.Cursor c = spare != null ? spare : index.tree().cursor();
        spare = null;
        try {
            for (boolean ok = c.seek(key); ok && c.key() == key; ok = c.next()) {
                int at = into.size();
                into.size(at + c.runRemaining()); // grows the backing array when needed
                c.copyRun(into.elements(), at);
            }
        } finally {
            spare = c;
        }
    }

    private boolean probe(LongIntBTree.Cursor c, long key, EvalContext ctx, TupleConsumer out) {
        int[] slots = ctx.slots;
        for (boolean ok = c.seek(key); ok && c.key() == key; ok = c.next()) {
            slots[relation] = c.row();
            if ((filter == null || filter.isTrue(ctx)) && !out.accept(ctx)) {
                return false;
            }
        }
        return true;
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
