package io.respsql.storage;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.Arrays;

/**
 * Hands out row slots and remembers which are live.
 *
 * <p>Deleted slots go on a free list and are reused by later inserts, so a table that churns
 * does not grow, and scans walk a live-bit bitmap (64 rows per word) so deleted rows cost a scan
 * almost nothing. The live count is kept exactly, which makes COUNT(*) O(1) whatever was deleted.
 */
public final class RowAllocator {
    /** One bitmap chunk per column chunk. */
    private static final int WORDS_PER_CHUNK = Chunks.SIZE / 64;

    private long[][] live = new long[0][];
    private int highWater;
    private long liveCount;
    private final IntArrayList free = new IntArrayList();

    public long liveCount() {
        return liveCount;
    }

    /** One past the largest slot ever used; scans stop here. */
    public int highWater() {
        return highWater;
    }

    public int chunkCount() {
        return live.length;
    }

    public boolean isLive(int row) {
        if (row < 0 || row >= highWater) {
            return false;
        }
        return (live[row >>> Chunks.SHIFT][(row & Chunks.MASK) >>> 6] & (1L << row)) != 0;
    }

    /**
     * Returns the slot the next {@link #allocate()} will use, without taking it: inserts validate
     * everything first and commit only when nothing can fail.
     */
    public int peekNext(int nth) {
        int fromFree = free.size() - 1 - nth;
        return fromFree >= 0 ? free.getInt(fromFree) : highWater + (nth - free.size());
    }

    /** Takes a slot and marks it live; the caller must make sure columns cover it. */
    public int allocate() {
        int row = free.isEmpty() ? highWater++ : free.popInt();
        int c = row >>> Chunks.SHIFT;
        if (c >= live.length) {
            live = Arrays.copyOf(live, c + 1);
            live[c] = new long[WORDS_PER_CHUNK];
        }
        live[c][(row & Chunks.MASK) >>> 6] |= 1L << row;
        liveCount++;
        return row;
    }

    public void release(int row) {
        live[row >>> Chunks.SHIFT][(row & Chunks.MASK) >>> 6] &= ~(1L << row);
        liveCount--;
        free.add(row);
    }

    /** The first live row at or after {@code from}, or -1. */
    public int nextLive(int from) {
        if (from >= highWater || from < 0) {
            return -1;
        }
        int c = from >>> Chunks.SHIFT;
        int w = (from & Chunks.MASK) >>> 6;
        long word = live[c][w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int row = (c << Chunks.SHIFT) + (w << 6) + Long.numberOfTrailingZeros(word);
                return row < highWater ? row : -1;
            }
            if (++w == WORDS_PER_CHUNK) {
                w = 0;
                if (++c >= live.length) {
                    return -1;
                }
            }
            word = live[c][w];
        }
    }

    public void clear() {
        live = new long[0][];
        highWater = 0;
        liveCount = 0;
        free.clear();
        free.trim();
    }

    public long memoryBytes() {
        return (long) live.length * (16 + 8L * WORDS_PER_CHUNK) + 16 + 4L * free.elements().length;
    }
}
