package io.respsql.storage;

import java.util.Set;

/**
 * A table's row allocator as of a capture: high-water mark, live count, the live bitmap chunks
 * (never written again by the table) and a copy of the free list in order.
 */
public final class RowsImage {
    private final int highWater;
    private final long liveCount;
    private final long[][] live;
    private final int[] free;

    RowsImage(int highWater, long liveCount, long[][] live, int[] free) {
        this.highWater = highWater;
        this.liveCount = liveCount;
        this.live = live;
        this.free = free;
    }

    public int highWater() {
        return highWater;
    }

    public long liveCount() {
        return liveCount;
    }

    /** Word {@code i} of the live bitmap (slots 64*i .. 64*i+63, slot 64*i in bit 0). */
    public long liveWord(int i) {
        int perChunk = Chunks.SIZE / 64;
        return live[i / perChunk][i % perChunk];
    }

    /** Words covering slots 0 .. highWater-1. */
    public int liveWords() {
        return (highWater + 63) >>> 6;
    }

    public boolean isLive(int row) {
        return row >= 0 && row < highWater && (live[row >>> Chunks.SHIFT][(row & Chunks.MASK) >>> 6] & (1L << row)) != 0;
    }

    /** The free list, oldest first; the next insert takes the last one. */
    public int[] freeList() {
        return free.clone();
    }

    public int freeCount() {
        return free.length;
    }

    public int free(int i) {
        return free[i];
    }

    /** The bitmap chunks themselves (a read view's allocator shares them). */
    long[][] liveChunks() {
        return live;
    }

    /** Bytes of bitmap chunks {@code now} (null: the table left the catalog) no longer uses; see {@link ColumnImage#heldBytes}. */
    long heldBytes(RowAllocator now, Set<Object> seen) {
        long b = 0;
        for (int c = 0; c < live.length; c++) {
            if (now == null || now.liveChunk(c) != live[c]) {
                b += ColumnImage.once(live[c], seen);
            }
        }
        return b;
    }
}
