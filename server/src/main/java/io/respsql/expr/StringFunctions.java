package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * PostgreSQL's text functions: CONCAT, CONCAT_WS, SPLIT_PART, LPAD, RPAD, LEFT, RIGHT, REPEAT,
 * REVERSE, INITCAP, TRANSLATE, ASCII, CHR, MD5, STARTS_WITH, on UTF-8 characters, as PostgreSQL 15
 * defines them: NULL in, NULL out (CONCAT and CONCAT_WS skip NULL values). Arguments of other types
 * are read through their text form ({@link TextArg}). Results are written into a buffer the node
 * owns, reused row after row; a result that is a slice of an argument points into its bytes.
 */
final class StringFunctions {
    /** The longest text these functions build; sizes are checked in division form so no product overflows. */
    static final int MAX_RESULT = TextBuf.MAX;

    private StringFunctions() {
    }

    static SqlException tooLong() {
        return TextBuf.tooLong();
    }

    /** A function over argument nodes, each also read as text; the node's own result buffer. */
    abstract static class Fn extends NaryNode {
        final TextArg[] in;
        final TextBuf buf = new TextBuf();
        /** The text of the argument last read by {@link #text}: where its bytes start and how many. */
        int off;
        int len;

        Fn(SqlType type, String name, Expression... args) {
            super(type, name, args);
            this.in = new TextArg[args.length];
            for (int i = 0; i < args.length; i++) {
                in[i] = new TextArg(args[i]);
            }
        }

        /** Argument {@code i} as text: its array, with {@link #off}/{@link #len} set; null when NULL. */
        final byte[] text(int i, EvalContext ctx) {
            byte[] a = in[i].eval(ctx);
            if (ctx.isNull) {
                return null;
            }
            off = ctx.textOffset;
            len = ctx.textLength;
            return a;
        }

        /** Argument {@code i} as an integer; {@code ctx.isNull} tells NULL. */
        static long integer(Expression e, EvalContext ctx) {
            return Eval.asLong(e, ctx);
        }

        /** Sets the result to {@code a[from, to)} (a slice of an argument). */
        static byte[] slice(byte[] a, int from, int to, EvalContext ctx) {
            ctx.isNull = false;
            ctx.textOffset = from;
            ctx.textLength = to - from;
            return a;
        }

        static byte[] nullText(EvalContext ctx) {
            ctx.isNull = true;
            ctx.textOffset = 0;
            ctx.textLength = 0;
            return TextBuf.EMPTY;
        }
    }

    /**
     * A function of one text, NULL in, NULL out, that builds its result in the node's buffer from
     * the argument's bytes ({@link #write}); the buffer is reset, and its result read, here.
     */
    abstract static class OfOneText extends Fn {
        OfOneText(String name, Expression s) {
            super(SqlType.TEXT, name, s);
        }

        @Override
        public final byte[] evalText(EvalContext ctx) {
            byte[] a = text(0, ctx);
            if (a == null) {
                return nullText(ctx);
            }
            buf.reset();
            write(a, off, len);
            return buf.result(ctx);
        }

        /** Writes the result for {@code a[off, off + len)} into {@link #buf}. */
        abstract void write(byte[] a, int off, int len);
    }

    /** Index of the byte after {@code n} characters from {@code i}, not past {@code end}. */
    private static int skip(byte[] a, int i, int end, long n) {
        return TextFunctions.skipChars(a, i, end, n);
    }

    /** CONCAT(a, ...): the text forms joined, NULLs left out; never NULL. */
    static final class Concat extends Fn {
        Concat(Expression[] args) {
            super(SqlType.TEXT, "CONCAT", args);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            buf.reset();
            for (int i = 0; i < args.length; i++) {
                byte[] a = text(i, ctx);
                if (a != null) {
                    buf.put(a, off, len);
                }
            }
            return buf.result(ctx);
        }
    }

