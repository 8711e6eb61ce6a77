package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/** ABS and ROUND. */
final class NumericFunctions {
    private NumericFunctions() {
    }

    /** ABS: an integer stays an integer (BIGINT; ABS of the smallest BIGINT is out of range). */
    static final class Abs extends UnaryNode {
        Abs(Expression arg) {
            super(arg.type() == SqlType.DOUBLE ? SqlType.DOUBLE : arg.type() == SqlType.NULL ? SqlType.NULL : SqlType.BIGINT, arg);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (type == SqlType.DOUBLE) {
                return (long) evalDouble(ctx);
            }
            long v = Eval.asLong(arg, ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (v == Long.MIN_VALUE) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer overflow in ABS(" + v + ")");
            }
            return Math.abs(v);
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                return evalLong(ctx);
            }
            double v = arg.evalDouble(ctx);
            return ctx.isNull ? 0 : Math.abs(v);
        }

        @Override
        public String describe() {
            return "ABS(" + arg.describe() + ")";
        }
    }

    /**
     * ROUND(x[, n]): DOUBLE, n digits after the point (n below 0 reads as 0, above 22 leaves x:
     * SQLite), halves away from zero, decided on the exact value of x (x · 10^n and its FMA
     * residual), so 2.675, which is 2.67499999... in binary, rounds to 2.67 as in SQLite.
     */
    static final class Round extends Expression {
        final Expression arg;
        final Expression digits;

        Round(Expression arg, Expression digits) {
            super(SqlType.DOUBLE);
            this.arg = arg;
            this.digits = digits;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            double x = arg.evalDouble(ctx);
            if (ctx.isNull) {
                return 0;
            }
            long n = 0;
            if (digits != null) {
                n = Eval.asLong(digits, ctx);
                if (ctx.isNull) {
                    return 0;
                }
            }
            return round(x, (int) Math.max(0, Math.min(n, 30)));
        }

        static double round(double x, int n) {
            if (Double.isNaN(x) || Double.isInfinite(x) || n > 22) {
                return x;
            }
            double a = Math.abs(x);
            double scale = Eval.POW10[n];
            double p = a * scale;
            if (p >= 4503599627370496.0) { // 2^52: no fraction left at this scale
                return x;
            }
            double err = Math.fma(a, scale, -p);
            double fl = Math.floor(p);
            double frac = p - fl;
            boolean up = frac > 0.5 || (frac == 0.5 && err >= 0);
            double r = (up ? fl + 1 : fl) / scale;
            return x < 0 ? -r : r;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return (long) evalDouble(ctx);
        }

        @Override
        public long relations() {
            return Eval.relations(arg, digits);
        }

        @Override
        public boolean isConstant() {
            return Eval.allConstant(arg, digits);
        }

        @Override
        public String describe() {
            return "ROUND(" + arg.describe() + (digits == null ? "" : ", " + digits.describe()) + ")";
        }
    }
}
