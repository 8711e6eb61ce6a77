package io.respsql.expr;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The text form of a value, as {@code ||}, CAST AS TEXT, LENGTH and the text functions see it:
 * integers plainly, doubles as SQLite prints them ({@code %!.15g}: 15 significant digits,
 * trailing zeros dropped, at least one digit after the point: {@code 1.0}, {@code 0.5},
 * {@code 1.0e+20}), BOOLEAN as {@code true}/{@code false} (PostgreSQL; SQLite has no BOOLEAN),
 * DATE {@code YYYY-MM-DD}, TIMESTAMP {@code YYYY-MM-DD HH:MM:SS[.ffffff]}.
 */
final class TextForm {
    private TextForm() {
    }

    private static final byte[] TRUE = TextBuf.utf8("true");
    private static final byte[] FALSE = TextBuf.utf8("false");

    /** Appends the text form of {@code e}'s value to {@code out}; false (and nothing appended) for NULL. */
    static boolean append(Expression e, EvalContext ctx, TextBuf out) {
        if (e.type().isArray()) { // arrays: their text is their value
            byte[] a = e.evalText(ctx);
            if (ctx.isNull) {
                return false;
            }
            out.put(a, ctx.textOffset, ctx.textLength);
            return true;
        }
        switch (e.type()) {
            case TEXT:
            case NUMERIC: { // NUMERIC's evalText is its text as PostgreSQL prints it
                byte[] a = e.evalText(ctx);
                if (ctx.isNull) {
                    return false;
                }
                out.put(a, ctx.textOffset, ctx.textLength);
                return true;
            }
            case DOUBLE: {
                double d = e.evalDouble(ctx);
                if (ctx.isNull) {
                    return false;
                }
                appendDouble(d, out);
                return true;
            }
            case NULL:
                ctx.isNull = true;
                return false;
            case INTERVAL: {
                byte[] a = e.evalText(ctx);
                if (ctx.isNull) {
                    return false;
                }
                int o = ctx.textOffset;
                Interval.format(Interval.months(a, o), Interval.days(a, o), Interval.micros(a, o), out);
                return true;
            }
            default: {
                long v = e.evalLong(ctx);
                if (ctx.isNull) {
                    return false;
                }
                appendLongCarried(e.type(), v, out);
                return true;
            }
        }
    }

    static void appendLongCarried(SqlType t, long v, TextBuf out) {
        switch (t) {
            case BOOLEAN:
                byte[] w = v != 0 ? TRUE : FALSE;
                out.put(w, 0, w.length);
                break;
            case DATE:
                Temporal.appendDate(v, out);
                break;
            case TIMESTAMP:
                Temporal.appendTimestamp(v, out);
                break;
            default:
                appendLong(v, out);
        }
    }

