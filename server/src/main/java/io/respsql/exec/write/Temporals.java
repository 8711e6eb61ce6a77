package io.respsql.exec.write;

import io.respsql.sql.SqlException;

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
        try {
            return LocalDate.parse(text.trim()).toEpochDay();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Microseconds of {@code text} ({@code YYYY-MM-DD[ HH:MM[:SS[.f]]]}, or with a 'T'); null when it is not one. */
    static Long timestamp(String text) {
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
        return new SqlException("value " + shown + " is not a valid " + type + " for column '" + column + "'");
    }
}
