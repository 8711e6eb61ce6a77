package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BinaryOp;
import io.respsql.storage.Column;
import io.respsql.storage.LongColumn;
import io.respsql.storage.TextColumn;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The expression nodes of PostgreSQL's NUMERIC ({@link Numeric}; issue 25): constants, column
 * reads, arithmetic, casts to and from it, and its functions. Every NUMERIC node also answers
 * {@link Expression#evalDouble} (the nearest double) and {@link Expression#evalText} (its text as
 * PostgreSQL prints it, in a buffer of the node), so what only moves or prints values (work
 * tables, result rows, TEXT keys) takes it as it is.
 */
final class NumericNodes {
    private NumericNodes() {
    }

    /**
     * A NUMERIC-typed node: evalDouble and evalText derived from evalNumeric; its relations are
     * its inputs' (null ones skipped), and it is constant when they all are.
     */
    abstract static class Node extends Expression {
        private final Expression[] inputs;
        private byte[] buf = new byte[40];

        Node(Expression... inputs) {
            super(SqlType.NUMERIC);
            this.inputs = inputs;
        }

        @Override
        public long relations() {
            return Eval.relations(inputs);
        }

        @Override
        public boolean isConstant() {
            return Eval.allConstant(inputs);
        }

        @Override
        public abstract long evalNumeric(EvalContext ctx);

        @Override
        public double evalDouble(EvalContext ctx) {
            long u = evalNumeric(ctx);
            return ctx.isNull ? 0 : Numeric.toDouble(u, ctx.numScale, ctx.numBig);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long u = evalNumeric(ctx);
            ctx.textOffset = 0;
            if (ctx.isNull) {
                ctx.textLength = 0;
                return TextBuf.EMPTY;
            }
            BigDecimal big = ctx.numBig;
            if (big != null) {
                byte[] b = Numeric.text(u, ctx.numScale, big).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                ctx.textLength = b.length;
                return b;
            }
            int scale = ctx.numScale;
            if (buf.length < scale + 22) {
                buf = new byte[scale + 22];
            }
            ctx.textLength = Numeric.format(u, scale, buf);
            return buf;
        }
    }

    /** A constant NUMERIC (a literal such as {@code 0.10}, or a folded subtree). */
    static final class Const extends Node {
        final boolean nullValue;
        final long unscaled;
        final int scale;
        final BigDecimal big;

        Const(boolean nullValue, long unscaled, int scale, BigDecimal big) {
            this.nullValue = nullValue;
            this.unscaled = unscaled;
            this.scale = scale;
            this.big = big;
        }

        static Const of(EvalContext ctx, long u) {
            return new Const(false, u, ctx.numScale, ctx.numBig);
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            ctx.isNull = nullValue;
            ctx.numScale = scale;
            ctx.numBig = big;
            return unscaled;
        }

        @Override
        public String describe() {
            return nullValue ? "NULL" : Numeric.text(unscaled, scale, big);
        }
    }

    /** The value of a parsed NUMERIC literal's text. */
    static Expression literal(String text) {
        EvalContext ctx = new EvalContext(1);
        long u = Numeric.parse(ctx, text);
        return Const.of(ctx, u);
    }

    /** A NUMERIC column: scaled longs at the column's scale, or each value's text. */
    static final class Ref extends Node {
        final Column column;
        final int relation;
        final String label;
        private final LongColumn longs;
        private final TextColumn texts;
        private final int scale;

        Ref(Column column, int relation, String label) {
            this.column = column;
            this.relation = relation;
            this.label = label;
            this.longs = column instanceof LongColumn l ? l : null;
            this.texts = column instanceof TextColumn t ? t : null;
            this.scale = Math.max(column.numericScale(), 0);
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            int row = ctx.slots[relation];
            if (row < 0 || column.isNull(row)) {
                ctx.isNull = true;
                ctx.numBig = null;
                ctx.numScale = 0;
                return 0;
            }
            if (longs != null) {
                long v = longs.get(row);
                ctx.isNull = false;
                ctx.numBig = v == Numeric.STORED_NAN ? Numeric.NAN : null;
                ctx.numScale = scale;
                return v;
            }
            byte[] b = texts.bytes(row);
            return Numeric.parse(ctx, b, texts.offset(row), texts.length(row));
        }

        @Override
        public long relations() {
            return 1L << relation;
        }

