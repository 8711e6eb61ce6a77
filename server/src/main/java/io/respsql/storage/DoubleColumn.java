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
        frozen = Chunks.frozenAfterGrow(frozen, chunks, first);
    }

    public double get(int row) {
        return chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
    }

    public void set(int row, double value) {
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
        return ColumnImage.ofDoubles(name(), chunks.clone());
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
