package io.respsql.expr;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TemporalTest {
    static long date(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Temporal.parseDate(b, 0, b.length);
    }

    static long ts(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Temporal.parseTimestamp(b, 0, b.length);
    }

    @Test
    void datesRoundTripAgainstJavaTime() {
        for (long day = LocalDate.of(1, 1, 1).toEpochDay(); day <= LocalDate.of(9999, 12, 31).toEpochDay(); day += 97) {
            String text = LocalDate.ofEpochDay(day).toString();
            assertEquals(text, Temporal.formatDate(day));
            assertEquals(day, date(text), text);
        }
    }

    @Test
    void parsingRules() {
        assertEquals(LocalDate.of(2024, 2, 29).toEpochDay(), date("2024-02-29"));
        assertEquals(Temporal.INVALID, date("2023-02-29"));
        assertEquals(Temporal.INVALID, date("2024-00-10"));
        assertEquals(Temporal.INVALID, date("24-01-10"));
        assertEquals(Temporal.INVALID, date("2024/01/10"));
        assertEquals(Temporal.INVALID, date("2024-01-10x"));
        assertEquals(LocalDate.of(2024, 1, 5).toEpochDay(), date(" 2024-1-5 "));
        LocalDateTime t = LocalDateTime.of(2024, 6, 1, 13, 45, 30, 123_456_000);
        long micros = ChronoUnit.MICROS.between(LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC), t);
        assertEquals(micros, ts("2024-06-01 13:45:30.123456"));
        assertEquals(micros, ts("2024-06-01T13:45:30.1234567")); // beyond µs: dropped
        assertEquals("2024-06-01 13:45:30.123456", Temporal.formatTimestamp(micros));
        assertEquals("2024-06-01 13:45:00", Temporal.formatTimestamp(ts("2024-06-01 13:45")));
        assertEquals(Temporal.INVALID, ts("2024-06-01 24:00:00"));
        assertEquals(Temporal.INVALID, ts("2024-06-01 12:60"));
        assertEquals(Temporal.INVALID, ts("2024-06-01 12:00:00."));
        assertEquals(LocalDate.of(2024, 6, 1).toEpochDay(), date("2024-06-01 23:59:59"));
        assertEquals("1969-12-31", Temporal.formatDate(Math.floorDiv(ts("1969-12-31 23:00"), Temporal.MICROS_PER_DAY)));
    }
}
