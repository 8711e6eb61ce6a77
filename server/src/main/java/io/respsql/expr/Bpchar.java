package io.respsql.expr;

/**
 * PostgreSQL's {@code character(n)} (bpchar) in its dialect (issue 24). A char value is held in
 * its canonical form, without trailing blanks (blanks are insignificant for char: 'ab' and
 * 'ab   ' are one value), so equality, grouping, DISTINCT, joins and index probes work on the
 * stored bytes as for text, and length(), || and ::text see what PostgreSQL's char-to-text
 * conversion gives. The padding to n is put back where the value is shown ({@link Pad}).
 */
public final class Bpchar {
    private Bpchar() {
    }

    /** {@code x::char(n)}: at most n characters (an explicit cast cuts silently), trailing blanks dropped; n -1: bpchar without length. */
    public static Expression cast(Expression textArg, int n) {
        return new Cast(textArg, n); // not folded: the binder reads its length (a literal beside it is a char value)
    }

    /** {@code e} shown as {@code character(n)}: blank-padded to n characters. */
    public static Expression pad(Expression e, int n) {
        return e instanceof Pad ? e : new Pad(e, n);
    }

    /** The length n a shown value is padded to when {@code e} is a {@link Pad}, else -1. */
    public static int paddedLength(Expression e) {
        return e instanceof Pad p ? p.n : -1;
    }

    /** The value a {@link Pad} shows, unpadded (to sort by); {@code e} itself otherwise. */
    public static Expression unpadded(Expression e) {
        return e instanceof Pad p ? p.arg : e;
    }

    /** The length of {@code x::char(n)} when {@code e} is one, else -1 (-2: bpchar without length). */
    public static int castLength(Expression e) {
        return e instanceof Cast c ? (c.n < 0 ? -2 : c.n) : -1;
    }

    static final class Cast extends UnaryNode {
        final int n;

        Cast(Expression arg, int n) {
            super(SqlType.TEXT, arg);
            this.n = n;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] a = arg.evalText(ctx);
            if (ctx.isNull) {
                return a;
            }
            int off = ctx.textOffset;
            int end = off + ctx.textLength;
            if (n >= 0) {
                int i = off;
                for (int k = 0; k < n && i < end; k++) {
                    i += TextBuf.charLen(a[i]);
                }
                end = Math.min(i, end);
            }
            while (end > off && a[end - 1] == ' ') {
                end--;
            }
            ctx.textLength = end - off;
            return a;
        }

        @Override
        public String describe() {
            return "(" + arg.describe() + ")::" + (n < 0 ? "bpchar" : "character(" + n + ")");
        }
    }

    static final class Pad extends UnaryNode {
        final int n;
        private final TextBuf buf = new TextBuf();

        Pad(Expression arg, int n) {
            super(SqlType.TEXT, arg);
            this.n = n;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            byte[] a = arg.evalText(ctx);
            if (ctx.isNull) {
                return a;
            }
            int off = ctx.textOffset;
            int len = ctx.textLength;
            int chars = TextBuf.chars(a, off, len);
            if (chars >= n) {
                return a;
            }
            int pad = n - chars;
            buf.reset();
            buf.ensure(len + pad);
            byte[] o = buf.a;
            System.arraycopy(a, off, o, 0, len);
            java.util.Arrays.fill(o, len, len + pad, (byte) ' ');
            buf.len = len + pad;
            return buf.result(ctx);
        }

        @Override
        public String describe() {
            return arg.describe();
        }
    }

    /** OCTET_LENGTH: bytes of the text (of a number: of its text form). */
    static final class OctetLength extends UnaryNode {
        private final TextArg in;

        OctetLength(Expression arg) {
            super(SqlType.INT, arg);
            this.in = new TextArg(arg);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            in.eval(ctx);
            return ctx.isNull ? 0 : ctx.textLength;
        }

        @Override
        public String describe() {
            return "OCTET_LENGTH(" + arg.describe() + ")";
        }
    }
}
