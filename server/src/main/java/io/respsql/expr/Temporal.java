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

    // ---- regress25: PostgreSQL's infinity and -infinity ----
    /** TIMESTAMP 'infinity' (PostgreSQL's DT_NOEND): after every timestamp. */
    public static final long TS_NOEND = Long.MAX_VALUE;
    /** TIMESTAMP '-infinity' (DT_NOBEGIN): before every timestamp ({@link #INVALID} stays the parsers' "not one"). */
    public static final long TS_NOBEGIN = Long.MIN_VALUE + 1;
    /** DATE 'infinity' and '-infinity' (PostgreSQL's DATEVAL_NOEND/NOBEGIN): an int column holds them. */
    public static final long DATE_NOEND = Integer.MAX_VALUE;
    public static final long DATE_NOBEGIN = Integer.MIN_VALUE;

    public static boolean infiniteTimestamp(long ts) {
        return ts == TS_NOEND || ts == TS_NOBEGIN;
    }

    public static boolean infiniteDate(long days) {
        return days == DATE_NOEND || days == DATE_NOBEGIN;
    }

    /** A DATE as a TIMESTAMP (midnight); the infinities map to the infinities. */
    public static long dateToTimestamp(long days) {
        return days == DATE_NOEND ? TS_NOEND : days == DATE_NOBEGIN ? TS_NOBEGIN : days * MICROS_PER_DAY;
    }

    /** A TIMESTAMP's DATE; the infinities map to the infinities. */
    public static long timestampToDate(long ts) {
        return ts == TS_NOEND ? DATE_NOEND : ts == TS_NOBEGIN ? DATE_NOBEGIN : Math.floorDiv(ts, MICROS_PER_DAY);
    }

    /** 'infinity', '-infinity' (any case, blanks around): 1, -1; else 0. PostgreSQL's dialect only. */
    static int infinityWord(byte[] a, int off, int len) {
        if (!io.respsql.sql.Dialect.postgres()) {
            return 0;
        }
        int end = off + len;
        int i = NumberText.skipSpaces(a, off, end);
        end = NumberText.trimSpaces(a, i, end);
        int sign = 1;
        if (i < end && a[i] == '-') { // '+infinity' is not a date/time word (it is a number's)
            sign = -1;
            i++;
        }
        return word(a, i, end, "infinity") ? sign : 0;
    }

    public static long checkTimestamp(long ts) {
        if (ts == TS_NOEND || ts == TS_NOBEGIN) {
            return ts;
        }
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
        int inf = infinityWord(a, off, len);
        if (inf != 0) {
            return inf > 0 ? TS_NOEND : TS_NOBEGIN; // callers take a DATE with timestampToDate
        }
        if (io.respsql.sql.Dialect.postgres()) {
            long loose = parseLoose(a, off, len);
            if (loose != INVALID && loose != OUT_OF_RANGE) {
                return loose;
            }
        }
        int end = off + len;
        int i = NumberText.skipSpaces(a, off, end);
        end = NumberText.trimSpaces(a, i, end);
        // a zone after a word ('tomorrow EST', 'now zulu'): ignored, as for a timestamp without time zone
        int sp = end;
        while (sp > i && a[sp - 1] != ' ') {
            sp--;
        }
        if (sp > i && ZONE_WORDS.contains(TextBuf.string(a, sp, end - sp).toLowerCase(java.util.Locale.ROOT))) {
            end = sp;
            end = NumberText.trimSpaces(a, i, end);
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

    private static final String[] MONTH_WORDS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    private static final java.util.Set<String> DAY_WORDS = java.util.Set.of("sun", "mon", "tue", "tues", "wed", "thu", "thur", "thurs",
            "fri", "sat", "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday");
    private static final java.util.Set<String> ZONE_WORDS = java.util.Set.of("utc", "gmt", "ut", "z", "zulu", "est", "edt", "cst",
            "cdt", "mst", "mdt", "pst", "pdt");

    /**
     * PostgreSQL's other date and timestamp input forms (DateStyle ISO, MDY), for its dialect:
     * {@code January 8, 1999}, {@code 1/8/1999} (month first), {@code 1999-Jan-08},
     * {@code 08 Jan 99} (a two-digit year is 1970..2069), {@code 19990108}, {@code 990108},
     * {@code 1999.008} (day of year), {@code J2451187} (Julian day), {@code ... BC}, a day name
     * (ignored), a time {@code hh:mm[:ss[.f]]} with {@code am}/{@code pm}, and a time zone
     * (ignored, as PostgreSQL ignores it for a timestamp without time zone). Microseconds, or
     * {@link #INVALID}.
     */
    /** {@link #parseLoose}'s answer for text of a date's shape with a field out of range (PostgreSQL's 22008). */
    static final long OUT_OF_RANGE = Long.MIN_VALUE + 1;

    public static long parseLoose(byte[] a, int off, int len) {
        String s = TextBuf.string(a, off, len).trim().toLowerCase(java.util.Locale.ROOT);
        if (s.isEmpty()) {
            return INVALID;
        }
        java.util.List<String> nums = new java.util.ArrayList<>();
        int month = -1;
        boolean bc = false;
        long time = 0;
        boolean timeSeen = false;
        int pm = -1;
        int numsBeforeMonth = 0;
        long julian = Long.MIN_VALUE;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '-' && timeSeen) {
                c = '+'; // after the time: a zone offset
            }
            if (c == ' ' || c == ',' || c == '/' || c == '-' || c == '\t') {
                i++;
                continue;
            }
            if (Character.isLetter(c)) {
                int j = i;
                while (j < n && Character.isLetter(s.charAt(j))) {
                    j++;
                }
                String w = s.substring(i, j);
                boolean glued = i > 0 && Character.isDigit(s.charAt(i - 1)) || j < n && Character.isDigit(s.charAt(j));
                if (j < n && s.charAt(j) == '.') {
                    j++; // "Jan." and "a.d."
                }
                i = j;
                if (w.equals("j") && i < n && Character.isDigit(s.charAt(i))) {
                    int k = i;
                    while (k < n && Character.isDigit(s.charAt(k))) {
                        k++;
                    }
                    julian = Long.parseLong(s.substring(i, Math.min(k, i + 9)));
                    i = k;
                    continue;
                }
                if (w.equals("bc")) {
                    bc = true;
                } else if (w.equals("ad")) {
                    bc = false;
                } else if (w.equals("am") || w.equals("pm")) {
                    pm = w.equals("pm") ? 1 : 0;
                } else if (w.equals("t") || DAY_WORDS.contains(w) || ZONE_WORDS.contains(w)) {
                    // a separator, a day name, a zone: nothing to keep
                } else {
                    int m = -1;
                    if (w.length() >= 3) {
                        for (int k = 0; k < 12; k++) {
                            if (w.startsWith(MONTH_WORDS[k]) && ("january february march april may june july august september october november december"
                                    .contains(w) || w.equals("sept"))) {
                                m = k + 1;
                            }
                        }
                    }
                    if (m < 0 || month >= 0 || glued) {
                        return INVALID; // (PostgreSQL refuses 97FEB10 too)
                    }
                    month = m;
                    numsBeforeMonth = nums.size();
                }
                continue;
            }
            if (Character.isDigit(c) || c == '+' || c == '.') {
                int j = i;
                if (c == '+') {
                    if (!timeSeen) {
                        return INVALID;
                    }
                    j++;
                    if (j < n && Character.isLetter(s.charAt(j))) {
                        return INVALID;
                    } // a zone offset after the time: +hh[:mm]
                    while (j < n && (Character.isDigit(s.charAt(j)) || s.charAt(j) == ':')) {
                        j++;
                    }
                    i = j;
                    continue;
                }
                while (j < n && (Character.isDigit(s.charAt(j)) || s.charAt(j) == ':' || s.charAt(j) == '.')) {
                    j++;
                }
                String t = s.substring(i, j);
                i = j;
                if (t.indexOf(':') >= 0) {
                    if (timeSeen) {
                        return INVALID;
                    }
                    String[] parts = t.split(":", -1);
                    if (parts.length < 2 || parts.length > 3) {
                        return INVALID;
                    }
                    try {
                        long h = Long.parseLong(parts[0]);
                        long mi = Long.parseLong(parts[1]);
                        double sec = parts.length == 3 ? Double.parseDouble(parts[2]) : 0;
                        if (h > 24 || mi > 59 || sec >= 61) {
                            return INVALID;
                        }
                        time = (h * 60 + mi) * 60_000_000L + Math.round(sec * 1e6);
                    } catch (NumberFormatException e) {
                        return INVALID;
                    }
                    timeSeen = true;
                    continue;
                }
                if (timeSeen && nums.size() >= 3) {
                    return INVALID;
                }
                nums.add(t);
                continue;
            }
            return INVALID;
        }
        if (pm >= 0) {
            long h = time / 3_600_000_000L;
            if (!timeSeen || h < 1 || h > 12) {
                return INVALID;
            }
            time = time % 3_600_000_000L + (h % 12 + (pm == 1 ? 12 : 0)) * 3_600_000_000L;
        }
        long days;
        if (julian != Long.MIN_VALUE) {
            if (!nums.isEmpty() || month >= 0) {
                return INVALID;
            }
            days = julian - 2_440_588;
        } else {
            long y;
            int m;
            int d;
            try {
                if (month >= 0) {
                    if (nums.size() != 2 || numsBeforeMonth == 2 && s.indexOf('-') >= 0) {
                        return INVALID; // PostgreSQL reads 1999 08 Jan, not 1999-08-Jan
                    }
                    String first = nums.get(0);
                    String second = nums.get(1);
                    boolean yearFirst = first.length() >= 3;
                    y = year(yearFirst ? first : second, bc);
                    d = Integer.parseInt(yearFirst ? second : first);
                    m = month;
                } else if (nums.size() == 1) {
                    String t = nums.get(0);
                    int dot = t.indexOf('.');
                    if (dot > 0) { // YYYY.DDD
                        y = Long.parseLong(t.substring(0, dot));
                        long doy = Long.parseLong(t.substring(dot + 1));
                        if (doy < 1 || doy > (leap(y) ? 366 : 365)) {
                            return INVALID;
                        }
                        days = daysFromCivil(bc ? 1 - y : y, 1, 1) + doy - 1;
                        return days * MICROS_PER_DAY + time;
                    }
                    if (t.length() == 8) {
                        y = Long.parseLong(t.substring(0, 4));
                    } else if (t.length() == 6) {
                        y = year(t.substring(0, 2), bc);
                    } else {
                        return INVALID;
                    }
                    int k = t.length() - 4;
                    m = Integer.parseInt(t.substring(k, k + 2));
                    d = Integer.parseInt(t.substring(k + 2));
                    if (bc) {
                        y = 1 - y;
                    }
                } else if (nums.size() == 3) {
                    String f = nums.get(0);
                    if (f.length() >= 3) { // Y M D
                        y = year(f, bc);
                        m = Integer.parseInt(nums.get(1));
                        d = Integer.parseInt(nums.get(2));
                    } else { // M D Y
                        m = Integer.parseInt(f);
                        d = Integer.parseInt(nums.get(1));
                        y = year(nums.get(2), bc);
                    }
                } else {
                    return INVALID;
                }
            } catch (NumberFormatException e) {
                return INVALID;
            }
            if (m < 1 || m > 12 || d < 1 || d > monthDays(y, m) || y > 294_000) {
                return OUT_OF_RANGE;
            }
            days = daysFromCivil(y, m, d);
        }
        long t = days * MICROS_PER_DAY + time;
        return t < MIN_TIMESTAMP ? OUT_OF_RANGE : t;
    }

    /** A year as written: two digits are 1970..2069 (not with BC); BC years count back from 1 BC = year 0. */
    private static long year(String t, boolean bc) {
        if (t.indexOf('.') >= 0) {
            throw new NumberFormatException(t);
        }
        long y = Long.parseLong(t);
        if (t.length() <= 2 && !bc) {
            y += y < 70 ? 2000 : 1900;
        }
        return bc ? 1 - y : y;
    }

    /**
     * PostgreSQL's error for date/timestamp text: 22008 when the text has a date's shape but a
     * field out of range (2021-02-30), else 22007.
     */
    public static io.respsql.sql.SqlException inputError(byte[] a, int off, int len, boolean date) {
        String s = TextBuf.string(a, off, len);
        if (io.respsql.sql.Dialect.postgres() && parseLoose(a, off, len) == OUT_OF_RANGE || s.trim().matches("\\d{4,}-\\d{1,2}-\\d{1,2}([ T]\\d{1,2}:\\d{1,2}(:\\d{1,2}(\\.\\d+)?)?)?")) {
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
        int end = off + len;
        int i = NumberText.skipSpaces(a, off, end);
        end = NumberText.trimSpaces(a, i, end);
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
        if (i == start || month < 1 || month > 12 || day < 1 || day > monthDays(year, month) || year < 1 || year > 294_000) {
            return INVALID; // (beyond 294000 AD the microseconds since 1970 leave a long)
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
        if (infiniteDate(days)) {
            appendInfinity(days == DATE_NOEND, out);
            return;
        }
        long c = civil(days);
        long y = year(c);
        int m = month(c);
        int d = day(c);
        out.ensure(24);
        if (y <= 0 && io.respsql.sql.Dialect.postgres()) { // PostgreSQL: year 0 is 1 BC ("0044-03-15 BC"), as replies show it
            appendDate(daysFromCivil(1 - y, m, Math.min(d, monthDays(1 - y, m))), out);
            out.put((byte) ' ');
            out.put((byte) 'B');
            out.put((byte) 'C');
            return;
        }
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
        if (infiniteTimestamp(micros)) {
            appendInfinity(micros == TS_NOEND, out);
            return;
        }
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
        appendFraction(frac, out);
    }

    private static void appendInfinity(boolean plus, TextBuf out) {
        String w = plus ? "infinity" : "-infinity";
        out.ensure(w.length());
        for (int i = 0; i < w.length(); i++) {
            out.put((byte) w.charAt(i));
        }
    }

    /** Appends {@code .ffffff} of {@code frac} microseconds without trailing zeros; nothing when 0. */
    static void appendFraction(int frac, TextBuf out) {
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

    /** Appends {@code v} (0 to 99) as two digits. */
    static void two(int v, TextBuf out) {
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
