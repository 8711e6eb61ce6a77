package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * CAST(x AS type). To an integer type: a DOUBLE truncates toward zero (clamped to 64 bits, as
 * SQLite; PostgreSQL rounds and errors out of range), TEXT gives its leading integer as SQLite
 * does ({@code '12abc'} → 12, {@code 'abc'} → 0); INT (32-bit) checks its range. To DOUBLE:
 * TEXT gives its leading number ({@code 'abc'} → 0.0). To TEXT: the text form. To BOOLEAN: a
 * number is true when not zero; TEXT accepts true/false/t/f/yes/no/y/n/on/off/1/0. To DATE and
 * TIMESTAMP: TEXT is parsed ({@link Temporal}), invalid text is an error naming value and type;
 * TIMESTAMP to DATE drops the time, DATE to TIMESTAMP is midnight.
 *
 * <p>In PostgreSQL's dialect ({@link Cast#pg}): to an integer type a DOUBLE rounds to the nearest
 * (ties to even, as float8 to int4 does) and NaN or a value beyond the type's range (16, 32 or 64
 * bits: smallint, integer, bigint) is 22003; TEXT must be an integer as a whole (22P02), and to
 * DOUBLE a number or NaN/Infinity as a whole.
 */
final class Casts {
    private Casts() {
    }

    /** Whether {@code from} can be cast to {@code to} at all (decided at bind time). */
    static boolean allowed(SqlType from, SqlType to) {
        if (from == to || from == SqlType.NULL || from == SqlType.TEXT || to == SqlType.TEXT) {
            return true;
        }
        switch (to) {
            case INT:
            case BIGINT:
            case DOUBLE:
            case BOOLEAN:
                return Coercion.numberLike(from);
            case DATE:
            case TIMESTAMP:
                return Coercion.temporal(from);
            default:
                return false;
        }
    }

    /** 1 true, 0 false, -1 not a boolean word (case-insensitive, surrounding spaces ignored). */
    static int parseBoolean(byte[] a, int off, int len) {
        int end = off + len;
        int i = NumberText.skipSpaces(a, off, end);
        end = NumberText.trimSpaces(a, i, end);
        int n = end - i;
        if (n == 0 || n > 5) {
            return -1;
        }
        long w = 0;
        for (int k = i; k < end; k++) {
            w = (w << 8) | (TextBuf.lowerAscii(a[k]) & 0xFF);
        }
        if (w == word("true") || w == word("t") || w == word("yes") || w == word("y") || w == word("on") || w == word("1")) {
            return 1;
        }
        if (w == word("false") || w == word("f") || w == word("no") || w == word("n") || w == word("off") || w == word("0")) {
            return 0;
        }
        return -1;
    }

    private static long word(String s) {
        long w = 0;
        for (int i = 0; i < s.length(); i++) {
            w = (w << 8) | s.charAt(i);
        }
        return w;
    }

    static SqlException invalid(byte[] a, int off, int len, SqlType target) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid " + target.sqlName() + " value '" + TextBuf.string(a, off, len) + "'");
    }

    static final class Cast extends UnaryNode {
        final SqlType from;
        private final TextArg textArg;
        /** PostgreSQL's rules (strict text, rounding, ranges); SQLite's when false. */
        final boolean pg;
        /** The integer target's width under PostgreSQL's rules: 16, 32 or 64. */
        final int bits;

        Cast(Expression arg, SqlType target) {
            this(arg, target, false, target == SqlType.INT ? 32 : 64);
        }

        Cast(Expression arg, SqlType target, boolean pg, int bits) {
            super(target, arg);
            this.from = arg.type();
            this.textArg = target == SqlType.TEXT ? new TextArg(arg) : null;
            this.pg = pg;
            this.bits = bits;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            switch (from) {
                case NULL:
                    ctx.isNull = true;
                    return 0;
                case DOUBLE: {
                    double d = arg.evalDouble(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    if (type == SqlType.BOOLEAN) {
                        return d != 0 ? 1 : 0;
                    }
                    if (pg) {
                        double r = Math.rint(d);
                        // 2^63 is the first double beyond a long; NaN fails both tests
                        if (!(r >= -9.223372036854775808E18 && r < 9.223372036854775808E18)) {
                            throw outOfRange(bits);
                        }
                        return narrow((long) r);
                    }
                    return narrow((long) d);
                }
                case TEXT: {
                    byte[] a = arg.evalText(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    int off = ctx.textOffset;
                    int len = ctx.textLength;
                    switch (type) {
                        case BOOLEAN: {
                            int b = parseBoolean(a, off, len);
                            if (b < 0) {
                                throw invalid(a, off, len, type);
                            }
                            return b;
                        }
                        case DATE: {
                            long d = Temporal.parseDate(a, off, len);
                            if (d == Temporal.INVALID) {
                                long s = Temporal.special(a, off, len, true);
                                if (s != Temporal.INVALID) {
                                    return Temporal.timestampToDate(s);
                                }
                                throw pg ? Temporal.inputError(a, off, len, true) : invalid(a, off, len, type);
                            }
                            return d;
                        }
                        case TIMESTAMP: {
                            long t = Temporal.parseTimestamp(a, off, len);
                            if (t == Temporal.INVALID) {
                                t = Temporal.special(a, off, len, false);
                                if (t == Temporal.INVALID) {
                                    throw pg ? Temporal.inputError(a, off, len, false) : invalid(a, off, len, type);
                                }
                            }
                            return t;
                        }
                        default:
                            return pg ? NumberText.strictInt(a, off, len, bits) : narrow(NumberText.intPrefix(a, off, len));
                    }
                }
                default: {
                    long v = arg.evalLong(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    if (type == SqlType.BOOLEAN) {
                        return v != 0 ? 1 : 0;
                    }
                    if (from == SqlType.DATE && type == SqlType.TIMESTAMP) {
                        return Temporal.dateToTimestamp(v);
                    }
                    if (from == SqlType.TIMESTAMP && type == SqlType.DATE) {
                        return Temporal.timestampToDate(v);
                    }
                    return narrow(v);
                }
            }
        }

        private long narrow(long v) {
            if (pg && !NumberText.fits(v, bits)) {
                throw outOfRange(bits);
            }
            if (type == SqlType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                throw ArithmeticOp.outOfRange();
            }
            return v;
        }

        private static SqlException outOfRange(int bits) {
            return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, NumberText.intName(bits) + " out of range");
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (type != SqlType.DOUBLE) {
                return evalLong(ctx);
            }
            switch (from) {
                case NULL:
                    ctx.isNull = true;
                    return 0;
                case DOUBLE:
                    return arg.evalDouble(ctx);
                case TEXT: {
                    byte[] a = arg.evalText(ctx);
                    if (ctx.isNull) {
                        return 0;
                    }
                    return pg ? NumberText.strictDouble(a, ctx.textOffset, ctx.textLength)
                            : NumberText.realPrefix(a, ctx.textOffset, ctx.textLength);
                }
                default:
                    return arg.evalLong(ctx);
            }
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            return textArg.eval(ctx);
        }

        @Override
        public String describe() {
            return "CAST(" + arg.describe() + " AS " + type.sqlName() + ")";
        }
    }
}
