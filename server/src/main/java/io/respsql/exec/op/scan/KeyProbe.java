package io.respsql.exec.op.scan;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.index.IndexKeys;
import io.respsql.storage.ColumnType;

/**
 * Turns a value into the key an index over a column of some type is ordered by, as a bound of
 * a probe or a range: integer columns take integer keys (a fractional value rounds inward, or
 * matches nothing for equality), FLOAT columns the ordered bit pattern, TEXT columns an 8-byte
 * prefix (so the condition is re-checked on each row). A NULL value matches nothing.
 * Evaluated when a probe starts: the value may read an outer row (an index join, a correlated
 * subquery). One per bound; part of the plan, so it keeps nothing of a run: whether the
 * last {@link #key} call matches nothing is left in the context ({@link #none}).
 */
public final class KeyProbe {
    public enum Bound { EQ, GE, GT, LE, LT }

    private final Expression value;
    private final ColumnType column;
    private final Bound bound;

    public KeyProbe(Expression value, ColumnType column, Bound bound) {
        this.value = value;
        this.column = column;
        this.bound = bound;
    }

    public Expression value() {
        return value;
    }

    public Bound bound() {
        return bound;
    }

    /** Whether an index over a {@code column} column can be searched for a {@code value} value. */
    public static boolean usable(ColumnType column, SqlType value) {
        switch (column) {
            case INT:
            case BIGINT:
            case FLOAT:
                return value.isNumeric();
            case TEXT:
                return value == SqlType.TEXT;
            case DATE:
                return value == SqlType.DATE;
            case TIMESTAMP:
                return value == SqlType.TIMESTAMP;
            default:
                return false;
        }
    }

    /**
     * Whether the index decides the condition exactly (no re-check): numeric keys of numeric
     * values (bounds round inward), temporal keys of their own type; never text prefixes.
     */
    public static boolean exact(ColumnType column, SqlType value) {
        return ((column.isInteger() || column == ColumnType.FLOAT) && value.isNumeric())
                || (column == ColumnType.DATE && value == SqlType.DATE)
                || (column == ColumnType.TIMESTAMP && value == SqlType.TIMESTAMP);
    }

    /**
     * The key of this run's value. {@link #none} tells right after whether no key can match
     * (NULL, a fraction for an integer equality): the verdict travels in {@code ctx.isNull}, the
     * context's out-value of the last evaluation, not in the probe (which a plan shares).
     */
    public long key(EvalContext ctx) {
        if (column == ColumnType.TEXT) {
            byte[] b = value.evalText(ctx);
            if (ctx.isNull) {
                return 0;
            }
            return IndexKeys.ofTextPrefix(b, ctx.textOffset, ctx.textLength);
        }
        if (column == ColumnType.FLOAT) {
            double d = value.evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            // Keys are in PostgreSQL's float8 order (NaN's key 0x7ff8000000000000 above +Infinity's
            // 0x7ff0000000000000; no stored value has a key in the gap) and neighbouring doubles have
            // neighbouring keys (-0.0 shares 0.0's), so a strict bound is the next key.
            long k = IndexKeys.ofDouble(d);
            return bound == Bound.GT ? k + 1 : bound == Bound.LT ? k - 1 : k;
        }
        if (value.type() == SqlType.DOUBLE) {
            double d = value.evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (Double.isNaN(d)) {
                // NaN is above every number: an integer column is below it, never equal or above
                if (bound == Bound.LT || bound == Bound.LE) {
                    return Long.MAX_VALUE;
                }
                ctx.isNull = true;
                return 0;
            }
            switch (bound) {
                case EQ:
                    if (d != Math.rint(d) || d < -0x1p63 || d >= 0x1p63) {
                        ctx.isNull = true;
                        return 0;
                    }
                    return (long) d;
                case GE:
                    return lowBound(Math.ceil(d), ctx);
                case GT:
                    return lowBound(Math.floor(d) + 1, ctx);
                case LE:
                    return highBound(Math.floor(d), ctx);
                default:
                    return highBound(Math.ceil(d) - 1, ctx);
            }
        }
        long v = value.evalLong(ctx);
        if (ctx.isNull) {
            return 0;
        }
        if (bound == Bound.GT) {
            if (v == Long.MAX_VALUE) {
                ctx.isNull = true;
            }
            return v + 1;
        }
        if (bound == Bound.LT) {
            if (v == Long.MIN_VALUE) {
                ctx.isNull = true;
            }
            return v - 1;
        }
        return v;
    }

    /** Whether the {@link #key} call just made in {@code ctx} matches nothing. */
    public static boolean none(EvalContext ctx) {
        return ctx.isNull;
    }

    /** A lower bound as a key: above every long matches nothing, below every long is the least. */
    private static long lowBound(double c, EvalContext ctx) {
        if (c >= 0x1p63) {
            ctx.isNull = true;
            return 0;
        }
        return c < -0x1p63 ? Long.MIN_VALUE : (long) c;
    }

    private static long highBound(double f, EvalContext ctx) {
        if (f < -0x1p63) {
            ctx.isNull = true;
            return 0;
        }
        return f >= 0x1p63 ? Long.MAX_VALUE : (long) f;
    }
}
