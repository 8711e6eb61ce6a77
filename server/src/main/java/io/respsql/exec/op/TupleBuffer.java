package io.respsql.exec.op;

import io.respsql.expr.EvalContext;

import java.util.Arrays;

/**
 * Buffered tuples: the row slots of the carried relations, flattened into one int[] (tuple
 * {@code t}'s slot of relation {@code relations[r]} at {@code t * width + r}). What a blocking
 * operator saves from the context on the way in and restores on the way out.
 */
public final class TupleBuffer {
    private final int[] relations;
    private final int width;
    private int[] data;
    private int size;

    public TupleBuffer(int[] relations) {
        this.relations = relations;
        this.width = relations.length;
        this.data = new int[16 * Math.max(width, 1)];
    }

    /** The relation numbers of a bitmask, ascending. */
    public static int[] relationsOf(long mask) {
        int[] r = new int[Long.bitCount(mask)];
        int i = 0;
        for (long m = mask; m != 0; m &= m - 1) {
            r[i++] = Long.numberOfTrailingZeros(m);
        }
        return r;
    }

    /** The bitmask of relation numbers. */
    public static long maskOf(int[] relations) {
        long m = 0;
        for (int r : relations) {
            m |= 1L << r;
        }
        return m;
    }

    public int size() {
        return size;
    }

    /** Saves the current slots as tuple {@code size}; returns its number. */
    public int append(EvalContext ctx) {
        if ((size + 1) * width > data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
        set(size, ctx);
        return size++;
    }

    /** Overwrites tuple {@code t} with the current slots. */
    public void set(int t, EvalContext ctx) {
        int[] slots = ctx.slots;
        int base = t * width;
        for (int r = 0; r < width; r++) {
            data[base + r] = slots[relations[r]];
        }
    }

    /** Puts tuple {@code t}'s slots back into the context. */
    public void restore(EvalContext ctx, int t) {
        int[] slots = ctx.slots;
        int base = t * width;
        for (int r = 0; r < width; r++) {
            slots[relations[r]] = data[base + r];
        }
    }

    public void clear() {
        size = 0;
    }
}
