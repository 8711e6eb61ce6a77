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
        chunks = Chunks.grow(chunks, rows, n -> {
            return new double[n];
        }, Arrays::copyOf);
    }

    public double get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    public void set(int row, double value) {
        chunks[row >>> Chunks.SHIFT][row & Chunks.MASK] = value;
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
    public long memoryBytes() {
        return Chunks.bytes(chunks, 8);
    }
}
