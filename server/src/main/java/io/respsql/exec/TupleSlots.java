package io.respsql.exec;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * The row slots of a result gathered before it is written ({@link ResultWriter}: RESP needs the
 * row count before the first row), for results of one relation: a list of ints, or, once the list
 * is large and every slot so far came in ascending order (a table scan, with or without a filter),
 * a bitmap over the slot range, which reads back in the same order. A 10M-row {@code SELECT *}
 * then holds 1.25 MB instead of a 40 MB list that grew through copies to 60 MB (issue 22: a result
 * streamed to a slow reader keeps the server's memory bounded). A slot out of order turns the
 * bitmap back into the list, so any order is kept exactly.
 *
 * <p>Iteration: {@link #first()} then {@link #next(int)} until -1. One thread.
 */
public final class TupleSlots {
    /** The list turns into a bitmap from this many slots on, when the bitmap is not larger. */
    static final int BITMAP_FROM = 1 << 16;
    /** A buffer larger than this is let go after the run ({@link #release}). */
    private static final int KEEP_INTS = 1 << 16;

    private IntArrayList list = new IntArrayList();
    /** Non-null while the slots are held as a bitmap (ascending, no duplicates). */
    private long[] bits;
    private int size;
    private int last = -1;
    private boolean ascending = true;

    public void clear() {
        list.clear();
        bits = null;
        size = 0;
        last = -1;
        ascending = true;
    }

    public int size() {
        return size;
    }

    public void add(int slot) {
        if (bits != null) {
            if (slot > last) {
                int word = slot >>> 6;
                if (word >= bits.length) {
                    // Sparse slots after a dense start would grow the bitmap to last/8 bytes: past twice
                    // the list's size (plus a little) the list is smaller, so go back to it.
                    long most = size + 128L;
                    if (word >= most) {
                        toList();
                        list.add(slot);
                        last = slot;
                        size++;
                        return;
                    }
                    bits = java.util.Arrays.copyOf(bits, (int) Math.min(most, Math.max(word + 1, bits.length + (bits.length >> 1))));
                }
                bits[word] |= 1L << slot;
                last = slot;
                size++;
                return;
            }
            toList();
        }
        if (slot <= last) {
            ascending = false;
        }
        last = slot;
        list.add(slot);
        size++;
        // Ascending and at least as dense as one slot in 32: the bitmap is no larger than the list.
        if (ascending && size >= BITMAP_FROM && (last >>> 5) <= size) {
            toBitmap();
        }
    }

    private void toBitmap() {
        long[] b = new long[Math.max(16, ((last >>> 6) + 1) * 3 / 2)];
        int[] e = list.elements();
        for (int i = 0; i < size; i++) {
            b[e[i] >>> 6] |= 1L << e[i];
        }
        bits = b;
        list.clear();
    }

    private void toList() {
        long[] b = bits;
        bits = null;
        list.clear();
        list.ensureCapacity(size + 1);
        for (int s = nextSet(b, 0); s >= 0; s = nextSet(b, s + 1)) {
            list.add(s);
        }
        ascending = false;
    }

    /** The first slot (-1 when empty); with {@link #next} a cursor is the position or the slot itself. */
    public int first() {
        if (size == 0) {
            return -1;
        }
        return bits != null ? nextSet(bits, 0) : 0;
    }

    /**
     * The cursor after {@code cursor} (-1 at the end). For a list the cursor is the index, for a
     * bitmap the slot: read the slot with {@link #slot(int)}.
     */
    public int next(int cursor) {
        if (bits != null) {
            return cursor == Integer.MAX_VALUE ? -1 : nextSet(bits, cursor + 1); // (bits.length << 6 can overflow)
        }
        return cursor + 1 < size ? cursor + 1 : -1;
    }

    public int slot(int cursor) {
        return bits != null ? cursor : list.getInt(cursor);
    }

    /** After a run: lets a large buffer go, so a plan kept in the plan cache does not hold it. */
    public void release() {
        if (bits != null || list.elements().length > KEEP_INTS) {
            list = new IntArrayList();
            bits = null;
        }
    }

    /** Bytes the slots are held in now (for tests). */
    long heldBytes() {
        return bits != null ? bits.length * 8L : list.elements().length * 4L;
    }

    private static int nextSet(long[] b, int from) {
        int w = from >>> 6;
        if (w >= b.length) {
            return -1;
        }
        long word = b[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == b.length) {
                return -1;
            }
            word = b[w];
        }
    }
}
