package io.respsql.expr;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Reading numbers out of TEXT. CAST follows SQLite: the longest numeric prefix counts
 * ({@code '12abc'} is 12, {@code 'abc'} is 0, leading spaces skipped, an integer beyond 64 bits
 * clamps). A TEXT constant compared with a number must be a number as a whole ({@link #whole}).
 */
public final class NumberText {
    private NumberText() {
    }

    private static final Pattern NUMBER = Pattern.compile("\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?\\s*");

    /** SQLite's CAST(text AS INTEGER): the leading integer, 0 when none, clamped to 64 bits. */
    static long intPrefix(byte[] a, int off, int len) {
        int end = off + len;
        int i = firstNonBlank(a, off, end);
        boolean negative = false;
        if (i < end && (a[i] == '-' || a[i] == '+')) {
            negative = a[i] == '-';
            i++;
        }
        long v = 0;
        boolean overflow = false;
        while (i < end && a[i] >= '0' && a[i] <= '9') {
            int d = a[i++] - '0';
            if (!overflow) {
                // accumulate negatively: Long.MIN_VALUE has no positive counterpart
                if (v < (Long.MIN_VALUE + d) / 10) {
                    overflow = true;
                } else {
                    v = v * 10 - d;
                }
            }
        }
        if (overflow) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        if (!negative) {
            return v == Long.MIN_VALUE ? Long.MAX_VALUE : -v;
        }
        return v;
    }

    /**
     * SQLite's CAST(text AS REAL): the leading decimal number, 0.0 when none; PostgreSQL's
     * NaN/Infinity words are read as those values, and a number beyond a double's range (overflow,
     * or a non-zero one underflowing to 0) is PostgreSQL's out-of-range error. Exact without
     * allocation for up to 15 significant digits and a decimal exponent within ±22 (one correctly
     * rounded multiplication or division of exact doubles); otherwise Double.parseDouble.
     */
    static double realPrefix(byte[] a, int off, int len) {
        int end = off + len;
        int i = firstNonBlank(a, off, end);
        int numStart = i;
        boolean negative = false;
        if (i < end && (a[i] == '-' || a[i] == '+')) {
            negative = a[i] == '-';
            i++;
        }
        long mant = 0;
        int sig = 0;
        int exp = 0;
        boolean any = false;
        while (i < end && a[i] >= '0' && a[i] <= '9') {
            any = true;
            if (mant == 0 && a[i] == '0') {
                i++;
                continue;
            }
            if (sig < 18) {
                mant = mant * 10 + (a[i] - '0');
            } else {
                exp++;
            }
            sig++;
            i++;
        }
        if (i < end && a[i] == '.') {
            i++;
            while (i < end && a[i] >= '0' && a[i] <= '9') {
                any = true;
                if (mant == 0 && a[i] == '0') {
                    exp--;
                    i++;
                    continue;
                }
                if (sig < 18) {
                    mant = mant * 10 + (a[i] - '0');
                    exp--;
                }
                sig++;
                i++;
            }
        }
        if (!any) {
            return Doubles.special(a, off, len); // 'NaN', 'Infinity', 'inf' as PostgreSQL reads them; else 0.0
        }
        int mantEnd = i;
        if (i < end && (a[i] == 'e' || a[i] == 'E')) {
            int j = i + 1;
            boolean eneg = false;
            if (j < end && (a[j] == '-' || a[j] == '+')) {
                eneg = a[j] == '-';
                j++;
            }
            if (j < end && a[j] >= '0' && a[j] <= '9') {
                int e = 0;
                while (j < end && a[j] >= '0' && a[j] <= '9') {
                    if (e < 10000) {
                        e = e * 10 + (a[j] - '0');
                    }
                    j++;
                }
                exp += eneg ? -e : e;
                mantEnd = j;
            }
        }
        double r;
        if (mant == 0) {
            r = 0.0;
        } else if (sig <= 15 && exp >= -22 && exp <= 22) {
            r = exp >= 0 ? mant * Eval.POW10[exp] : mant / Eval.POW10[-exp];
        } else {
            String number = new String(a, numStart, mantEnd - numStart, StandardCharsets.US_ASCII);
            r = Math.abs(Double.parseDouble(number));
            if (r == 0.0 || Double.isInfinite(r)) {
                throw Doubles.outOfRange(number); // PostgreSQL refuses what does not fit a double, not 0 or Infinity
            }
        }
        return negative ? -r : r;
    }

    /**
     * PostgreSQL's reading of text as an integer of {@code bits} (16, 32, 64): blanks around an
     * optional sign and digits, nothing else (22P02 otherwise), within range (22003).
     */
    static long strictInt(byte[] a, int off, int len, int bits) {
        int i = firstNonBlank(a, off, off + len);
        int end = pastLastNonBlank(a, i, off + len);
        int digitsFrom = i < end && (a[i] == '-' || a[i] == '+') ? i + 1 : i;
        if (digitsFrom >= end) {
            throw invalidSyntax(bits, a, off, len);
        }
        for (int k = digitsFrom; k < end; k++) {
            if (a[k] < '0' || a[k] > '9') {
                throw invalidSyntax(bits, a, off, len);
            }
        }
        long v = intPrefix(a, i, end - i);
        boolean clamped = (v == Long.MAX_VALUE || v == Long.MIN_VALUE) && end - digitsFrom >= 19
                && !fitsLong(a, i, end);
        if (clamped || !fits(v, bits)) {
            throw new io.respsql.sql.SqlException(io.respsql.sql.SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value \"" + TextBuf.string(a, off, len) + "\" is out of range for type " + intName(bits));
        }
        return v;
    }

    private static boolean fitsLong(byte[] a, int from, int end) {
        try {
            Long.parseLong(new String(a, a[from] == '+' ? from + 1 : from, end - (a[from] == '+' ? from + 1 : from),
                    StandardCharsets.US_ASCII));
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static boolean fits(long v, int bits) {
        return bits == 64 || bits == 32 ? bits == 64 || v == (int) v : v == (short) v;
    }

    /** PostgreSQL's name of the integer type of {@code bits}. */
    static String intName(int bits) {
        return bits == 16 ? "smallint" : bits == 32 ? "integer" : "bigint";
    }

    private static io.respsql.sql.SqlException invalidSyntax(int bits, byte[] a, int off, int len) {
        return invalidSyntax(intName(bits), a, off, len);
    }

    static io.respsql.sql.SqlException invalidSyntax(String type, byte[] a, int off, int len) {
        return new io.respsql.sql.SqlException(io.respsql.sql.SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + type + ": \"" + TextBuf.string(a, off, len) + "\"");
    }

    /**
     * PostgreSQL's reading of text as a double: blanks around one decimal number or NaN /
     * [+-]Infinity / [+-]inf, nothing else (22P02 "invalid input syntax for type double precision").
     */
    static double strictDouble(byte[] a, int off, int len) {
        int i = firstNonBlank(a, off, off + len);
        int end = pastLastNonBlank(a, i, off + len);
        int k = i < end && (a[i] == '-' || a[i] == '+') ? i + 1 : i;
        int digits = 0;
        while (k < end && a[k] >= '0' && a[k] <= '9') {
            k++;
            digits++;
        }
        if (k < end && a[k] == '.') {
            k++;
            while (k < end && a[k] >= '0' && a[k] <= '9') {
                k++;
                digits++;
            }
        }
        if (digits == 0) {
            double special = Doubles.special(a, i, end - i);
            if (special != special || Double.isInfinite(special)) {
                return special;
            }
            throw invalidSyntax("double precision", a, off, len);
        }
        if (k < end && (a[k] == 'e' || a[k] == 'E')) {
            k++;
            if (k < end && (a[k] == '-' || a[k] == '+')) {
                k++;
            }
            int expDigits = 0;
            while (k < end && a[k] >= '0' && a[k] <= '9') {
                k++;
                expDigits++;
            }
            if (expDigits == 0) {
                throw invalidSyntax("double precision", a, off, len);
            }
        }
        if (k != end) {
            throw invalidSyntax("double precision", a, off, len);
        }
        return realPrefix(a, i, end - i);
    }

    /** Index of the first non-blank byte of {@code a[from, end)}; {@code end} when none. */
    private static int firstNonBlank(byte[] a, int from, int end) {
        while (from < end && isSpace(a[from])) {
            from++;
        }
        return from;
    }

    /** End of {@code a[from, end)} without its trailing blanks. */
    private static int pastLastNonBlank(byte[] a, int from, int end) {
        while (end > from && isSpace(a[end - 1])) {
            end--;
        }
        return end;
    }

    /** Index of the first byte of {@code a[from, end)} that is not a space (' ' only); {@code end} when none. */
    public static int skipSpaces(byte[] a, int from, int end) {
        while (from < end && a[from] == ' ') {
            from++;
        }
        return from;
    }

    /** End of {@code a[from, end)} without its trailing spaces (' ' only). */
    public static int trimSpaces(byte[] a, int from, int end) {
        while (end > from && a[end - 1] == ' ') {
            end--;
        }
        return end;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
    }

    /** A constant text read as a number as a whole: a Long, a Double, or null when it is not a number. */
    static Number whole(String s) {
        if (!NUMBER.matcher(s).matches()) {
            return null;
        }
        String t = s.trim();
        try {
            return Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException e) {
            return Double.parseDouble(t);
        }
    }
}
