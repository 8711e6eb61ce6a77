package io.respsql.storage;

/**
 * One column's values as of a {@link Catalog#capture()}: the chunk arrays the column had then,
 * which the column never writes again (it copies a frozen chunk before writing). Safe to read from
 * another thread once handed over with a happens-before edge.
 */
public final class ColumnImage {
    private final String name;
    private final ColumnType type;
    private final int[][] ints;
    private final long[][] longs;
    private final double[][] doubles;
    /** TEXT: references into {@link #arena}, as in {@link TextColumn}. */
    private final long[][] refs;
    private final byte[][] arena;

    private ColumnImage(String name, ColumnType type, int[][] ints, long[][] longs, double[][] doubles,
                        long[][] refs, byte[][] arena) {
        this.name = name;
        this.type = type;
        this.ints = ints;
        this.longs = longs;
        this.doubles = doubles;
        this.refs = refs;
        this.arena = arena;
    }

    static ColumnImage ofInts(String name, int[][] chunks) {
        return new ColumnImage(name, ColumnType.INT, chunks, null, null, null, null);
    }

    static ColumnImage ofLongs(String name, long[][] chunks) {
        return new ColumnImage(name, ColumnType.BIGINT, null, chunks, null, null, null);
    }

    static ColumnImage ofDoubles(String name, double[][] chunks) {
        return new ColumnImage(name, ColumnType.FLOAT, null, null, chunks, null, null);
    }

    static ColumnImage ofText(String name, long[][] refs, byte[][] arena) {
        return new ColumnImage(name, ColumnType.TEXT, null, null, null, refs, arena);
    }

    public String name() {
        return name;
    }

    public ColumnType type() {
        return type;
    }

    /** INT value of a slot below the table image's high-water mark. */
    public int getInt(int row) {
        return ints[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** BIGINT value. */
    public long getLong(int row) {
        return longs[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** FLOAT value. */
    public double getDouble(int row) {
        return doubles[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** TEXT: the value's length in UTF-8 bytes (0 for the empty string and freed slots). */
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
}
