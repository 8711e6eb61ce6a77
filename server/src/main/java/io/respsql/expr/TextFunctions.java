package io.respsql.expr;

import java.util.Arrays;

/**
 * LOWER, UPPER, LENGTH, SUBSTR, TRIM/LTRIM/RTRIM, REPLACE, INSTR, on UTF-8 characters, as
 * SQLite defines them. Arguments of other types are read through their text form. Results that
 * are a slice of the argument (SUBSTR, TRIM) point into the argument's bytes; computed ones go
 * into a buffer the node owns.
 */
final class TextFunctions {
    private TextFunctions() {
    }

    /** LOWER / UPPER: ASCII letters only (SQLite without ICU). */
    static final class CaseMap extends UnaryNode {
        final boolean upper;
        private final TextArg in;
        private final TextBuf buf = new TextBuf();

        CaseMap(boolean upper, Expression arg) {
            super(SqlType.TEXT, arg);
            this.upper = upper;
            this.in = new TextArg(arg);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] a = in.eval(ctx);
            if (ctx.isNull) {
                return a;
            }
            int off = ctx.textOffset;
            int len = ctx.textLength;
            buf.reset();
            buf.ensure(len);
            byte[] o = buf.a;
            for (int i = 0; i < len; i++) {
                byte b = a[off + i];
                if (upper) {
                    o[i] = b >= 'a' && b <= 'z' ? (byte) (b - 32) : b;
                } else {
                    o[i] = TextBuf.lowerAscii(b);
                }
            }
            buf.len = len;
            return buf.result(ctx);
        }

