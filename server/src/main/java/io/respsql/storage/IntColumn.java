package io.respsql.storage;

import java.util.Arrays;

/** 32-bit integers, 4 bytes per row: INT, and BOOLEAN (0/1) and DATE (days since 1970-01-01). */
public final class IntColumn extends Column {
    private int[][] chunks = new int[0][];

    IntColumn(String name, ColumnType type, int position) {
        super(name, type, position);
        if (type.storedAs() != ColumnType.INT) {
            throw new IllegalArgumentException(type + " is not stored in an IntColumn");
        }
    }

    IntColumn(String name, int position) {
        this(name, ColumnType.INT, position);
    }

    @Override
    void ensureCapacity(int rows) {
        Object first = chunks.length == 0 ? null : chunks[0];
        chunks = Chunks.grow(chunks, rows, n -> {
            return new int[n];
        }, Arrays::copyOf);
        afterGrow(chunks, first);
    }

    /** The value (0 for a NULL row: check {@link #isNull} where NULL matters). */
    public int get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** Stores a value; the row is no longer NULL. */
    public void set(int row, int value) {
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c);
        }
        chunks[c][row & Chunks.MASK] = value;
        if (anyNulls) {
            clearNullBit(row);
        }
    }

    @Override
    void copyChunk(int c) {
        chunks[c] = chunks[c].clone();
    }

    @Override
    Object chunkArray(int c) {
        return chunks[c];
    }

    @Override
    int chunkCount() {
        return chunks.length;
    }

    @Override
    int chunkRows(int c) {
        return chunks[c].length;
    }

    @Override
    ColumnImage capture(long seq) {
        freezeAll(seq);
        return ColumnImage.ofInts(this, chunks.clone(), captureNulls());
    }

    @Override
    void adopt(ColumnImage image) {
        chunks = image.intChunks();
    }

    @Override
    public long getLong(int row) {
        return get(row);
    }

    @Override
    public double getDouble(int row) {
        return get(row);
    }

    @Override
    public long indexKey(int row) {
        return get(row);
    }

    @Override
    void clear(int row) {
        set(row, 0);
    }

    @Override
    void clearValue(int row) {
        chunks[row >>> Chunks.SHIFT][row & Chunks.MASK] = 0;
    }

    @Override
    public long memoryBytes() {
        return Chunks.bytes(chunks, 4) + nullBytes();
    }
}
