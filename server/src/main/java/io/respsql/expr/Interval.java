package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.util.Arrays;

/**
 * PostgreSQL's INTERVAL: months, days and microseconds, kept apart (a month is not a fixed number
 * of days, nor a day of hours, when added to a timestamp), compared as one span with 30-day
 * months and 24-hour days (PostgreSQL's {@code interval_cmp}).
 *
 * <p>A value travels as {@link #BYTES} bytes through {@link Expression#evalText} (so every operator
 * that moves, stores, sorts or groups TEXT moves INTERVAL unchanged): an 8-byte day count
 * ({@code months * 30 + days + floor(micros / day)}) and a 5-byte remainder of microseconds, both
 * big-endian and order-preserving, then months and days (4 bytes each). The first 13 bytes
 * compare unsigned as PostgreSQL compares intervals; the whole 21 bytes are the value. Formatting
 * to PostgreSQL's output ({@code 1 year 2 mons 3 days 04:05:06}) happens where a value leaves
 * (a reply, a cast to text).
 */
public final class Interval {
    private Interval() {
    }

    public static final int BYTES = 21;
    /** Bytes that decide order and equality (the normalised span). */
    public static final int KEY_BYTES = 13;
    static final long MPD = 86_400_000_000L;
    static final long MPH = 3_600_000_000L;
    static final long MPM = 60_000_000L;
    static final long MPS = 1_000_000L;

    /** A decoded value; callers own one and reuse it, so nothing is allocated per row. */
    public static final class Value {
        public long months;
        public long days;
        public long micros;

        public Value set(long months, long days, long micros) {
            this.months = months;
            this.days = days;
            this.micros = micros;
            return this;
        }

        public Value read(byte[] a, int off) {
            months = Interval.months(a, off);
            days = Interval.days(a, off);
            micros = Interval.micros(a, off);
            return this;
        }
    }

    // ---- encoding ---------------------------------------------------------------------------

    static SqlException outOfRange() {
        return new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
    }

    public static void encode(long months, long days, long micros, byte[] out, int off) {
        if (months != (int) months || days != (int) days) {
            throw outOfRange();
        }
        long dayKey = months * 30 + days + Math.floorDiv(micros, MPD);
        long rem = Math.floorMod(micros, MPD);
        long k = dayKey ^ Long.MIN_VALUE;
        for (int i = 7; i >= 0; i--) {
            out[off + i] = (byte) k;
            k >>>= 8;
        }
        for (int i = 12; i >= 8; i--) {
            out[off + i] = (byte) rem;
            rem >>>= 8;
        }
        putInt(out, off + 13, (int) months ^ Integer.MIN_VALUE);
        putInt(out, off + 17, (int) days ^ Integer.MIN_VALUE);
    }

    public static byte[] encode(long months, long days, long micros) {
        byte[] b = new byte[BYTES];
        encode(months, days, micros, b, 0);
        return b;
    }

    private static void putInt(byte[] out, int off, int v) {
        out[off] = (byte) (v >>> 24);
        out[off + 1] = (byte) (v >>> 16);
        out[off + 2] = (byte) (v >>> 8);
        out[off + 3] = (byte) v;
    }

    private static int getInt(byte[] a, int off) {
        return (a[off] & 0xFF) << 24 | (a[off + 1] & 0xFF) << 16 | (a[off + 2] & 0xFF) << 8 | (a[off + 3] & 0xFF);
    }

    public static int months(byte[] a, int off) {
        return getInt(a, off + 13) ^ Integer.MIN_VALUE;
    }

    public static int days(byte[] a, int off) {
        return getInt(a, off + 17) ^ Integer.MIN_VALUE;
    }

    public static long micros(byte[] a, int off) {
        long k = 0;
        for (int i = 0; i < 8; i++) {
            k = k << 8 | (a[off + i] & 0xFF);
        }
        long rem = 0;
        for (int i = 8; i < 13; i++) {
            rem = rem << 8 | (a[off + i] & 0xFF);
        }
        long dayKey = k ^ Long.MIN_VALUE;
        return (dayKey - months(a, off) * 30L - days(a, off)) * MPD + rem;
    }

