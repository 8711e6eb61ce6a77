package io.respsql.tools;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;

/**
 * A CSV field typed by its column, written as a SQL literal. Each check accepts what the server
 * accepts for that column (exec/write/ValueRules, Temporals), so a file that passes here loads:
 * integers as {@code [-+]digits} in range, FLOAT as a decimal or {@code NaN}/{@code Infinity},
 * BOOLEAN as true/false/t/f/yes/no/on/off/1/0, DATE as {@code YYYY-MM-DD}, TIMESTAMP as
 * {@code YYYY-MM-DD[ HH:MM[:SS[.f]]]}; spaces around a non-text value are ignored. Text is any valid
 * UTF-8, written between single quotes with each quote doubled, so no input can end the literal.
 */
final class Typing {
    enum Kind { INT, BIGINT, FLOAT, TEXT, BOOLEAN, DATE, TIMESTAMP, OTHER }

    private Typing() {
    }

    static Kind kind(String serverType) {
        try {
            return Kind.valueOf(serverType.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return Kind.OTHER; // a type this client does not know: sent as text, the server decides
        }
    }

    private static final byte[] NULL = "NULL".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "TRUE".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "FALSE".getBytes(StandardCharsets.US_ASCII);

    static void appendNull(ByteBuf out) {
        out.put(NULL);
    }

    /**
     * Appends b[s, e) as a literal of {@code kind} to {@code out}; returns null, or why the value
     * does not fit (then what was appended is garbage and the caller stops).
     */
    static String append(Kind kind, byte[] b, int s, int e, ByteBuf out) {
        if (kind == Kind.TEXT || kind == Kind.OTHER) {
            return text(b, s, e, out);
        }
        while (s < e && (b[s] == ' ' || b[s] == '\t')) {
            s++;
        }
        while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
            e--;
        }
        return switch (kind) {
            case INT -> integer(b, s, e, out, Integer.MIN_VALUE, Integer.MAX_VALUE, "INT");
            case BIGINT -> integer(b, s, e, out, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
            case FLOAT -> floating(b, s, e, out);
            case BOOLEAN -> bool(b, s, e, out);
            case DATE -> temporal(b, s, e, out, false);
            case TIMESTAMP -> temporal(b, s, e, out, true);
            default -> throw new AssertionError(kind);
        };
    }

    private static String text(byte[] b, int s, int e, ByteBuf out) {
        out.put('\'');
        int from = s;
        boolean high = false;
        for (int i = s; i < e; i++) {
            byte c = b[i];
            if (c == '\'') {
                out.put(b, from, i + 1);
                out.put('\''); // '' is a quote inside a SQL string
                from = i + 1;
            } else if (c < 0) {
                high = true;
            }
        }
        out.put(b, from, e);
        out.put('\'');
        return high && !Utf8.valid(b, s, e) ? "not valid UTF-8 text" : null;
    }

    private static String integer(byte[] b, int s, int e, ByteBuf out, long min, long max, String type) {
        int i = s;
        boolean neg = false;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            neg = b[i] == '-';
            i++;
        }
        if (i == e) {
            return notA(type, b, s, e);
        }
        long v = 0; // accumulated negatively: Long.MIN_VALUE has no positive twin
        for (int j = i; j < e; j++) {
            int d = b[j] - '0';
            if (d < 0 || d > 9) {
                return notA(type, b, s, e);
            }
            if (v < (Long.MIN_VALUE + d) / 10) {
                return outOfRange(type, b, s, e);
            }
            v = v * 10 - d;
        }
        if (!neg && v == Long.MIN_VALUE || (neg ? v : -v) < min || (neg ? v : -v) > max) {
            return outOfRange(type, b, s, e);
        }
        if (neg) {
            out.put('-');
        }
        out.put(b, i, e);
        return null;
    }

