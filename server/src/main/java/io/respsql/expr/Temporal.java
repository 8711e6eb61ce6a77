package io.respsql.expr;

/**
 * DATE and TIMESTAMP text: {@code YYYY-MM-DD} and {@code YYYY-MM-DD HH:MM[:SS[.ffffff]]}
 * (a {@code T} may separate date and time), microsecond precision, no time zone. DATE is days
 * since 1970-01-01, TIMESTAMP microseconds since 1970-01-01 00:00:00 (proleptic Gregorian).
 * Fraction digits beyond the sixth are dropped. Parsing and formatting allocate nothing.
 */
public final class Temporal {
    private Temporal() {
    }

    public static final long MICROS_PER_DAY = 86_400_000_000L;
    /** Returned by the parsers for text that is not a date/timestamp (no valid value is this). */
    public static final long INVALID = Long.MIN_VALUE;

    /** Days since the epoch of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    public static long daysFromCivil(long y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** PostgreSQL's range of TIMESTAMP: 4714-11-24 BC to 294276-12-31 AD. */
    public static final long MIN_TIMESTAMP = -210_866_803_200_000_000L;
    public static final long END_TIMESTAMP = Long.MAX_VALUE; // 294277-01-01 lies beyond a long of µs since 1970

    public static io.respsql.sql.SqlException timestampOutOfRange() {
        return new io.respsql.sql.SqlException(io.respsql.sql.SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    }

    public static long checkTimestamp(long ts) {
        if (ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP) {
            throw timestampOutOfRange();
        }
        return ts;
    }

    /** The civil date of a day number, packed: {@link #year}, {@link #month}, {@link #day} read it. */
    public static long civil(long days) {
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) {
            y++;
        }
        return y * 512 + m * 32 + d;
    }

    public static long year(long civil) {
        return Math.floorDiv(civil, 512);
    }

    public static int month(long civil) {
        return (int) (Math.floorMod(civil, 512) >> 5);
    }

    public static int day(long civil) {
        return (int) (civil & 31);
    }

    static boolean leap(long y) {
        return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    }

    public static int monthDays(long y, int m) {
        switch (m) {
            case 2:
                return leap(y) ? 29 : 28;
            case 4:
            case 6:
            case 9:
            case 11:
                return 30;
            default:
                return 31;
        }
    }