    /** Sign of a - b as PostgreSQL compares intervals (30-day months, 24-hour days). */
    public static int compare(byte[] a, int ao, byte[] b, int bo) {
        return Integer.signum(Arrays.compareUnsigned(a, ao, ao + KEY_BYTES, b, bo, bo + KEY_BYTES));
    }

    /** The span in seconds as PostgreSQL's EXTRACT(EPOCH) counts it (a year is 365.25 days). */
    public static double epoch(long months, long days, long micros) {
        long years = months / 12;
        long mon = months % 12;
        return years * 365.25 * 86400 + mon * 30.0 * 86400 + days * 86400.0 + micros / 1e6;
    }

    // ---- output -----------------------------------------------------------------------------

    /** Appends PostgreSQL's output (IntervalStyle postgres): {@code -1 years +2 mons 3 days -04:05:06.5}. */
    public static void format(long months, long days, long micros, TextBuf out) {
        long year = months / 12;
        long mon = months % 12;
        boolean[] st = null;
        boolean isZero = true;
        boolean isBefore = false;
        for (int part = 0; part < 3; part++) {
            long v = part == 0 ? year : part == 1 ? mon : days;
            if (v == 0) {
                continue;
            }
            if (!isZero) {
                out.put((byte) ' ');
            }
            if (isBefore && v > 0) {
                out.put((byte) '+');
            }
            TextForm.appendLong(v, out);
            String unit = part == 0 ? " year" : part == 1 ? " mon" : " day";
            for (int i = 0; i < unit.length(); i++) {
                out.put((byte) unit.charAt(i));
            }
            if (v != 1) {
                out.put((byte) 's');
            }
            isBefore = v < 0;
            isZero = false;
        }
        if (isZero || micros != 0) {
            if (!isZero) {
                out.put((byte) ' ');
            }
            boolean minus = micros < 0;
            if (minus) {
                out.put((byte) '-');
            } else if (isBefore) {
                out.put((byte) '+');
            }
            // |micros| without overflowing at Long.MIN_VALUE: work on negative values
            long n = minus ? micros : -micros;
            long h = -(n / MPH);
            long r = -(n % MPH);
            if (h < 10) {
                out.put((byte) '0');
            }
            TextForm.appendLong(h, out);
            out.put((byte) ':');
            Temporal.two((int) (r / MPM), out);
            out.put((byte) ':');
            r %= MPM;
            Temporal.two((int) (r / MPS), out);
            Temporal.appendFraction((int) (r % MPS), out);
        }
    }

    /** The output text of an encoded value. */
    public static String toString(byte[] a, int off) {
        TextBuf b = new TextBuf();
        format(months(a, off), days(a, off), micros(a, off), b);
        return TextBuf.string(b.a, 0, b.len);
    }

    /** Prints encoded values into a buffer of its own, reused: nothing allocated per value. */
    public static final class Printer {
        private final TextBuf buf = new TextBuf();

        /** Prints the value at {@code a[off]}; returns its length, the bytes at {@link #bytes()} from 0. */
        public int print(byte[] a, int off) {
            return format(a, off, buf);
        }

        public byte[] bytes() {
            return buf.a;
        }
    }

    /** Writes the output text of an encoded value into {@code out}; returns its length. */
    public static int format(byte[] a, int off, TextBuf out) {
        out.reset();
        format(months(a, off), days(a, off), micros(a, off), out);
        return out.len;
    }

    // ---- input ------------------------------------------------------------------------------

    /** Lowest field of a qualifier ({@code INTERVAL '1' DAY}); NONE: no qualifier. */
    public static final int NONE = 0, YEAR = 1, MONTH = 2, DAY = 3, HOUR = 4, MINUTE = 5, SECOND = 6, MINUTE_TO_SECOND = 7;
    // a qualifier is the field, plus (precision + 1) << 4 when the seconds' precision is given

    /** The field a qualifier word names, or -1. */
    public static int field(String word) {
        switch (word.toUpperCase(java.util.Locale.ROOT)) {
            case "YEAR":
                return YEAR;
            case "MONTH":
                return MONTH;
            case "DAY":
                return DAY;
            case "HOUR":
                return HOUR;
            case "MINUTE":
                return MINUTE;
            case "SECOND":
                return SECOND;
            default:
                return -1;
        }
    }

