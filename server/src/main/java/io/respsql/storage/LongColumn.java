package io.respsql.storage;

import java.util.Arrays;

/** 64-bit integers (BIGINT), 8 bytes per row. */
public final class LongColumn extends Column {
    private long[][] chunks = new long[0][];

    LongColumn(String name, int position) {
        super(name, ColumnType.BIGINT, position);
    }

    @Override
    void ensureCapacity(int rows) {
        chunks = Chunks.grow(chunks, rows, n -> {
            return new long[n];
        }, Arrays::copyOf);
    }

    public long get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    public void set(int row, long value) {
        chunks[row >>> Chunks.SHIFT][row & Chunks.MASK] = value;
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
    public long memoryBytes() {
        return Chunks.bytes(chunks, 8);
    }
}
