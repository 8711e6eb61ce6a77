package io.respsql.bench.analytics;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Compares a result with PostgreSQL's, as Seed004Test does: in order where the query orders,
 * else as multisets; numbers as numbers (relative tolerance 1e-9), timestamps as timestamps, SQL
 * NULL ({@code null}) only equal to NULL.
 */
public final class Rows {
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd[ ]['T']HH:mm:ss[.SSSSSS][.SSS][.S]");

    private Rows() {
    }

    /** Null when the rows agree, else the first difference in words. */
    public static String compare(List<List<String>> expected, List<List<String>> actual, boolean ordered) {
        List<List<String>> e = new ArrayList<>(expected);
        List<List<String>> a = new ArrayList<>(actual);
        if (!ordered) {
            Comparator<List<String>> byCanonical = Comparator.comparing(Rows::canonical);
            e.sort(byCanonical);
            a.sort(byCanonical);
        }
        for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
            if (e.get(i).size() != a.get(i).size()) {
                return "row " + (i + 1) + " has " + a.get(i).size() + " values, PostgreSQL's " + e.get(i).size() + ": " + a.get(i);
            }
            for (int c = 0; c < e.get(i).size(); c++) {
                if (!same(e.get(i).get(c), a.get(i).get(c))) {
                    return "row " + (i + 1) + (ordered ? "" : " (sorted)") + " is " + a.get(i) + ", PostgreSQL's " + e.get(i);
                }
            }
        }
        if (e.size() != a.size()) {
            return a.size() + " rows, PostgreSQL has " + e.size();
        }
        return null;
    }

    public static boolean same(String expected, String actual) {
        if (expected == null || actual == null) {
            return expected == null && actual == null;
        }
        if (expected.equals(actual)) {
            return true;
        }
        if (NUMBER.matcher(expected).matches() && NUMBER.matcher(actual).matches()) {
            double x = Double.parseDouble(expected);
            double y = Double.parseDouble(actual);
            return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.max(Math.abs(x), Math.abs(y)));
        }
        LocalDateTime tx = timestamp(expected);
        return tx != null && tx.equals(timestamp(actual));
    }

    private static LocalDateTime timestamp(String s) {
        try {
            return LocalDateTime.parse(s, TS);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A row as a sort key in which numbers and timestamps that compare equal are spelled alike. */
    private static String canonical(List<String> row) {
        StringBuilder sb = new StringBuilder();
        for (String v : row) {
            if (v == null) {
                sb.append("\u0000NULL");
            } else if (NUMBER.matcher(v).matches()) {
                sb.append(new BigDecimal(v).stripTrailingZeros().toPlainString());
            } else {
                LocalDateTime t = timestamp(v);
                sb.append(t != null ? t.toString() : v);
            }
            sb.append('\u0001');
        }
        return sb.toString();
    }

    /** Rows as text lines (values joined by a tab, NULL as \N), for the raw result files. */
    public static String text(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                sb.append(i == 0 ? "" : "\t").append(r.get(i) == null ? "\\N" : r.get(i));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
