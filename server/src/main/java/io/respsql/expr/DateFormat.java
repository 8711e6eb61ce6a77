package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * PostgreSQL's template patterns for to_char(timestamp | date | interval, text) and
 * to_date/to_timestamp(text, text): YYYY YYY YY Y IYYY MM MON Mon mon MONTH Month month DD DDD D
 * ID DAY Day day DY Dy dy HH HH12 HH24 MI SS MS US SSSS AM PM am pm A.M. P.M. IW WW W Q CC J TZ,
 * the FM prefix (no padding) and the TH/th suffix, "quoted text" and backslash escapes.
 */
final class DateFormat {
    private DateFormat() {
    }

    static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December"};
    private static final String[] MON3 = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    private static final String[] DAY3 = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    private static final String[] ROMAN = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};
    static final String[] DAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

    /** The broken-down value to_char prints. */
    static final class Tm {
        long year;
        int month;
        long day;
        long hour;
        long minute;
        long second;
        long micros;
        long days; // day number (timestamps), for weekday, doy, iso week
        boolean interval;
    }

    static final class ToChar extends NaryNode {
        final TextBuf buf = new TextBuf();
        final Tm tm = new Tm();
        final Interval.Value v = new Interval.Value();

        ToChar(Expression x, Expression fmt) {
            super(SqlType.TEXT, "TO_CHAR", new Expression[] {x, fmt});
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            Expression x = args[0];
            if (x.type() == SqlType.INTERVAL) {
                if (!TimeFunctions.IntervalNode.read(x, ctx, v)) {
                    return TimeFunctions.IntervalNode.nul(ctx);
                }
                tm.interval = true;
                tm.year = v.months / 12;
                tm.month = (int) (v.months % 12);
                tm.day = v.days;
                tm.hour = v.micros / 3_600_000_000L;
                tm.minute = v.micros / 60_000_000L % 60;
                tm.second = v.micros / 1_000_000L % 60;
                tm.micros = v.micros % 1_000_000L;
                tm.days = 0;
            } else {
                long t = TimeFunctions.micros(x, ctx);
                if (ctx.isNull || Temporal.infiniteTimestamp(t)) { // PostgreSQL: to_char of an infinity is NULL
                    return TimeFunctions.IntervalNode.nul(ctx);
                }
                long d = Math.floorDiv(t, Interval.MPD);
                long tod = t - d * Interval.MPD;
                long c = Temporal.civil(d);
                tm.interval = false;
                tm.year = Temporal.year(c);
                tm.month = Temporal.month(c);
                tm.day = Temporal.day(c);
                tm.hour = tod / 3_600_000_000L;
                tm.minute = tod / 60_000_000L % 60;
                tm.second = tod / 1_000_000L % 60;
                tm.micros = tod % 1_000_000L;
                tm.days = d;
            }
            byte[] f = args[1].evalText(ctx);
            if (ctx.isNull) {
                return TimeFunctions.IntervalNode.nul(ctx);
            }
            buf.reset();
            format(tm, f, ctx.textOffset, ctx.textOffset + ctx.textLength, buf);
            return buf.result(ctx);
        }
    }

    private static boolean at(byte[] f, int i, int end, String p) {
        if (i + p.length() > end) {
            return false;
        }
        for (int k = 0; k < p.length(); k++) {
            if (f[i + k] != p.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean atCi(byte[] f, int i, int end, String p) {
        if (i + p.length() > end) {
            return false;
        }
        for (int k = 0; k < p.length(); k++) {
            if (Character.toUpperCase((char) f[i + k]) != p.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static void num(long v, int width, boolean fm, TextBuf out) {
        if (v < 0) {
            out.put((byte) '-');
            v = -v;
        }
        if (!fm) {
            long p = 1;
            for (int i = 1; i < width; i++) {
                p *= 10;
            }
            for (; p > 1 && v < p; p /= 10) {
                out.put((byte) '0');
            }
        }
        TextForm.appendLong(v, out);
    }

    private static void word(String w, int caseMode, int pad, boolean fm, TextBuf out) {
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            c = caseMode == 2 ? Character.toUpperCase(c) : caseMode == 0 ? Character.toLowerCase(c) : c;
            out.put((byte) c);
        }
        if (!fm) {
            for (int i = w.length(); i < pad; i++) {
                out.put((byte) ' ');
            }
        }
    }

    private static void ordinal(long v, boolean upper, TextBuf out) {
        long n = Math.abs(v);
        String s = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
        for (int i = 0; i < 2; i++) {
            out.put((byte) (upper ? Character.toUpperCase(s.charAt(i)) : s.charAt(i)));
        }
    }

    /** Case of a name pattern as written: 0 lower (month), 1 capitalised (Month), 2 upper (MONTH). */
    private static int caseOf(byte[] f, int i) {
        boolean firstUpper = Character.isUpperCase((char) f[i]);
        boolean secondUpper = Character.isUpperCase((char) f[i + 1]);
        return !firstUpper ? 0 : secondUpper ? 2 : 1;
    }

    static void format(Tm tm, byte[] f, int i, int end, TextBuf out) {
        while (i < end) {
            boolean fm = false;
            if (atCi(f, i, end, "FM")) {
                fm = true;
                i += 2;
                if (i >= end) {
                    break;
                }
            }
            long value = Long.MIN_VALUE; // a number printed: TH may follow
            int start = out.len;
            if (f[i] == '"') {
                i++;
                while (i < end && f[i] != '"') {
                    if (f[i] == '\\' && i + 1 < end) {
                        i++;
                    }
                    out.put(f[i++]);
                }
                i++;
                continue;
            }
            if (f[i] == '\\' && i + 1 < end) {
                out.put(f[i + 1]);
                i += 2;
                continue;
            }
            long hour12 = tm.hour % 12 == 0 ? 12 : tm.hour % 12;
            if (atCi(f, i, end, "HH24")) {
                num(value = tm.hour, 2, fm, out);
                i += 4;
            } else if (atCi(f, i, end, "HH12")) {
                num(value = hour12, 2, fm, out);
                i += 4;
            } else if (atCi(f, i, end, "HH")) {
                num(value = hour12, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "MI")) {
                num(value = tm.minute, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "SSSSS") || atCi(f, i, end, "SSSS")) {
                int n = atCi(f, i, end, "SSSSS") ? 5 : 4;
                num(value = (tm.hour * 60 + tm.minute) * 60 + tm.second, 1, true, out);
                i += n;
            } else if (atCi(f, i, end, "SS")) {
                num(value = tm.second, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "MS")) {
                num(value = tm.micros / 1000, 3, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "US")) {
                num(value = tm.micros, 6, fm, out);
                i += 2;
            } else if (at(f, i, end, "A.M.") || at(f, i, end, "P.M.")) {
                word(tm.hour >= 12 ? "P.M." : "A.M.", 2, 0, true, out);
                i += 4;
            } else if (at(f, i, end, "a.m.") || at(f, i, end, "p.m.")) {
                word(tm.hour >= 12 ? "p.m." : "a.m.", 0, 0, true, out);
                i += 4;
            } else if (at(f, i, end, "AM") || at(f, i, end, "PM")) {
                word(tm.hour >= 12 ? "PM" : "AM", 2, 0, true, out);
                i += 2;
            } else if (at(f, i, end, "am") || at(f, i, end, "pm")) {
                word(tm.hour >= 12 ? "pm" : "am", 0, 0, true, out);
                i += 2;
            } else if (atCi(f, i, end, "Y,YYY")) {
                long y = yearOf(tm);
                num(y / 1000, 1, fm, out);
                out.put((byte) ',');
                num(y % 1000, 3, false, out);
                i += 5;
            } else if (atCi(f, i, end, "YYYY")) {
                num(value = yearOf(tm), 4, fm, out);
                i += 4;
            } else if (atCi(f, i, end, "YYY")) {
                num(value = yearOf(tm) % 1000, 3, fm, out);
                i += 3;
            } else if (atCi(f, i, end, "YY")) {
                num(value = yearOf(tm) % 100, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "Y")) {
                num(value = yearOf(tm) % 10, 1, fm, out);
                i += 1;
            } else if (atCi(f, i, end, "IYYY")) {
                num(value = TimeFunctions.isoWeek(tm.days) >> 6, 4, fm, out);
                i += 4;
            } else if (atCi(f, i, end, "IDDD")) {
                long iy = TimeFunctions.isoWeek(tm.days) >> 6;
                long jan4 = Temporal.daysFromCivil(iy, 1, 4);
                long firstMonday = jan4 - Math.floorMod(jan4 + 3, 7);
                num(value = tm.days - firstMonday + 1, 3, fm, out);
                i += 4;
            } else if (atCi(f, i, end, "ID")) {
                num(value = Math.floorMod(tm.days + 3, 7) + 1, 1, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "IW")) {
                num(value = TimeFunctions.isoWeek(tm.days) & 63, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "BC") || atCi(f, i, end, "AD")) {
                int cm = caseOf(f, i);
                word(tm.year > 0 ? "AD" : "BC", cm == 0 ? 0 : 2, 0, true, out);
                i += 2;
            } else if (atCi(f, i, end, "MONTH")) {
                if (!tm.interval || tm.month > 0) {
                    word(MONTHS[Math.max(tm.month, 1) - 1], caseOf(f, i), 9, fm, out);
                }
                i += 5;
            } else if (atCi(f, i, end, "MON")) {
                if (!tm.interval || tm.month > 0) {
                    word(MON3[Math.max(tm.month, 1) - 1], caseOf(f, i), 3, fm, out);
                }
                i += 3;
            } else if (atCi(f, i, end, "MM")) {
                num(value = tm.month, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "DAY")) {
                word(DAYS[(int) Math.floorMod(tm.days + 4, 7)], caseOf(f, i), 9, fm, out);
                i += 3;
            } else if (atCi(f, i, end, "DY")) {
                word(DAY3[(int) Math.floorMod(tm.days + 4, 7)], caseOf(f, i), 3, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "DDD")) {
                long c = Temporal.civil(tm.days);
                num(value = tm.days - Temporal.daysFromCivil(Temporal.year(c), 1, 1) + 1, 3, fm, out);
                i += 3;
            } else if (atCi(f, i, end, "DD")) {
                num(value = tm.day, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "D")) {
                num(value = Math.floorMod(tm.days + 4, 7) + 1, 1, fm, out);
                i += 1;
            } else if (atCi(f, i, end, "WW")) {
                long c = Temporal.civil(tm.days);
                num(value = (tm.days - Temporal.daysFromCivil(Temporal.year(c), 1, 1)) / 7 + 1, 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "W")) {
                num(value = (tm.day - 1) / 7 + 1, 1, fm, out);
                i += 1;
            } else if (atCi(f, i, end, "CC")) {
                long y = tm.year;
                num(value = tm.interval ? y / 100 : y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100), 2, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "J")) {
                num(value = tm.days + 2440588, 1, fm, out);
                i += 1;
            } else if (atCi(f, i, end, "Q")) {
                num(value = (tm.month - 1) / 3 + 1, 1, fm, out);
                i += 1;
            } else if (atCi(f, i, end, "RM")) {
                String r = tm.month >= 1 ? ROMAN[tm.month - 1] : "";
                word(r, f[i] == 'r' ? 0 : 2, 4, fm, out);
                i += 2;
            } else if (atCi(f, i, end, "TZH") || atCi(f, i, end, "TZM")) {
                i += 3;
            } else if (atCi(f, i, end, "TZ") || atCi(f, i, end, "OF")) {
                i += 2;
            } else {
                out.put(f[i++]);
                continue;
            }
            if (value != Long.MIN_VALUE && i + 1 < end && (at(f, i, end, "TH") || at(f, i, end, "th"))) {
                ordinal(value, f[i] == 'T', out);
                i += 2;
            }
            if (start < 0) {
                break;
            }
        }
    }

    private static long yearOf(Tm tm) {
        return tm.interval || tm.year > 0 ? tm.year : 1 - tm.year; // BC years print as positive
    }

    // ---- parsing ----------------------------------------------------------------------------

    /** to_date(text, fmt) and to_timestamp(text, fmt). */
    static final class Parse extends NaryNode {
        private final int[] at = new int[1];

        Parse(SqlType type, Expression text, Expression fmt) {
            super(type, type == SqlType.DATE ? "TO_DATE" : "TO_TIMESTAMP", new Expression[] {text, fmt});
        }

        @Override
        public long evalLong(EvalContext ctx) {
            byte[] s = args[0].evalText(ctx);
            if (ctx.isNull) {
                return 0;
            }
            int so = ctx.textOffset;
            int sl = ctx.textLength;
            byte[] f = args[1].evalText(ctx);
            if (ctx.isNull) {
                return 0;
            }
            at[0] = so;
            long t = parse(s, so, so + sl, f, ctx.textOffset, ctx.textOffset + ctx.textLength, at);
            return type == SqlType.DATE ? Math.floorDiv(t, Interval.MPD) : t;
        }
    }

    private static SqlException bad(String msg) {
        return new SqlException(SqlState.INVALID_DATETIME_FORMAT, msg);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isAlnum(byte b) {
        return isDigit(b) || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    /** Reads up to {@code max} digits (more for a last, unbounded field) at {@code s[p[0]]}. */
    private static long digits(byte[] s, int[] p, int end, int max, String what) {
        int i = p[0];
        while (i < end && s[i] == ' ') {
            i++;
        }
        boolean neg = false;
        if (i < end && s[i] == '-') {
            neg = true;
            i++;
        }
        int start = i;
        long v = 0;
        while (i < end && isDigit(s[i]) && i - start < max) {
            v = v * 10 + (s[i++] - '0');
        }
        if (i == start) {
            throw bad("invalid value \"" + TextBuf.string(s, start, Math.min(end - start, 10)) + "\" for \"" + what + "\"");
        }
        p[0] = i;
        return neg ? -v : v;
    }

    private static int name(byte[] s, int[] p, int end, String[] names, int len, String what) {
        int i = p[0];
        while (i < end && s[i] == ' ') {
            i++;
        }
        for (int k = 0; k < names.length; k++) {
            String n = len > 0 ? names[k].substring(0, len) : names[k];
            if (i + n.length() <= end) {
                boolean ok = true;
                for (int j = 0; j < n.length() && ok; j++) {
                    ok = Character.toLowerCase((char) s[i + j]) == Character.toLowerCase(n.charAt(j));
                }
                if (ok) {
                    p[0] = i + n.length();
                    return k;
                }
            }
        }
        throw bad("invalid value \"" + TextBuf.string(s, i, Math.min(end - i, 10)) + "\" for \"" + what + "\"");
    }

    static long parse(byte[] s, int si, int send, byte[] f, int i, int end, int[] p) {
        long year = 1970;
        boolean yearSet = false;
        long month = 1;
        long day = 1;
        long hour = 0;
        long minute = 0;
        long second = 0;
        long micros = 0;
        int pm = -1;
        long doy = -1;
        while (i < end) {
            if (atCi(f, i, end, "FM")) {
                i += 2;
                continue;
            }
            if (atCi(f, i, end, "FX")) {
                i += 2;
                continue;
            }
            if (f[i] == '"') {
                i++;
                while (i < end && f[i] != '"') {
                    i++;
                    if (p[0] < send) {
                        p[0]++;
                    }
                }
                i++;
                continue;
            }
            if (atCi(f, i, end, "HH24")) {
                hour = digits(s, p, send, 2, "HH24");
                i += 4;
            } else if (atCi(f, i, end, "HH12")) {
                hour = digits(s, p, send, 2, "HH12");
                i += 4;
            } else if (atCi(f, i, end, "HH")) {
                hour = digits(s, p, send, 2, "HH");
                i += 2;
            } else if (atCi(f, i, end, "MI")) {
                minute = digits(s, p, send, 2, "MI");
                i += 2;
            } else if (atCi(f, i, end, "SS")) {
                second = digits(s, p, send, 2, "SS");
                i += 2;
            } else if (atCi(f, i, end, "MS")) {
                int st = p[0];
                long v = digits(s, p, send, 3, "MS");
                for (int n = p[0] - st; n < 3; n++) {
                    v *= 10;
                }
                micros += v * 1000;
                i += 2;
            } else if (atCi(f, i, end, "US")) {
                int st = p[0];
                long v = digits(s, p, send, 6, "US");
                for (int n = p[0] - st; n < 6; n++) {
                    v *= 10;
                }
                micros += v;
                i += 2;
            } else if (atCi(f, i, end, "AM") || atCi(f, i, end, "PM") || atCi(f, i, end, "A.M.") || atCi(f, i, end, "P.M.")) {
                boolean dots = f[i + 1] == '.';
                int q = p[0];
                while (q < send && s[q] == ' ') {
                    q++;
                }
                if (q < send && (s[q] == 'p' || s[q] == 'P')) {
                    pm = 1;
                } else if (q < send && (s[q] == 'a' || s[q] == 'A')) {
                    pm = 0;
                } else {
                    throw bad("invalid value for \"AM/PM\"");
                }
                p[0] = Math.min(send, q + (dots ? 4 : 2));
                i += dots ? 4 : 2;
            } else if (atCi(f, i, end, "YYYY")) {
                year = digits(s, p, send, isLast(f, i + 4, end) ? 9 : 4, "YYYY");
                yearSet = true;
                i += 4;
            } else if (atCi(f, i, end, "YYY")) {
                year = 2000 + digits(s, p, send, 3, "YYY");
                yearSet = true;
                i += 3;
            } else if (atCi(f, i, end, "YY")) {
                long y = digits(s, p, send, 2, "YY");
                year = y < 70 ? 2000 + y : 1900 + y;
                yearSet = true;
                i += 2;
            } else if (atCi(f, i, end, "MONTH")) {
                month = name(s, p, send, MONTHS, 0, "MONTH") + 1;
                i += 5;
            } else if (atCi(f, i, end, "MON")) {
                month = name(s, p, send, MONTHS, 3, "MON") + 1;
                i += 3;
            } else if (atCi(f, i, end, "MM")) {
                month = digits(s, p, send, 2, "MM");
                i += 2;
            } else if (atCi(f, i, end, "DAY")) {
                name(s, p, send, DAYS, 0, "DAY");
                i += 3;
            } else if (atCi(f, i, end, "DY")) {
                name(s, p, send, DAYS, 3, "DY");
                i += 2;
            } else if (atCi(f, i, end, "DDD")) {
                doy = digits(s, p, send, 3, "DDD");
                i += 3;
            } else if (atCi(f, i, end, "DD")) {
                day = digits(s, p, send, 2, "DD");
                i += 2;
            } else if (atCi(f, i, end, "TZ")) {
                i += 2;
            } else {
                byte c = f[i++];
                int q = p[0];
                if (c == ' ') {
                    while (q < send && s[q] == ' ') {
                        q++;
                    }
                } else if (q < send && !isAlnum(s[q])) {
                    q++;
                }
                p[0] = q;
            }
        }
        if (pm >= 0) {
            if (hour < 1 || hour > 12) {
                throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "hour \"" + hour + "\" is invalid for the 12-hour clock");
            }
            hour = hour % 12 + (pm == 1 ? 12 : 0);
        }
        if (doy >= 0 && yearSet) {
            long d = Temporal.daysFromCivil(year, 1, 1) + doy - 1;
            return d * Interval.MPD + ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros;
        }
        if (month < 1 || month > 12 || day < 1 || day > Temporal.monthDays(year, (int) month)) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range");
        }
        if (hour > 24 || minute > 59 || second > 60) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range");
        }
        long d = Temporal.daysFromCivil(year, (int) month, (int) day);
        return Temporal.checkTimestamp(d * Interval.MPD + ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros);
    }

    private static boolean isLast(byte[] f, int i, int end) {
        return i >= end || !isAlnum(f[i]);
    }
}
