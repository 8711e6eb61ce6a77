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

    /**
     * Chunk {@code c}'s values, to be written: copied first when a capture (BGSAVE, a read view)
     * holds it (the capture keeps the old chunk; its NULL bitmap is copied with it). For the
     * writers that take a chunk's stretch of rows at a time.
     */
    private int[] writableChunk(int c) {
        if (frozen[c]) {
            thaw(c);
        }
        return chunks[c];
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

    /**
     * {@link #set} of one value into each of {@code rows[0..n)} (the FK-range UPDATE's constant
     * SET), a chunk's stretch of rows at a time: the copy-on-write test and the chunk lookup once
     * per stretch, not per row, and the NULL bits cleared in a second loop only where the chunk
     * has a bitmap. Rows in any order (an index's posting list is ascending: one stretch per chunk).
     */
    public void setAll(int[] rows, int n, int value) {
        int i = 0;
        while (i < n) {
            int c = rows[i] >>> Chunks.SHIFT;
            int[] a = writableChunk(c);
            int base = c << Chunks.SHIFT;
            int from = i;
            for (; i < n; i++) {
                int o = rows[i] - base;
                if (o >>> Chunks.SHIFT != 0) {
                    break; // another chunk
                }
                a[o] = value;
            }
            if (anyNulls && c < nulls.length && nulls[c] != null) {
                long[] bm = nulls[c];
                for (int j = from; j < i; j++) {
                    bm[(rows[j] & Chunks.MASK) >>> 6] &= ~(1L << rows[j]);
                }
            }
        }
    }

    // ---- the increment kernel (UPDATE t SET v = v + k) -------------------------------------------
    // Two passes so that a failing statement writes nothing: firstOutside finds the first row
    // (in slot order, the order a scan visits) whose value would leave the INT range, and only
    // when there is none does addTo write. NULL rows are skipped by both (NULL + k is NULL).

    /** The first of {@code rows[0..n)} that is not NULL and holds a value outside [lo, hi], or -1. */
    public int firstOutside(int[] rows, int n, int lo, int hi) {
        boolean nullable = anyNulls;
        for (int i = 0; i < n; i++) {
            int row = rows[i];
            int x = chunks[row >>> Chunks.SHIFT][row & Chunks.MASK];
            if ((x < lo || x > hi) && !(nullable && isNull(row))) {
                return row;
            }
        }
        return -1;
    }

    /** Adds {@code delta} to the value of each of {@code rows[0..n)} that is not NULL (the caller checked the sums fit). */
    public void addTo(int[] rows, int n, int delta) {
        boolean nullable = anyNulls;
        for (int i = 0; i < n; i++) {
            int row = rows[i];
            int c = row >>> Chunks.SHIFT;
            if (frozen[c]) {
                thaw(c);
            }
            if (!(nullable && isNull(row))) {
                chunks[c][row & Chunks.MASK] += delta;
            }
        }
    }

    /**
     * {@link #firstOutside} and {@link #addTo} in one pass over {@code rows[0..n)} (strided rows,
     * as an fk value's, cost a cache miss each: one pass, not two): adds {@code delta} to each
     * non-NULL value in [lo, hi]; at the first that is outside, the additions already made are
     * taken back and that row is returned. -1 when every row was added to. A stretch of
     * consecutive slots without NULLs (a primary key's rows walked in key order) is checked by one
     * min/max loop and added to by another, with no per-row chunk lookup.
     */
    public int addWithin(int[] rows, int n, int delta, int lo, int hi) {
        if (n >= MIN_STRETCH && consecutive(rows, n)) {
            return addWithinStretch(rows[0], n, delta, lo, hi);
        }
        // row by row: strided rows (an fk value's) are a cache miss each, so the loop stays tight:
        // the copy-on-write test, the chunk and its NULL bitmap once per stretch of rows in one chunk
        boolean nullable = anyNulls;
        int i = 0;
        while (i < n) {
            int c = rows[i] >>> Chunks.SHIFT;
            int[] a = writableChunk(c);
            int base = c << Chunks.SHIFT;
            long[] bm = nullable && c < nulls.length ? nulls[c] : null;
            if (bm == null) {
                for (; i < n; i++) {
                    int o = rows[i] - base;
                    if (o >>> Chunks.SHIFT != 0) {
                        break; // another chunk
                    }
                    int x = a[o];
                    if (x < lo || x > hi) {
                        takeBack(rows, i, delta, nullable);
                        return rows[i];
                    }
                    a[o] = x + delta;
                }
            } else {
                for (; i < n; i++) {
                    int o = rows[i] - base;
                    if (o >>> Chunks.SHIFT != 0) {
                        break;
                    }
                    if ((bm[o >>> 6] & (1L << o)) != 0) {
                        continue; // NULL + k is NULL
                    }
                    int x = a[o];
                    if (x < lo || x > hi) {
                        takeBack(rows, i, delta, nullable);
                        return rows[i];
                    }
                    a[o] = x + delta;
                }
            }
        }
        return -1;
    }

    /**
     * {@link #addWithin} for rows in ascending order (one key's posting list in an index: its
     * pairs are ordered by key, then row), which strided rows (an fk value's: a cache miss each)
     * make worth a loop of its own: the end of each chunk's part of the batch is found once, by
     * binary search, so the per-row loop holds no chunk test, and the range test is one unsigned
     * comparison; fewer instructions per row keep more misses in flight. Rows out of order would
     * fail the array's bounds check (nothing is written to a wrong slot); callers pass only
     * ascending rows.
     */
    public int addWithinAscending(int[] rows, int n, int delta, int lo, int hi) {
        if (lo > hi || (n >= MIN_STRETCH && consecutive(rows, n))) {
            return addWithin(rows, n, delta, lo, hi); // lo > hi: nothing fits (the unsigned test below needs lo <= hi)
        }
        // x in [lo, hi] exactly when (x - lo) <= (hi - lo) unsigned, i.e. x + bias <= span signed
        int bias = Integer.MIN_VALUE - lo;
        int span = (hi - lo) + Integer.MIN_VALUE;
        boolean nullable = anyNulls;
        int i = 0;
        while (i < n) {
            int c = rows[i] >>> Chunks.SHIFT;
            int[] a = writableChunk(c);
            int base = c << Chunks.SHIFT;
            int end = chunkEnd(rows, i, n, base, a.length);
            long[] bm = nullable && c < nulls.length ? nulls[c] : null;
            if (bm == null) {
                for (; i < end; i++) {
                    int o = rows[i] - base;
                    int x = a[o];
                    if (x + bias > span) {
                        takeBack(rows, i, delta, nullable);
                        return rows[i];
                    }
                    a[o] = x + delta;
                }
            } else {
                for (; i < end; i++) {
                    int o = rows[i] - base;
                    if ((bm[o >>> 6] & (1L << o)) != 0) {
                        continue; // NULL + k is NULL
                    }
                    int x = a[o];
                    if (x + bias > span) {
                        takeBack(rows, i, delta, nullable);
                        return rows[i];
                    }
                    a[o] = x + delta;
                }
            }
        }
        return -1;
    }

    /**
     * The first index j in [i, n) whose row lies past the chunk starting at slot {@code base} of
     * {@code len} slots, or n; rows ascending, rows[i] in the chunk (so the result is above i).
     */
    private static int chunkEnd(int[] rows, int i, int n, int base, int len) {
        if (rows[n - 1] - base < len) {
            return n;
        }
        int l = i + 1;
        int h = n - 1; // rows[h] is past the chunk
        while (l < h) {
            int m = (l + h) >>> 1;
            if (rows[m] - base >= len) {
                h = m;
            } else {
                l = m + 1;
            }
        }
        return l;
    }

    /** Whether {@code rows[0..n)} are the consecutive slots rows[0], rows[0] + 1, ... (the last checked first). */
    private static boolean consecutive(int[] rows, int n) {
        int first = rows[0];
        if (rows[n - 1] != first + n - 1) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            if (rows[i] != first + i) {
                return false;
            }
        }
        return true;
    }

    /** {@link #addWithin} over the slots [first, first + n), a chunk's part at a time. */
    private int addWithinStretch(int first, int n, int delta, int lo, int hi) {
        boolean nullable = anyNulls;
        int end = first + n;
        for (int row = first; row < end; ) {
            int c = row >>> Chunks.SHIFT;
            int[] a = writableChunk(c);
            int o = row & Chunks.MASK;
            int len = Math.min(end - row, a.length - o);
            int to = o + len;
            if (!(nullable && anyNullIn(c, o, len))) {
                int min = Integer.MAX_VALUE;
                int max = Integer.MIN_VALUE;
                for (int x = o; x < to; x++) {
                    int v = a[x];
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                if (min < lo || max > hi) {
                    int at = o;
                    while (a[at] >= lo && a[at] <= hi) {
                        at++;
                    }
                    takeBackSlots(first, row, delta, nullable);
                    return (c << Chunks.SHIFT) + at;
                }
                for (int x = o; x < to; x++) {
                    a[x] += delta;
                }
            } else {
                for (int x = o; x < to; x++) {
                    int r = (c << Chunks.SHIFT) + x;
                    if (isNull(r)) {
                        continue;
                    }
                    int v = a[x];
                    if (v < lo || v > hi) {
                        takeBackSlots(first, r, delta, nullable);
                        return r;
                    }
                    a[x] = v + delta;
                }
            }
            row += len;
        }
        return -1;
    }

    /** Subtracts {@code delta} again from the non-NULL values of the slots [from, to). */
    private void takeBackSlots(int from, int to, int delta, boolean nullable) {
        for (int r = from; r < to; r++) {
            if (!(nullable && isNull(r))) {
                chunks[r >>> Chunks.SHIFT][r & Chunks.MASK] -= delta;
            }
        }
    }

    /** Below this many rows {@link #addWithin} goes row by row. */
    private static final int MIN_STRETCH = 16;

    /** Subtracts {@code delta} again from the non-NULL values of {@code rows[0..n)}. */
    private void takeBack(int[] rows, int n, int delta, boolean nullable) {
        for (int j = 0; j < n; j++) {
            int r = rows[j];
            if (!(nullable && isNull(r))) {
                chunks[r >>> Chunks.SHIFT][r & Chunks.MASK] -= delta;
            }
        }
    }

    /** Whether any of the {@code len} slots from offset {@code o} of chunk {@code c} is NULL. */
    private boolean anyNullIn(int c, int o, int len) {
        long[] bm = c < nulls.length ? nulls[c] : null;
        if (bm == null) {
            return false;
        }
        int last = o + len - 1;
        for (int w = o >>> 6; w <= last >>> 6 && w < bm.length; w++) {
            long bits = bm[w];
            if (w == o >>> 6) {
                bits &= -1L << o; // shifts are mod 64
            }
            if (w == last >>> 6) {
                bits &= -1L >>> (63 - (last & 63));
            }
            if (bits != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #firstOutside(int[], int, int, int)} over every live row of {@code live} (the table's
     * allocator), walking its bitmap: a run of whole live words without NULLs is one primitive
     * min/max loop over the chunk array, so no row list is built.
     */
    public int firstOutside(RowAllocator live, int lo, int hi) {
        int chunkCount = Math.min(live.chunkCount(), chunks.length);
        for (int c = 0; c < chunkCount; c++) {
            long[] lw = live.liveChunk(c);
            long[] nw = c < nulls.length ? nulls[c] : null;
            int[] a = chunks[c];
            int words = Math.min(lw.length, (a.length + 63) >>> 6);
            int w = 0;
            while (w < words) {
                long bits = liveNonNull(lw, nw, w);
                if (bits == -1L) {
                    int end = w + 1;
                    while (end < words && liveNonNull(lw, nw, end) == -1L) {
                        end++;
                    }
                    int from = w << 6;
                    int to = end << 6;
                    int min = Integer.MAX_VALUE;
                    int max = Integer.MIN_VALUE;
                    for (int o = from; o < to; o++) {
                        int x = a[o];
                        min = Math.min(min, x);
                        max = Math.max(max, x);
                    }
                    if (min < lo || max > hi) {
                        for (int o = from; o < to; o++) {
                            if (a[o] < lo || a[o] > hi) {
                                return (c << Chunks.SHIFT) + o;
                            }
                        }
                    }
                    w = end;
                    continue;
                }
                while (bits != 0) {
                    int o = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                    if (a[o] < lo || a[o] > hi) {
                        return (c << Chunks.SHIFT) + o;
                    }
                }
                w++;
            }
        }
        return -1;
    }

    /** The live rows of a bitmap word that are not NULL. */
    private static long liveNonNull(long[] live, long[] nulls, int w) {
        return nulls == null || w >= nulls.length ? live[w] : live[w] & ~nulls[w];
    }

    /** {@link #addTo(int[], int, int)} over every live row of {@code live}, a chunk at a time. */
    public void addToLive(RowAllocator live, int delta) {
        int chunkCount = Math.min(live.chunkCount(), chunks.length);
        for (int c = 0; c < chunkCount; c++) {
            long[] lw = live.liveChunk(c);
            int[] a = writableChunk(c);
            long[] nw = c < nulls.length ? nulls[c] : null;
            int words = Math.min(lw.length, (a.length + 63) >>> 6);
            int w = 0;
            while (w < words) {
                long bits = liveNonNull(lw, nw, w);
                if (bits == -1L) {
                    int end = w + 1;
                    while (end < words && liveNonNull(lw, nw, end) == -1L) {
                        end++;
                    }
                    int to = end << 6;
                    for (int o = w << 6; o < to; o++) {
                        a[o] += delta;
                    }
                    w = end;
                    continue;
                }
                while (bits != 0) {
                    a[(w << 6) + Long.numberOfTrailingZeros(bits)] += delta;
                    bits &= bits - 1;
                }
                w++;
            }
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