    /** PostgreSQL's error for text that is no interval. */
    static SqlException invalid(byte[] a, int off, int len) {
        return new SqlException(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \""
                + TextBuf.string(a, off, len) + "\"");
    }

    private static SqlException fieldOverflow(byte[] a, int off, int len) {
        return new SqlException(SqlState.INTERVAL_FIELD_OVERFLOW, "interval field value out of range: \""
                + TextBuf.string(a, off, len) + "\"");
    }

    /**
     * Parses PostgreSQL's interval input: {@code [@] <number> <unit> ... [ago]} (units from
     * microseconds to millennia, fractions carried down as PostgreSQL does: {@code 1.5 months} is
     * 1 mon 15 days), {@code [+-]h:m[:s[.f]]}, a bare number before a time as days
     * ({@code -1 +02:03}), SQL's {@code Y-M}, and ISO 8601 ({@code P1Y2M3DT4H5M6S}). A bare number
     * is seconds, or the qualifier's lowest field ({@code INTERVAL '1' DAY}); a qualifier drops
     * the fields below it. Throws 22007 for bad text, 22008 out of range.
     */
    public static Value parse(byte[] a, int off, int len, int qualified, Value out) {
        int qualifier = qualified & 15;
        int precision = (qualified >> 4) - 1;
        int i = off;
        int end = off + len;
        while (i < end && isSpace(a[i])) {
            i++;
        }
        while (end > i && isSpace(a[end - 1])) {
            end--;
        }
        if (i == end) {
            throw invalid(a, off, len);
        }
        Value acc = out.set(0, 0, 0);
        if (a[i] == 'P' || a[i] == 'p') {
            iso(a, i + 1, end, acc, a, off, len);
        } else {
            words(a, i, end, qualifier, acc, a, off, len);
        }
        long months = acc.months;
        long days = acc.days;
        long micros = acc.micros;
        switch (qualifier) {
            case YEAR:
                months = months / 12 * 12;
                days = 0;
                micros = 0;
                break;
            case MONTH:
                days = 0;
                micros = 0;
                break;
            case DAY:
                micros = 0;
                break;
            case HOUR:
                micros = micros / MPH * MPH;
                break;
            case MINUTE:
                micros = micros / MPM * MPM;
                break;
            default:
                break;
        }
        if (precision >= 0 && precision < 6) {
            long scale = 1;
            for (int k = precision; k < 6; k++) {
                scale *= 10;
            }
            long half = scale / 2;
            micros = micros >= 0 ? (micros + half) / scale * scale : -((-micros + half) / scale * scale);
        }
        if (months != (int) months || days != (int) days) {
            throw fieldOverflow(a, off, len);
        }
        return out.set(months, days, micros);
    }