    /** Days of a {@code YYYY-MM-DD} text (a time part is allowed and dropped), or {@link #INVALID}. */
    public static long parseDate(byte[] a, int off, int len) {
        long micros = parseTimestamp(a, off, len);
        return micros == INVALID ? INVALID : Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /**
     * PostgreSQL's special input words: {@code epoch}, {@code now} (the statement's time,
     * {@link StatementTime}), {@code today}, {@code tomorrow}, {@code yesterday} (midnight); the
     * microseconds, or {@link #INVALID} for any other text.
     */
    public static long special(byte[] a, int off, int len, boolean date) {
        int i = off;
        int end = off + len;
        while (i < end && a[i] == ' ') {
            i++;
        }
        while (end > i && a[end - 1] == ' ') {
            end--;
        }
        int n = end - i;
        if (n < 3 || n > 9) {
            return INVALID;
        }
        if (word(a, i, end, "epoch")) {
            return 0;
        }
        if (word(a, i, end, "now")) {
            return StatementTime.current().micros();
        }
        int shift = word(a, i, end, "today") ? 0 : word(a, i, end, "tomorrow") ? 1 : word(a, i, end, "yesterday") ? -1 : 2;
        if (shift == 2) {
            return INVALID;
        }
        return (Math.floorDiv(StatementTime.current().micros(), MICROS_PER_DAY) + shift) * MICROS_PER_DAY;
    }

    private static boolean word(byte[] a, int i, int end, String w) {
        if (end - i != w.length()) {
            return false;
        }
        for (int k = 0; k < w.length(); k++) {
            if (TextBuf.lowerAscii(a[i + k]) != w.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * PostgreSQL's error for date/timestamp text: 22008 when the text has a date's shape but a
     * field out of range (2021-02-30), else 22007.
     */
    public static io.respsql.sql.SqlException inputError(byte[] a, int off, int len, boolean date) {
        String s = TextBuf.string(a, off, len);
        if (s.trim().matches("\\d{4,}-\\d{1,2}-\\d{1,2}([ T]\\d{1,2}:\\d{1,2}(:\\d{1,2}(\\.\\d+)?)?)?")) {
            return new io.respsql.sql.SqlException(io.respsql.sql.SqlState.DATETIME_FIELD_OVERFLOW,
                    "date/time field value out of range: \"" + s + "\"");
        }
        return new io.respsql.sql.SqlException(io.respsql.sql.SqlState.INVALID_DATETIME_FORMAT,
                "invalid input syntax for type " + (date ? "date" : "timestamp") + ": \"" + s + "\"");
    }

    /** Whether the text has only a date part (no ':'), so it reads as a DATE rather than a TIMESTAMP. */
    static boolean dateOnly(byte[] a, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (a[i] == ':') {
                return false;
            }
        }
        return true;
    }

    /** Microseconds of a date or timestamp text (a date alone is midnight), or {@link #INVALID}. */
    public static long parseTimestamp(byte[] a, int off, int len) {
        int i = off;
        int end = off + len;
        while (i < end && a[i] == ' ') {
            i++;
        }
        while (end > i && a[end - 1] == ' ') {
            end--;
        }
        // year
        int start = i;
        long year = 0;
        while (i < end && isDigit(a[i]) && i - start < 6) {
            year = year * 10 + (a[i++] - '0');
        }
        if (i - start < 4 || i >= end || a[i] != '-') {
            return INVALID;
        }
        i++;
        int month = 0;
        start = i;
        while (i < end && isDigit(a[i]) && i - start < 2) {
            month = month * 10 + (a[i++] - '0');
        }
        if (i == start || i >= end || a[i] != '-') {
            return INVALID;
        }
        i++;
        int day = 0;
        start = i;
        while (i < end && isDigit(a[i]) && i - start < 2) {
            day = day * 10 + (a[i++] - '0');
        }
        if (i == start || month < 1 || month > 12 || day < 1 || day > monthDays(year, month) || year < 1) {
            return INVALID;
        }
        long micros = daysFromCivil(year, month, day) * MICROS_PER_DAY;
        if (i == end) {
            return micros;
        }
        if (a[i] != ' ' && a[i] != 'T') {
            return INVALID;
        }
        while (i < end && (a[i] == ' ' || a[i] == 'T')) {
            i++;
        }
        int h = twoDigits(a, i, end);
        if (h < 0 || h > 23 || i + 2 >= end || a[i + 2] != ':') {
            return INVALID;
        }
        i += 3;
        int mi = twoDigits(a, i, end);
        if (mi < 0 || mi > 59) {
            return INVALID;
        }
        i += 2;
        int s = 0;
        long frac = 0;
        if (i < end) {
            if (a[i] != ':') {
                return INVALID;
            }
            i++;
            s = twoDigits(a, i, end);
            if (s < 0 || s > 59) {
                return INVALID;
            }
            i += 2;
            if (i < end) {
                if (a[i] != '.') {
                    return INVALID;
                }
                i++;
                int digits = 0;
                if (i >= end) {
                    return INVALID;
                }
                while (i < end) {
                    if (!isDigit(a[i])) {
                        return INVALID;
                    }
                    if (digits < 6) {
                        frac = frac * 10 + (a[i] - '0');
                        digits++;
                    }
                    i++;
                }
                while (digits < 6) {
                    frac *= 10;
                    digits++;
                }
            }
        }
        return micros + ((h * 60L + mi) * 60L + s) * 1_000_000L + frac;
    }

    private static int twoDigits(byte[] a, int i, int end) {
        if (i + 1 >= end || !isDigit(a[i]) || !isDigit(a[i + 1])) {
            return -1;
        }
        return (a[i] - '0') * 10 + (a[i + 1] - '0');
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** Appends {@code YYYY-MM-DD} of a day number (H. Hinnant's civil_from_days). */
    static void appendDate(long days, TextBuf out) {
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) {
            y++;
        }
        out.ensure(24);
        if (y < 0) {
            out.put((byte) '-');
            y = -y;
        }
        // four digits at least, zero-padded
        for (long p = 1000; p > 1 && y < p; p /= 10) {
            out.put((byte) '0');
        }
        TextForm.appendLong(y, out);
        out.put((byte) '-');
        two(m, out);
        out.put((byte) '-');
        two(d, out);
    }

    /** Appends {@code YYYY-MM-DD HH:MM:SS}, then {@code .ffffff} without trailing zeros when not whole. */
    static void appendTimestamp(long micros, TextBuf out) {
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        long rest = micros - days * MICROS_PER_DAY;
        appendDate(days, out);
        long secs = rest / 1_000_000L;
        int frac = (int) (rest % 1_000_000L);
        out.put((byte) ' ');
        two((int) (secs / 3600), out);
        out.put((byte) ':');
        two((int) (secs / 60 % 60), out);
        out.put((byte) ':');
        two((int) (secs % 60), out);
        if (frac != 0) {
            out.put((byte) '.');
            int digits = 6;
            while (frac % 10 == 0) {
                frac /= 10;
                digits--;
            }
            for (int p = pow10(digits - 1); p >= 1; p /= 10) {
                out.put((byte) ('0' + frac / p % 10));
            }
        }
    }

    private static int pow10(int n) {
        int p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static void two(int v, TextBuf out) {
        out.put((byte) ('0' + v / 10));
        out.put((byte) ('0' + v % 10));
    }

    public static String formatDate(long days) {
        TextBuf b = new TextBuf();
        appendDate(days, b);
        return TextBuf.string(b.a, 0, b.len);
    }

    public static String formatTimestamp(long micros) {
        TextBuf b = new TextBuf();
        appendTimestamp(micros, b);
        return TextBuf.string(b.a, 0, b.len);
    }
}