        @Override
        public String describe() {
            return (upper ? "UPPER(" : "LOWER(") + arg.describe() + ")";
        }
    }

    /** LENGTH: characters of the text (of a number: of its text form). */
    static final class Length extends UnaryNode {
        private final TextArg in;

        Length(Expression arg) {
            super(SqlType.INT, arg);
            this.in = new TextArg(arg);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            byte[] a = in.eval(ctx);
            return ctx.isNull ? 0 : TextBuf.chars(a, ctx.textOffset, ctx.textLength);
        }

        @Override
        public String describe() {
            return "LENGTH(" + arg.describe() + ")";
        }
    }

    /** Byte index after skipping {@code n} characters from {@code i}, not past {@code end}. */
    static int skipChars(byte[] a, int i, int end, long n) {
        while (n > 0 && i < end) {
            i += TextBuf.charLen(a[i]);
            n--;
        }
        return Math.min(i, end);
    }

    /** SUBSTR(x, start[, len]): 1-based; a negative start counts from the end; a negative len takes the characters before start (SQLite). */
    static final class Substr extends Expression {
        final String name;
        final Expression arg;
        final Expression start;
        final Expression count;
        private final TextArg in;

        /** PostgreSQL's rules: characters from max(start, 1) up to start + count; a negative count is an error. */
        final boolean pg;

        Substr(String name, Expression arg, Expression start, Expression count) {
            this(name, arg, start, count, false);
        }

        Substr(String name, Expression arg, Expression start, Expression count, boolean pg) {
            super(SqlType.TEXT);
            this.pg = pg;
            this.name = name;
            this.arg = arg;
            this.start = start;
            this.count = count;
            this.in = new TextArg(arg);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long p1 = Eval.asLong(start, ctx);
            if (ctx.isNull) {
                return TextBuf.EMPTY;
            }
            long p2 = Long.MAX_VALUE / 4;
            boolean negP2 = false;
            if (count != null) {
                p2 = Eval.asLong(count, ctx);
                if (ctx.isNull) {
                    return TextBuf.EMPTY;
                }
                if (p2 < 0) {
                    p2 = p2 == Long.MIN_VALUE ? Long.MAX_VALUE : -p2; // -MIN_VALUE is MIN_VALUE
                    negP2 = true;
                }
            }
            if (pg && negP2) {
                throw new io.respsql.sql.SqlException(io.respsql.sql.SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
            }
            byte[] a = in.eval(ctx);
            if (ctx.isNull) {
                return a;
            }
            int off = ctx.textOffset;
            int end = off + ctx.textLength;
            if (pg) {
                // exclusive, in 1-based characters; saturated: p1 + p2 overflows for huge values (p2 >= 0 here)
                long last = count == null || p1 > Long.MAX_VALUE - p2 ? Long.MAX_VALUE : p1 + p2;
                long first = Math.max(p1, 1);
                int from = skipChars(a, off, end, first - 1);
                int to = last <= first ? from : skipChars(a, from, end, last - first);
                ctx.isNull = false;
                ctx.textOffset = from;
                ctx.textLength = to - from;
                return a;
            }
            // sqlite3 func.c substrFunc, in characters
            if (p1 < 0) {
                p1 += TextBuf.chars(a, off, end - off);
                if (p1 < 0) {
                    p2 += p1;
                    if (p2 < 0) {
                        p2 = 0;
                    }
                    p1 = 0;
                }
            } else if (p1 > 0) {
                p1--;
            } else if (p2 > 0) {
                p2--;
            }
            if (negP2) {
                p1 -= p2;
                if (p1 < 0) {
                    p2 += p1;
                    p1 = 0;
                }
            }
            int from = skipChars(a, off, end, p1);
            int to = skipChars(a, from, end, p2);
            ctx.isNull = false;
            ctx.textOffset = from;
            ctx.textLength = to - from;
            return a;
        }

        @Override
        public long relations() {
            return Eval.relations(arg, start, count);
        }

        @Override
        public boolean isConstant() {
            return Eval.allConstant(arg, start, count);
        }

        @Override
        public String describe() {
            return name + "(" + arg.describe() + ", " + start.describe() + (count == null ? "" : ", " + count.describe()) + ")";
        }
    }

    /** TRIM / LTRIM / RTRIM(x[, chars]): removes any of the characters of {@code chars} (default a space). */
    static final class Trim extends Expression {
        private static final byte[] SPACE = {' '};
        final String name;
        final boolean leading;
        final boolean trailing;
        final Expression arg;
        final Expression chars;
        private final TextArg in;
        private final TextArg set;

        Trim(String name, boolean leading, boolean trailing, Expression arg, Expression chars) {
            super(SqlType.TEXT);
            this.name = name;
            this.leading = leading;
            this.trailing = trailing;
            this.arg = arg;
            this.chars = chars;
            this.in = new TextArg(arg);
            this.set = chars == null ? null : new TextArg(chars);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] s = SPACE;
            int so = 0;
            int sl = 1;
            if (set != null) {
                s = set.eval(ctx);
                if (ctx.isNull) {
                    return s;
                }
                so = ctx.textOffset;
                sl = ctx.textLength;
            }
            byte[] a = in.eval(ctx);
            if (ctx.isNull) {
                return a;
            }
            int from = ctx.textOffset;
            int to = from + ctx.textLength;
            if (leading) {
                while (from < to) {
                    int cl = Math.min(TextBuf.charLen(a[from]), to - from);
                    if (!inSet(a, from, cl, s, so, sl)) {
                        break;
                    }
                    from += cl;
                }
            }
            if (trailing) {
                while (to > from) {
                    int st = to - 1;
                    while (st > from && (a[st] & 0xC0) == 0x80) {
                        st--;
                    }
                    if (!inSet(a, st, to - st, s, so, sl)) {
                        break;
                    }
                    to = st;
                }
            }
            ctx.textOffset = from;
            ctx.textLength = to - from;
            return a;
        }

        /** Whether the character {@code a[i, i+cl)} is one of the characters of {@code s}. */
        private static boolean inSet(byte[] a, int i, int cl, byte[] s, int so, int sl) {
            for (int j = so, end = so + sl; j < end; ) {
                int jl = Math.min(TextBuf.charLen(s[j]), end - j);
                if (jl == cl && Arrays.equals(a, i, i + cl, s, j, j + jl)) {
                    return true;
                }
                j += jl;
            }
            return false;
        }

        @Override
        public long relations() {
            return Eval.relations(arg, chars);
        }

        @Override
        public boolean isConstant() {
            return Eval.allConstant(arg, chars);
        }

        @Override
        public String describe() {
            return name + "(" + arg.describe() + (chars == null ? "" : ", " + chars.describe()) + ")";
        }
    }

    /** Index of the first occurrence of {@code b[bo, bo+bl)} in {@code a[ao, ao+al)}, or -1. */
    static int indexOf(byte[] a, int ao, int al, byte[] b, int bo, int bl) {
        if (bl == 0) {
            return ao;
        }
        byte first = b[bo];
        for (int i = ao, last = ao + al - bl; i <= last; i++) {
            if (a[i] == first && Arrays.equals(a, i, i + bl, b, bo, bo + bl)) {
                return i;
            }
        }
        return -1;
    }

    /** REPLACE(x, from, to): every occurrence of {@code from} replaced; an empty {@code from} leaves x. */
    static final class Replace extends Expression {
        final Expression arg;
        final Expression from;
        final Expression to;
        private final TextArg in;
        private final TextArg fromArg;
        private final TextArg toArg;
        private final TextBuf buf = new TextBuf();

        Replace(Expression arg, Expression from, Expression to) {
            super(SqlType.TEXT);
            this.arg = arg;
            this.from = from;
            this.to = to;
            this.in = new TextArg(arg);
            this.fromArg = new TextArg(from);
            this.toArg = new TextArg(to);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] a = in.eval(ctx);
            if (ctx.isNull) {
                return a;
            }
            int ao = ctx.textOffset;
            int al = ctx.textLength;
            byte[] f = fromArg.eval(ctx);
            if (ctx.isNull) {
                return f;
            }
            int fo = ctx.textOffset;
            int fl = ctx.textLength;
            byte[] t = toArg.eval(ctx);
            if (ctx.isNull) {
                return t;
            }
            int to = ctx.textOffset;
            int tl = ctx.textLength;
            if (fl == 0) {
                ctx.isNull = false;
                ctx.textOffset = ao;
                ctx.textLength = al;
                return a;
            }
            buf.reset();
            int i = ao;
            int end = ao + al;
            while (true) {
                int hit = indexOf(a, i, end - i, f, fo, fl);
                if (hit < 0) {
                    break;
                }
                buf.put(a, i, hit - i);
                buf.put(t, to, tl);
                i = hit + fl;
            }
            buf.put(a, i, end - i);
            return buf.result(ctx);
        }

        @Override
        public long relations() {
            return Eval.relations(arg, from, to);
        }

        @Override
        public boolean isConstant() {
            return Eval.allConstant(arg, from, to);
        }

        @Override
        public String describe() {
            return "REPLACE(" + arg.describe() + ", " + from.describe() + ", " + to.describe() + ")";
        }
    }

    /** INSTR(x, y): 1-based character position of the first y in x, 0 when none. */
    static final class Instr extends Expression {
        final Expression arg;
        final Expression needle;
        private final TextArg in;
        private final TextArg find;

        Instr(Expression arg, Expression needle) {
            super(SqlType.INT);
            this.arg = arg;
            this.needle = needle;
            this.in = new TextArg(arg);
            this.find = new TextArg(needle);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            byte[] a = in.eval(ctx);
            if (ctx.isNull) {
                return 0;
            }
            int ao = ctx.textOffset;
            int al = ctx.textLength;
            byte[] b = find.eval(ctx);
            if (ctx.isNull) {
                return 0;
            }
            int hit = indexOf(a, ao, al, b, ctx.textOffset, ctx.textLength);
            return hit < 0 ? 0 : TextBuf.chars(a, ao, hit - ao) + 1;
        }

        @Override
        public long relations() {
            return Eval.relations(arg, needle);
        }

        @Override
        public boolean isConstant() {
            return Eval.allConstant(arg, needle);
        }

        @Override
        public String describe() {
            return "INSTR(" + arg.describe() + ", " + needle.describe() + ")";
        }
    }
}
