package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * PostgreSQL's math functions on double precision: SQRT, CBRT, EXP, LN, LOG (base 10, or LOG(b, x)),
 * POWER, FLOOR, CEIL, TRUNC, SIGN, DEGREES, RADIANS, PI, and GREATEST / LEAST over any type. NULL in,
 * NULL out (GREATEST / LEAST skip NULLs). Domain errors carry PostgreSQL's SQLSTATE and text
 * (2201E for logarithms, 2201F for roots and powers, 22003 for a result beyond a double).
 */
final class MathFunctions {
    private MathFunctions() {
    }

    static final String INVALID_ARGUMENT_FOR_LOG = "2201E";
    static final String INVALID_ARGUMENT_FOR_POWER = "2201F";

    enum Op { SQRT, CBRT, EXP, LN, LOG10, FLOOR, CEIL, TRUNC, SIGN, DEGREES, RADIANS }

    private static SqlException overflow() {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    }

    private static SqlException underflow() {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
    }

    /** A function of one double. FLOOR/CEIL/TRUNC/SIGN of an integer are built as integers ({@link IntegerUnary}). */
    static final class Unary extends UnaryNode {
        final Op op;

        Unary(Op op, Expression arg) {
            super(SqlType.DOUBLE, arg);
            this.op = op;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            double x = arg.evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            switch (op) {
                case SQRT:
                    if (x < 0) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_POWER, "cannot take square root of a negative number");
                    }
                    return Math.sqrt(x);
                case CBRT:
                    return Math.cbrt(x);
                case EXP: {
                    double r = Math.exp(x);
                    if (Double.isInfinite(r) && !Double.isInfinite(x)) {
                        throw overflow();
                    }
                    if (r == 0 && !Double.isInfinite(x)) {
                        throw underflow();
                    }
                    return r;
                }
                case LN:
                case LOG10:
                    if (x == 0) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of zero");
                    }
                    if (x < 0) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of a negative number");
                    }
                    return op == Op.LN ? Math.log(x) : Math.log10(x);
                case FLOOR:
                    return Math.floor(x);
                case CEIL:
                    return Math.ceil(x);
                case TRUNC:
                    return x < 0 ? Math.ceil(x) : Math.floor(x);
                case SIGN:
                    return x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x; // NaN stays NaN
                case DEGREES:
                    return Math.toDegrees(x);
                default:
                    return Math.toRadians(x);
            }
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return (long) evalDouble(ctx);
        }

        @Override
        public String describe() {
            return (op == Op.LOG10 ? "LOG" : op.name()) + "(" + arg.describe() + ")";
        }
    }

    /** SIGN of an integer: -1, 0 or 1 (FLOOR, CEIL and TRUNC of an integer are the integer itself). */
    static final class IntegerSign extends UnaryNode {
        IntegerSign(Expression arg) {
            super(arg.type() == SqlType.INT ? SqlType.INT : SqlType.BIGINT, arg);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long v = arg.evalLong(ctx);
            return ctx.isNull ? 0 : Long.signum(v);
        }

        @Override
        public String describe() {
            return "SIGN(" + arg.describe() + ")";
        }
    }

    /** POWER(x, y), LOG(b, x) (logarithm of x to base b), TRUNC(x, digits) on doubles. */
    static final class Binary extends BinaryNode {
        final String name;

        Binary(String name, Expression left, Expression right) {
            super(SqlType.DOUBLE, left, right);
            this.name = name;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            double a = left.evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            double b = right.evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            switch (name) {
                case "POWER": {
                    if (a == 0 && b < 0) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_POWER, "zero raised to a negative power is undefined");
                    }
                    if (a < 0 && b != Math.rint(b) && !Double.isInfinite(b)) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_POWER, "a negative number raised to a non-integer power yields a complex result");
                    }
                    double r = Math.pow(a, b);
                    if (Double.isInfinite(r) && !Double.isInfinite(a) && !Double.isInfinite(b)) {
                        throw overflow();
                    }
                    return r;
                }
                case "LOG": {
                    if (a == 0 || b == 0) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of zero");
                    }
                    if (a < 0 || b < 0) {
                        throw new SqlException(INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of a negative number");
                    }
                    if (a == 1) {
                        throw new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
                    }
                    return Math.log(b) / Math.log(a);
                }
                default: { // TRUNC(x, digits)
                    int d = (int) Math.max(-308, Math.min(308, (long) b));
                    if (Double.isNaN(a) || Double.isInfinite(a)) {
                        return a;
                    }
                    if (d >= -22 && d <= 22) {
                        // scaled by an exact power of ten: no allocation per row
                        double p = Eval.POW10[Math.abs(d)];
                        double scaled = d >= 0 ? a * p : a / p;
                        double t = scaled < 0 ? Math.ceil(scaled) : Math.floor(scaled);
                        return d >= 0 ? t / p : t * p;
                    }
                    return new java.math.BigDecimal(a).setScale(d, java.math.RoundingMode.DOWN).doubleValue();
                }
            }
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return (long) evalDouble(ctx);
        }

        @Override
        public String describe() {
            return name + "(" + left.describe() + ", " + right.describe() + ")";
        }
    }

    /** GREATEST / LEAST(a, ...): the largest / smallest non-NULL value (all brought to their common type); NULL when all are. */
    static final class Extreme extends NaryNode {
        final boolean greatest;

        Extreme(boolean greatest, SqlType type, Expression[] args) {
            super(type, greatest ? "GREATEST" : "LEAST", args);
            this.greatest = greatest;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (type == SqlType.DOUBLE) {
                return (long) evalDouble(ctx);
            }
            boolean any = false;
            long best = 0;
            for (Expression e : args) {
                long v = e.evalLong(ctx);
                if (ctx.isNull) {
                    continue;
                }
                if (!any || (greatest ? v > best : v < best)) {
                    best = v;
                }
                any = true;
            }
            ctx.isNull = !any;
            return best;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                return evalLong(ctx);
            }
            boolean any = false;
            double best = 0;
            for (Expression e : args) {
                double v = e.evalDouble(ctx);
                if (ctx.isNull) {
                    continue;
                }
                // PostgreSQL orders NaN above every number
                if (!any || (greatest ? Double.compare(v, best) > 0 : Double.compare(v, best) < 0)) {
                    best = v;
                }
                any = true;
            }
            ctx.isNull = !any;
            return best;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            boolean any = false;
            byte[] best = TextBuf.EMPTY;
            int bo = 0;
            int bl = 0;
            for (Expression e : args) {
                byte[] v = e.evalText(ctx);
                if (ctx.isNull) {
                    continue;
                }
                int c = any ? java.util.Arrays.compareUnsigned(v, ctx.textOffset, ctx.textOffset + ctx.textLength, best, bo, bo + bl) : 0;
                if (!any || (greatest ? c > 0 : c < 0)) {
                    best = v;
                    bo = ctx.textOffset;
                    bl = ctx.textLength;
                }
                any = true;
            }
            ctx.isNull = !any;
            ctx.textOffset = bo;
            ctx.textLength = bl;
            return best;
        }
    }
}
