package io.respsql.exec.op;

import java.util.Arrays;

/**
 * The key values of many tuples (groups, distinct rows, sort rows), numbered 0..size-1:
 * flattened primitive arrays row-major ({@code id * width + j}), TEXT bytes in one arena. No
 * object per row; arrays grow by doubling, so appends are amortized O(1) and allocation-free
 * between growths.
 */
public final class KeyStore {
    private final byte[] kinds;
    private final int width;
    private final boolean hasText;
    private long[] vals;
    private boolean[] nulls;
    private int[] lens;
    /** Per TEXT value, the bytes that count for equality ({@link KeyBuffer#cuts}); the rest is the text shown. */
    private int[] cuts;
    private byte[] arena;
    private int arenaUsed;
    /** Arena bytes no row refers to any more (rows overwritten by {@link #set}). */
    private int garbage;
    private int size;
    private int capacity;

    public KeyStore(byte[] kinds) {
        this.kinds = kinds;
        this.width = kinds.length;
        boolean t = false;
        for (byte k : kinds) {
            t |= k == Keys.TEXT;
        }
        this.hasText = t;
        this.capacity = 16;
        this.vals = new long[capacity * width];
        this.nulls = new boolean[capacity * width];
        this.lens = hasText ? new int[capacity * width] : null;
        this.cuts = hasText ? new int[capacity * width] : null;
        this.arena = hasText ? new byte[256] : null;
    }

    public int size() {
        return size;
    }

    public int width() {
        return width;
    }

    /** Adds the buffer's values as row {@code size}; returns its id. */
    public int append(KeyBuffer b) {
        if (size == capacity) {
            grow();
        }
        write(size, b);
        return size++;
    }

    /** Overwrites row {@code id} (a top-N heap replacing its worst row). */
    public void set(int id, KeyBuffer b) {
        if (hasText) {
            for (int j = 0; j < width; j++) {
                if (kinds[j] == Keys.TEXT) {
                    garbage += lens[id * width + j];
                }
            }
        }
        write(id, b);
        if (hasText && garbage > 65536 && garbage > arenaUsed / 2) {
            compact();
        }
    }

    private void write(int id, KeyBuffer b) {
        int base = id * width;
        for (int j = 0; j < width; j++) {
            boolean isNull = b.nulls[j];
            nulls[base + j] = isNull;
            if (kinds[j] == Keys.TEXT) {
                int len = isNull ? 0 : b.lens[j];
                vals[base + j] = arenaAppend(b.text, (int) b.vals[j], len);
                lens[base + j] = len;
                cuts[base + j] = isNull ? 0 : b.cuts[j];
            } else {
                vals[base + j] = isNull ? 0 : b.vals[j];
            }
        }
    }