    /** Parses text into encoded bytes. */
    public static byte[] parse(String s) {
        byte[] t = TextBuf.utf8(s);
        Value v = parse(t, 0, t.length, NONE, new Value());
        return encode(v.months, v.days, v.micros);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /** The value of the digits {@code a[from, end)} written after a decimal point. */
    private static double fraction(byte[] a, int from, int end) {
        double frac = 0;
        double scale = 0.1;
        for (int k = from; k < end; k++) {
            frac += (a[k] - '0') * scale;
            scale /= 10;
        }
        return frac;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isAlpha(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    private static void words(byte[] a, int i, int end, int qualifier, Value acc, byte[] src, int off, int len) {
        boolean ago = false;
        boolean pending = false; // a number read, its unit not yet
        double pendingNum = 0;
        long pendingInt = 0;
        boolean sawAny = false;
        while (i < end) {
            byte c = a[i];
            if (isSpace(c)) {
                i++;
                continue;
            }
            if (c == '@' && !sawAny) {
                i++;
                continue;
            }
            int tokStart = i;
            if (isAlpha(c)) {
                int j = i;
                while (j < end && isAlpha(a[j])) {
                    j++;
                }
                String w = new String(a, i, j - i, java.nio.charset.StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
                i = j;
                if (w.equals("ago")) {
                    if (pending || ago) {
                        throw invalid(src, off, len);
                    }
                    ago = true;
                    continue;
                }
                if (!pending || ago) {
                    throw invalid(src, off, len);
                }
                int unit = unit(w);
                if (unit < 0) {
                    throw invalid(src, off, len);
                }
                add(acc, unit, pendingInt, pendingNum, src, off, len);
                pending = false;
                sawAny = true;
                continue;
            }
            if (c == '+' || c == '-' || c == '.' || isDigit(c)) {
                if (pending || ago) {
                    // a bare number followed by a time or a number: the bare one is days
                    if (!pending || ago) {
                        throw invalid(src, off, len);
                    }
                    add(acc, U_DAY, pendingInt, pendingNum, src, off, len);
                    pending = false;
                }
                int j = i;
                boolean neg = false;
                if (a[j] == '+' || a[j] == '-') {
                    neg = a[j] == '-';
                    j++;
                }
                int numStart = j;
                while (j < end && (isDigit(a[j]) || a[j] == '.' || a[j] == ':' || a[j] == '-')) {
                    if (a[j] == '-' && j == numStart) {
                        break;
                    }
                    j++;
                }
                if (j == numStart) {
                    throw invalid(src, off, len);
                }
                boolean colon = false;
                boolean dash = false;
                for (int k = numStart; k < j; k++) {
                    colon |= a[k] == ':';
                    dash |= a[k] == '-';
                }
                if (colon) {
                    time(a, numStart, j, neg, qualifier, acc, src, off, len);
                    i = j;
                    sawAny = true;
                    continue;
                }
                if (dash) {
                    // SQL's year-month: Y-M
                    int d = numStart;
                    while (a[d] != '-') {
                        d++;
                    }
                    long y = integer(a, numStart, d, src, off, len);
                    long m = integer(a, d + 1, j, src, off, len);
                    if (m > 11) {
                        throw fieldOverflow(src, off, len);
                    }
                    long total = y * 12 + m;
                    acc.months += neg ? -total : total;
                    i = j;
                    sawAny = true;
                    continue;
                }
                // a number: integer part exact, fraction as a double
                int dot = -1;
                for (int k = numStart; k < j; k++) {
                    if (a[k] == '.') {
                        if (dot >= 0) {
                            throw invalid(src, off, len);
                        }
                        dot = k;
                    }
                }
                long ip = integer(a, numStart, dot < 0 ? j : dot, src, off, len);
                double frac = 0;
                if (dot >= 0) {
                    frac = fraction(a, dot + 1, j);
                    if (dot == numStart && dot + 1 == j) {
                        throw invalid(src, off, len);
                    }
                }
                pendingInt = neg ? -ip : ip;
                pendingNum = neg ? -frac : frac;
                pending = true;
                i = j;
                // a unit written right after the number (1day)
                continue;
            }
            throw invalid(src, off, len);
        }
        if (pending) {
            int unit;
            switch (qualifier) {
                case YEAR:
                    unit = U_YEAR;
                    break;
                case MONTH:
                    unit = U_MONTH;
                    break;
                case DAY:
                    unit = U_DAY;
                    break;
                case HOUR:
                    unit = U_HOUR;
                    break;
                case MINUTE:
                    unit = U_MINUTE;
                    break;
                default:
                    unit = U_SECOND;
            }
            add(acc, unit, pendingInt, pendingNum, src, off, len);
            sawAny = true;
        }
        if (!sawAny) {
            throw invalid(src, off, len);
        }
        if (ago) {
            acc.months = -acc.months;
            acc.days = -acc.days;
            acc.micros = -acc.micros;
        }
    }

    private static long integer(byte[] a, int from, int to, byte[] src, int off, int len) {
        long v = 0;
        for (int k = from; k < to; k++) {
            if (!isDigit(a[k])) {
                throw invalid(src, off, len);
            }
            if (v > (Long.MAX_VALUE - 9) / 10) {
                throw fieldOverflow(src, off, len);
            }
            v = v * 10 + (a[k] - '0');
        }
        return v;
    }

    /** {@code h:m[:s[.f]]} (or {@code m:s.f} under MINUTE TO SECOND, not told apart here). */
    private static void time(byte[] a, int from, int to, boolean neg, int qualifier, Value acc, byte[] src, int off, int len) {
        long[] f = new long[3];
        int n = 0;
        int k = from;
        long fracMicros = 0;
        while (k <= to && n < 3) {
            int s = k;
            while (k < to && isDigit(a[k])) {
                k++;
            }
            if (k == s) {
                throw invalid(src, off, len);
            }
            f[n++] = integer(a, s, k, src, off, len);
            if (k < to && a[k] == '.' && n >= 2) {
                k++;
                long scale = 100_000;
                while (k < to && isDigit(a[k])) {
                    if (scale > 0) {
                        fracMicros += (a[k] - '0') * scale;
                    } else if (scale == 0 && a[k] >= '5') {
                        fracMicros++; // rounds at the seventh digit
                        scale = -1;
                    }
                    scale = scale > 0 ? scale / 10 : scale == 0 ? 0 : -1;
                    k++;
                }
                if (k != to) {
                    throw invalid(src, off, len);
                }
                break;
            }
            if (k == to) {
                break;
            }
            if (a[k] != ':') {
                throw invalid(src, off, len);
            }
            k++;
        }
        if (k != to) {
            throw invalid(src, off, len);
        }
        long h;
        long m;
        long s;
        if (n == 2 && (qualifier == MINUTE_TO_SECOND || fracMicros > 0 || fractionWritten(a, from, to))) {
            h = 0;
            m = f[0];
            s = f[1];
        } else {
            h = f[0];
            m = f[1];
            s = n == 3 ? f[2] : 0;
        }
        if (m > 59 || s > 59) {
            throw fieldOverflow(src, off, len);
        }
        long total;
        try {
            total = Math.addExact(Math.multiplyExact(h, MPH), m * MPM + s * MPS + fracMicros);
        } catch (ArithmeticException e) {
            throw fieldOverflow(src, off, len);
        }
        acc.micros += neg ? -total : total;
    }

    private static boolean fractionWritten(byte[] a, int from, int to) {
        for (int k = from; k < to; k++) {
            if (a[k] == '.') {
                return true;
            }
        }
        return false;
    }

    private static final int U_MICRO = 0, U_MILLI = 1, U_SECOND = 2, U_MINUTE = 3, U_HOUR = 4, U_DAY = 5, U_WEEK = 6,
            U_MONTH = 7, U_YEAR = 8, U_DECADE = 9, U_CENTURY = 10, U_MILLENNIUM = 11;

    private static int unit(String w) {
        switch (w) {
            case "microsecond", "microseconds", "us", "usec", "usecs", "useconds", "microsecon":
                return U_MICRO;
            case "millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds", "millisecon":
                return U_MILLI;
            case "second", "seconds", "s", "sec", "secs":
                return U_SECOND;
            case "minute", "minutes", "m", "min", "mins":
                return U_MINUTE;
            case "hour", "hours", "h", "hr", "hrs":
                return U_HOUR;
            case "day", "days", "d":
                return U_DAY;
            case "week", "weeks", "w":
                return U_WEEK;
            case "month", "months", "mon", "mons":
                return U_MONTH;
            case "year", "years", "y", "yr", "yrs":
                return U_YEAR;
            case "decade", "decades", "dec", "decs":
                return U_DECADE;
            case "century", "centuries", "c", "cent":
                return U_CENTURY;
            case "millennium", "millennia", "mil", "mils", "millenniums":
                return U_MILLENNIUM;
            default:
                return -1;
        }
    }

    /** Adds {@code ip + frac} of {@code unit}, carrying the fraction down as PostgreSQL's DecodeInterval. */
    private static void add(Value acc, int unit, long ip, double frac, byte[] src, int off, int len) {
        try {
            switch (unit) {
                case U_MICRO:
                    acc.micros = Math.addExact(acc.micros, ip + Math.round(frac));
                    break;
                case U_MILLI:
                    acc.micros = Math.addExact(acc.micros, Math.addExact(Math.multiplyExact(ip, 1000), Math.round(frac * 1000)));
                    break;
                case U_SECOND:
                    acc.micros = Math.addExact(acc.micros, Math.addExact(Math.multiplyExact(ip, MPS), Math.round(frac * MPS)));
                    break;
                case U_MINUTE:
                    acc.micros = Math.addExact(acc.micros, Math.addExact(Math.multiplyExact(ip, MPM), fracSeconds(frac * 60)));
                    break;
                case U_HOUR:
                    acc.micros = Math.addExact(acc.micros, Math.addExact(Math.multiplyExact(ip, MPH), fracSeconds(frac * 3600)));
                    break;
                case U_DAY:
                    acc.days = Math.addExact(acc.days, ip);
                    acc.micros = Math.addExact(acc.micros, fracSeconds(frac * 86400));
                    break;
                case U_WEEK:
                    acc.days = Math.addExact(acc.days, Math.multiplyExact(ip, 7));
                    fracDays(acc, frac * 7);
                    break;
                case U_MONTH:
                    acc.months = Math.addExact(acc.months, ip);
                    fracDays(acc, frac * 30);
                    break;
                default: {
                    int per = unit == U_YEAR ? 12 : unit == U_DECADE ? 120 : unit == U_CENTURY ? 1200 : 12000;
                    acc.months = Math.addExact(acc.months, Math.addExact(Math.multiplyExact(ip, per), Math.round(Math.rint(frac * per))));
                }
            }
        } catch (ArithmeticException e) {
            throw fieldOverflow(src, off, len);
        }
        if (acc.months != (int) acc.months || acc.days != (int) acc.days) {
            throw fieldOverflow(src, off, len);
        }
    }

    /** PostgreSQL's AdjustFractSeconds: whole seconds, then the rest rounded to microseconds. */
    private static long fracSeconds(double secs) {
        long whole = (long) secs;
        return whole * MPS + (long) Math.rint((secs - whole) * MPS);
    }

    private static void fracDays(Value acc, double days) {
        long whole = (long) days;
        acc.days += whole;
        acc.micros += fracSeconds((days - whole) * 86400);
    }

    /** ISO 8601's format with designators: {@code P[nY][nM][nW][nD][T[nH][nM][nS]]}. */
    private static void iso(byte[] a, int i, int end, Value acc, byte[] src, int off, int len) {
        boolean time = false;
        if (i >= end) {
            throw invalid(src, off, len);
        }
        while (i < end) {
            if (a[i] == 'T' || a[i] == 't') {
                if (time) {
                    throw invalid(src, off, len);
                }
                time = true;
                i++;
                continue;
            }
            int j = i;
            boolean neg = false;
            if (a[j] == '-' || a[j] == '+') {
                neg = a[j] == '-';
                j++;
            }
            int s = j;
            while (j < end && (isDigit(a[j]) || a[j] == '.')) {
                j++;
            }
            if (j == s || j >= end) {
                throw invalid(src, off, len);
            }
            int dot = -1;
            for (int k = s; k < j; k++) {
                if (a[k] == '.') {
                    dot = k;
                }
            }
            long ip = integer(a, s, dot < 0 ? j : dot, src, off, len);
            double frac = dot >= 0 ? fraction(a, dot + 1, j) : 0;
            if (neg) {
                ip = -ip;
                frac = -frac;
            }
            byte d = (byte) (a[j] & ~0x20);
            int unit;
            if (!time) {
                unit = d == 'Y' ? U_YEAR : d == 'M' ? U_MONTH : d == 'W' ? U_WEEK : d == 'D' ? U_DAY : -1;
            } else {
                unit = d == 'H' ? U_HOUR : d == 'M' ? U_MINUTE : d == 'S' ? U_SECOND : -1;
            }
            if (unit < 0) {
                throw invalid(src, off, len);
            }
            add(acc, unit, ip, frac, src, off, len);
            i = j + 1;
        }
    }

    // ---- arithmetic -------------------------------------------------------------------------

    /** {@code ts + interval} as PostgreSQL: months first (the day clamped to the month's end), then days, then time. */
    public static long addToTimestamp(long ts, long months, long days, long micros) {
        try {
            if (months != 0) {
                long d = Math.floorDiv(ts, MPD);
                long tod = ts - d * MPD;
                long ymd = Temporal.civil(d);
                long y = Temporal.year(ymd);
                int m = Temporal.month(ymd);
                int day = Temporal.day(ymd);
                long mm = y * 12 + (m - 1) + months;
                y = Math.floorDiv(mm, 12);
                m = (int) Math.floorMod(mm, 12) + 1;
                day = Math.min(day, Temporal.monthDays(y, m));
                ts = Math.addExact(Math.multiplyExact(Temporal.daysFromCivil(y, m, day), MPD), tod);
            }
            if (days != 0) {
                ts = Math.addExact(ts, Math.multiplyExact(days, MPD));
            }
            ts = Math.addExact(ts, micros);
        } catch (ArithmeticException e) {
            throw Temporal.timestampOutOfRange();
        }
        Temporal.checkTimestamp(ts);
        return ts;
    }

    /** {@code a - b} of two timestamps: days and time of day, same sign (PostgreSQL's timestamp_mi, justify_hours). */
    public static Value between(long a, long b, Value out) {
        long diff;
        try {
            diff = Math.subtractExact(a, b);
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
        return out.set(0, diff / MPD, diff % MPD);
    }

    public static Value justifyHours(Value v) {
        timeToDays(v);
        return daysAndTimeSameSign(v);
    }

    public static Value justifyDays(Value v) {
        long whole = v.days / 30;
        v.days -= whole * 30;
        v.months += whole;
        if (v.months > 0 && v.days < 0) {
            v.days += 30;
            v.months--;
        } else if (v.months < 0 && v.days > 0) {
            v.days -= 30;
            v.months++;
        }
        return v;
    }

    public static Value justifyInterval(Value v) {
        timeToDays(v);
        long wm = v.days / 30;
        v.days -= wm * 30;
        v.months += wm;
        if (v.months > 0 && (v.days < 0 || (v.days == 0 && v.micros < 0))) {
            v.days += 30;
            v.months--;
        } else if (v.months < 0 && (v.days > 0 || (v.days == 0 && v.micros > 0))) {
            v.days -= 30;
            v.months++;
        }
        return daysAndTimeSameSign(v);
    }

    /** Whole days of {@code v}'s time carried into its days. */
    private static void timeToDays(Value v) {
        long whole = v.micros / MPD;
        v.micros -= whole * MPD;
        v.days += whole;
    }

    /** A day borrowed or lent so that {@code v}'s days and time do not differ in sign. */
    private static Value daysAndTimeSameSign(Value v) {
        if (v.days > 0 && v.micros < 0) {
            v.micros += MPD;
            v.days--;
        } else if (v.days < 0 && v.micros > 0) {
            v.micros -= MPD;
            v.days++;
        }
        return v;
    }

    /** PostgreSQL's interval_mul: fractions of months and days carried down to days and time. */
    public static Value multiply(Value v, double factor) {
        return scaled(v, v.months * factor, v.days * factor, v.micros * factor);
    }

    /** PostgreSQL's interval_div. */
    public static Value divide(Value v, double factor) {
        if (factor == 0) {
            throw new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        return scaled(v, v.months / factor, v.days / factor, v.micros / factor);
    }

    /**
     * interval_mul and interval_div's common part: {@code v} set to the scaled months {@code rm},
     * days {@code rd} and microseconds {@code rmicros}, fractions of months and days carried down.
     */
    private static Value scaled(Value v, double rm, double rd, double rmicros) {
        if (Double.isNaN(rm) || Double.isNaN(rd) || rm > Integer.MAX_VALUE || rm < Integer.MIN_VALUE
                || rd > Integer.MAX_VALUE || rd < Integer.MIN_VALUE) {
            throw outOfRange();
        }
        long month = (long) rm;
        long day = (long) rd;
        double monthRemainderDays = tsround((rm - month) * 30);
        double secRemainder = tsround((rd - day + monthRemainderDays - (long) monthRemainderDays) * 86400);
        if (Math.abs(secRemainder) >= 86400) {
            day += (long) (secRemainder / 86400);
            secRemainder -= (long) (secRemainder / 86400) * 86400.0;
        }
        day += (long) monthRemainderDays;
        double t = Math.rint(rmicros + secRemainder * 1e6);
        if (Double.isNaN(t) || t >= 9.223372036854775807E18 || t < -9.223372036854775808E18) {
            throw outOfRange();
        }
        return v.set(month, day, (long) t);
    }

    private static double tsround(double j) {
        return Math.rint(j * 1e6) / 1e6;
    }
}
