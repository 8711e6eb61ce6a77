package io.respsql.exec;

import io.respsql.expr.Temporal;

/**
 * DATE (days since 1970-01-01) and TIMESTAMP (microseconds) as text, written into a caller's
 * buffer without allocating: {@code YYYY-MM-DD} and {@code YYYY-MM-DD HH:MM:SS[.ffffff]} (the
 * fraction only when not zero, trailing zeros dropped, as PostgreSQL prints it).
 */
final class TemporalText {
    private TemporalText() {
    }

    /** Writes the value into {@code out} (at least 32 bytes); returns the length. */
    static int format(boolean date, long v, byte[] out) {
        if (date ? Temporal.infiniteDate(v) : Temporal.infiniteTimestamp(v)) { // regress25: PostgreSQL's infinities
            String w = v > 0 ? "infinity" : "-infinity";
            for (int i = 0; i < w.length(); i++) {
                out[i] = (byte) w.charAt(i);
            }
            return w.length();
        }
        long days = date ? v : Math.floorDiv(v, 86_400_000_000L);
        // PostgreSQL writes year 0 and before as 1 BC and before ("0044-03-15 BC"); the default dialect keeps "-0043"
        boolean bc = days < -719_162 && io.respsql.sql.Dialect.postgres(); // before 0001-01-01
        int p = civil(days, out, bc);
        if (date) {
            return bc ? bc(out, p) : p;
        }
        long micros = Math.floorMod(v, 86_400_000_000L);
        long secs = micros / 1_000_000;
        int frac = (int) (micros % 1_000_000);
        out[p++] = ' ';
        p = two((int) (secs / 3600), out, p);
        out[p++] = ':';
        p = two((int) (secs / 60 % 60), out, p);
        out[p++] = ':';
        p = two((int) (secs % 60), out, p);
        if (frac != 0) {
            out[p++] = '.';
            int digits = 6;
            while (frac % 10 == 0) {
                frac /= 10;
                digits--;
            }
            for (int i = digits - 1; i >= 0; i--) {
                out[p + i] = (byte) ('0' + frac % 10);
                frac /= 10;
            }
            p += digits;
        }
        return bc ? bc(out, p) : p;
    }

    private static int bc(byte[] out, int p) {
        out[p] = ' ';
        out[p + 1] = 'B';
        out[p + 2] = 'C';
        return p + 3;
    }

    /** Days since the epoch as YYYY-MM-DD (proleptic Gregorian; H. Hinnant's civil_from_days). */
    private static int civil(long z, byte[] out, boolean bc) {
        long c = Temporal.civil(z);
        long y = Temporal.year(c);
        int m = Temporal.month(c);
        int d = Temporal.day(c);
        if (bc) {
            y = 1 - y;
        }
        int p = 0;
        if (y < 0) {
            out[p++] = '-';
            y = -y;
        }
        if (y > 9999) {
            String s = Long.toString(y);
            for (int i = 0; i < s.length(); i++) {
                out[p++] = (byte) s.charAt(i);
            }
        } else {
            p = two((int) (y / 100), out, p);
            p = two((int) (y % 100), out, p);
        }
        out[p++] = '-';
        p = two((int) m, out, p);
        out[p++] = '-';
        return two((int) d, out, p);
    }

    private static int two(int v, byte[] out, int p) {
        out[p] = (byte) ('0' + v / 10);
        out[p + 1] = (byte) ('0' + v % 10);
        return p + 2;
    }
}
