package io.respsql.expr;

/**
 * FLOAT order as PostgreSQL's float8 comparisons define it: -0.0 equals 0.0, NaN equals NaN and
 * is above every other value, +Infinity included. Comparisons, BETWEEN, MIN/MAX and the column
 * filters use it; sorting (Double.compare on -0.0-folded values) and index keys
 * ({@code IndexKeys.ofDouble}) give the same order.
 */
public final class Doubles {
    private Doubles() {
    }

    /** Sign of a - b in PostgreSQL's float8 order. The NaN branch is reached only when a NaN is involved. */
    public static int compare(double a, double b) {
        return a < b ? -1 : a > b ? 1 : a == b ? 0 : Boolean.compare(a != a, b != b);
    }

    /**
     * The value of one of PostgreSQL's float8 words ({@code NaN}, {@code Infinity}, {@code inf},
     * the latter two with an optional sign; any case; blanks around), or 0.0 when {@code s} is not one.
     */
    public static double special(CharSequence s) {
        int i = 0;
        int end = s.length();
        while (i < end && isBlank(s.charAt(i))) {
            i++;
        }
        while (end > i && isBlank(s.charAt(end - 1))) {
            end--;
        }
        int n = end - i;
        if (n < 3 || n > 9) {
            return 0.0; // quick no for every number
        }
        if (n == 3 && regionIs(s, i, "nan")) {
            return Double.NaN;
        }
        boolean neg = false;
        char c = s.charAt(i);
        if (c == '+' || c == '-') {
            neg = c == '-';
            i++;
        }
        if (regionIs(s, i, end - i == 3 ? "inf" : "infinity") && (end - i == 3 || end - i == 8)) {
            return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return 0.0;
    }

    /** {@link #special} of UTF-8 bytes. */
    public static double special(byte[] a, int off, int len) {
        if (len < 3 || len > 64) {
            return 0.0;
        }
        // Same rules as the CharSequence form, on the bytes: CAST(text AS FLOAT) reaches here per row
        // for every non-numeric text, so no String. The words are ASCII, so ASCII case folding suffices.
        int i = off;
        int end = off + len;
        while (i < end && isBlank((char) a[i])) {
            i++;
        }
        while (end > i && isBlank((char) a[end - 1])) {
            end--;
        }
        int n = end - i;
        if (n < 3 || n > 9) {
            return 0.0;
        }
        if (n == 3 && regionIs(a, i, end, NAN)) {
            return Double.NaN;
        }
        boolean neg = false;
        byte c = a[i];
        if (c == '+' || c == '-') {
            neg = c == '-';
            i++;
        }
        if (regionIs(a, i, end, INF) || regionIs(a, i, end, INFINITY)) {
            return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return 0.0;
    }

    private static final byte[] NAN = {'n', 'a', 'n'};
    private static final byte[] INF = {'i', 'n', 'f'};
    private static final byte[] INFINITY = {'i', 'n', 'f', 'i', 'n', 'i', 't', 'y'};

    /** Whether a[from, end) is exactly the lower-case ASCII word {@code lower}, in any case. */
    private static boolean regionIs(byte[] a, int from, int end, byte[] lower) {
        if (end - from != lower.length) {
            return false;
        }
        for (int k = 0; k < lower.length; k++) {
            int b = a[from + k];
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != lower[k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    private static boolean regionIs(CharSequence s, int from, String lower) {
        if (s.length() - from < lower.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            if (Character.toLowerCase(s.charAt(from + k)) != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the decimal text {@code s} (a literal or a string read as a number) has a non-zero
     * digit before any exponent: then a parsed 0.0 is an underflow, which PostgreSQL refuses as out of range.
     */
    public static boolean nonZeroMantissa(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 'e' || c == 'E') {
                return false;
            }
            if (c >= '1' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    /** PostgreSQL's error for a number text that does not fit a double (overflow, or underflow to zero). */
    public static io.respsql.sql.SqlException outOfRange(CharSequence number) {
        return new io.respsql.sql.SqlException(io.respsql.sql.SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"" + number + "\" is out of range for type double precision");
    }

    /** Whether decimal {@code text} read as {@code d} did not fit a double: Infinity, or a non-zero number read as 0. */
    public static boolean outOfRange(double d, CharSequence text) {
        return Double.isInfinite(d) || d == 0.0 && nonZeroMantissa(text);
    }

    /**
     * A numeric literal's value as a FLOAT: PostgreSQL refuses one a double cannot hold
     * ({@code 1e400}, {@code 10e-400}) instead of reading it as Infinity or 0.
     */
    public static double literal(String text) {
        double d = Double.parseDouble(text);
        if (outOfRange(d, text)) {
            throw outOfRange(text);
        }
        return d;
    }
}
