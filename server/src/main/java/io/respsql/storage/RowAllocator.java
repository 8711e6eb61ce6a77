package io.respsql.storage;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.Arrays;

/**
 * Hands out row slots and remembers which are live.
 *
 * <p>Deleted slots go on a free list and are reused by later inserts, so a table that churns
 * does not grow, and scans walk a live-bit bitmap (64 rows per word) so deleted rows cost a scan
 * almost nothing. The live count is kept exactly, which makes COUNT(*) O(1) whatever was deleted.
 *
 * <p>A capture freezes the bitmap chunks like column chunks (copied before their next write),
 * with the same per-chunk birth numbers so that many captures can share them (see {@link Column}).
 *
 * <p>A read view's allocator ({@link #readOnlyOf}) shares a capture's bitmap chunks; its reads are
 * those of any allocator and every method that would change it throws IllegalStateException.
 */
public final class RowAllocator {
    /** One bitmap chunk per column chunk. */
    private static final int WORDS_PER_CHUNK = Chunks.SIZE / 64;

    private long[][] live = new long[0][];
    /** Per bitmap chunk: shared with an outstanding capture, so copied before its next write. */
    private boolean[] frozen = new boolean[0];
    /** Per bitmap chunk: the latest capture's number when its array was installed (see {@link Column#born}). */
    private long[] born = new long[0];
    /** Number of the table's latest capture (0: none). */
    private long lastCapture;
    /** A read view's allocator: never changes. */
    private boolean readOnly;
    /** Bitmap chunks copied because a capture shared them. */
    long copiedChunks;
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
        checkWritable();
        int row = free.isEmpty() ? highWater++ : free.popInt();
        int c = row >>> Chunks.SHIFT;
        if (c >= live.length) {
            live = Arrays.copyOf(live, c + 1);
            live[c] = new long[WORDS_PER_CHUNK];
            frozen = Arrays.copyOf(frozen, c + 1);
            born = Arrays.copyOf(born, c + 1);
            born[c] = lastCapture;
        }
        if (frozen[c]) {
            thaw(c);
        }
        live[c][(row & Chunks.MASK) >>> 6] |= 1L << row;
        liveCount++;
        return row;
    }

    public void release(int row) {
        checkWritable();
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c);
        }
        live[c][(row & Chunks.MASK) >>> 6] &= ~(1L << row);
        liveCount--;
        free.add(row);
    }

    /** Slots on the free list: the next that many allocations reuse a slot instead of growing. */
    public int freeCount() {
        return free.size();
    }

    /**
     * Takes back an {@link #allocate()} exactly (a transaction's rollback): a slot that came from
     * the high-water mark ({@code fresh}) lowers it again, any other goes back on the free list,
     * so the slot layout is as before the allocation.
     */
    void unallocate(int row, boolean fresh) {
        checkWritable();
        if (fresh && row == highWater - 1) {
            int c = row >>> Chunks.SHIFT;
            if (frozen[c]) {
                thaw(c);
            }
            live[c][(row & Chunks.MASK) >>> 6] &= ~(1L << row);
            liveCount--;
            highWater--;
        } else {
            release(row);
        }
    }

    /**
     * Takes back a {@link #release(int)} exactly (a transaction's rollback): {@code row} leaves the
     * free list (it is its last entry when releases are undone in reverse order) and is live again.
     */
    void reclaim(int row) {
        checkWritable();
        int at = free.size() - 1;
        if (at < 0 || free.getInt(at) != row) {
            at = free.lastIndexOf(row);
            if (at < 0) {
                throw new IllegalStateException("slot " + row + " is not free");
            }
        }
        free.removeInt(at);
        int c = row >>> Chunks.SHIFT;
        if (frozen[c]) {
            thaw(c);
        }
        live[c][(row & Chunks.MASK) >>> 6] |= 1L << row;
        liveCount++;
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

    /**
     * Up to {@code cap} live rows from {@code from} on, ascending, into {@code dst}; returns how
     * many (0: none left). A word of the live bitmap at a time (a scan's batch), not a call per
     * row; the next batch starts after {@code dst[n - 1]}.
     */
    public int nextLiveBatch(int from, int[] dst, int cap) {
        int hw = highWater;
        if (from >= hw || from < 0 || cap <= 0) {
            return 0;
        }
        long[][] lv = live;
        int c = from >>> Chunks.SHIFT;
        int w = (from & Chunks.MASK) >>> 6;
        long word = lv[c][w] & (-1L << from);
        int n = 0;
        while (true) {
            int baseRow = (c << Chunks.SHIFT) + (w << 6);
            while (word != 0) {
                int row = baseRow + Long.numberOfTrailingZeros(word);
                if (row >= hw) {
                    return n;
                }
                dst[n++] = row;
                if (n == cap) {
                    return n;
                }
                word &= word - 1;
            }
            if (++w == WORDS_PER_CHUNK) {
                w = 0;
                if (++c >= lv.length) {
                    return n;
                }
            }
            if ((c << Chunks.SHIFT) + (w << 6) >= hw) {
                return n;
            }
            word = lv[c][w];
        }
    }

    private void thaw(int c) {
        live[c] = live[c].clone();
        frozen[c] = false;
        born[c] = lastCapture;
        copiedChunks++;
    }

    private void checkWritable() {
        if (readOnly) {
            throw new IllegalStateException("the row slots of a read view cannot change");
        }
    }

    /**
     * The allocator's state now, as capture number {@code seq} (above every earlier one); its
     * bitmap chunks are frozen until no capture holding them is outstanding ({@link #releaseCapture}).
     */
    RowsImage capture(long seq) {
        checkWritable();
        lastCapture = seq;
        Arrays.fill(frozen, true);
        return new RowsImage(highWater, liveCount, live.clone(), free.toIntArray());
    }

    /** A capture ended; {@code newest}: the newest one still outstanding, 0 if none (see {@link Column#releaseCapture}). */
    void releaseCapture(long newest) {
        for (int c = 0; c < frozen.length; c++) {
            if (frozen[c] && born[c] >= newest) {
                frozen[c] = false;
            }
        }
    }

    /**
     * A read-only allocator over a capture's bitmap chunks (shared, not copied): the same
     * high-water mark, live count and live slots; an empty free list.
     */
    static RowAllocator readOnlyOf(RowsImage image) {
        RowAllocator a = new RowAllocator();
        a.live = image.liveChunks();
        a.highWater = image.highWater();
        a.liveCount = image.liveCount();
        a.readOnly = true;
        return a;
    }

    /** Whether this is a read view's allocator. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** Bitmap chunk {@code c} (capture accounting; the bulk UPDATE kernels walk it), or null past the last: not to be written. */
    public long[] liveChunk(int c) {
        return c < live.length ? live[c] : null;
    }

    /**
     * Replaces the state with a restored snapshot's: slots below {@code highWater} are live where
     * {@code words} (64 slots per word, slot 0 in bit 0 of word 0) has a bit set, and {@code free}
     * lists the others in the order they were freed, so later inserts reuse slots as before.
     *
     * @throws IllegalArgumentException if the bitmap and the free list do not partition the slots
     */
    public void restore(int highWater, long[] words, int[] free) {
        checkWritable();
        if (highWater < 0 || words.length != (highWater + 63) >>> 6) {
            throw new IllegalArgumentException("bitmap of " + words.length + " words for " + highWater + " slots");
        }
        int chunks = highWater == 0 ? 0 : ((highWater - 1) >>> Chunks.SHIFT) + 1;
        long[][] restored = new long[chunks][];
        long count = 0;
        for (int c = 0; c < chunks; c++) {
            restored[c] = new long[WORDS_PER_CHUNK];
            int from = c * WORDS_PER_CHUNK;
            int n = Math.min(WORDS_PER_CHUNK, words.length - from);
            System.arraycopy(words, from, restored[c], 0, n);
        }
        for (long w : words) {
            count += Long.bitCount(w);
        }
        if ((highWater & 63) != 0 && (words[words.length - 1] >>> (highWater & 63)) != 0) {
            throw new IllegalArgumentException("live bits above the high-water mark " + highWater);
        }
        if (count + free.length != highWater) {
            throw new IllegalArgumentException(count + " live and " + free.length + " free slots for " + highWater);
        }
        for (int row : free) {
            if (row < 0 || row >= highWater || (restored[row >>> Chunks.SHIFT][(row & Chunks.MASK) >>> 6] & (1L << row)) != 0) {
                throw new IllegalArgumentException("free slot " + row + " is live or out of range");
            }
        }
        this.live = restored;
        this.frozen = new boolean[chunks];
        this.born = new long[chunks];
        Arrays.fill(this.born, lastCapture);
        this.highWater = highWater;
        this.liveCount = count;
        this.free.clear();
        this.free.addElements(0, free);
    }

    public void clear() {
        checkWritable();
        live = new long[0][];
        frozen = new boolean[0];
        born = new long[0];
        highWater = 0;
        liveCount = 0;
        free.clear();
        free.trim();
    }

    public long memoryBytes() {
        return (long) live.length * (16 + 8L * WORDS_PER_CHUNK) + 16 + 4L * free.elements().length;
    }
}
