package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.ColumnType;
import io.respsql.storage.TableIndex;

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

    /**
     * What a run needs beyond its locals: a cursor, the sorted keys, the bitmap sort's bits.
     * Kept in the run's context ({@link EvalContext#keep}), not here: a correlated subquery
     * runs this once per outer row and a cached plan once per request, without allocating them again.
     */
    private static final class Run {
        LongIntBTree.Cursor cursor;
        long[] keys;
        /** {@link #bitmapSort}'s bits, all zero between calls (the call clears what it set). */
        long[] keyBits;
    }
    /**
     * At most one row per key: a UNIQUE index (the primary key) over one column whose key is the
     * whole value (not a text prefix). A probe then stops at its first match rather than
     * stepping the cursor on to see the next key differ.
     */
    private final boolean oneRowPerKey;

    public IndexLookup(TableIndex index, int relation, KeyProbe[] keys, Expression filter, String description) {
        this.index = index;
        this.relation = relation;
        this.keys = keys;
        this.filter = filter;
        this.description = description;
        this.oneRowPerKey = index.unique() && index.columnCount() == 1 && index.column().type() != ColumnType.TEXT;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (oneRowPerKey && keys.length == 1) {
            long k = keys[0].key(ctx);
            if (KeyProbe.none(ctx)) {
                return true;
            }
            int row = index.tree().firstRow(k); // one descent, no cursor
            if (row < 0) {
                return true;
            }
            ctx.slots[relation] = row;
            return (filter != null && !filter.isTrue(ctx)) || out.accept(ctx);
        }
        Object kept = ctx.take(this);
        Run run = kept != null ? (Run) kept : new Run();
        try {
            LongIntBTree.Cursor c = run.cursor != null ? run.cursor : (run.cursor = index.tree().cursor());
            if (keys.length == 1) {
                long k = keys[0].key(ctx);
                return KeyProbe.none(ctx) || probe(c, k, ctx, out, true);
            }
            long[] ks = run.keys != null ? run.keys : (run.keys = new long[keys.length]);
            int n = sortedKeys(ctx, ks, run);
            for (int i = 0; i < n; i++) {
                if (!probe(c, ks[i], ctx, out, i == 0)) {
                    return false;
                }
            }
            return true;
        } finally {
            ctx.keep(this, run);
        }
    }

    /**
     * The probe values' keys, sorted, each once, without the ones that match nothing (NULL):
     * the cursor then walks them forward ({@link LongIntBTree.Cursor#seekAhead}), a merge of the
     * list with the index rather than a descent from the root per value.
     */
    private int sortedKeys(EvalContext ctx, long[] ks, Run run) {
        int n = 0;
        boolean sorted = true;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (KeyProbe p : keys) {
            long k = p.key(ctx);
            if (!KeyProbe.none(ctx)) {
                sorted &= n == 0 || ks[n - 1] <= k;
                ks[n++] = k;
                min = Math.min(min, k);
                max = Math.max(max, k);
            }
        }
        if (!sorted) {
            long span = max - min; // negative when it overflows
            if (n >= MIN_BITMAP_KEYS && span >= 0 && span < (long) BITMAP_SPAN_PER_KEY * n) {
                return bitmapSort(ks, n, min, (int) span + 1, run);
            }
            Arrays.sort(ks, 0, n);
        }
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (m == 0 || ks[i] != ks[m - 1]) {
                ks[m++] = ks[i];
            }
        }
        return m;
    }

    /** Below this many keys the sort is cheap anyway. */
    private static final int MIN_BITMAP_KEYS = 64;
    /** Keys spread over at most this many values per key are sorted by a bitmap (one bit per value). */
    private static final int BITMAP_SPAN_PER_KEY = 8;

    /**
     * Sorts and deduplicates {@code ks[0..n)}, all in [min, min + span), by setting one bit per
     * key and reading the bits back in order: an IN list of ids near each other (a shuffled 1,000
     * ids out of a span of 1,000) costs two linear passes instead of a comparison sort.
     */
    private static int bitmapSort(long[] ks, int n, long min, int span, Run run) {
        int words = (span + 63) >>> 6;
        long[] bits = run.keyBits;
        if (bits == null || bits.length < words) {
            bits = run.keyBits = new long[words];
        }
        for (int i = 0; i < n; i++) {
            int o = (int) (ks[i] - min);
            bits[o >>> 6] |= 1L << o; // shifts are mod 64
        }
        int m = 0;
        for (int w = 0; w < words; w++) {
            long b = bits[w];
            if (b != 0) {
                bits[w] = 0;
                long base = min + ((long) w << 6);
                do {
                    ks[m++] = base + Long.numberOfTrailingZeros(b);
                    b &= b - 1;
                } while (b != 0);
            }
        }
        return m;
    }

    private boolean probe(LongIntBTree.Cursor c, long key, EvalContext ctx, TupleConsumer out, boolean first) {
        int[] slots = ctx.slots;
        for (boolean ok = first ? c.seek(key) : c.seekAhead(key); ok && c.key() == key; ok = c.next()) {
            slots[relation] = c.row();
            if ((filter == null || filter.isTrue(ctx)) && !out.accept(ctx)) {
                return false;
            }
            if (oneRowPerKey) {
                return true;
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
