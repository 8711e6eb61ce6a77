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
        Object first = chunks.length == 0 ? null : chunks[0];
        chunks = Chunks.grow(chunks, rows, n -> {
            return new long[n];
        }, Arrays::copyOf);
        frozen = Chunks.frozenAfterGrow(frozen, chunks, first);
    }

    public long get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    public void set(int row, long value) {
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c);
        }
        chunks[c][row & Chunks.MASK] = value;
    }

    /** Gives chunk {@code c} a private copy; the capture keeps the original, never written again. */
    private void thaw(int c) {
        chunks[c] = chunks[c].clone();
        frozen[c] = false;
        copiedChunks++;
    }

    @Override
    ColumnImage capture() {
        freezeAll();
        return ColumnImage.ofLongs(name(), chunks.clone());
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
