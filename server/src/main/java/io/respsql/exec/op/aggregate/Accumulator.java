package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Keys;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.storage.Column;

/**
 * The per-run state of one aggregate over every group: primitive arrays indexed by group
 * number. Evaluates the argument, skips NULL (and, for DISTINCT, values the group already saw),
 * then hands the value to the typed {@code add*} of the function.
 */
abstract class Accumulator {
    private static final byte[] EMPTY = new byte[0];
    protected final Expression arg;
    /** How the argument is read ({@link Keys#LONG}, DOUBLE, TEXT); -1 for COUNT(*) or a bare NULL. */
    protected final byte kind;
    final DistinctValues seen;
    /** FILTER (WHERE ...): only tuples it holds true for are taken; null when none (agg). */
    Expression filter;

    Accumulator(Expression arg, boolean distinct) {
        this.arg = arg;
        this.kind = arg == null || arg.type() == SqlType.NULL ? -1 : Keys.kindOf(arg.type());
        this.seen = distinct && kind >= 0 ? new DistinctValues(kind) : null;
    }

    /** Makes room for group numbers below {@code capacity}. */
    abstract void grow(int capacity);

    /** Takes the current tuple into group {@code g} when its FILTER holds (the operators' entry). */
    final void take(EvalContext ctx, int g) {
        if (filter == null || filter.isTrue(ctx)) {
            accumulate(ctx, g);
        }
    }

    /** {@link #accumulateBatch} with the FILTER: a row at a time when there is one (no allocation either way). */
    final void takeBatch(EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        if (filter == null) {
            accumulateBatch(ctx, relation, sel, n, gids, s);
            return;
        }
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            if (filter.isTrue(ctx)) {
                accumulate(ctx, gids[i]);
            }
        }
    }

    /** Takes the current tuple into group {@code g}. */
    void accumulate(EvalContext ctx, int g) {
        switch (kind) {
            case Keys.LONG: {
                long v = arg.evalLong(ctx);
                if (ctx.isNull || (seen != null && !seen.firstLong(g, v))) {
                    return;
                }
                addLong(g, v);
                return;
            }
            case Keys.DOUBLE: {
                double d = arg.evalDouble(ctx);
                if (ctx.isNull || (seen != null && !seen.firstDouble(g, d))) {
                    return;
                }
                addDouble(g, d);
                return;
            }
            case Keys.TEXT: {
                boolean byValue = seen != null && arg.type() == SqlType.NUMERIC;
                if (byValue) {
                    long u = arg.evalNumeric(ctx);
                    if (ctx.isNull || !seen.firstNumeric(g, u, ctx.numScale, ctx.numBig)) {
                        return;
                    }
                }
                byte[] b = arg.evalText(ctx);
                if (ctx.isNull) {
                    return;
                }
                if (b == null) {
                    b = EMPTY; // the empty string: storage keeps no array for it
                }
                int off = ctx.textOffset;
                int len = ctx.textLength;
                if (seen != null && !byValue && !seen.firstText(g, b, off, len)) {
                    return;
                }
                addText(g, b, off, len);
                return;
            }
            default:
                // a bare NULL argument: every value is NULL, nothing to take
        }
    }

    /**
     * Takes the rows {@code sel[0..n)} of {@code relation}, row i into group {@code gids[i]}: the
     * argument evaluated for the whole batch first ({@link Expression#evalLongBatch}), then one
     * loop. Functions override it with a loop of their own for the common non-DISTINCT case.
     */
    void accumulateBatch(EvalContext ctx, int relation, int[] sel, int n, int[] gids, BatchScratch s) {
        if (kind == Keys.LONG) {
            long[] v = s.longs;
            boolean[] nulls = s.nulls;
            boolean anyNull = arg.evalLongBatch(ctx, relation, sel, n, v, nulls);
            for (int i = 0; i < n; i++) {
                if (anyNull && nulls[i]) {
                    continue;
                }
                int g = gids[i];
                if (seen == null || seen.firstLong(g, v[i])) {
                    addLong(g, v[i]);
                }
            }
            return;
        }
        if (kind == Keys.DOUBLE) {
            double[] d = s.doubles;
            boolean[] nulls = s.nulls;
            boolean anyNull = arg.evalDoubleBatch(ctx, relation, sel, n, d, nulls);
            for (int i = 0; i < n; i++) {
                if (anyNull && nulls[i]) {
                    continue;
                }
                int g = gids[i];
                if (seen == null || seen.firstDouble(g, d[i])) {
                    addDouble(g, d[i]);
                }
            }
            return;
        }
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[relation] = sel[i];
            accumulate(ctx, gids[i]);
        }
    }

    void addLong(int g, long v) {
        throw new IllegalStateException(getClass().getSimpleName() + " takes no integer");
    }

    void addDouble(int g, double d) {
        throw new IllegalStateException(getClass().getSimpleName() + " takes no DOUBLE");
    }

    void addText(int g, byte[] b, int off, int len) {
        throw new IllegalStateException(getClass().getSimpleName() + " takes no TEXT");
    }

    // ---- parallel ----
    /**
     * Whether {@link #merge} is supported (parallel aggregation, one accumulator per stripe):
     * COUNT, SUM, AVG, MIN and MAX without DISTINCT.
     */
    boolean mergeable() {
        return false;
    }

    /**
     * Adds group {@code fromGroup} of {@code from} (the same aggregate, another stripe's) into group
     * {@code g}, as if this accumulator had taken that group's values after its own.
     */
    void merge(Accumulator from, int fromGroup, int g) {
        throw new IllegalStateException(getClass().getSimpleName() + " cannot merge");
    }

    /** Writes group {@code g}'s result into {@code c} at {@code row} (NULL when it has none). */
    abstract void write(Column c, int row, int g);

    static int grown(int have, int capacity) {
        return Math.max(capacity, have);
    }
}
