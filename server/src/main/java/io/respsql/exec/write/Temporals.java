package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * DATE (days since 1970-01-01) and TIMESTAMP (microseconds since 1970-01-01 00:00:00, no time
 * zone) from and to their SQL text, {@code '2024-06-01'} and {@code '2024-06-01 12:30:00[.ffffff]'}.
 */
final class Temporals {
    private Temporals() {
    }

    /** Days of {@code text} ({@code YYYY-MM-DD}); null when it is not a date. */
    static Long date(String text) {
        if (text.length() == 10) {
            long d = fastDate(text);
            if (d != NO_FAST) {
                return d;
            }
        }
        try {
            return LocalDate.parse(text.trim()).toEpochDay();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Microseconds of {@code text} ({@code YYYY-MM-DD[ HH:MM[:SS[.f]]]}, or with a 'T'); null when it is not one. */
    static Long timestamp(String text) {
        long fast = fastTimestamp(text);
        if (fast != NO_FAST) {
            return fast;
        }
        String t = text.trim();
        try {
            if (t.length() == 10) {
                return LocalDate.parse(t).toEpochDay() * 86_400_000_000L;
            }
            LocalDateTime dt = LocalDateTime.parse(t.replace(' ', 'T'));
            return dt.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + dt.getNano() / 1_000;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** PostgreSQL's special words ('epoch', 'now', 'today', 'tomorrow', 'yesterday'); null for other text. */
    static Long special(String text, boolean date) {
        byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long v = io.respsql.expr.Temporal.special(b, 0, b.length, date);
        if (v == io.respsql.expr.Temporal.INVALID) {
            return null;
        }
        return date ? io.respsql.expr.Temporal.timestampToDate(v) : v;
    }

    /** The error for text a DATE or TIMESTAMP column refuses: PostgreSQL's (22007/22008) in its dialect, else the 2010 one. */
    static SqlException refused(io.respsql.storage.Column c, String value, String shown, boolean date) {
        if (io.respsql.sql.Dialect.postgres()) {
            byte[] b = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return io.respsql.expr.Temporal.inputError(b, 0, b.length, date);
        }
        return ValueRules.notValid(c, shown);
    }

    /** No fast answer: the text is not in the plain form (or not valid); java.time decides. */
    static final long NO_FAST = Long.MIN_VALUE;

    /**
     * The days of {@code YYYY-MM-DD} exactly (the form a bulk load sends), read without java.time's
     * parser (its resolver allocates per call); {@link #NO_FAST} for any other text, so java.time
     * keeps every other form and every refusal.
     */
    private static long fastDate(String t) {
        return t.length() < 10 ? NO_FAST : dateAt(t, 0);
    }

    /** {@link #fastDate} of the 10 characters of {@code t} at {@code at} (there must be 10). */
    private static long dateAt(String t, int at) {
        if (t.charAt(at + 4) != '-' || t.charAt(at + 7) != '-') {
            return NO_FAST;
        }
        int y = digits(t, at, 4);
        int m = digits(t, at + 5, 2);
        int d = digits(t, at + 8, 2);
        if (y < 0 || m < 1 || m > 12 || d < 1 || d > java.time.Month.of(m).length(java.time.Year.isLeap(y))) {
            return NO_FAST;
        }
        return LocalDate.of(y, m, d).toEpochDay();
    }

    /** {@code YYYY-MM-DD HH:MM:SS} (or with 'T') exactly, as {@link #fastDate}; {@link #NO_FAST} otherwise. */
    private static long fastTimestamp(String t) {
        return fastTimestamp(t, 0, t.length());
    }

    /**
     * {@link #fastTimestamp(String)} of {@code t[from, to)}: a bulk INSERT's TIMESTAMP literal read
     * in place (no String, no boxed Long); {@link #NO_FAST} when it is not of that form.
     */
    static long fastTimestamp(String t, int from, int to) {
        if (to - from != 19 || (t.charAt(from + 10) != ' ' && t.charAt(from + 10) != 'T') || t.charAt(from + 13) != ':'
                || t.charAt(from + 16) != ':') {
            return NO_FAST;
        }
        long days = dateAt(t, from);
        int h = digits(t, from + 11, 2);
        int mi = digits(t, from + 14, 2);
        int sec = digits(t, from + 17, 2);
        if (days == NO_FAST || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) {
            return NO_FAST;
        }
        return (days * 86_400L + h * 3_600L + mi * 60L + sec) * 1_000_000L;
    }

    /** {@link #fastDate} of {@code t[from, to)} (a bulk INSERT's DATE literal in place); {@link #NO_FAST} otherwise. */
    static long fastDate(String t, int from, int to) {
        return to - from != 10 ? NO_FAST : dateAt(t, from);
    }

    /** The {@code n} ASCII digits at {@code at} as a number, or -1. */
    private static int digits(String t, int at, int n) {
        int v = 0;
        for (int i = at; i < at + n; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static String dateText(long days) {
        return LocalDate.ofEpochDay(days).toString();
    }

    static String timestampText(long micros) {
        long secs = Math.floorDiv(micros, 1_000_000L);
        int micro = (int) Math.floorMod(micros, 1_000_000L);
        LocalDateTime dt = LocalDateTime.ofEpochSecond(secs, micro * 1_000, ZoneOffset.UTC);
        String s = dt.toLocalDate() + " " + String.format("%02d:%02d:%02d", dt.getHour(), dt.getMinute(), dt.getSecond());
        return micro == 0 ? s : s + String.format(".%06d", micro);
    }

    static SqlException notA(String type, String shown, String column) {
        return new SqlException(SqlState.INVALID_DATETIME_FORMAT, "value " + shown + " is not a valid " + type + " for column '" + column + "'");
    }
}
