package io.respsql.storage;

import java.util.Arrays;

/**
 * One column's values for every row slot, in primitive chunks. Numeric columns expose
 * {@link #getLong}/{@link #getDouble}; TEXT columns expose their bytes through {@link TextColumn}.
 *
 * <p>NULLs live in a bitmap per chunk beside the values ({@link #nulls}), allocated the first time
 * a NULL is stored in that chunk: a column that never holds NULL has no bitmap at all, its value
 * reads never look at one, and its setters test one boolean ({@link #anyNulls}). A NULL row's
 * value slot holds 0 / 0.0 / the empty string. Copy-on-write: a chunk's bitmap is shared with a
 * capture exactly when its values are ({@code frozen[c]}), and {@code thaw} copies both.
 */
public abstract class Column {
    private final String name;
    private final ColumnType type;
    private final int position;
    private boolean notNull;
    private String defaultText;
    /** Chunks copied because a capture shared them (INFO's copy-on-write count). */
    long copiedChunks;
    /**
     * Per chunk: shared with an outstanding capture, so copied before its next write. The copy
     * itself is typed, so each column does it ({@code thaw}); the flags are kept here.
     */
    boolean[] frozen = new boolean[0];
    /**
     * Per chunk: its null bitmap (bit {@code o & 63} of word {@code o >>> 6} for offset o), or
     * null while no NULL was ever stored in that chunk. Shorter than the chunk array until needed.
     */
    long[][] nulls = NO_BITMAPS;
    /** Set once a NULL was stored (stays set): setters skip the bitmap while it is false. */
    boolean anyNulls;

    private static final long[][] NO_BITMAPS = new long[0][];

    protected Column(String name, ColumnType type, int position) {
        this.name = name;
        this.type = type;
        this.position = position;
    }

    public final String name() {
        return name;
    }

    /** The declared type (BOOLEAN and DATE are stored in an {@link IntColumn}, TIMESTAMP in a {@link LongColumn}). */
    public final ColumnType type() {
        return type;
    }

    /** Position in the table's column list (0-based). */
    public final int position() {
        return position;
    }

    /** Makes room for row slots {@code 0 .. rows-1}. */
    abstract void ensureCapacity(int rows);

    /** Value as a long (integer columns; FLOAT truncates — callers check the type first). */
    public abstract long getLong(int row);

    public abstract double getDouble(int row);

    /** Sortable 64-bit key of the row's value, as stored in indexes (meaningless for a NULL row). */
    public abstract long indexKey(int row);

    /** Whether the row holds NULL: one bitmap probe, and none at all in a chunk that never held NULL. */
    public final boolean isNull(int row) {
        int c = row >>> Chunks.SHIFT;
        long[][] n = nulls;
        if (c >= n.length) {
            return false;
        }
        long[] bm = n[c];
        return bm != null && (bm[(row & Chunks.MASK) >>> 6] & (1L << row)) != 0;
    }

    /** Stores NULL in the row (the value slot is cleared). Every typed setter clears the NULL bit. */
    public final void setNull(int row) {
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c);
        }
        clearValue(row);
        if (c >= nulls.length) {
            nulls = Arrays.copyOf(nulls, chunkCount());
        }
        long[] bm = nulls[c];
        if (bm == null) {
            bm = new long[(chunkRows(c) + 63) >>> 6];
            nulls[c] = bm;
        }
        bm[(row & Chunks.MASK) >>> 6] |= 1L << row;
        anyNulls = true;
    }

    /**
     * Clears the row's NULL bit; setters call it only when {@link #anyNulls} (so a column without
     * NULLs pays one boolean test). The chunk is already private (thawed) when this runs.
     */
    final void clearNullBit(int row) {
        int c = row >>> Chunks.SHIFT;
        if (c < nulls.length) {
            long[] bm = nulls[c];
            if (bm != null) {
                bm[(row & Chunks.MASK) >>> 6] &= ~(1L << row);
            }
        }
    }

    /** Whether any row may hold NULL now (false lets scans and index plans skip NULL checks). */
    public final boolean mayHaveNulls() {
        return anyNulls;
    }

    /** Declared NOT NULL (a PRIMARY KEY column is). */
    public final boolean notNull() {
        return notNull;
    }

    /** The DEFAULT expression's source text, or null when none was declared (the default is NULL). */
    public final String defaultText() {
        return defaultText;
    }

    /** Sets what CREATE TABLE declared; storage keeps it and never enforces or evaluates it. */
    final void declare(boolean notNull, String defaultText) {
        this.notNull = notNull;
        this.defaultText = defaultText;
    }

    /** Resets a freed slot so it holds no reference to old data (and no NULL bit). */
    abstract void clear(int row);

    /** Zeroes the row's value slot without touching the NULL bit; the chunk is already private. */
    abstract void clearValue(int row);

    /** Gives chunk {@code c} (values and null bitmap) a private copy; the capture keeps the originals. */
    abstract void thaw(int c);

    /** Number of value chunks. */
    abstract int chunkCount();

    /** Row slots chunk {@code c} holds (the first chunk grows; the others hold {@link Chunks#SIZE}). */
    abstract int chunkRows(int c);

    /**
     * Empties the column for {@link Table#truncate}: no NULL bit and no reference to old data
     * survives. {@code highWater}: the allocator's mark before the truncate (slots above it hold
     * nothing already).
     */
    void reset(int highWater) {
        nulls = NO_BITMAPS;
        anyNulls = false;
    }

    /** Called by {@code thaw}: the chunk's bitmap becomes private too. */
    final void thawNulls(int c) {
        if (c < nulls.length && nulls[c] != null) {
            nulls[c] = nulls[c].clone();
        }
    }

    /**
     * Called by {@code ensureCapacity} after the chunks grew: when the first chunk was resized (a
     * fresh array, so no longer frozen) its bitmap is resized too, which also makes it private.
     */
    final void nullsAfterGrow(Object oldFirst, Object newFirst) {
        if (oldFirst != newFirst && nulls.length > 0 && nulls[0] != null) {
            nulls[0] = Arrays.copyOf(nulls[0], (chunkRows(0) + 63) >>> 6);
        }
    }

    /** The bitmaps as of a capture (a shallow copy: the chunks are frozen with the values). */
    final long[][] captureNulls() {
        return nulls.length == 0 ? null : nulls.clone();
    }

    /** Heap bytes of the null bitmaps. */
    final long nullBytes() {
        if (nulls.length == 0) {
            return 0;
        }
        long b = 16 + 4L * nulls.length;
        for (long[] bm : nulls) {
            if (bm != null) {
                b += 16 + 8L * bm.length;
            }
        }
        return b;
    }

    public abstract long memoryBytes();

    /**
     * A point-in-time view of the column's values: the chunk arrays as they are now, which are
     * marked frozen so that later writes copy a chunk before changing it. O(chunks), no row copy.
     */
    abstract ColumnImage capture();

    /** Ends the capture: writes stop copying chunks. Event loop only. */
    final void releaseCapture() {
        java.util.Arrays.fill(frozen, false);
    }

    /** Marks every chunk shared with a capture being taken now. */
    final void freezeAll() {
        java.util.Arrays.fill(frozen, true);
    }

    static Column create(String name, ColumnType type, int position) {
        switch (type) {
            case INT:
            case BOOLEAN:
            case DATE:
                return new IntColumn(name, type, position);
            case BIGINT:
            case TIMESTAMP:
                return new LongColumn(name, type, position);
            case FLOAT:
                return new DoubleColumn(name, position);
            case TEXT:
                return new TextColumn(name, position);
            default:
                throw new IllegalArgumentException(type.name());
        }
    }
}