        @Override
        public boolean isConstant() {
            return false;
        }

        @Override
        public int plainRelation() {
            return relation;
        }

        @Override
        public String describe() {
            return label;
        }
    }

    /** {@code + - * / %} over NUMERIC (integer operands at scale 0), with PostgreSQL's result scales. */
    static final class Arith extends Node {
        final BinaryOp op;
        final Expression left;
        final Expression right;

        Arith(BinaryOp op, Expression left, Expression right) {
            super(left, right);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            long a = left.evalNumeric(ctx);
            if (ctx.isNull) {
                return 0;
            }
            int as = ctx.numScale;
            BigDecimal ab = ctx.numBig;
            long b = right.evalNumeric(ctx);
            if (ctx.isNull) {
                return 0;
            }
            int bs = ctx.numScale;
            BigDecimal bb = ctx.numBig;
            switch (op) {
                case ADD:
                    return Numeric.add(ctx, a, as, ab, b, bs, bb, false);
                case SUB:
                    return Numeric.add(ctx, a, as, ab, b, bs, bb, true);
                case MUL:
                    return Numeric.multiply(ctx, a, as, ab, b, bs, bb);
                case DIV:
                    return Numeric.divide(ctx, a, as, ab, b, bs, bb);
                default:
                    return Numeric.modulo(ctx, a, as, ab, b, bs, bb);
            }
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " " + op.symbol + " " + right.describe() + ")";
        }
    }

    static final class Negate extends Node {
        final Expression arg;

        Negate(Expression arg) {
            super(arg);
            this.arg = arg;
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            long u = arg.evalNumeric(ctx);
            if (ctx.isNull) {
                return 0;
            }
            BigDecimal big = ctx.numBig;
            if (big == null) {
                return -u;
            }
            return big == Numeric.NAN ? 0 : Numeric.result(ctx, big.negate());
        }

        @Override
        public String describe() {
            return "-" + arg.describe();
        }
    }

    /** A value as NUMERIC (from an integer, a double, text or NUMERIC), rounded to a type modifier when one is given. */
    static final class ToNumeric extends Node {
        final Expression arg;
        final int typmod;

