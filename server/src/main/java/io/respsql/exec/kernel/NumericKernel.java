package io.respsql.exec.kernel;

import io.respsql.index.LongIntBTree;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.RowAllocator;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;

/**
 * The bulk UPDATE kernels of one INT, BIGINT or FLOAT column ({@code SET v = v + k},
 * {@code SET v = const}), as the write path sees them: one object per assignment, made when the
 * statement is bound, so a run allocates nothing. The step comes in as a long (k with its sign,
 * {@link #delta}); each subclass ({@link IntKernel}, {@link LongKernel}, {@link DoubleKernel},
 * generated from src/main/templates/io/respsql/exec/kernel/TypeKernel.java.tmpl) turns it into
 * its own type and range once per call and runs loops of that type over the column's chunks: one
 * virtual call per batch, none per row. Storage keeps the values; these are statement kernels.
 */
public abstract class NumericKernel {
    /** Below this many rows the increment goes row by row rather than checking a stretch of slots. */
    static final int MIN_STRETCH = 16;

    NumericKernel() {
    }

    /**
     * The kernels of a column declared INT, BIGINT or FLOAT; null for any other type (BOOLEAN,
     * DATE and TIMESTAMP are stored as integers, but {@code + k} means something else for them).
     */
    public static NumericKernel of(Column c) {
        switch (c.type()) {
            case INT:
                return new IntKernel((IntColumn) c);
            case BIGINT:
                return new LongKernel((LongColumn) c);
            case FLOAT:
                return new DoubleKernel((DoubleColumn) c);
            default:
                return null;
        }
    }

    /** Whether {@link #of} gives kernels for {@code c}: a column declared INT, BIGINT or FLOAT. */
    public static boolean supports(Column c) {
        ColumnType t = c.type();
        return t == ColumnType.INT || t == ColumnType.BIGINT || t == ColumnType.FLOAT;
    }

    public abstract Column column();

    /**
     * The number {@code SET v = v + k} (sign 1) or {@code v - k} (sign -1) adds to each non-NULL
     * value, as this column's kernels take it; {@link Long#MIN_VALUE} when only the general path
     * can say what happens (it then runs). INT clamps k to ±2^33 (beyond that no INT value stays
     * in range, and the clamp keeps the range arithmetic exact).
     */
    public abstract long delta(long k, int sign);

    /**
     * Whether subtracting a delta takes its addition back exactly (integers), so a block's undo
     * may record the step rather than the values; FLOAT rounds, so its undo keeps old values.
     */
    public abstract boolean exactUndo();

    /** The first of {@code rows[0..n)} (in that order) whose non-NULL value cannot take {@code delta}, or -1. */
    public abstract int firstOutside(int[] rows, int n, long delta);

    /** The first live row (in slot order) whose non-NULL value cannot take {@code delta}, or -1. */
    public abstract int firstOutside(RowAllocator live, long delta);

    /** Adds {@code delta} to the non-NULL values of {@code rows[0..n)}; the caller checked they fit. */
    public abstract void addTo(int[] rows, int n, long delta);

    /** Adds {@code delta} to the non-NULL values of every live row; the caller checked they fit. */
    public abstract void addToLive(RowAllocator live, long delta);

    /**
     * Checks and adds in one pass over {@code rows[0..n)}: at the first value that cannot take
     * {@code delta} the additions made are taken back and that row is returned; -1 when all were added.
     */
    public abstract int addWithin(int[] rows, int n, long delta);

    /** {@link #addWithin} for ascending rows (one key's posting list), with a tighter loop. */
    public abstract int addWithinAscending(int[] rows, int n, long delta);

    /** Stores one value into each of {@code rows[0..n)} (the integer columns take {@code asLong}, FLOAT {@code asDouble}). */
    public abstract void setAll(int[] rows, int n, long asLong, double asDouble);

    // ---- undo: an increment is taken back by subtracting its step over the same rows ------------

    /**
     * A block's log: this statement added {@code delta} to every non-NULL value over the live rows
     * of {@code t}. Rollback subtracts it over the same rows: when it runs, the later entries are
     * undone, so the live rows and NULLs are those the UPDATE saw. Nothing per row is kept. Only
     * when {@link #exactUndo}.
     */
    public final void addedToLive(UndoLog undo, Table t, long delta) {
        undo.onRollback(() -> addToLive(t.rows(), -delta));
    }

    /**
     * A block's log: this statement added {@code delta} to every non-NULL value (the column is in
     * no index) at the rows of {@code index}'s keys in [lo, hi]. Rollback walks that range again
     * (the index then holds the pairs it held at the UPDATE, later entries being undone first) and
     * subtracts it: O(1) memory for a range over millions of rows. Only when {@link #exactUndo}.
     */
    public final void addedInRange(UndoLog undo, long delta, TableIndex index, long lo, long hi) {
        undo.onRollback(() -> addInRange(-delta, index, lo, hi, Long.MAX_VALUE, new int[UndoLog.RANGE_BATCH]));
    }

    /**
     * Adds {@code delta} (no range check) to the non-NULL values at the first {@code limit} rows
     * of {@code index}'s keys in [lo, hi], in key order, a batch of {@code batch.length} rows at a
     * time; used to take an increment back.
     */
    public final void addInRange(long delta, TableIndex index, long lo, long hi, long limit, int[] batch) {
        LongIntBTree.Cursor cur = index.tree().cursor();
        if (!cur.seek(lo)) {
            return;
        }
        long left = limit;
        int n;
        while (left > 0 && (n = cur.fill(hi, batch, (int) Math.min(batch.length, left))) > 0) {
            addTo(batch, n, delta);
            left -= n;
        }
    }

    // ---- shared by the typed kernels (no value of any type is read here) ------------------------

    /**
     * The first index j in [i, n) whose row lies past the chunk starting at slot {@code base} of
     * {@code len} slots, or n; rows ascending, rows[i] in the chunk (so the result is above i).
     */
    static int chunkEnd(int[] rows, int i, int n, int base, int len) {
        if (rows[n - 1] - base < len) {
            return n;
        }
        int l = i + 1;
        int h = n - 1; // rows[h] is past the chunk
        while (l < h) {
            int m = (l + h) >>> 1;
            if (rows[m] - base >= len) {
                h = m;
            } else {
                l = m + 1;
            }
        }
        return l;
    }

    /** Whether {@code rows[0..n)} are the consecutive slots rows[0], rows[0] + 1, ... (the last checked first). */
    static boolean consecutive(int[] rows, int n) {
        int first = rows[0];
        if (rows[n - 1] != first + n - 1) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            if (rows[i] != first + i) {
                return false;
            }
        }
        return true;
    }

    /** Whether any of the {@code len} slots from offset {@code o} is NULL in bitmap {@code bm} (null: none). */
    static boolean anyNullIn(long[] bm, int o, int len) {
        if (bm == null) {
            return false;
        }
        int last = o + len - 1;
        for (int w = o >>> 6; w <= last >>> 6 && w < bm.length; w++) {
            long bits = bm[w];
            if (w == o >>> 6) {
                bits &= -1L << o; // shifts are mod 64
            }
            if (w == last >>> 6) {
                bits &= -1L >>> (63 - (last & 63));
            }
            if (bits != 0) {
                return true;
            }
        }
        return false;
    }

    /** The live rows of a bitmap word that are not NULL. */
    static long liveNonNull(long[] live, long[] nulls, int w) {
        return nulls == null || w >= nulls.length ? live[w] : live[w] & ~nulls[w];
    }
}