    static void appendLong(long v, TextBuf out) {
        out.ensure(20);
        byte[] a = out.a;
        int pos = out.len;
        if (v == Long.MIN_VALUE) {
            byte[] m = MIN_LONG;
            System.arraycopy(m, 0, a, pos, m.length);
            out.len += m.length;
            return;
        }
        if (v < 0) {
            a[pos++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v / 10; t != 0; t /= 10) {
            digits++;
        }
        for (int i = pos + digits - 1; i >= pos; i--) {
            a[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        out.len = pos + digits;
    }

    private static final byte[] MIN_LONG = TextBuf.utf8(Long.toString(Long.MIN_VALUE));

    /**
     * SQLite's {@code %!.15g}. Exact and allocation-free for {@code 1e-8 <= |v| < 1e37}
     * ({@link #digits15}); other magnitudes go through BigDecimal (allocates; rare).
     */
    static void appendDouble(double v, TextBuf out) {
        out.ensure(32);
        if (Double.isNaN(v)) {
            putAscii(out, "NaN");
            return;
        }
        if (Double.isInfinite(v)) {
            putAscii(out, v > 0 ? "Infinity" : "-Infinity"); // PostgreSQL's words, as NaN's
            return;
        }
        if (v == 0) {
            putAscii(out, "0.0");
            return;
        }
        boolean negative = v < 0;
        double a = Math.abs(v);
        int e10 = (int) Math.floor(Math.log10(a));
        long m = -1;
        // log10 may be off by one at powers of ten: try the neighbours
        for (int k = 0; k < 3 && m < 0; k++) {
            int e = k == 0 ? e10 : k == 1 ? e10 - 1 : e10 + 1;
            m = digits15(a, e);
            if (m >= 0) {
                e10 = e;
            }
        }
        if (m == 1_000_000_000_000_000L) {
            m = 100_000_000_000_000L;
            e10++;
        }
        if (m < 0) {
            BigDecimal bd = new BigDecimal(a).round(new MathContext(15, RoundingMode.HALF_UP));
            m = bd.unscaledValue().longValueExact();
            int digits = Long.toString(m).length();
            e10 = digits - bd.scale() - 1;
            while (digits < 15) {
                m *= 10;
                digits++;
            }
            while (digits > 15) {
                m /= 10;
                digits--;
            }
        }
        layout(negative, m, e10, out);
    }

    private static final long[] LPOW10 = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < LPOW10.length; i++) {
            LPOW10[i] = p;
            p *= 10;
        }
    }

    /**
     * {@code a · 10^(14-e)} rounded half up to an integer, when that lies in [1e14, 1e15] and the
     * power of ten is exact (-8 <= e <= 36); else -1. The rounding is decided on the exact
     * product or quotient: an FMA gives the residual of the one rounded operation, and since the
     * scaled value's fraction is a multiple of its ulp, only an exact .5 needs the residual's sign.
     */
    private static long digits15(double a, int e) {
        double p;
        double residual;
        if (e <= 14) {
            if (e < -8) {
                return -1;
            }
            double scale = Eval.POW10[14 - e];
            p = a * scale;
            residual = Math.fma(a, scale, -p); // exact: a·scale - p
        } else {
            if (e - 14 > 22) {
                return -1;
            }
            double div = Eval.POW10[e - 14];
            p = a / div;
            residual = Math.fma(-p, div, a); // exact: a - p·div, same sign as the true quotient - p
        }
        if (!(p >= 1e14 && p < 1e15)) {
            return -1;
        }
        double fl = Math.floor(p);
        double frac = p - fl;
        boolean up = frac > 0.5 || (frac == 0.5 && residual >= 0); // an exact tie rounds up, as SQLite does
        return (long) fl + (up ? 1 : 0);
    }

    /** {@code m} has exactly 15 digits; the value is {@code m · 10^(e10-14)}. At most 22 bytes. */
    private static void layout(boolean negative, long m, int e10, TextBuf out) {
        int nd = 15;
        while (m % 10 == 0 && nd > 1) {
            m /= 10;
            nd--;
        }
        byte[] a = out.a;
        int pos = out.len;
        if (negative) {
            a[pos++] = '-';
        }
        if (e10 < -4 || e10 >= 15) {
            a[pos++] = digit(m, nd, 0);
            a[pos++] = '.';
            if (nd == 1) {
                a[pos++] = '0';
            } else {
                for (int i = 1; i < nd; i++) {
                    a[pos++] = digit(m, nd, i);
                }
            }
            a[pos++] = 'e';
            int e = e10;
            a[pos++] = (byte) (e < 0 ? '-' : '+');
            e = Math.abs(e);
            if (e >= 100) {
                a[pos++] = (byte) ('0' + e / 100);
            }
            a[pos++] = (byte) ('0' + e / 10 % 10);
            a[pos++] = (byte) ('0' + e % 10);
        } else if (e10 >= 0) {
            for (int i = 0; i <= e10; i++) {
                a[pos++] = i < nd ? digit(m, nd, i) : (byte) '0';
            }
            a[pos++] = '.';
            if (nd <= e10 + 1) {
                a[pos++] = '0';
            } else {
                for (int i = e10 + 1; i < nd; i++) {
                    a[pos++] = digit(m, nd, i);
                }
            }
        } else {
            a[pos++] = '0';
            a[pos++] = '.';
            for (int i = 0; i < -e10 - 1; i++) {
                a[pos++] = '0';
            }
            for (int i = 0; i < nd; i++) {
                a[pos++] = digit(m, nd, i);
            }
        }
        out.len = pos;
    }

    /** Digit {@code i} (0 = most significant) of the {@code nd}-digit number {@code m}. */
    private static byte digit(long m, int nd, int i) {
        return (byte) ('0' + m / LPOW10[nd - 1 - i] % 10);
    }

    private static void putAscii(TextBuf out, String s) {
        for (int i = 0; i < s.length(); i++) {
            out.put((byte) s.charAt(i));
        }
    }

    /** For describe() and error messages (allocates). */
    static String doubleText(double v) {
        TextBuf b = new TextBuf();
        appendDouble(v, b);
        return TextBuf.string(b.a, 0, b.len);
    }

    static String longCarriedText(SqlType t, long v) {
        TextBuf b = new TextBuf();
        appendLongCarried(t, v, b);
        return TextBuf.string(b.a, 0, b.len);
    }
}