    /** CONCAT_WS(sep, a, ...): the non-NULL values joined by {@code sep}; NULL when sep is. */
    static final class ConcatWs extends Fn {
        ConcatWs(Expression[] args) {
            super(SqlType.TEXT, "CONCAT_WS", args);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] sep = text(0, ctx);
            if (sep == null) {
                return nullText(ctx);
            }
            int so = off;
            int sl = len;
            buf.reset();
            boolean first = true;
            for (int i = 1; i < args.length; i++) {
                byte[] a = text(i, ctx);
                if (a == null) {
                    continue;
                }
                if (!first) {
                    buf.put(sep, so, sl);
                }
                first = false;
                buf.put(a, off, len);
            }
            return buf.result(ctx);
        }
    }

    /** SPLIT_PART(s, delimiter, n): the n-th field (1-based; negative from the end); 0 is an error. */
    static final class SplitPart extends Fn {
        SplitPart(Expression s, Expression delim, Expression n) {
            super(SqlType.TEXT, "SPLIT_PART", s, delim, n);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long n = integer(args[2], ctx);
            if (ctx.isNull) {
                return nullText(ctx);
            }
            if (n == 0) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "field position must not be zero");
            }
            byte[] d = text(1, ctx);
            if (d == null) {
                return nullText(ctx);
            }
            int dOff = off;
            int dLen = len;
            byte[] a = text(0, ctx);
            if (a == null) {
                return nullText(ctx);
            }
            int start = off;
            int end = off + len;
            if (dLen == 0) {
                // an empty delimiter: the whole text is the one field
                return n == 1 || n == -1 ? slice(a, start, end, ctx) : slice(a, start, start, ctx);
            }
            if (n < 0) {
                int fields = 1;
                for (int i = start; (i = TextFunctions.indexOf(a, i, end - i, d, dOff, dLen)) >= 0; i += dLen) {
                    fields++;
                }
                n = fields + 1 + n;
                if (n < 1) {
                    return slice(a, start, start, ctx);
                }
            }
            int from = start;
            for (long k = 1; k < n; k++) {
                int hit = TextFunctions.indexOf(a, from, end - from, d, dOff, dLen);
                if (hit < 0) {
                    return slice(a, start, start, ctx);
                }
                from = hit + dLen;
            }
            int hit = TextFunctions.indexOf(a, from, end - from, d, dOff, dLen);
            return slice(a, from, hit < 0 ? end : hit, ctx);
        }
    }

    /** LPAD / RPAD(s, length[, fill]): filled (default a space) or cut to {@code length} characters. */
    static final class Pad extends Fn {
        private static final byte[] SPACE = {' '};
        final boolean left;

        Pad(boolean left, Expression[] args) {
            super(SqlType.TEXT, left ? "LPAD" : "RPAD", args);
            this.left = left;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long want = integer(args[1], ctx);
            if (ctx.isNull) {
                return nullText(ctx);
            }
            byte[] fill = SPACE;
            int fo = 0;
            int fl = 1;
            if (args.length == 3) {
                fill = text(2, ctx);
                if (fill == null) {
                    return nullText(ctx);
                }
                fo = off;
                fl = len;
            }
            byte[] a = text(0, ctx);
            if (a == null) {
                return nullText(ctx);
            }
            int ao = off;
            int al = len;
            if (want <= 0) {
                return slice(a, ao, ao, ctx);
            }
            int chars = TextBuf.chars(a, ao, al);
            if (chars >= want || fl == 0) {
                return slice(a, ao, skip(a, ao, ao + al, want), ctx); // cut (PostgreSQL cuts from the right for both)
            }
            long missing = want - chars;
            // whole cycles of the fill times its bytes, in division form (missing * fl overflows for huge want);
            // the last partial cycle is caught by the buffer's own limit
            int fillChars = Math.max(1, TextBuf.chars(fill, fo, fl)); // 1: stray continuation bytes only
            if (al > MAX_RESULT || missing / fillChars > (MAX_RESULT - al) / fl) {
                throw tooLong();
            }
            buf.reset();
            if (!left) {
                buf.put(a, ao, al);
            }
            int f = fo;
            int fEnd = fo + fl;
            for (long k = 0; k < missing; k++) {
                int cl = Math.min(TextBuf.charLen(fill[f]), fEnd - f);
                buf.put(fill, f, cl);
                f += cl;
                if (f >= fEnd) {
                    f = fo;
                }
            }
            if (left) {
                buf.put(a, ao, al);
            }
            return buf.result(ctx);
        }
    }

    /** LEFT / RIGHT(s, n): the first / last n characters; a negative n: all but the last / first |n|. */
    static final class LeftRight extends Fn {
        final boolean left;

        LeftRight(boolean left, Expression s, Expression n) {
            super(SqlType.TEXT, left ? "LEFT" : "RIGHT", s, n);
            this.left = left;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long n = integer(args[1], ctx);
            if (ctx.isNull) {
                return nullText(ctx);
            }
            byte[] a = text(0, ctx);
            if (a == null) {
                return nullText(ctx);
            }
            int start = off;
            int end = off + len;
            long chars = TextBuf.chars(a, start, len);
            long keep = n >= 0 ? Math.min(n, chars) : Math.max(0, chars + n);
            if (left) {
                return slice(a, start, skip(a, start, end, keep), ctx);
            }
            return slice(a, skip(a, start, end, chars - keep), end, ctx);
        }
    }

    /** REPEAT(s, n): s n times; n below 1 gives the empty text. */
    static final class Repeat extends Fn {
        Repeat(Expression s, Expression n) {
            super(SqlType.TEXT, "REPEAT", s, n);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long n = integer(args[1], ctx);
            if (ctx.isNull) {
                return nullText(ctx);
            }
            byte[] a = text(0, ctx);
            if (a == null) {
                return nullText(ctx);
            }
            buf.reset();
            if (n > 0 && len > 0) {
                if (n > MAX_RESULT / len) { // not n * len: that overflows for huge n
                    throw tooLong();
                }
                buf.ensure((int) (n * len));
                for (long k = 0; k < n; k++) {
                    buf.put(a, off, len);
                }
            }
            return buf.result(ctx);
        }
    }

    /** REVERSE(s): the characters in reverse order. */
    static final class Reverse extends OfOneText {
        Reverse(Expression s) {
            super("REVERSE", s);
        }

        @Override
        void write(byte[] a, int off, int len) {
            buf.ensure(len);
            int end = off + len;
            int w = len;
            for (int i = off; i < end; ) {
                int cl = Math.min(TextBuf.charLen(a[i]), end - i);
                w -= cl;
                System.arraycopy(a, i, buf.a, w, cl);
                i += cl;
            }
            buf.len = len;
        }
    }

    /** INITCAP(s): each word's first letter upper case, the rest lower (ASCII letters; words are runs of letters and digits). */
    static final class Initcap extends OfOneText {
        Initcap(Expression s) {
            super("INITCAP", s);
        }

        @Override
        void write(byte[] a, int off, int len) {
            buf.ensure(len);
            byte[] o = buf.a;
            boolean inWord = false;
            for (int i = 0; i < len; i++) {
                byte b = a[off + i];
                boolean letter = b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z';
                if (letter) {
                    o[i] = inWord ? TextBuf.lowerAscii(b) : b >= 'a' ? (byte) (b - 32) : b;
                } else {
                    o[i] = b;
                }
                inWord = letter || b >= '0' && b <= '9' || (b & 0x80) != 0;
            }
            buf.len = len;
        }
    }

    /** TRANSLATE(s, from, to): each character of {@code from} replaced by the one at its place in {@code to}, or dropped. */
    static final class Translate extends Fn {
        Translate(Expression s, Expression from, Expression to) {
            super(SqlType.TEXT, "TRANSLATE", s, from, to);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] t = text(2, ctx);
            if (t == null) {
                return nullText(ctx);
            }
            int to = off;
            int tl = len;
            byte[] f = text(1, ctx);
            if (f == null) {
                return nullText(ctx);
            }
            int fo = off;
            int fl = len;
            byte[] a = text(0, ctx);
            if (a == null) {
                return nullText(ctx);
            }
            buf.reset();
            int end = off + len;
            for (int i = off; i < end; ) {
                int cl = Math.min(TextBuf.charLen(a[i]), end - i);
                // the character's place in from (first match), then the character at that place in to
                int place = 0;
                int at = -1;
                for (int j = fo, fEnd = fo + fl; j < fEnd; place++) {
                    int jl = Math.min(TextBuf.charLen(f[j]), fEnd - j);
                    if (jl == cl && java.util.Arrays.equals(a, i, i + cl, f, j, j + jl)) {
                        at = place;
                        break;
                    }
                    j += jl;
                }
                if (at < 0) {
                    buf.put(a, i, cl);
                } else {
                    int k = skip(t, to, to + tl, at);
                    if (k < to + tl) {
                        buf.put(t, k, Math.min(TextBuf.charLen(t[k]), to + tl - k));
                    }
                }
                i += cl;
            }
            return buf.result(ctx);
        }
    }

    /** ASCII(s): the code point of the first character; 0 for the empty text. */
    static final class Ascii extends Fn {
        Ascii(Expression s) {
            super(SqlType.INT, "ASCII", s);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            byte[] a = text(0, ctx);
            if (a == null) {
                ctx.isNull = true;
                return 0;
            }
            ctx.isNull = false;
            if (len == 0) {
                return 0;
            }
            int b = a[off] & 0xFF;
            int cl = Math.min(TextBuf.charLen(a[off]), len);
            if (cl == 1) {
                return b;
            }
            int cp = b & (0xFF >> (cl + 1));
            for (int k = 1; k < cl; k++) {
                cp = (cp << 6) | (a[off + k] & 0x3F);
            }
            return cp;
        }
    }

    /** CHR(n): the character of code point n; 0 and values that are no character are errors. */
    static final class Chr extends Fn {
        Chr(Expression n) {
            super(SqlType.TEXT, "CHR", n);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            long cp = integer(args[0], ctx);
            if (ctx.isNull) {
                return nullText(ctx);
            }
            if (cp == 0) {
                throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
            }
            if (cp < 0) {
                throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "character number must be positive");
            }
            if (cp > 0x10FFFF) {
                throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character too large for encoding: " + cp);
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character not valid for encoding: " + cp);
            }
            buf.reset();
            int c = (int) cp;
            if (c < 0x80) {
                buf.put((byte) c);
            } else if (c < 0x800) {
                buf.put((byte) (0xC0 | c >> 6));
                buf.put((byte) (0x80 | c & 0x3F));
            } else if (c < 0x10000) {
                buf.put((byte) (0xE0 | c >> 12));
                buf.put((byte) (0x80 | c >> 6 & 0x3F));
                buf.put((byte) (0x80 | c & 0x3F));
            } else {
                buf.put((byte) (0xF0 | c >> 18));
                buf.put((byte) (0x80 | c >> 12 & 0x3F));
                buf.put((byte) (0x80 | c >> 6 & 0x3F));
                buf.put((byte) (0x80 | c & 0x3F));
            }
            return buf.result(ctx);
        }
    }

    /** MD5(s): the MD5 digest of the bytes as 32 lower-case hex digits. */
    static final class Md5 extends OfOneText {
        private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private final MessageDigest md;
        private final byte[] digest = new byte[16];

        Md5(Expression s) {
            super("MD5", s);
            try {
                md = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("MD5 is part of every Java runtime", e);
            }
        }

        @Override
        void write(byte[] a, int off, int len) {
            md.reset();
            md.update(a, off, len);
            try {
                md.digest(digest, 0, 16);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException(e);
            }
            buf.ensure(32);
            for (int i = 0; i < 16; i++) {
                buf.a[2 * i] = HEX[(digest[i] >> 4) & 0xF];
                buf.a[2 * i + 1] = HEX[digest[i] & 0xF];
            }
            buf.len = 32;
        }
    }

    /** STARTS_WITH(s, prefix): whether s begins with prefix. */
    static final class StartsWith extends Fn {
        StartsWith(Expression s, Expression prefix) {
            super(SqlType.BOOLEAN, "STARTS_WITH", s, prefix);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            byte[] p = text(1, ctx);
            if (p == null) {
                ctx.isNull = true;
                return 0;
            }
            int po = off;
            int pl = len;
            byte[] a = text(0, ctx);
            if (a == null) {
                ctx.isNull = true;
                return 0;
            }
            ctx.isNull = false;
            return pl <= len && java.util.Arrays.equals(a, off, off + pl, p, po, po + pl) ? 1 : 0;
        }
    }
}