        ToNumeric(Expression arg, int typmod) {
            super(arg);
            this.arg = arg;
            this.typmod = typmod;
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            long u;
            switch (arg.type()) {
                case DOUBLE: {
                    double d = arg.evalDouble(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    u = Numeric.fromDouble(ctx, d);
                    break;
                }
                case TEXT: {
                    byte[] b = arg.evalText(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    u = Numeric.parse(ctx, b, ctx.textOffset, ctx.textLength);
                    break;
                }
                default:
                    u = arg.evalNumeric(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
            }
            return typmod < 0 ? u : Numeric.applyTypmod(ctx, u, ctx.numScale, ctx.numBig, typmod);
        }

        @Override
        public String describe() {
            return "CAST(" + arg.describe() + " AS NUMERIC" + (typmod < 0 ? "" : "(" + (typmod >>> 16) + "," + (typmod & 0xFFFF) + ")") + ")";
        }
    }

    /** NUMERIC to INT/BIGINT (rounded half away from zero, range-checked) or DOUBLE. */
    static final class FromNumeric extends UnaryNode {
        final int bits;

        FromNumeric(Expression arg, SqlType target, int bits) {
            super(target, arg);
            this.bits = bits;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long u = arg.evalNumeric(ctx);
            return ctx.isNull ? 0 : Numeric.toLong(u, ctx.numScale, ctx.numBig, bits);
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                return evalLong(ctx);
            }
            long u = arg.evalNumeric(ctx);
            return ctx.isNull ? 0 : Numeric.toDouble(u, ctx.numScale, ctx.numBig);
        }

        @Override
        public String describe() {
            return "CAST(" + arg.describe() + " AS " + type.sqlName() + ")";
        }
    }

    /** NUMERIC as its text. */
    static final class AsText extends UnaryNode {
        AsText(Expression arg) {
            super(SqlType.TEXT, arg);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            return arg.evalText(ctx);
        }

        @Override
        public String describe() {
            return "CAST(" + arg.describe() + " AS TEXT)";
        }
    }

    /**
     * A NUMERIC (or integer) value as the bytes two equal numbers share whatever their scales
     * ({@code 1}, {@code 1.0}, {@code 1.00}; {@link Numeric#writeKey}): the key by which hash joins,
     * anti-joins and IN (subquery) match numbers, as PostgreSQL's numeric equality does. Not for output.
     */
    static final class MatchKey extends UnaryNode {
        /** The node's key buffer ({@link Numeric#writeKey}), reused: no allocation per row up to 18 digits. */
        private byte[] buf = new byte[Numeric.KEY_LONG_BYTES];

        MatchKey(Expression arg) {
            super(SqlType.TEXT, arg);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long u = arg.evalNumeric(ctx);
            if (ctx.isNull) {
                return null;
            }
            int n = Numeric.writeKey(u, ctx.numScale, ctx.numBig, buf, 0);
            if (n < 0) {
                buf = new byte[-n];
                n = Numeric.writeKey(u, ctx.numScale, ctx.numBig, buf, 0);
            }
            ctx.textOffset = 0;
            ctx.textLength = n;
            return buf;
        }

        @Override
        public String describe() {
            return arg.describe();
        }
    }

    /** round/trunc(x[, n]), abs, ceil, floor, sign, mod(x, y) of NUMERIC. */
    static final class Fn extends Node {
        final String name;
        final Expression arg;
        /** round/trunc's digits, mod's divisor; null when absent. */
        final Expression second;

        Fn(String name, Expression arg, Expression second) {
            super(arg, second);
            this.name = name;
            this.arg = arg;
            this.second = second;
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            long u = arg.evalNumeric(ctx);
            if (ctx.isNull) {
                return 0;
            }
            int s = ctx.numScale;
            BigDecimal big = ctx.numBig;
            if (big == Numeric.NAN) {
                return name.equals("SIGN") || name.equals("ABS") || !name.equals("MOD") ? Numeric.result(ctx, Numeric.NAN) : 0;
            }
            switch (name) {
                case "ABS":
                    return big == null ? Numeric.fast(ctx, Math.abs(u), s) : Numeric.result(ctx, big.abs());
                case "SIGN": {
                    int sg = big == null ? Long.signum(u) : big.signum();
                    return Numeric.fast(ctx, sg, 0);
                }
                case "CEIL":
                case "CEILING":
                    return scaled(ctx, u, s, big, 0, RoundingMode.CEILING);
                case "FLOOR":
                    return scaled(ctx, u, s, big, 0, RoundingMode.FLOOR);
                case "MOD": {
                    long b = second.evalNumeric(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    return Numeric.modulo(ctx, u, s, big, b, ctx.numScale, ctx.numBig);
                }
                default: { // ROUND, TRUNC
                    int digits = 0;
                    if (second != null) {
                        long n = second.evalLong(ctx);
                        if (ctx.isNull) {
                            return 0;
                        }
                        digits = (int) Math.max(-131073, Math.min(16383, n)); // PostgreSQL's bounds
                        ctx.isNull = false;
                    }
                    return scaled(ctx, u, s, big, digits, name.equals("ROUND") ? RoundingMode.HALF_UP : RoundingMode.DOWN);
                }
            }
        }

        /** The value rounded at {@code digits} after the point; the result's scale is max(digits, 0). */
        private static long scaled(EvalContext ctx, long u, int s, BigDecimal big, int digits, RoundingMode mode) {
            if (big == null && digits >= s) {
                long r = Numeric.up(u, digits - s);
                if (r != Long.MIN_VALUE) {
                    return Numeric.fast(ctx, r, digits);
                }
            } else if (big == null && digits >= 0 && mode == RoundingMode.HALF_UP) {
                return Numeric.fast(ctx, Numeric.down(u, s - digits), digits);
            }
            BigDecimal r = Numeric.big(u, s, big).setScale(digits, mode);
            if (digits < 0) {
                r = r.setScale(0);
            }
            return Numeric.result(ctx, r);
        }

        @Override
        public String describe() {
            return name + "(" + arg.describe() + (second == null ? "" : ", " + second.describe()) + ")";
        }
    }

    /** GREATEST/LEAST over NUMERIC arguments (NULLs skipped; NaN above every number). */
    static final class Extreme extends Node {
        final boolean greatest;
        final Expression[] args;

        Extreme(boolean greatest, Expression[] args) {
            super(args);
            this.greatest = greatest;
            this.args = args;
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            boolean any = false;
            long best = 0;
            int bestScale = 0;
            BigDecimal bestBig = null;
            for (Expression e : args) {
                long v = e.evalNumeric(ctx);
                if (ctx.isNull) {
                    continue;
                }
                int c = any ? Numeric.compare(v, ctx.numScale, ctx.numBig, best, bestScale, bestBig) : 0;
                if (!any || (greatest ? c > 0 : c < 0)) {
                    best = v;
                    bestScale = ctx.numScale;
                    bestBig = ctx.numBig;
                }
                any = true;
            }
            ctx.isNull = !any;
            ctx.numScale = bestScale;
            ctx.numBig = bestBig;
            return best;
        }

        @Override
        public String describe() {
            return Functions.describe(greatest ? "GREATEST" : "LEAST", args);
        }
    }

    /**
     * The NUMERIC form of a scalar function when an argument is NUMERIC, else null: ABS, SIGN,
     * CEIL, FLOOR, ROUND/TRUNC([x, n]) and MOD exactly, GREATEST/LEAST by value; the other math
     * functions (SQRT, EXP, LN, LOG, POWER, ...) take the nearest double (PostgreSQL's give numeric).
     */
    static Expression function(String name, java.util.List<Expression> args) {
        boolean any = false;
        for (Expression a : args) {
            any |= a.type() == SqlType.NUMERIC;
        }
        if (!any) {
            return null;
        }
        Expression first = args.get(0);
        switch (name) {
            case "ABS", "SIGN", "CEIL", "CEILING", "FLOOR":
                if (args.size() == 1) {
                    return new Fn(name, first, null);
                }
                return null;
            case "ROUND", "TRUNC":
                if (first.type() == SqlType.NUMERIC && args.size() <= 2
                        && (args.size() == 1 || args.get(1).type().isInteger() || args.get(1).type() == SqlType.NULL)) {
                    return new Fn(name, first, args.size() == 2 ? args.get(1) : null);
                }
                return null;
            case "MOD":
                return null; // Functions: MOD is the % operator, which takes NUMERIC
            case "GREATEST", "LEAST": {
                SqlType t = SqlType.NULL;
                for (Expression a : args) {
                    t = Expressions.commonType(t, a.type());
                    if (t == null) {
                        return null;
                    }
                }
                if (t != SqlType.NUMERIC) {
                    return null;
                }
                Expression[] coerced = new Expression[args.size()];
                for (int i = 0; i < coerced.length; i++) {
                    coerced[i] = numeric(args.get(i));
                }
                return new Extreme(name.equals("GREATEST"), coerced);
            }
            case "SQRT", "CBRT", "EXP", "LN", "LOG", "LOG10", "POWER", "POW", "DEGREES", "RADIANS": {
                java.util.List<Expression> doubles = new java.util.ArrayList<>(args.size());
                for (Expression a : args) {
                    doubles.add(a.type() == SqlType.NUMERIC ? new FromNumeric(a, SqlType.DOUBLE, 0) : a);
                }
                return Functions.build(name, doubles);
            }
            default:
                return null;
        }
    }

    /** {@code e} as NUMERIC rounded to {@code typmod} ({@code (p << 16) | s}; -1: as it is). */
    static Expression numeric(Expression e, int typmod) {
        if (typmod < 0 || e.type() == SqlType.NULL) {
            return numeric(e);
        }
        if (!(e.type() == SqlType.NUMERIC || e.type().isInteger() || e.type() == SqlType.DOUBLE || e.type() == SqlType.TEXT)) {
            throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast type " + Expressions.pgName(e.type()) + " to numeric");
        }
        return new ToNumeric(e, typmod);
    }

    /** {@code e} as NUMERIC (integers at scale 0; a bare NULL a NULL NUMERIC). */
    static Expression numeric(Expression e) {
        SqlType t = e.type();
        if (t == SqlType.NUMERIC) {
            return e;
        }
        if (t == SqlType.NULL) {
            return new Const(true, 0, 0, null);
        }
        if (t.isInteger() || t == SqlType.DOUBLE || t == SqlType.TEXT) {
            return new ToNumeric(e, -1);
        }
        throw new SqlException(SqlState.CANNOT_COERCE, "cannot cast type " + Expressions.pgName(t) + " to numeric");
    }
}
