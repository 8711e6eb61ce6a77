package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Outputs;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.Arrays;

/**
 * MIN/MAX([DISTINCT] x) of the argument's type; NULL with no value. Numbers compare
 * numerically, TEXT in unsigned byte order. A group's best text lives in a shared arena: a new
 * best overwrites the old bytes in place when it fits, otherwise it is appended (the old bytes
 * become garbage, reclaimed once garbage outweighs live text).
 */
final class MinMaxAccumulator extends Accumulator {
    private final boolean max;
    private boolean[] any = new boolean[0];
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private int[] off = new int[0];
    private int[] len = new int[0];
    private int[] cap = new int[0];
    private byte[] arena;
    private int arenaUsed;
    private int garbage;

    MinMaxAccumulator(Expression arg, boolean distinct, boolean max) {
        // DISTINCT does not change MIN/MAX: skip its set
        super(arg, false);
        this.max = max;
        if (kind == Keys.TEXT) {
            arena = new byte[256];
        }
    }

    @Override
    void grow(int capacity) {
        int n = grown(any.length, capacity);
        any = Arrays.copyOf(any, n);
        if (kind == Keys.LONG) {
            longs = Arrays.copyOf(longs, n);
        } else if (kind == Keys.DOUBLE) {
            doubles = Arrays.copyOf(doubles, n);
        } else if (kind == Keys.TEXT) {
            off = Arrays.copyOf(off, n);
            len = Arrays.copyOf(len, n);
            cap = Arrays.copyOf(cap, n);
        }
    }

    @Override
    void addLong(int g, long v) {
        if (!any[g] || (max ? v > longs[g] : v < longs[g])) {
            longs[g] = v;
            any[g] = true;
        }
    }

    @Override
    void addDouble(int g, double d) {
        // PostgreSQL's order: NaN is the largest value (MAX is NaN if any is; MIN skips NaN unless all are)
        if (!any[g] || (max ? io.respsql.expr.Doubles.compare(d, doubles[g]) > 0 : io.respsql.expr.Doubles.compare(d, doubles[g]) < 0)) {
            doubles[g] = d;
            any[g] = true;
        }
    }

    @Override
    void addText(int g, byte[] b, int o, int n) {
        if (any[g]) {
            int c = Arrays.compareUnsigned(b, o, o + n, arena, off[g], off[g] + len[g]);
            if (max ? c <= 0 : c >= 0) {
                return;
            }
        }
        if (any[g] && n <= cap[g]) {
            System.arraycopy(b, o, arena, off[g], n);
            len[g] = n;
            return;
        }
        if (any[g]) {
            garbage += cap[g];
        }
        if (arenaUsed + n > arena.length) {
            if (garbage > 65536 && garbage > arenaUsed / 2) {
                compact(g);
            }
            if (arenaUsed + n > arena.length) {
                arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + n));
            }
        }
        System.arraycopy(b, o, arena, arenaUsed, n);
        off[g] = arenaUsed;
        len[g] = n;
        cap[g] = n;
        arenaUsed += n;
        any[g] = true;
    }

    /** Rewrites every group's best text into a fresh arena, except {@code skip} (about to be replaced). */
    private void compact(int skip) {
        byte[] old = arena;
        arena = new byte[Math.max(256, arenaUsed - garbage)];
        arenaUsed = 0;
        garbage = 0;
        for (int g = 0; g < any.length; g++) {
            if (!any[g] || g == skip) {
                cap[g] = 0;
                continue;
            }
            System.arraycopy(old, off[g], arena, arenaUsed, len[g]);
            off[g] = arenaUsed;
            cap[g] = len[g];
            arenaUsed += len[g];
        }
    }

    // ---- parallel ----
    @Override
    boolean mergeable() {
        return true; // DISTINCT does not change MIN/MAX (no set is kept)
    }

    @Override
    void merge(Accumulator from, int fromGroup, int g) {
        MinMaxAccumulator f = (MinMaxAccumulator) from;
        if (!f.any[fromGroup]) {
            return;
        }
        if (kind == Keys.LONG) {
            addLong(g, f.longs[fromGroup]);
        } else if (kind == Keys.DOUBLE) {
            addDouble(g, f.doubles[fromGroup]);
        } else if (kind == Keys.TEXT) {
            addText(g, f.arena, f.off[fromGroup], f.len[fromGroup]);
        }
    }

    @Override
    void write(Column c, int row, int g) {
        if (!any[g]) {
            Outputs.writeNull(c, row);
        } else if (kind == Keys.LONG) {
            Outputs.writeLong(c, row, longs[g]);
        } else if (kind == Keys.DOUBLE) {
            Outputs.writeDouble(c, row, doubles[g]);
        } else {
            Outputs.writeText(c, row, arena, off[g], len[g]);
        }
    }
}
