package io.respsql.storage;

import io.respsql.index.IndexKeys;

import java.util.Arrays;

/** Double-precision floats (FLOAT), 8 bytes per row. */
public final class DoubleColumn extends Column {
    private double[][] chunks = new double[0][];

    DoubleColumn(String name, int position) {
        super(name, ColumnType.FLOAT, position);
    }

    @Override
    void ensureCapacity(int rows) {
        Object first = chunks.length == 0 ? null : chunks[0];
        chunks = Chunks.grow(chunks, rows, n -> {
            return new double[n];
        }, Arrays::copyOf);
        afterGrow(chunks, first);
    }

    /** The value (0.0 for a NULL row: check {@link #isNull} where NULL matters). */
    public double get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** Stores a value; the row is no longer NULL. */
    public void set(int row, double value) {
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
        return ColumnImage.ofDoubles(this, chunks.clone(), captureNulls());
    }

    @Override
    void adopt(ColumnImage image) {
        chunks = image.doubleChunks();
    }

    @Override
    public long getLong(int row) {
        return (long) get(row);
    }

    @Override
    public double getDouble(int row) {
        return get(row);
    }

    @Override
    public long indexKey(int row) {
        return IndexKeys.ofDouble(get(row));
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
        return Chunks.bytes(chunks, 8) + nullBytes();
    }
}
