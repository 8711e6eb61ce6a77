package io.respsql.expr;

import io.respsql.sql.SqlException;

/**
 * + - * / % and unary minus. Integer arithmetic is exact: an overflow is an error, never a
 * silent wrap (the 2010 server's {@code SET x=x+1} bug is exactly what this must not repeat).
 */
public final class Arithmetic {
    private Arithmetic() {
    }

    public static BoundExpr of(char op, BoundExpr l, BoundExpr r) {
        if (l.type() == ValueType.LONG && r.type() == ValueType.LONG) {
            return new LongOp(op, l, r);
        }
        return new DoubleOp(op, l, r);
    }

    public static BoundExpr negate(BoundExpr e) {
        return e.type() == ValueType.LONG ? new LongOp('-', new Constant.LongValue(0), e) : new DoubleNegate(e);
    }

    /** Not 0 - x: that turns -(0.0) into +0.0, and DUMP must replay -0.0 exactly. */
    static final class DoubleNegate extends BoundExpr {
        private final BoundExpr operand;

        DoubleNegate(BoundExpr operand) {
            super(ValueType.DOUBLE);
            this.operand = operand;
        }

        @Override
        public double evalDouble(int[] rows) {
            return -operand.evalDouble(rows);
        }

        @Override
        public boolean isConstant() {
            return operand.isConstant();
        }

        @Override
        public String describe() {
            return "-" + operand.describe();
        }
    }

    static long apply(char op, long a, long b) {
        try {
            switch (op) {
                case '+':
                    return Math.addExact(a, b);
                case '-':
                    return Math.subtractExact(a, b);
                case '*':
                    return Math.multiplyExact(a, b);
                case '/':
                    if (b == 0) {
                        throw new SqlException("division by zero");
                    }
                    if (a == Long.MIN_VALUE && b == -1) {
                        throw new ArithmeticException();
                    }
                    return a / b;
                default:
                    if (b == 0) {
                        throw new SqlException("division by zero");
                    }
                    return a % b;
            }
        } catch (ArithmeticException e) {
            throw new SqlException("integer overflow in " + a + " " + op + " " + b);
        }
    }

    static double apply(char op, double a, double b) {
        double v;
        switch (op) {
            case '+':
                v = a + b;
                break;
            case '-':
                v = a - b;
                break;
            case '*':
                v = a * b;
                break;
            case '/':
                if (b == 0) {
                    throw new SqlException("division by zero");
                }
                v = a / b;
                break;
            default:
                if (b == 0) {
                    throw new SqlException("division by zero");
                }
                v = a % b;
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new SqlException("FLOAT overflow in " + a + " " + op + " " + b);
        }
        return v;
    }

    static final class LongOp extends BoundExpr {
        private final char op;
        private final BoundExpr l;
        private final BoundExpr r;

        LongOp(char op, BoundExpr l, BoundExpr r) {
            super(ValueType.LONG);
            this.op = op;
            this.l = l;
            this.r = r;
        }

        @Override
        public long evalLong(int[] rows) {
            return apply(op, l.evalLong(rows), r.evalLong(rows));
        }

        @Override
        public boolean isConstant() {
            return l.isConstant() && r.isConstant();
        }

        @Override
        public String describe() {
            return "(" + l.describe() + " " + op + " " + r.describe() + ")";
        }
    }

    static final class DoubleOp extends BoundExpr {
        private final char op;
        private final BoundExpr l;
        private final BoundExpr r;

        DoubleOp(char op, BoundExpr l, BoundExpr r) {
            super(ValueType.DOUBLE);
            this.op = op;
            this.l = l;
            this.r = r;
        }

        @Override
        public double evalDouble(int[] rows) {
            return apply(op, l.evalDouble(rows), r.evalDouble(rows));
        }

        @Override
        public boolean isConstant() {
            return l.isConstant() && r.isConstant();
        }

        @Override
        public String describe() {
            return "(" + l.describe() + " " + op + " " + r.describe() + ")";
        }
    }
}
