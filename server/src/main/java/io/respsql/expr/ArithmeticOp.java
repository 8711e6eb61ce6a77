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

    /** Integer (and DATE) arithmetic on longs. */
    static final class LongOp extends Expression {
        final BinaryOp op;
        final Expression left;
        final Expression right;

        LongOp(SqlType type, BinaryOp op, Expression left, Expression right) {
            super(type);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public long evalLong(EvalContext ctx) {
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
        public long relations() {
            return left.relations() | right.relations();
        }

        @Override
        public boolean isConstant() {
            return left.isConstant() && right.isConstant();
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " " + op.symbol + " " + right.describe() + ")";
        }
    }

    static final class DoubleOp extends Expression {
        final BinaryOp op;
        final Expression left;
        final Expression right;

        DoubleOp(BinaryOp op, Expression left, Expression right) {
            super(SqlType.DOUBLE);
            this.op = op;
            this.left = left;
            this.right = right;
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
                        ctx.isNull = true;
                        return 0;
                    }
                    r = a / b;
                    break;
                default: {
                    long ia = (long) a;
                    long ib = (long) b;
                    if (ib == 0) {
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
        public long relations() {
            return left.relations() | right.relations();
        }

        @Override
        public boolean isConstant() {
            return left.isConstant() && right.isConstant();
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " " + op.symbol + " " + right.describe() + ")";
        }
    }

    static final class Negate extends Expression {
        final Expression operand;

        Negate(Expression operand) {
            super(operand.type() == SqlType.DOUBLE ? SqlType.DOUBLE : SqlType.BIGINT);
            this.operand = operand;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (type == SqlType.DOUBLE) {
                return (long) evalDouble(ctx);
            }
            long v = operand.evalLong(ctx);
            if (ctx.isNull) {
                return 0;
            }
            if (v == Long.MIN_VALUE) {
                throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer overflow in -(" + v + ")");
            }
            return -v;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                return evalLong(ctx);
            }
            double v = operand.evalDouble(ctx);
            return ctx.isNull ? 0 : -v;
        }

        @Override
        public long relations() {
            return operand.relations();
        }

        @Override
        public boolean isConstant() {
            return operand.isConstant();
        }

        @Override
        public String describe() {
            return "(-" + operand.describe() + ")";
        }
    }
}
