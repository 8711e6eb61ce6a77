package io.respsql.it.conformance;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The sqllogictest printing rules (those of its reference driver for SQLite): a value is printed
 * per its column's type letter, {@code I} as a whole number, {@code R} as {@code %.3f}, {@code T}
 * as text; NULL as {@code NULL}; an empty string as {@code (empty)}; every byte outside printable
 * ASCII as {@code @}. Then the sort mode, then the MD5 of the printed values each followed by a
 * newline.
 */
final class SltValues {
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    private SltValues() {
    }

    /** {@code value} printed as a value of a column of type {@code type} ({@code I}, {@code R}, {@code T}). */
    static String format(Object value, char type) {
        if (value == null) {
            return "NULL";
        }
        return switch (type) {
            case 'I' -> integer(value);
            case 'R' -> real(value);
            default -> text(value);
        };
    }

    private static String integer(Object v) {
        if (v instanceof Long n) {
            return Long.toString(n);
        }
        if (v instanceof Double d) {
            return Long.toString((long) d.doubleValue()); // as SQLite's driver: toward zero
        }
        String s = v.toString();
        if (INTEGER.matcher(s).matches()) {
            try {
                return Long.toString(Long.parseLong(s));
            } catch (NumberFormatException tooLong) {
                return printable(s);
            }
        }
        if (NUMBER.matcher(s).matches()) {
            return Long.toString((long) Double.parseDouble(s));
        }
        return printable(s); // not a number: printed as it came, so it cannot match a number
    }

    private static String real(Object v) {
        double d;
        if (v instanceof Long n) {
            d = n;
        } else if (v instanceof Double x) {
            d = x;
        } else if (NUMBER.matcher(v.toString()).matches()) {
            d = Double.parseDouble(v.toString());
        } else {
            return printable(v.toString());
        }
        return String.format(Locale.ROOT, "%.3f", d);
    }

    private static String text(Object v) {
        if (v instanceof Double d) {
            // SQLite's text of a real: a whole number keeps its ".0"
            double x = d;
            return x == Math.rint(x) && Math.abs(x) < 1e15 ? (long) x + ".0" : Double.toString(x);
        }
        return printable(v.toString());
    }

    /** {@code (empty)} for "", else the text with every byte outside ' '..'~' replaced by '@'. */
    static String printable(String s) {
        if (s.isEmpty()) {
            return "(empty)";
        }
        boolean plain = true;
        for (int i = 0; i < s.length() && plain; i++) {
            char c = s.charAt(i);
            plain = c >= ' ' && c <= '~';
        }
        if (plain) {
            return s;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            if (b[i] < ' ' || b[i] > '~') {
                b[i] = '@';
            }
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    /**
     * The printed values of {@code rows} in the order {@code sort} asks ({@code nosort},
     * {@code rowsort}: rows sorted by their printed values column by column, {@code valuesort}:
     * every value sorted on its own), row-major.
     */
    static List<String> printed(List<List<Object>> rows, String types, String sort) {
        List<List<String>> printedRows = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<String> p = new ArrayList<>(row.size());
            for (int i = 0; i < row.size(); i++) {
                p.add(format(row.get(i), i < types.length() ? types.charAt(i) : 'T'));
            }
            printedRows.add(p);
        }
        if (sort.equals("rowsort")) {
            printedRows.sort(SltValues::compareRows);
        }
        List<String> values = new ArrayList<>();
        for (List<String> r : printedRows) {
            values.addAll(r);
        }
        if (sort.equals("valuesort")) {
            Collections.sort(values);
        }
        return values;
    }

    private static int compareRows(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i)); // printed values are ASCII: byte order, as strcmp
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** MD5 (lower-case hex) of the values, each followed by a newline. */
    static String md5(List<String> values) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (String v : values) {
            md.update(v.getBytes(StandardCharsets.UTF_8));
            md.update((byte) '\n');
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