    private int arenaAppend(byte[] src, int off, int len) {
        if (arenaUsed + len > arena.length) {
            long want = Math.max((long) arena.length * 2, (long) arenaUsed + len);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("key text over 2 GiB");
            }
            arena = Arrays.copyOf(arena, (int) want);
        }
        int at = arenaUsed;
        System.arraycopy(src, off, arena, at, len);
        arenaUsed += len;
        return at;
    }

    /** Rewrites live text into a fresh arena, dropping what overwritten rows left behind. */
    private void compact() {
        byte[] old = arena;
        arena = new byte[Math.max(256, arenaUsed - garbage)];
        arenaUsed = 0;
        garbage = 0;
        int rows = Math.max(size, 0);
        for (int id = 0; id < rows; id++) {
            for (int j = 0; j < width; j++) {
                int p = id * width + j;
                if (kinds[j] == Keys.TEXT) {
                    vals[p] = arenaAppend(old, (int) vals[p], lens[p]);
                }
            }
        }
    }

    private void grow() {
        capacity *= 2;
        vals = Arrays.copyOf(vals, capacity * width);
        nulls = Arrays.copyOf(nulls, capacity * width);
        if (hasText) {
            lens = Arrays.copyOf(lens, capacity * width);
            cuts = Arrays.copyOf(cuts, capacity * width);
        }
    }

    /** Forgets every row (keeps the arrays). */
    public void clear() {
        size = 0;
        arenaUsed = 0;
        garbage = 0;
    }

    /** Equal under grouping: NULL = NULL, doubles by value, text bytewise. */
    public boolean equalsBuffer(int id, KeyBuffer b) {
        int base = id * width;
        for (int j = 0; j < width; j++) {
            boolean n = nulls[base + j];
            if (n != b.nulls[j]) {
                return false;
            }
            if (n) {
                continue;
            }
            if (kinds[j] == Keys.TEXT) {
                int len = cuts[base + j];
                if (len != b.cuts[j]) {
                    return false;
                }
                int o = (int) vals[base + j];
                int bo = (int) b.vals[j];
                if (!Arrays.equals(arena, o, o + len, b.text, bo, bo + len)) {
                    return false;
                }
            } else if (vals[base + j] != b.vals[j]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Orders rows {@code a} and {@code b} by key 0, then 1, ...: numbers numerically, text in
     * unsigned byte order; {@code descending[j]} reverses key j; NULL goes before every value
     * when {@code nullsFirst[j]}, after otherwise (either direction).
     */
    public int compare(int a, int b, boolean[] descending, boolean[] nullsFirst) {
        int pa = a * width;
        int pb = b * width;
        for (int j = 0; j < width; j++, pa++, pb++) {
            boolean na = nulls[pa];
            boolean nb = nulls[pb];
            if (na || nb) {
                if (na && nb) {
                    continue;
                }
                return na == nullsFirst[j] ? -1 : 1;
            }
            int c;
            switch (kinds[j]) {
                case Keys.LONG:
                    c = Long.compare(vals[pa], vals[pb]);
                    break;
                case Keys.DOUBLE:
                    c = Double.compare(Double.longBitsToDouble(vals[pa]), Double.longBitsToDouble(vals[pb]));
                    break;
                default: {
                    int oa = (int) vals[pa];
                    int ob = (int) vals[pb];
                    c = Arrays.compareUnsigned(arena, oa, oa + lens[pa], arena, ob, ob + lens[pb]);
                }
            }
            if (c != 0) {
                return descending[j] ? -c : c;
            }
        }
        return 0;
    }

    /**
     * {@link #compare} of the buffer's values (as if a row) against row {@code id}: negative when
     * the buffer orders first. Lets a top-N reject a tuple before storing it.
     */
    public int compareBuffer(KeyBuffer b, int id, boolean[] descending, boolean[] nullsFirst) {
        int p = id * width;
        for (int j = 0; j < width; j++, p++) {
            boolean na = b.nulls[j];
            boolean nb = nulls[p];
            if (na || nb) {
                if (na && nb) {
                    continue;
                }
                return na == nullsFirst[j] ? -1 : 1;
            }
            int c;
            switch (kinds[j]) {
                case Keys.LONG:
                    c = Long.compare(b.vals[j], vals[p]);
                    break;
                case Keys.DOUBLE:
                    c = Double.compare(Double.longBitsToDouble(b.vals[j]), Double.longBitsToDouble(vals[p]));
                    break;
                default: {
                    int oa = (int) b.vals[j];
                    int ob = (int) vals[p];
                    c = Arrays.compareUnsigned(b.text, oa, oa + b.lens[j], arena, ob, ob + lens[p]);
                }
            }
            if (c != 0) {
                return descending[j] ? -c : c;
            }
        }
        return 0;
    }

    public boolean isNull(int id, int j) {
        return nulls[id * width + j];
    }

    public long getLong(int id, int j) {
        return vals[id * width + j];
    }

    public double getDouble(int id, int j) {
        return Double.longBitsToDouble(vals[id * width + j]);
    }

    /** The arena holding TEXT values (valid until the next append). */
    public byte[] textArena() {
        return arena;
    }

    public int textOffset(int id, int j) {
        return (int) vals[id * width + j];
    }

    public int textLength(int id, int j) {
        return lens[id * width + j];
    }

    /**
     * Where the text a key shows starts, from {@link #textOffset}: 0 but for a NUMERIC key
     * ({@link KeyBuffer#setNumeric}), whose match key comes first.
     */
    public int textShownFrom(int id, int j) {
        int p = id * width + j;
        return cuts[p] < lens[p] ? cuts[p] : 0;
    }

    public byte kind(int j) {
        return kinds[j];
    }
}
