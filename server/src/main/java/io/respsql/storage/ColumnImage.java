package io.respsql.storage;

import java.util.Set;

/**
 * One column's values as of a {@link Catalog#capture()}: the chunk arrays the column had then
 * (values and null bitmaps), which the column never writes again (it copies a frozen chunk before
 * writing). Safe to read from another thread once handed over with a happens-before edge.
 */
public final class ColumnImage {
    private final String name;
    private final ColumnType type;
    private final boolean notNull;
    private final String defaultText;
    private final int typeModifier;
    private final int[][] ints;
    private final long[][] longs;
    private final double[][] doubles;
    /** TEXT: references into {@link #arena}, as in {@link TextColumn}. */
    private final long[][] refs;
    private final byte[][] arena;
    /** Per chunk null bitmaps as in {@link Column#nulls}; null when the column never held NULL. */
    private final long[][] nulls;
    /** The column's {@link Column#mayHaveNulls()} at capture time. */
    private final boolean mayHaveNulls;

    private ColumnImage(Column c, int[][] ints, long[][] longs, double[][] doubles,
                        long[][] refs, byte[][] arena, long[][] nulls) {
        this.name = c.name();
        this.type = c.type();
        this.notNull = c.notNull();
        this.defaultText = c.defaultText();
        this.typeModifier = c.typeModifier();
        this.ints = ints;
        this.longs = longs;
        this.doubles = doubles;
        this.refs = refs;
        this.arena = arena;
        this.nulls = nulls;
        this.mayHaveNulls = c.mayHaveNulls();
    }

    static ColumnImage ofInts(Column c, int[][] chunks, long[][] nulls) {
        return new ColumnImage(c, chunks, null, null, null, null, nulls);
    }

    static ColumnImage ofLongs(Column c, long[][] chunks, long[][] nulls) {
        return new ColumnImage(c, null, chunks, null, null, null, nulls);
    }

    static ColumnImage ofDoubles(Column c, double[][] chunks, long[][] nulls) {
        return new ColumnImage(c, null, null, chunks, null, null, nulls);
    }

    static ColumnImage ofText(Column c, long[][] refs, byte[][] arena, long[][] nulls) {
        return new ColumnImage(c, null, null, null, refs, arena, nulls);
    }

    public String name() {
        return name;
    }

    /** The declared type; {@code type().storedAs()} says which getter reads the values. */
    public ColumnType type() {
        return type;
    }

    public boolean notNull() {
        return notNull;
    }

    /** The DEFAULT expression's text, or null. */
    public String defaultText() {
        return defaultText;
    }

    /** The declared type's modifier ({@link ColumnSpec#typeModifier()}), -1 for none. */
    public int typeModifier() {
        return typeModifier;
    }

    /** {@link Column#mayHaveNulls()} as of the capture. */
    public boolean mayHaveNulls() {
        return mayHaveNulls;
    }

    /** Whether some chunk has a null bitmap (some row held NULL at some time). */
    public boolean hasNulls() {
        if (nulls == null) {
            return false;
        }
        for (long[] bm : nulls) {
            if (bm != null) {
                return true;
            }
        }
        return false;
    }

    public boolean isNull(int row) {
        int c = row >>> Chunks.SHIFT;
        if (nulls == null || c >= nulls.length || nulls[c] == null) {
            return false;
        }
        return (nulls[c][(row & Chunks.MASK) >>> 6] & (1L << row)) != 0;
    }

    /** Word {@code i} of the null bitmap (slots 64*i .. 64*i+63, slot 64*i in bit 0); 0 where no bitmap. */
    public long nullWord(int i) {
        if (nulls == null) {
            return 0;
        }
        int perChunk = Chunks.SIZE / 64;
        int c = i / perChunk;
        int w = i % perChunk;
        if (c >= nulls.length || nulls[c] == null || w >= nulls[c].length) {
            return 0;
        }
        return nulls[c][w];
    }

    /** INT (BOOLEAN, DATE) value of a slot below the table image's high-water mark. */
    public int getInt(int row) {
        return ints[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** BIGINT (TIMESTAMP) value. */
    public long getLong(int row) {
        return longs[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** FLOAT value. */
    public double getDouble(int row) {
        return doubles[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** TEXT: the value's length in UTF-8 bytes (0 for the empty string, NULL and freed slots). */
    public int textLength(int row) {
        long r = refs[row >>> Chunks.SHIFT][row & Chunks.MASK];
        return r == TextColumn.EMPTY ? 0 : TextColumn.lengthAt(arena[(int) (r >>> 32)], (int) r);
    }

    /** TEXT: the array holding the value's bytes (only when {@link #textLength} > 0). */
    public byte[] textArray(int row) {
        return arena[(int) (refs[row >>> Chunks.SHIFT][row & Chunks.MASK] >>> 32)];
    }

    /** TEXT: offset of the value's first byte in {@link #textArray}. */
    public int textOffset(int row) {
        return (int) refs[row >>> Chunks.SHIFT][row & Chunks.MASK] + 4;
    }

    // ---- for read views' columns (Column#readOnlyOf), which share these arrays -----------------

    int[][] intChunks() {
        return ints;
    }

    long[][] longChunks() {
        return longs;
    }

    double[][] doubleChunks() {
        return doubles;
    }

    long[][] refChunks() {
        return refs;
    }

    byte[][] arenaChunks() {
        return arena;
    }

    long[][] nullBitmaps() {
        return nulls;
    }

    // ---- accounting -------------------------------------------------------------------------

    /**
     * Heap bytes of the arrays this image holds that {@code live} (the column now; null when its
     * table left the catalog) no longer uses: chunks copied or replaced since the capture, a first
     * chunk that grew, bitmaps, arena chunks compaction or truncation let go. Arrays already in
     * {@code seen} are not counted again (captures share arrays); counted ones are added to it.
     * Event loop only.
     */
    long heldBytes(Column live, Set<Object> seen) {
        Object[] values = ints != null ? ints : longs != null ? longs : doubles != null ? doubles : refs;
        long b = 0;
        for (int c = 0; c < values.length; c++) {
            if (live == null || c >= live.chunkCount() || live.chunkArray(c) != values[c]) {
                b += once(values[c], seen);
            }
        }
        if (nulls != null) {
            long[][] liveNulls = live == null ? null : live.nulls;
            for (int c = 0; c < nulls.length; c++) {
                if (nulls[c] != null && (liveNulls == null || c >= liveNulls.length || liveNulls[c] != nulls[c])) {
                    b += once(nulls[c], seen);
                }
            }
        }
        if (arena != null) {
            TextColumn text = live instanceof TextColumn t ? t : null;
            for (int i = 0; i < arena.length; i++) {
                if (text == null || text.arenaChunk(i) != arena[i]) {
                    b += once(arena[i], seen);
                }
            }
        }
        return b;
    }

    /** The array's heap bytes the first time {@code seen} meets it, else 0. */
    static long once(Object array, Set<Object> seen) {
        return seen.add(array) ? arrayBytes(array) : 0;
    }

    /** Heap bytes of a primitive array, header included. */
    static long arrayBytes(Object array) {
        if (array instanceof int[] a) {
            return 16 + 4L * a.length;
        }
        if (array instanceof long[] a) {
            return 16 + 8L * a.length;
        }
        if (array instanceof double[] a) {
            return 16 + 8L * a.length;
        }
        if (array instanceof byte[] a) {
            return 16 + (long) a.length;
        }
        throw new IllegalArgumentException(array.getClass().getName());
    }
}