    private static String floating(byte[] b, int s, int e, ByteBuf out) {
        String special = special(b, s, e);
        if (special != null) {
            out.put(special);
            return null;
        }
        int i = s;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        int digits = 0;
        boolean nonZero = false;
        while (i < e && b[i] >= '0' && b[i] <= '9') {
            nonZero |= b[i] != '0';
            digits++;
            i++;
        }
        if (i < e && b[i] == '.') {
            i++;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                nonZero |= b[i] != '0';
                digits++;
                i++;
            }
        }
        if (digits == 0) {
            return notA("FLOAT", b, s, e);
        }
        boolean exponent = false;
        if (i < e && (b[i] == 'e' || b[i] == 'E')) {
            exponent = true;
            i++;
            if (i < e && (b[i] == '-' || b[i] == '+')) {
                i++;
            }
            int ed = 0;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                ed++;
                i++;
            }
            if (ed == 0) {
                return notA("FLOAT", b, s, e);
            }
        }
        if (i != e) {
            return notA("FLOAT", b, s, e);
        }
        if (exponent || digits > 300) { // only then can it leave the double range
            double d = Double.parseDouble(new String(b, s, e - s, StandardCharsets.US_ASCII));
            if (Double.isInfinite(d) || d == 0.0 && nonZero) {
                return outOfRange("FLOAT", b, s, e);
            }
        }
        out.put(b, b[s] == '+' ? s + 1 : s, e);
        return null;
    }

    /** 'NaN', 'Infinity' or '-Infinity' for the words PostgreSQL reads as them; null otherwise. */
    private static String special(byte[] b, int s, int e) {
        int n = e - s;
        int first = n == 0 ? 0 : b[s] == '-' || b[s] == '+' ? (n > 1 ? b[s + 1] : 0) : b[s];
        if (n < 3 || n > 9 || (first | 0x20) != 'n' && (first | 0x20) != 'i') {
            return null; // a number: no word to look up (and no String made)
        }
        String w = new String(b, s, n, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
        return switch (w) {
            case "nan" -> "'NaN'";
            case "inf", "+inf", "infinity", "+infinity" -> "'Infinity'";
            case "-inf", "-infinity" -> "'-Infinity'";
            default -> null;
        };
    }

    private static String bool(byte[] b, int s, int e, ByteBuf out) {
        int n = e - s;
        if (n >= 1 && n <= 5) {
            String w = new String(b, s, n, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
            switch (w) {
                case "true", "t", "yes", "on", "1" -> {
                    out.put(TRUE);
                    return null;
                }
                case "false", "f", "no", "off", "0" -> {
                    out.put(FALSE);
                    return null;
                }
                default -> { }
            }
        }
        return notA("BOOLEAN", b, s, e);
    }

    private static String temporal(byte[] b, int s, int e, ByteBuf out, boolean timestamp) {
        boolean ok = timestamp ? (e - s == 19 && plainTimestamp(b, s)) || slowTimestamp(b, s, e)
                : (e - s == 10 && plainDate(b, s)) || slowDate(b, s, e);
        if (!ok) {
            return notA(timestamp ? "TIMESTAMP" : "DATE", b, s, e);
        }
        out.put('\'');
        out.put(b, s, e); // valid: digits, '-', ':', '.', ' ' or 'T', no quote
        out.put('\'');
        return null;
    }

    /** YYYY-MM-DD with a real month and day (the form a bulk load has), without java.time. */
    private static boolean plainDate(byte[] b, int s) {
        if (b[s + 4] != '-' || b[s + 7] != '-') {
            return false;
        }
        int y = digits(b, s, 4);
        int m = digits(b, s + 5, 2);
        int d = digits(b, s + 8, 2);
        return y >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= java.time.Month.of(m).length(java.time.Year.isLeap(y));
    }

    private static boolean plainTimestamp(byte[] b, int s) {
        if ((b[s + 10] != ' ' && b[s + 10] != 'T') || b[s + 13] != ':' || b[s + 16] != ':' || !plainDate(b, s)) {
            return false;
        }
        int h = digits(b, s + 11, 2);
        int mi = digits(b, s + 14, 2);
        int sec = digits(b, s + 17, 2);
        return h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && sec >= 0 && sec <= 59;
    }

    private static boolean slowDate(byte[] b, int s, int e) {
        try {
            LocalDate.parse(new String(b, s, e - s, StandardCharsets.UTF_8));
            return true;
        } catch (DateTimeParseException ex) {
            return false;
        }
    }

    private static boolean slowTimestamp(byte[] b, int s, int e) {
        String t = new String(b, s, e - s, StandardCharsets.UTF_8);
        try {
            if (t.length() == 10) {
                LocalDate.parse(t);
            } else {
                LocalDateTime.parse(t.replace(' ', 'T'));
            }
            return true;
        } catch (DateTimeParseException ex) {
            return false;
        }
    }

    private static int digits(byte[] b, int at, int n) {
        int v = 0;
        for (int i = at; i < at + n; i++) {
            int c = b[i] - '0';
            if (c < 0 || c > 9) {
                return -1;
            }
            v = v * 10 + c;
        }
        return v;
    }

    private static String notA(String type, byte[] b, int s, int e) {
        return shown(b, s, e) + " is not a valid " + type;
    }

    private static String outOfRange(String type, byte[] b, int s, int e) {
        return shown(b, s, e) + " is out of range for " + type;
    }

    /** The value for a message: quoted, cut at 60 characters. */
    static String shown(byte[] b, int s, int e) {
        String v = new String(b, s, e - s, StandardCharsets.UTF_8);
        return "'" + (v.length() > 60 ? v.substring(0, 60) + "..." : v) + "'";
    }
}
