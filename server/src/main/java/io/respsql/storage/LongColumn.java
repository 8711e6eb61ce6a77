package io.respsql.storage;

import java.util.Arrays;

/** 64-bit integers, 8 bytes per row: BIGINT, and TIMESTAMP (microseconds since 1970-01-01 00:00:00). */
public final class LongColumn extends Column {
    private long[][] chunks = new long[0][];

    LongColumn(String name, ColumnType type, int position) {
        super(name, type, position);
        if (type.storedAs() != ColumnType.BIGINT) {
            throw new IllegalArgumentException(type + " is not stored in an LongColumn");
        }
    }

    LongColumn(String name, int position) {
        this(name, ColumnType.BIGINT, position);
    }

    @Override
    void ensureCapacity(int rows) {
        Object first = chunks.length == 0 ? null : chunks[0];
        chunks = Chunks.grow(chunks, rows, n -> {
            return new long[n];
        }, Arrays::copyOf);
        afterGrow(chunks, first);
    }

    /** The value (0 for a NULL row: check {@link #isNull} where NULL matters). */
    public long get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    /** Stores a value; the row is no longer NULL. */
    public void set(int row, long value) {
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
        return ColumnImage.ofLongs(this, chunks.clone(), captureNulls());
    }

    @Override
    void adopt(ColumnImage image) {
        chunks = image.longChunks();
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
        return Chunks.bytes(chunks, 8) + nullBytes();
    }
}
