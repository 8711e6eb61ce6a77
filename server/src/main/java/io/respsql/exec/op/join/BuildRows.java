package io.respsql.exec.op.join;

import io.respsql.expr.EvalContext;

import java.util.Arrays;

/**
 * A hash join's build tuples: the row slots of the build relations, flat in one int[]
 * ({@code width} per tuple), appended in build order and then regrouped once so that the tuples
 * of one key sit side by side (a probe reads its matches as one contiguous run instead of
 * following a chain of links through memory: on a table bigger than the cache every link was a
 * miss).
 */
final class BuildRows {
    private final int[] relations;
    private final int width;
    private final int rel0;
    int[] rows;
    int size;

    BuildRows(int[] relations, int capacity) {
        this.relations = relations;
        this.width = relations.length;
        this.rel0 = width == 0 ? -1 : relations[0];
        this.rows = new int[Math.max(capacity, 16) * Math.max(width, 1)];
    }

    /** Saves the current slots as tuple {@code size}. */
    void append(EvalContext ctx) {
        int w = width;
        int base = size * w;
        if (base + w > rows.length) {
            rows = Arrays.copyOf(rows, Math.max(rows.length * 2, base + w));
        }
        int[] slots = ctx.slots;
        if (w == 1) {
            rows[base] = slots[rel0];
        } else {
            for (int r = 0; r < w; r++) {
                rows[base + r] = slots[relations[r]];
            }
        }
        size++;
    }

    /** Puts tuple {@code t}'s slots back into the context. */
    void restore(EvalContext ctx, int t) {
        int[] slots = ctx.slots;
        int w = width;
        if (w == 1) {
            slots[rel0] = rows[t];
            return;
        }
        int base = t * w;
        for (int r = 0; r < w; r++) {
            slots[relations[r]] = rows[base + r];
        }
    }

    int width() {
        return width;
    }

    /** Sets the one build relation's slot to {@code row} (a tuple kept in the hash table itself). */
    void restoreRow(EvalContext ctx, int row) {
        ctx.slots[rel0] = row;
    }

    /** Sets the build relations' slots to -1 (the NULL row of a LEFT JOIN). */
    void nullRow(EvalContext ctx) {
        int[] slots = ctx.slots;
        for (int r : relations) {
            slots[r] = -1;
        }
    }

    /**
     * Moves tuple {@code t} to position {@code at} of a new order, for a regrouping: call
     * {@link #beginMove()} first, then once per tuple, then {@link #endMove()}.
     */
    void move(int t, int at) {
        int w = width;
        if (w == 1) {
            moved[at] = rows[t];
        } else {
            System.arraycopy(rows, t * w, moved, at * w, w);
        }
    }

    private int[] moved;

    void beginMove() {
        moved = new int[Math.max(size * width, 1)];
    }

    void endMove() {
        rows = moved;
        moved = null;
    }
}
