package io.respsql.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Just enough JSON: quoting for the writers, and a reader for the compare command. */
public final class Json {

    private Json() {
    }

    public static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A number as JSON: integral values without a fraction, others with up to 6 decimals. */
    public static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "null";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new java.math.BigDecimal(v).setScale(6, java.math.RoundingMode.HALF_EVEN)
                .stripTrailingZeros().toPlainString();
    }

    /** Parses a JSON text into maps (insertion ordered), lists, strings, doubles, booleans and null. */
    public static Object parse(String text) {
        Reader r = new Reader(text);
        r.ws();
        Object v = r.value();
        r.ws();
        if (r.pos != text.length()) {
            throw r.error("trailing characters");
        }
        return v;
    }

    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
        }

        void ws() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        void expect(char c) {
            ws();
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        Object value() {
            ws();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{' -> {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(pos) == '}') {
                        pos++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        expect(':');
                        m.put(k, value());
                        ws();
                        char d = s.charAt(pos++);
                        if (d == '}') {
                            return m;
                        }
                        if (d != ',') {
                            throw error("expected ',' or '}'");
                        }
                    }
                }
                case '[' -> {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(pos) == ']') {
                        pos++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        char d = s.charAt(pos++);
                        if (d == ']') {
                            return l;
                        }
                        if (d != ',') {
                            throw error("expected ',' or ']'");
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                case 't' -> {
                    word("true");
                    return Boolean.TRUE;
                }
                case 'f' -> {
                    word("false");
                    return Boolean.FALSE;
                }
                case 'n' -> {
                    word("null");
                    return null;
                }
                default -> {
                    int start = pos;
                    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                        pos++;
                    }
                    if (start == pos) {
                        throw error("unexpected character '" + c + "'");
                    }
                    return Double.parseDouble(s.substring(start, pos));
                }
            }
        }

        void word(String w) {
            if (!s.startsWith(w, pos)) {
                throw error("expected " + w);
            }
            pos += w.length();
        }

        String string() {
            if (pos >= s.length() || s.charAt(pos) != '"') {
                throw error("expected a string");
            }
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> sb.append(e);
                }
            }
        }
    }

    // Small typed accessors for parsed values.

    @SuppressWarnings("unchecked")
    public static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> arr(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    public static double dbl(Object o, double otherwise) {
        return o instanceof Number n ? n.doubleValue() : otherwise;
    }
}
