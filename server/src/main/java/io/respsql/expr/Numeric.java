package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * PostgreSQL's NUMERIC (issue 25): the arithmetic, rounding, scales and text of exact decimals.
 *
 * <p>A value travels as {@link Expression#evalNumeric}'s result: the unscaled {@code long} with
 * {@link EvalContext#numScale} its scale (12.30 is 1230 at scale 2) while it fits in 18 digits;
 * beyond that {@link EvalContext#numBig} holds it as a BigDecimal (the long is then meaningless),
 * and {@link #NAN} (compared by identity) is PostgreSQL's 'NaN'. The scale is PostgreSQL's
 * display scale: a value prints with exactly that many digits after the point. Rounding is half
 * away from zero ({@link RoundingMode#HALF_UP}), as PostgreSQL rounds.
 */
public final class Numeric {
    private Numeric() {
    }

    /** 'NaN': a private instance compared by identity, never used as a number. */
    public static final BigDecimal NAN = new BigDecimal(BigInteger.ZERO, 0);
    /**
     * What a scaled-long NUMERIC column stores for NaN: no value of the long form reaches it (they
     * stay within {@link #MAX_FAST}), and an index over the column puts it last, as PostgreSQL orders NaN.
     */
    public static final long STORED_NAN = Long.MAX_VALUE;
    /** Largest unscaled value of the long form: 18 digits, so rescaling by one digit never overflows unseen. */
    public static final long MAX_FAST = 999_999_999_999_999_999L;
    static final long[] POW10 = new long[19];
    /** PostgreSQL's NUMERIC_MAX_DISPLAY_SCALE / NUMERIC_MIN_SIG_DIGITS. */
    static final int MAX_DISPLAY_SCALE = 1000;
    static final int MIN_SIG_DIGITS = 16;

    static {
        long p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    // ---- the long form and BigDecimal -------------------------------------------------------------

    /** The value as a BigDecimal (the long form or {@code big}); NaN stays {@link #NAN}. */
    static BigDecimal big(long unscaled, int scale, BigDecimal big) {
        return big != null ? big : BigDecimal.valueOf(unscaled, scale);
    }

    /** Leaves {@code r} in {@code ctx} (in the long form when it fits) and returns the unscaled long. */
    static long result(EvalContext ctx, BigDecimal r) {
        ctx.isNull = false;
        if (r == NAN) {
            ctx.numBig = NAN;
            ctx.numScale = 0;
            return 0;
        }
        if (r.scale() < 0) {
            r = r.setScale(0);
        }
        ctx.numScale = r.scale();
        if (r.precision() <= 18) {
            ctx.numBig = null;
            return r.unscaledValue().longValue();
        }
        ctx.numBig = r;
        return 0;
    }

    /** Leaves the long form {@code unscaled} at {@code scale} in {@code ctx}. */
    static long fast(EvalContext ctx, long unscaled, int scale) {
        ctx.isNull = false;
        ctx.numBig = null;
        ctx.numScale = scale;
        return unscaled;
    }

    /** {@code u} at a larger scale ({@code by} more digits), or {@link Long#MIN_VALUE} when that leaves the long form. */
    static long up(long u, int by) {
        if (by == 0) {
            return u;
        }
        if (by > 18) {
            return u == 0 ? 0 : Long.MIN_VALUE;
        }
        long p = POW10[by];
        if (u > MAX_FAST / p || u < -MAX_FAST / p) {
            return Long.MIN_VALUE;
        }
        return u * p;
    }

    /** {@code u} with {@code by} fewer digits after the point, rounded half away from zero. */
    static long down(long u, int by) {
        if (by <= 0) {
            return u;
        }
        if (by > 18) {
            return 0; // |u| <= MAX_FAST < 0.5 * 10^19
        }
        long p = POW10[by];
        long q = u / p;
        long r = u % p;
        if (Math.abs(r) * 2 >= p) {
            q += u < 0 ? -1 : 1;
        }
        return q;
    }

    /** Decimal digits of {@code |u|} (1 for 0). */
    static int digits(long u) {
        long a = Math.abs(u);
        int d = 1;
        while (d < 19 && a >= POW10[d]) {
            d++;
        }
        return d;
    }

    // ---- arithmetic ---------------------------------------------------------------------------------

    public static int compare(long a, int as, BigDecimal ab, long b, int bs, BigDecimal bb) {
        if (ab == NAN || bb == NAN) {
            return ab == bb ? 0 : ab == NAN ? 1 : -1; // NaN equals NaN and is above every number
        }
        if (ab == null && bb == null) {
            if (as == bs) {
                return Long.compare(a, b);
            }
            if (as < bs) {
                long x = up(a, bs - as);
                if (x != Long.MIN_VALUE) {
                    return Long.compare(x, b);
                }
            } else {
                long y = up(b, as - bs);
                if (y != Long.MIN_VALUE) {
                    return Long.compare(a, y);
                }
            }
        }
        return big(a, as, ab).compareTo(big(b, bs, bb));
    }

    /** Sets ctx to a + b (or a - b when {@code subtract}); scale max(as, bs). */
    public static long add(EvalContext ctx, long a, int as, BigDecimal ab, long b, int bs, BigDecimal bb, boolean subtract) {
        if (ab == NAN || bb == NAN) {
            return result(ctx, NAN);
        }
        if (ab == null && bb == null) {
            int s = Math.max(as, bs);
            long x = up(a, s - as);
            long y = up(b, s - bs);
            if (x != Long.MIN_VALUE && y != Long.MIN_VALUE) {
                long r = subtract ? x - y : x + y; // |x|, |y| < 10^18: no overflow
                if (r <= MAX_FAST && r >= -MAX_FAST) {
                    return fast(ctx, r, s);
                }
            }
        }
        BigDecimal x = big(a, as, ab);
        BigDecimal y = big(b, bs, bb);
        return result(ctx, subtract ? x.subtract(y) : x.add(y));
    }

    /** Sets ctx to a * b; scale as + bs. */
    static long multiply(EvalContext ctx, long a, int as, BigDecimal ab, long b, int bs, BigDecimal bb) {
        if (ab == NAN || bb == NAN) {
            return result(ctx, NAN);
        }
        if (ab == null && bb == null) {
            long hi = Math.multiplyHigh(a, b);
            long lo = a * b;
            if ((hi == 0 && lo >= 0 && lo <= MAX_FAST) || (hi == -1 && lo < 0 && lo >= -MAX_FAST)) {
                return fast(ctx, lo, as + bs);
            }
        }
        return result(ctx, big(a, as, ab).multiply(big(b, bs, bb)));
    }

    /** PostgreSQL's select_div_scale: the scale of a / b. */
    public static int divScale(long a, int as, BigDecimal ab, long b, int bs, BigDecimal bb) {
        long w1 = weightAndFirst(a, as, ab);
        long w2 = weightAndFirst(b, bs, bb);
        int weight1 = (int) (w1 >> 32);
        int first1 = (int) w1;
        int weight2 = (int) (w2 >> 32);
        int first2 = (int) w2;
        int qweight = weight1 - weight2;
        if (first1 <= first2) {
            qweight--;
        }
        int rscale = MIN_SIG_DIGITS - qweight * 4;
        rscale = Math.max(rscale, Math.max(as, bs));
        rscale = Math.max(rscale, 0);
        return Math.min(rscale, MAX_DISPLAY_SCALE);
    }

    /**
     * PostgreSQL's normalized weight (in base-10000 digits) and first base-10000 digit of the
     * value, packed as {@code weight << 32 | first}; 0 for zero.
     */
    private static long weightAndFirst(long u, int s, BigDecimal big) {
        int d;
        if (big != null) {
            if (big.signum() == 0) {
                return 0;
            }
            d = big.precision();
            s = big.scale();
        } else {
            if (u == 0) {
                return 0;
            }
            d = digits(u);
        }
        int e = d - 1 - s; // the leading digit is 10^e
        int w = Math.floorDiv(e, 4);
        int shift = s + 4 * w;
        int first;
        if (big != null) {
            first = big.abs().movePointLeft(4 * w).setScale(0, RoundingMode.DOWN).intValue();
        } else if (shift >= 0) {
            first = (int) (Math.abs(u) / POW10[shift]);
        } else {
            first = (int) (Math.abs(u) * POW10[-shift]);
        }
        return ((long) w << 32) | (first & 0xFFFFFFFFL);
    }

    /** Sets ctx to a / b at PostgreSQL's scale; 22012 on a zero divisor. */
    public static long divide(EvalContext ctx, long a, int as, BigDecimal ab, long b, int bs, BigDecimal bb) {
        if (ab == NAN || bb == NAN) {
            return result(ctx, NAN);
        }
        if (bb == null ? b == 0 : bb.signum() == 0) {
            throw new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        int rscale = divScale(a, as, ab, b, bs, bb);
        if (ab == null && bb == null) {
            long n = up(a, rscale - as + bs);
            if (n != Long.MIN_VALUE) {
                long q = n / b;
                long r = Math.abs(n % b);
                long ab2 = Math.abs(b);
                if (r >= ab2 - r) {
                    q += (n < 0) != (b < 0) ? -1 : 1;
                }
                return fast(ctx, q, rscale);
            }
        }
        return result(ctx, big(a, as, ab).divide(big(b, bs, bb), rscale, RoundingMode.HALF_UP));
    }

    /** Sets ctx to a % b (the sign of a; scale max(as, bs)); 22012 on a zero divisor. */
    static long modulo(EvalContext ctx, long a, int as, BigDecimal ab, long b, int bs, BigDecimal bb) {
        if (ab == NAN || bb == NAN) {
            return result(ctx, NAN);
        }
        if (bb == null ? b == 0 : bb.signum() == 0) {
            throw new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        if (ab == null && bb == null) {
            int s = Math.max(as, bs);
            long x = up(a, s - as);
            long y = up(b, s - bs);
            if (x != Long.MIN_VALUE && y != Long.MIN_VALUE) {
                return fast(ctx, x % y, s);
            }
        }
        BigDecimal x = big(a, as, ab);
        BigDecimal y = big(b, bs, bb);
        return result(ctx, x.remainder(y).setScale(Math.max(x.scale(), y.scale()), RoundingMode.UNNECESSARY));
    }

    /**
     * Rounds ctx's value to a column's {@code numeric(p,s)} (typmod {@code (p << 16) | s}): to
     * scale s, then 22003 "numeric field overflow" when it needs more than p - s integer digits.
     * Returns the unscaled long at scale s when it fits (ctx.numBig null), else leaves numBig set.
     */
    static long applyTypmod(EvalContext ctx, long u, int scale, BigDecimal big, int typmod) {
        if (typmod < 0) {
            ctx.numScale = scale;
            ctx.numBig = big;
            return u;
        }
        int p = typmod >>> 16;
        int s = typmod & 0xFFFF;
        if (big == NAN) {
            ctx.numBig = NAN;
            return 0;
        }
        if (big == null) {
            long r = s >= scale ? up(u, s - scale) : down(u, scale - s);
            if (r != Long.MIN_VALUE) {
                if (p - s < 19 && Math.abs(r) >= (p <= 18 ? POW10[p] : Long.MAX_VALUE)) {
                    throw overflow(p, s);
                }
                ctx.numBig = null;
                ctx.numScale = s;
                return r;
            }
        }
        BigDecimal v = big(u, scale, big).setScale(s, RoundingMode.HALF_UP);
        if (v.signum() != 0 && v.precision() - v.scale() > p - s) {
            throw overflow(p, s);
        }
        return result(ctx, v);
    }

    static SqlException overflow(int p, int s) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow: a field with precision " + p
                + ", scale " + s + " must round to an absolute value less than " + (p == s ? "1" : "10^" + (p - s)));
    }

    // ---- storing ------------------------------------------------------------------------------------

    /**
     * {@code x} (NUMERIC, an integer, DOUBLE or TEXT) as a value for a NUMERIC column of type
     * modifier {@code typmod}: rounded to its scale, 22003 past its precision, 22P02 for text
     * that is no number. NULL in {@code ctx.isNull}; the value as {@link Expression#evalNumeric}
     * leaves it (a column of p <= 18 always gets the long form at its scale).
     */
    public static long evalForColumn(Expression x, EvalContext ctx, int typmod) {
        long u;
        switch (x.type()) {
            case NULL:
                ctx.isNull = true;
                return 0;
            case DOUBLE: {
                double d = x.evalDouble(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                u = fromDouble(ctx, d);
                break;
            }
            case TEXT: {
                byte[] b = x.evalText(ctx);
                if (ctx.isNull) {
                    return 0;
                }
                u = parse(ctx, b, ctx.textOffset, ctx.textLength);
                break;
            }
            default:
                if (x.type() != SqlType.NUMERIC && !x.type().isInteger()) {
                    throw new SqlException(SqlState.DATATYPE_MISMATCH, "column is of type numeric but expression is of type "
                            + Expressions.pgName(x.type()));
                }
                u = x.evalNumeric(ctx);
                if (ctx.isNull) {
                    return 0;
                }
        }
        return applyTypmod(ctx, u, ctx.numScale, ctx.numBig, typmod);
    }

    /**
     * Text (a COPY field) as a value for a NUMERIC column of type modifier {@code typmod}, as
     * {@link #evalForColumn} stores a TEXT value: rounded to its scale, 22003 past its precision,
     * 22P02 for text that is no number.
     */
    public static long parseForColumn(EvalContext ctx, byte[] b, int off, int len, int typmod) {
        ctx.isNull = false;
        long u = parse(ctx, b, off, len);
        return applyTypmod(ctx, u, ctx.numScale, ctx.numBig, typmod);
    }

    /** The text of the value {@code u} / ctx as UTF-8 bytes (a new array). */
    public static byte[] textBytes(long u, EvalContext ctx) {
        return text(u, ctx.numScale, ctx.numBig).getBytes(StandardCharsets.US_ASCII);
    }

    /** The value {@code u} / ctx as a double. */
    public static double doubleOf(long u, EvalContext ctx) {
        return toDouble(u, ctx.numScale, ctx.numBig);
    }

    /** The value {@code u} / ctx rounded to an integer of {@code bits} (22003 outside it). */
    public static long longOf(long u, EvalContext ctx, int bits) {
        return toLong(u, ctx.numScale, ctx.numBig, bits);
    }

    // ---- text ----------------------------------------------------------------------------------------

    /** The text of the long form into {@code out} from 0 ({@code out} at least scale + 22 bytes); returns its length. */
    static int format(long u, int scale, byte[] out) {
        int pos = out.length;
        long a = Math.abs(u);
        for (int k = 0; k < scale; k++) {
            out[--pos] = (byte) ('0' + (a % 10));
            a /= 10;
        }
        if (scale > 0) {
            out[--pos] = '.';
        }
        do {
            out[--pos] = (byte) ('0' + (a % 10));
            a /= 10;
        } while (a != 0);
        if (u < 0) {
            out[--pos] = '-';
        }
        int len = out.length - pos;
        System.arraycopy(out, pos, out, 0, len);
        return len;
    }

    // ---- match keys (textfn) ----------------------------------------------------------------------

    /** Bytes of a long-form key: a tag, the unscaled long (trailing zeros stripped) big-endian, the scale. */
    public static final int KEY_LONG_BYTES = 11;
    private static final byte KEY_LONG = 1;
    private static final byte KEY_BIG = 2;
    private static final byte KEY_NAN = 3;

    /**
     * Writes the value's match key into {@code dst} at {@code off}: the bytes every equal value
     * shares whatever its scale ({@code 1}, {@code 1.0}, {@code 1.00}, {@code -0.0} and {@code 0}
     * alike; NaN equals only NaN), as PostgreSQL's numeric equality and hashing see them. Up to 18
     * digits (after stripping trailing zeros) it is the unscaled long and the scale, built without
     * allocation; beyond that the stripped value's plain text (allocates; such values are rare).
     * Returns the length written, or minus the length needed when {@code dst} has less room (then
     * nothing is written). Not an ordering: for grouping, DISTINCT, set operations and hash matching.
     */
    public static int writeKey(long u, int scale, BigDecimal big, byte[] dst, int off) {
        if (big == NAN) {
            if (dst.length - off < 1) {
                return -1;
            }
            dst[off] = KEY_NAN;
            return 1;
        }
        if (big == null && scale >= 0) {
            while (scale > 0 && u % 10 == 0) {
                u /= 10;
                scale--;
            }
            return longKey(u, scale, dst, off);
        }
        BigDecimal s = big(u, scale, big);
        s = s.signum() == 0 ? BigDecimal.ZERO : s.stripTrailingZeros();
        if (s.scale() < 0) {
            s = s.setScale(0);
        }
        if (s.unscaledValue().bitLength() < 64) {
            return longKey(s.unscaledValue().longValue(), s.scale(), dst, off);
        }
        byte[] t = s.toPlainString().getBytes(StandardCharsets.US_ASCII);
        if (dst.length - off < t.length + 1) {
            return -(t.length + 1);
        }
        dst[off] = KEY_BIG;
        System.arraycopy(t, 0, dst, off + 1, t.length);
        return t.length + 1;
    }

    private static int longKey(long u, int scale, byte[] dst, int off) {
        if (dst.length - off < KEY_LONG_BYTES) {
            return -KEY_LONG_BYTES;
        }
        dst[off] = KEY_LONG;
        for (int k = 0; k < 8; k++) {
            dst[off + 1 + k] = (byte) (u >>> (56 - 8 * k));
        }
        dst[off + 9] = (byte) (scale >>> 8);
        dst[off + 10] = (byte) scale;
        return KEY_LONG_BYTES;
    }

    /**
     * The value's text (as PostgreSQL prints it) into {@code dst} at {@code off}; returns its
     * length, or minus the length needed when {@code dst} has less room. Allocates only for a
     * value beyond the long form.
     */
    public static int writeText(long u, int scale, BigDecimal big, byte[] dst, int off) {
        if (big != null || scale < 0) {
            byte[] t = text(u, scale, big).getBytes(StandardCharsets.US_ASCII);
            if (dst.length - off < t.length) {
                return -t.length;
            }
            System.arraycopy(t, 0, dst, off, t.length);
            return t.length;
        }
        int need = scale + 22;
        if (dst.length - off < need) {
            return -need;
        }
        // format's digits from the end of the room, then moved to off
        int pos = off + need;
        long a = Math.abs(u);
        for (int k = 0; k < scale; k++) {
            dst[--pos] = (byte) ('0' + (a % 10));
            a /= 10;
        }
        if (scale > 0) {
            dst[--pos] = '.';
        }
        do {
            dst[--pos] = (byte) ('0' + (a % 10));
            a /= 10;
        } while (a != 0);
        if (u < 0) {
            dst[--pos] = '-';
        }
        int len = off + need - pos;
        System.arraycopy(dst, pos, dst, off, len);
        return len;
    }

    /** The text of a value (either form), as PostgreSQL prints it. */
    public static String text(long u, int scale, BigDecimal big) {
        if (big == NAN) {
            return "NaN";
        }
        if (big != null) {
            return big.toPlainString();
        }
        byte[] b = new byte[scale + 22];
        return new String(b, 0, format(u, scale, b), StandardCharsets.US_ASCII);
    }

    /**
     * Parses text as a NUMERIC into ctx (22P02 naming the text when it is none): optional
     * spaces and sign, digits with an optional point, an optional exponent, or 'NaN'. Up to 18
     * significant digits without an exponent allocate nothing.
     */
    static long parse(EvalContext ctx, byte[] b, int off, int len) {
        int end = off + len;
        int i = NumberText.skipSpaces(b, off, end);
        end = NumberText.trimSpaces(b, i, end);
        int start = i;
        boolean neg = false;
        if (i < end && (b[i] == '-' || b[i] == '+')) {
            neg = b[i] == '-';
            i++;
        }
        long u = 0;
        int digits = 0;
        int sig = 0;
        int scale = -1;
        boolean slow = false;
        for (; i < end; i++) {
            byte c = b[i];
            if (c >= '0' && c <= '9') {
                digits++;
                if (scale >= 0) {
                    scale++;
                }
                if (sig > 0 || c != '0') {
                    sig++;
                }
                if (sig > 18) {
                    slow = true;
                } else {
                    u = u * 10 + (c - '0');
                }
            } else if (c == '.' && scale < 0) {
                scale = 0;
            } else {
                break;
            }
        }
        if (i == end && digits > 0) {
            if (!slow) {
                return fast(ctx, neg ? -u : u, Math.max(scale, 0));
            }
            return result(ctx, new BigDecimal(new String(b, start, end - start, StandardCharsets.US_ASCII)));
        }
        String s = new String(b, off, len, StandardCharsets.UTF_8);
        String t = s.trim();
        if (t.equalsIgnoreCase("nan")) {
            return result(ctx, NAN);
        }
        if (digits > 0 && (b[i] == 'e' || b[i] == 'E')) {
            try {
                BigDecimal v = new BigDecimal(t.startsWith("+") ? t.substring(1) : t);
                return result(ctx, v.scale() < 0 ? v.setScale(0) : v);
            } catch (NumberFormatException | ArithmeticException e) {
                // below
            }
        }
        throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \"" + s + "\"");
    }

    static long parse(EvalContext ctx, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return parse(ctx, b, 0, b.length);
    }

    /** The value as a double (PostgreSQL's numeric to float8: the nearest double). */
    static double toDouble(long u, int scale, BigDecimal big) {
        if (big == NAN) {
            return Double.NaN;
        }
        if (big == null && scale <= 22 && Math.abs(u) < (1L << 53)) {
            return scale == 0 ? (double) u : u / DOUBLE_POW10[scale];
        }
        return big(u, scale, big).doubleValue();
    }

    private static final double[] DOUBLE_POW10 = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < DOUBLE_POW10.length; i++) {
            DOUBLE_POW10[i] = p;
            p *= 10;
        }
    }

    /** A double as NUMERIC (PostgreSQL's float8 to numeric: its shortest text, 15 significant digits at most). */
    static long fromDouble(EvalContext ctx, double d) {
        if (Double.isNaN(d)) {
            return result(ctx, NAN);
        }
        if (Double.isInfinite(d)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot convert infinity to numeric");
        }
        BigDecimal v = new BigDecimal(d).round(new java.math.MathContext(15, RoundingMode.HALF_EVEN)).stripTrailingZeros();
        return result(ctx, v.scale() < 0 ? v.setScale(0) : v);
    }

    /** The value rounded to an integer (half away from zero) as a long; 22003 when it does not fit {@code bits}. */
    static long toLong(long u, int scale, BigDecimal big, int bits) {
        if (big == NAN) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot convert NaN to " + (bits == 64 ? "bigint" : "integer"));
        }
        long v;
        if (big == null) {
            v = down(u, scale);
        } else {
            BigDecimal r = big.setScale(0, RoundingMode.HALF_UP);
            if (r.unscaledValue().bitLength() > 63) {
                throw rangeError(bits);
            }
            v = r.longValueExact();
        }
        if (bits == 32 && v != (int) v || bits == 16 && v != (short) v) {
            throw rangeError(bits);
        }
        return v;
    }

    private static SqlException rangeError(int bits) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, bits == 64 ? "bigint out of range"
                : bits == 16 ? "smallint out of range" : "integer out of range");
    }
}
