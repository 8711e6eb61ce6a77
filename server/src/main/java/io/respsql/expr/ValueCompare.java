package io.respsql.expr;

import java.util.Arrays;

/**
 * Compares two expressions already brought to comparable types ({@link Coercion#forComparison}):
 * as longs when both are long-carried, as doubles when either is DOUBLE, bytewise for TEXT
 * (unsigned, shorter first on a common prefix: UTF-8 code point order).
 */
final class ValueCompare {
    static final int LONG = 0;
    static final int DOUBLE = 1;
    static final int TEXT = 2;
    /** Either side NUMERIC, neither DOUBLE: exactly ({@link Numeric#compare}). */
    static final int NUMERIC = 3;
    /** INTERVAL: its first {@link Interval#KEY_BYTES} bytes, the normalised span (PostgreSQL's interval_cmp). */
    static final int INTERVAL = 4;
    /** Two arrays: PostgreSQL's array_cmp ({@link PgArray#compare}). */
    static final int ARRAY = 5;

    final Expression left;
    final Expression right;
    final int kind;

    ValueCompare(Expression left, Expression right) {
        this.left = left;
        this.right = right;
        this.kind = kindOf(left.type(), right.type());
    }

    static int kindOf(SqlType a, SqlType b) {
        if (a.isArray() || b.isArray()) {
            return ARRAY;
        }
        if (a == SqlType.INTERVAL && b == SqlType.INTERVAL) {
            return INTERVAL;
        }
        if (a == SqlType.TEXT || b == SqlType.TEXT) {
            return TEXT;
        }
        if (a == SqlType.DOUBLE || b == SqlType.DOUBLE) {
            return DOUBLE;
        }
        if (a == SqlType.NUMERIC || b == SqlType.NUMERIC) {
            return NUMERIC;
        }
        return LONG;
    }

    /** Sign of left - right; sets {@code ctx.isNull} when either is NULL (right unevaluated if left is). */
    int compare(EvalContext ctx) {
        switch (kind) {
            case ARRAY:
                return ArrayNodes.compare(left, right, ctx);
            case NUMERIC: {
                long a = left.evalNumeric(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                int as = ctx.numScale;
                java.math.BigDecimal ab = ctx.numBig;
                long b = right.evalNumeric(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                return Numeric.compare(a, as, ab, b, ctx.numScale, ctx.numBig);
            }
            case LONG: {
                long a = left.evalLong(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                long b = right.evalLong(ctx);
                return Long.compare(a, b);
            }
            case DOUBLE: {
                double a = left.evalDouble(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                double b = right.evalDouble(ctx);
                return Doubles.compare(a, b); // NaN = NaN, NaN above all (PostgreSQL)
            }
            default: {
                byte[] a = left.evalText(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                int ao = ctx.textOffset;
                int al = ctx.textLength;
                byte[] b = right.evalText(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                if (kind == INTERVAL) {
                    return Interval.compare(a, ao, b, ctx.textOffset);
                }
                return Integer.signum(Arrays.compareUnsigned(a, ao, ao + al, b, ctx.textOffset, ctx.textOffset + ctx.textLength));
            }
        }
    }

    /** IS DISTINCT FROM: NULL equals NULL, NULL differs from any value; never NULL itself. */
    boolean distinct(EvalContext ctx) {
        boolean result;
        switch (kind) {
            case ARRAY: {
                PgArray.Value a = ArrayNodes.arrayOf(left, ctx);
                PgArray.Value b = ArrayNodes.arrayOf(right, ctx);
                boolean an = a == null;
                boolean bn = b == null;
                result = an || bn ? an != bn : PgArray.compare(a, b, left.type().isArray() ? left.type().element()
                        : right.type().element()) != 0;
                break;
            }
            case NUMERIC: {
                long a = left.evalNumeric(ctx);
                boolean an = ctx.isNull;
                int as = ctx.numScale;
                java.math.BigDecimal ab = ctx.numBig;
                long b = right.evalNumeric(ctx);
                boolean bn = ctx.isNull;
                result = an || bn ? an != bn : Numeric.compare(a, as, ab, b, ctx.numScale, ctx.numBig) != 0;
                break;
            }
            case LONG: {
                long a = left.evalLong(ctx);
                boolean an = ctx.isNull;
                long b = right.evalLong(ctx);
                boolean bn = ctx.isNull;
                result = an || bn ? an != bn : a != b;
                break;
            }
            case DOUBLE: {
                double a = left.evalDouble(ctx);
                boolean an = ctx.isNull;
                double b = right.evalDouble(ctx);
                boolean bn = ctx.isNull;
                result = an || bn ? an != bn : Doubles.compare(a, b) != 0;
                break;
            }
            default: {
                byte[] a = left.evalText(ctx);
                boolean an = ctx.isNull;
                int ao = ctx.textOffset;
                int al = ctx.textLength;
                byte[] b = right.evalText(ctx);
                boolean bn = ctx.isNull;
                result = an || bn ? an != bn
                        : kind == INTERVAL ? Interval.compare(a, ao, b, ctx.textOffset) != 0
                        : !Arrays.equals(a, ao, ao + al, b, ctx.textOffset, ctx.textOffset + ctx.textLength);
            }
        }
        ctx.isNull = false;
        return result;
    }
}
