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
 * capture exactly when its values are ({@code frozen[c]}), and {@link #thaw} copies both.
 *
 * <p>Many captures may share a chunk (a BGSAVE image and any number of read views). Each capture
 * of the table has a sequence number; {@code born[c]} is the number of the latest capture taken
 * before chunk c's current array was installed, so the captures holding that array are exactly
 * the outstanding ones numbered above {@code born[c]}. Releasing a capture unfreezes the chunks no
 * remaining capture holds ({@link #releaseCapture}); the write path still tests one boolean.
 *
 * <p>A read view's column ({@link #readOnlyOf}) shares a capture's arrays and is frozen for good:
 * its {@link #thaw} throws, so every setter fails before writing anything.
 */
public abstract class Column {
    /** Changed only by ALTER TABLE ({@link Table#renameColumn}, {@link Table#dropColumn}). */
    private String name;
    private final ColumnType type;
    private int position;
    private boolean notNull;
    private String defaultText;
    /** PostgreSQL's atttypmod ({@link ColumnSpec#typeModifier}), -1 for none. */
    private int typeModifier = -1;
    /** Chunks copied because a capture shared them (INFO's copy-on-write count). */
    long copiedChunks;
    /**
     * Per chunk: shared with an outstanding capture, so copied before its next write. The copy
     * itself is typed, so each column does it ({@code thaw}); the flags are kept here.
     */
    boolean[] frozen = new boolean[0];
    /**
     * Per chunk: the sequence number of the latest capture taken before the chunk's current array
     * was installed (created, thawed, resized). Meaningful while {@code frozen[c]}.
     */
    long[] born = new long[0];
    /** Sequence number of the table's latest capture (0: none yet); new arrays are born at it. */
    long lastCapture;
    /** A read view's column: never written (thaw throws). */
    boolean readOnly;
    /**
     * Per chunk: its null bitmap (bit {@code o & 63} of word {@code o >>> 6} for offset o), or
     * null while no NULL was ever stored in that chunk. Shorter than the chunk array until needed.
     */
    long[][] nulls = NO_BITMAPS;
    /** Set once a NULL was stored (stays set): setters skip the bitmap while it is false. */
    boolean anyNulls;

    private static final long[][] NO_BITMAPS = new long[0][];
    /**
     * Frozen flags of every possible chunk, all true, shared by every read-view column: their
     * setters call {@link #thaw}, which throws before anything could write this array.
     */
    static final boolean[] ALL_FROZEN = allFrozen();

    private static boolean[] allFrozen() {
        boolean[] f = new boolean[(Integer.MAX_VALUE >>> Chunks.SHIFT) + 1];
        Arrays.fill(f, true);
        return f;
    }

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

    /** ALTER TABLE ... RENAME COLUMN (the table keeps its name map in step). */
    final void rename(String to) {
        this.name = to;
    }

    /** The column's place after ALTER TABLE dropped or replaced a column. */
    final void reposition(int to) {
        this.position = to;
    }

    /**
     * ALTER TABLE ... ADD COLUMN on a table whose storage covers {@code rows} slots (a multiple of
     * {@link Chunks#SIZE}): every chunk becomes one shared array holding the constant ({@code fill}
     * makes it, once), frozen for good ({@code born} -1 is older than every capture, so releasing
     * captures never unfreezes it): the first write to a chunk copies it, as after a capture. A
     * NULL constant shares one all-set bitmap the same way. O(chunks): no per-row loop.
     */
    final void shareConstantChunks(int rows, java.util.function.IntFunction<Object> fill, boolean isNull) {
        if (rows % Chunks.SIZE != 0 || chunkCount() != 0) {
            throw new IllegalStateException("column " + name + ": constant chunks need an empty column and whole chunks");
        }
        int n = rows >>> Chunks.SHIFT;
        installShared(fill.apply(Chunks.SIZE), n);
        frozen = new boolean[n];
        born = new long[n];
        Arrays.fill(frozen, true);
        Arrays.fill(born, -1L);
        if (isNull) {
            long[] all = new long[Chunks.SIZE >>> 6];
            Arrays.fill(all, -1L);
            nulls = new long[n][];
            Arrays.fill(nulls, all);
            anyNulls = true;
        }
    }

    /** Makes every one of {@code n} chunks the same {@code array} (see {@link #shareConstantChunks}). */
    abstract void installShared(Object array, int n);

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

    /**
     * Chunk {@code c}'s NULL bitmap (bit {@code o & 63} of word {@code o >>> 6} for offset o), or
     * null when no NULL was ever stored in that chunk: for the bulk writers of exec/kernel, which
     * skip NULL rows a word at a time. Written only by a writer that made the chunk private first
     * (a typed column's {@code writableChunk}), and only to clear bits.
     */
    public final long[] nullWords(int c) {
        long[][] n = nulls;
        return c < n.length ? n[c] : null;
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

    /** Sets what CREATE TABLE (or ALTER TABLE) declared; storage keeps it and never enforces or evaluates it. */
    final void declare(boolean notNull, String defaultText) {
        this.notNull = notNull;
        this.defaultText = defaultText;
    }

    /**
     * PostgreSQL's atttypmod of the column, -1 for none: varchar(n) / char(n) -> n, numeric(p,s) ->
     * {@code (p << 16) | s}.
     */
    public final int typeModifier() {
        return typeModifier;
    }

    final void typeModifier(int typeModifier) {
        this.typeModifier = typeModifier;
    }

    /** A NUMERIC column's scale (its type modifier's low 16 bits), -1 when it has none. */
    public final int numericScale() {
        return typeModifier < 0 ? -1 : typeModifier & 0xFFFF;
    }

    /** Resets a freed slot so it holds no reference to old data (and no NULL bit). */
    abstract void clear(int row);

    /** Zeroes the row's value slot without touching the NULL bit; the chunk is already private. */
    abstract void clearValue(int row);

    /**
     * Gives chunk {@code c} (values and null bitmap) a private copy; the captures keep the
     * originals. Refused on a read view's column.
     */
    final void thaw(int c) {
        if (readOnly) {
            throw new IllegalStateException("column " + name + " belongs to a read view and cannot be written");
        }
        copyChunk(c);
        thawNulls(c);
        installed(c);
        copiedChunks++;
    }

    /** Replaces chunk {@code c}'s value array by a copy of itself (for {@link #thaw}). */
    abstract void copyChunk(int c);

    /** Chunk {@code c} now has a fresh array no capture holds. */
    final void installed(int c) {
        frozen[c] = false;
        born[c] = lastCapture;
    }

    /** Chunk {@code c}'s value array (identity comparisons of capture accounting). */
    abstract Object chunkArray(int c);

    /** Number of value chunks. */
    public abstract int chunkCount();

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
     * Called by {@code ensureCapacity} after {@link Chunks#grow}: the frozen flags follow the chunk
     * array (new chunks are not shared), and a first chunk that grow resized is a fresh array the
     * captures do not hold, whose bitmap is resized too (which also makes it private).
     */
    final void afterGrow(Object[] chunks, Object oldFirst) {
        int n = chunks.length;
        if (frozen.length < n) {
            int old = frozen.length;
            frozen = Arrays.copyOf(frozen, n);
            born = Arrays.copyOf(born, n);
            Arrays.fill(born, old, n, lastCapture);
        }
        if (n > 0 && chunks[0] != oldFirst && oldFirst != null) {
            installed(0);
            if (nulls.length > 0 && nulls[0] != null) {
                nulls[0] = Arrays.copyOf(nulls[0], (chunkRows(0) + 63) >>> 6);
            }
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
     * {@code seq}: the table's number for this capture, above every earlier one.
     */
    abstract ColumnImage capture(long seq);

    /**
     * A capture ended: {@code newest} is the number of the newest capture still outstanding (0:
     * none). Chunks whose array was installed after it ({@code born[c] >= newest}) are held by no
     * outstanding capture and stop copying. O(chunks). Event loop only.
     */
    final void releaseCapture(long newest) {
        boolean[] f = frozen;
        long[] b = born;
        for (int c = 0; c < f.length; c++) {
            if (f[c] && b[c] >= newest) {
                f[c] = false;
            }
        }
    }

    /** Marks every chunk shared with capture {@code seq}, being taken now. */
    final void freezeAll(long seq) {
        if (readOnly) {
            throw new IllegalStateException("column " + name + " belongs to a read view");
        }
        lastCapture = seq;
        Arrays.fill(frozen, true);
    }

    /** Takes a capture's value arrays as this column's own (a read view's column; see {@link #readOnlyOf}). */
    abstract void adopt(ColumnImage image);

    /**
     * A read-only column over a capture's arrays (values, null bitmaps, text arena), sharing them:
     * nothing is copied. Its reads are those of any column; every setter throws
     * IllegalStateException. Readable from any thread once handed over (see {@link ReadView}).
     */
    static Column readOnlyOf(ColumnImage image, int position) {
        Column c = create(image.name(), image.type(), position);
        c.declare(image.notNull(), image.defaultText());
        c.typeModifier(image.typeModifier());
        c.adopt(image);
        long[][] n = image.nullBitmaps();
        c.nulls = n == null ? NO_BITMAPS : n;
        c.anyNulls = image.mayHaveNulls();
        c.frozen = ALL_FROZEN;
        c.readOnly = true;
        return c;
    }

    /** Whether this is a read view's column (never written). */
    public final boolean isReadOnly() {
        return readOnly;
    }

    static Column create(String name, ColumnType type, int position) {
        switch (type) {
            case INT:
            case BOOLEAN:
            case DATE:
                return new IntColumn(name, type, position);
            case BIGINT:
            case TIMESTAMP:
            case NUMERIC:
                return new LongColumn(name, type, position);
            case NUMERIC_TEXT:
                return new TextColumn(name, type, position);
            case FLOAT:
                return new DoubleColumn(name, position);
            case TEXT:
            case INTERVAL:
                return new TextColumn(name, type, position);
            default:
                if (type.isArray()) {
                    return new TextColumn(name, type, position); // arrays: their canonical text
                }
                throw new IllegalArgumentException(type.name());
        }
    }
}
