package io.respsql.result;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;

/**
 * The text of a double in shortest round-trip form: the fewest significant digits that parse
 * back to the same double, the closest such decimal to the exact value when several have that
 * length (at least two digits, as Java writes {@code d.dE..}). This is what Java 19+'s
 * {@code Double.toString} returns (JDK-4511638). Java 17's does not always: it can give one digit
 * too many ({@code 8.0063187671350336E17} for {@code 8.006318767135034E17}, about 2% of random
 * doubles), so the typed reply form uses Raffaello Giulietti's Schubfach, the algorithm Java 19
 * adopted, as shipped in jackson-core. The 2010 reply form keeps {@code Double.toString}'s text, so its
 * replies stay byte-identical; it uses {@link #plain} where that answers, since there the two agree
 * (no difference in 22M decimals of up to 16 digits; Rows2010DoubleTest).
 */
public final class ShortestDouble {
    private ShortestDouble() {
    }

    /** Java's layout ({@code 0.1}, {@code 1.0E21}, {@code -0.0}, {@code 4.9E-324}) with the shortest digits. */
    public static String text(double v) {
        return DoubleToDecimal.toString(v);
    }

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22};
    private static final double TWO_53 = 9007199254740992.0;

    /**
     * {@link #text} without allocating, for the values most tables hold: not whole, with
     * {@code 1e-3 <= |v| < 1e7} (where Java writes plain digits) and a decimal of at most 15
     * significant digits or so. Writes the text at the start of {@code out} (32 bytes suffice)
     * and returns its length, or -1 when {@link #text} must be used.
     *
     * <p>Why it is exact: for an integer {@code m < 2^53} and {@code k <= 22}, {@code m / 10^k}
     * is one correctly rounded IEEE division of two exact doubles, so it is the double nearest
     * the decimal {@code m·10^-k}, the one {@code Double.parseDouble} gives (Clinger's fast path).
     * The smallest {@code k} at which the nearest {@code m} parses back to {@code v} gives the
     * fewest digits; when a neighbour {@code m±1} parses back too, the closest of them is not
     * obvious and Schubfach decides.
     */
    public static int plain(double v, byte[] out) {
        double a = Math.abs(v);
        if (!(a >= 1e-3 && a < 1e7) || a == Math.rint(a)) {
            return -1;
        }
        for (int k = 1; k < POW10.length; k++) {
            double p = a * POW10[k];
            if (p >= TWO_53) {
                return -1;
            }
            double m = Math.rint(p);
            if (m / POW10[k] == a) {
                if ((m - 1) / POW10[k] == a || (m + 1) / POW10[k] == a) {
                    return -1;
                }
                return layout(v < 0, (long) m, k, out);
            }
        }
        return -1;
    }

    /** {@code [-]int.frac} of {@code m·10^-k} ({@code m < 2^53}), trailing zeros of the fraction dropped. */
    private static int layout(boolean negative, long m, int k, byte[] out) {
        int pos = 0;
        if (negative) {
            out[pos++] = '-';
        }
        int len = 1;
        for (long t = m / 10; t != 0; t /= 10) {
            len++;
        }
        int intDigits = len - k;
        if (intDigits <= 0) {
            out[pos++] = '0';
            out[pos++] = '.';
            for (int i = 0; i < -intDigits; i++) {
                out[pos++] = '0';
            }
            digits(m, out, pos, len);
            pos += len;
        } else {
            long scale = 1;
            for (int i = 0; i < k; i++) {
                scale *= 10; // k < len <= 16: no overflow
            }
            digits(m / scale, out, pos, intDigits);
            pos += intDigits;
            out[pos++] = '.';
            digits(m % scale, out, pos, k);
            pos += k;
        }
        while (out[pos - 1] == '0' && out[pos - 2] != '.') {
            pos--;
        }
        return pos;
    }

    /** {@code v} as exactly {@code width} digits (zero-padded) at {@code out[at]}. */
    private static void digits(long v, byte[] out, int at, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
    }
}
