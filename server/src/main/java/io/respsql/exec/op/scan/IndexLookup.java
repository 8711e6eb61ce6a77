package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.ColumnType;
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
    private long[] spareKeys;
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
            if (keys[0].none) {
                return true;
            }
            int row = index.tree().firstRow(k); // one descent, no cursor
            if (row < 0) {
                return true;
            }
            ctx.slots[relation] = row;
            return (filter != null && !filter.isTrue(ctx)) || out.accept(ctx);
        }
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
            return keys[0].none || probe(c, k, ctx, out, true);
        }
        long[] ks = takeKeys();
        try {
            int n = sortedKeys(ctx, ks);
            for (int i = 0; i < n; i++) {
                if (!probe(c, ks[i], ctx, out, i == 0)) {
                    return false;
                }
            }
            return true;
        } finally {
            spareKeys = ks;
        }
    }

    /** The key buffer, reused by runs that do not overlap (a re-entered lookup gets its own). */
    private long[] takeKeys() {
        long[] ks = spareKeys != null ? spareKeys : new long[keys.length];
        spareKeys = null;
        return ks;
    }

    /**
     * The probe values' keys, sorted, each once, without the ones that match nothing (NULL):
     * the cursor then walks them forward ({@link LongIntBTree.Cursor#seekAhead}), a merge of the
     * list with the index rather than a descent from the root per value.
     */
    private int sortedKeys(EvalContext ctx, long[] ks) {
        int n = 0;
        boolean sorted = true;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (KeyProbe p : keys) {
            long k = p.key(ctx);
            if (!p.none) {
                sorted &= n == 0 || ks[n - 1] <= k;
                ks[n++] = k;
                min = Math.min(min, k);
                max = Math.max(max, k);
            }
        }
        if (!sorted) {
            long span = max - min; // negative when it overflows
            if (n >= MIN_BITMAP_KEYS && span >= 0 && span < (long) BITMAP_SPAN_PER_KEY * n) {
                return bitmapSort(ks, n, min, (int) span + 1);
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

    /** {@link #bitmapSort}'s bits, all zero between calls (the call clears what it set; nothing in it can re-enter). */
    private long[] keyBits;

    /**
     * Sorts and deduplicates {@code ks[0..n)}, all in [min, min + span), by setting one bit per
     * key and reading the bits back in order: an IN list of ids near each other (a shuffled 1,000
     * ids out of a span of 1,000) costs two linear passes instead of a comparison sort.
     */
    private int bitmapSort(long[] ks, int n, long min, int span) {
        int words = (span + 63) >>> 6;
        long[] bits = keyBits;
        if (bits == null || bits.length < words) {
            bits = keyBits = new long[words];
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

    /**
     * The rows {@link #run} would push, appended to {@code into} in the same order (UPDATE and
     * DELETE collect their rows first). Without a filter a key's rows are copied a leaf run at a
     * time ({@link LongIntBTree.Cursor#copyRun}), not one consumer call per row: the FK-range UPDATE.
     */
    public void collectSlots(EvalContext ctx, IntArrayList into) {
        if (filter != null) {
            int rel = relation;
            run(ctx, t -> into.add(t.slots[rel]));
            return;
        }
        if (oneRowPerKey && keys.length == 1) { // a point UPDATE / DELETE by primary key
            long key = keys[0].key(ctx);
            int row = keys[0].none ? -1 : index.tree().firstRow(key);
            if (row >= 0) {
                into.add(row);
            }
            return;
        }
        LongIntBTree.Cursor c = spare != null ? spare : index.tree().cursor();
        spare = null;
        try {
            if (keys.length == 1) {
                long key = keys[0].key(ctx);
                if (!keys[0].none) {
                    copyKey(c, key, into, true);
                }
                return;
            }
            long[] ks = takeKeys();
            try {
                int n = sortedKeys(ctx, ks);
                for (int i = 0; i < n; i++) {
                    copyKey(c, ks[i], into, i == 0);
                }
            } finally {
                spareKeys = ks;
            }
        } finally {
            spare = c;
        }
    }

    /**
     * One key and no filter ({@code fk = 7}): the rows are exactly the index's range [key, key],
     * so {@link #keyBounds} and a cursor of {@link #index()} can walk them without this operator
     * (UPDATE's write loops, a batch at a time).
     */
    public boolean plainSingleKey() {
        return filter == null && keys.length == 1;
    }

    /** For {@link #plainSingleKey()}: the key as the bounds {@code into[0] = into[1]}; false when it matches nothing (NULL). */
    public boolean keyBounds(EvalContext ctx, long[] into) {
        long key = keys[0].key(ctx);
        if (keys[0].none) {
            return false;
        }
        into[0] = key;
        into[1] = key;
        return true;
    }

    public TableIndex index() {
        return index;
    }

    /** Appends the rows of {@code key}, a leaf run at a time. {@code first}: the cursor's first seek of this run. */
    private void copyKey(LongIntBTree.Cursor c, long key, IntArrayList into, boolean first) {
        for (boolean ok = first ? c.seek(key) : c.seekAhead(key); ok && c.key() == key; ok = c.next()) {
            if (oneRowPerKey) {
                into.add(c.row());
                return;
            }
            int at = into.size();
            into.size(at + c.runRemaining()); // grows the backing array when needed
            c.copyRun(into.elements(), at);
        }
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
