package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BinaryOp;

/**
 * {@code + - * / %} and unary minus. Integers: 64-bit, overflow is an error naming the values ("integer overflow in a + b"),
 * division truncates toward zero, {@code %} takes the dividend's sign, division or modulo by
 * zero is NULL (SQLite; PostgreSQL errors). DOUBLE when either side is: {@code /} by 0.0 is NULL
 * too, {@code %} works on the operands truncated to integers (SQLite). A result beyond a double's
 * range from finite operands is PostgreSQL's {@code value out of range: overflow}; NaN and Infinity
 * operands give NaN and Infinity as in PostgreSQL.
 * DATE ± integer is a DATE, DATE - DATE the days between (PostgreSQL).
 *
 * <p>In PostgreSQL's dialect ({@code pg}): division or modulo by zero is 22012 "division by zero";
 * INT op INT is an INT, 32-bit, its overflow 22003 "integer out of range" (BIGINT's "bigint out of range").
 */
final class ArithmeticOp {
    private ArithmeticOp() {
    }

    static SqlException outOfRange() {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
    }

    /** The overflow of {@code a op b}, naming the values (built only when it happens). */
    static SqlException overflow(long a, BinaryOp op, long b) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer overflow in " + a + " " + op.symbol + " " + b);
    }

    static SqlException divisionByZero() {
        return new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }

    /** PostgreSQL's overflow error of an integer result of {@code type}. */
    static SqlException pgOutOfRange(SqlType type) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, (type == SqlType.INT ? "integer" : "bigint") + " out of range");
    }

    /** Integer (and DATE) arithmetic on longs. */
    static final class LongOp extends BinaryNode {
        final BinaryOp op;
        /** PostgreSQL's dialect: zero divisors and overflow are errors with its texts, INT results 32-bit. */
        final boolean pg;

        LongOp(SqlType type, BinaryOp op, Expression left, Expression right) {
            this(type, op, left, right, false);
        }

        LongOp(SqlType type, BinaryOp op, Expression left, Expression right, boolean pg) {
            super(type, left, right);
            this.op = op;
            this.pg = pg;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (!pg) {
                return sqlite(ctx);
            }
            long a = left.evalLong(ctx);
            if (ctx.isNull) {
                return 0;
            }
            long b = right.evalLong(ctx);
            if (ctx.isNull) {
                return 0;
            }
            long r;
            try {
                switch (op) {
                    case ADD:
                        r = Math.addExact(a, b);
                        break;
                    case SUB:
                        r = Math.subtractExact(a, b);
                        break;
                    case MUL:
                        r = Math.multiplyExact(a, b);
                        break;
                    case DIV:
                        if (b == 0) {
                            throw divisionByZero();
                        }
                        if (a == Long.MIN_VALUE && b == -1) {
                            throw pgOutOfRange(type);
                        }
                        r = a / b;
                        break;
                    default:
                        if (b == 0) {
                            throw divisionByZero();
                        }
                        r = b == -1 ? 0 : a % b;
                }
            } catch (ArithmeticException e) {
                throw pgOutOfRange(type);
            }
            if (type == SqlType.INT && r != (int) r) {
                throw pgOutOfRange(type);
            }
            return r;
        }

        private long sqlite(EvalContext ctx) {
            long a = left.evalLong(ctx);
            if (ctx.isNull) {
                return 0;
            }
            long b = right.evalLong(ctx);
            if (ctx.isNull) {
                return 0;
            }
            try {
                switch (op) {
                    case ADD:
                        return Math.addExact(a, b);
                    case SUB:
                        return Math.subtractExact(a, b);
                    case MUL:
                        return Math.multiplyExact(a, b);
                    case DIV:
                        if (b == 0) {
                            ctx.isNull = true;
                            return 0;
                        }
                        if (a == Long.MIN_VALUE && b == -1) {
                            throw overflow(a, op, b);
                        }
                        return a / b;
                    default:
                        if (b == 0) {
                            ctx.isNull = true;
                            return 0;
                        }
                        return b == -1 ? 0 : a % b;
                }
            } catch (ArithmeticException e) {
                throw overflow(a, op, b);
            }
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            return evalLong(ctx);
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " " + op.symbol + " " + right.describe() + ")";
        }
    }

    static final class DoubleOp extends BinaryNode {
        final BinaryOp op;
        /** PostgreSQL's dialect: a zero divisor is 22012. */
        final boolean pg;

        DoubleOp(BinaryOp op, Expression left, Expression right) {
            this(op, left, right, false);
        }

        DoubleOp(BinaryOp op, Expression left, Expression right, boolean pg) {
            super(SqlType.DOUBLE, left, right);
            this.op = op;
            this.pg = pg;
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
            double r;
            switch (op) {
                case ADD:
                    r = a + b;
                    break;
                case SUB:
                    r = a - b;
                    break;
                case MUL:
                    r = a * b;
                    break;
                case DIV:
                    if (b == 0) {
                        if (pg) {
                            throw divisionByZero();
                        }
                        ctx.isNull = true;
                        return 0;
                    }
                    r = a / b;
                    break;
                default: {
                    long ia = (long) a;
                    long ib = (long) b;
                    if (ib == 0) {
                        if (pg) {
                            throw divisionByZero();
                        }
                        ctx.isNull = true;
                        return 0;
                    }
                    r = ib == -1 ? 0 : ia % ib;
                }
            }
            if (r - r != 0 && a - a == 0 && b - b == 0) { // r NaN or infinite, a and b finite
                if (Double.isNaN(r)) {
                    ctx.isNull = true; // SQLite's NULL (a finite NaN cannot arise from these ops)
                    return 0;
                }
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow"); // PostgreSQL's float8 overflow
            }
            return r; // NaN or Infinity in, NaN or Infinity out (PostgreSQL: Infinity - Infinity is NaN)
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return (long) evalDouble(ctx);
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " " + op.symbol + " " + right.describe() + ")";
        }
    }

    static final class Negate extends UnaryNode {
        Negate(Expression arg) {
            this(arg, false);
        }

        /** In PostgreSQL's dialect {@code -INT} stays an INT (so -(-2147483648) is 22003). */
        Negate(Expression arg, boolean pg) {
            super(arg.type() == SqlType.DOUBLE ? SqlType.DOUBLE
                    : pg && arg.type() == SqlType.INT ? SqlType.INT : SqlType.BIGINT, arg);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (type == SqlType.DOUBLE) {
                return (long) evalDouble(ctx);
            }
            long v = arg.evalLong(ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (v == Long.MIN_VALUE) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer overflow in -(" + v + ")");
            }
            if (type == SqlType.INT && v == Integer.MIN_VALUE) {
                throw pgOutOfRange(type);
            }
            return -v;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                return evalLong(ctx);
            }
            double v = arg.evalDouble(ctx);
            return ctx.isNull ? 0 : -v;
        }

        @Override
        public String describe() {
            return "(-" + arg.describe() + ")";
        }
    }
}
