package io.respsql.storage;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * Row ids address fixed-size chunks: growth adds a chunk instead of copying a whole column,
 * so inserting into a 10M-row table never pauses to reallocate it.
 */
public final class Chunks {
    public static final int SHIFT = 16;
    public static final int SIZE = 1 << SHIFT;
    public static final int MASK = SIZE - 1;

    private Chunks() {
    }

    /** First-chunk size of a new table, so a small table stays small. */
    static final int INITIAL = 1024;

    /**
     * Makes {@code chunks} hold at least {@code rows} rows. Only the first chunk ever grows by
     * copying (doubling up to {@link #SIZE}), so a copy is bounded by one chunk, never a table.
     */
    static <A> A[] grow(A[] chunks, int rows, IntFunction<A> create, BiFunction<A, Integer, A> resize) {
        if (rows <= 0) {
            return chunks;
        }
        int needed = ((rows - 1) >>> SHIFT) + 1;
        if (chunks.length == 0) {
            chunks = Arrays.copyOf(chunks, 1);
            chunks[0] = create.apply(Math.min(SIZE, Math.max(INITIAL, rows)));
        }
        int first = Array.getLength(chunks[0]);
        if (first < SIZE && first < rows) {
            chunks[0] = resize.apply(chunks[0], needed > 1 ? SIZE : Math.min(SIZE, Math.max(first * 2, rows)));
        }
        if (chunks.length < needed) {
            int old = chunks.length;
            chunks = Arrays.copyOf(chunks, needed);
            for (int i = old; i < needed; i++) {
                chunks[i] = create.apply(SIZE);
            }
        }
        return chunks;
    }

    /** Heap bytes of a chunked column with {@code width}-byte values (array headers included). */
    static long bytes(Object[] chunks, int width) {
        long b = 16 + 4L * chunks.length;
        for (Object c : chunks) {
            b += 16 + (long) width * Array.getLength(c);
        }
        return b;
    }

    public static int chunk(int row) {
        return row >>> SHIFT;
    }

    public static int offset(int row) {
        return row & MASK;
    }
}
