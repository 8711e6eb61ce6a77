package io.respsql.bench.analytics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 004's 31 queries, as written in the seed, with the four constants that depend on the data
 * set as {@code ${NAME}} placeholders ({@code seed004/q*.sql} beside this class), and the rule that
 * derives those constants from a generated data set so that they exist at every scale factor.
 */
public final class Queries {
    /** The queries in the seed's order (q05b after q05). */
    public static final List<String> NAMES = List.of("q01", "q02", "q03", "q04", "q05", "q05b", "q06", "q07", "q08",
            "q09", "q10", "q11", "q12", "q13", "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22", "q23",
            "q24", "q25", "q26", "q27", "q28", "q29", "q30");

    private Queries() {
    }

    /**
     * The constants for a data set, chosen the way the seed's are at its 5M customers:
     * {@code PK_CUSTOMER} = customers / 3 (the seed's 1666666) and {@code PK_EMAIL} its email;
     * {@code NEEDLE_CUSTOMER} the first customer from customers / 2 + 7 on (the seed's 2500007)
     * with at least two orders; {@code Q17_THRESHOLD} the median monthly revenue rounded down to
     * three significant digits, so that about half of the months pass the HAVING.
     */
    public static Map<String, String> constants(EcomGen g) {
        int pk = Math.max(1, g.customers / 3);
        int[] ordersOf = new int[g.customers + 1];
        for (int c : g.oCustomer) {
            ordersOf[c]++;
        }
        int start = Math.min(g.customers, g.customers / 2 + 7);
        int needle = -1;
        for (int want = 2; want >= 1 && needle < 0; want--) {
            for (int k = 0; k < g.customers; k++) {
                int id = 1 + (start - 1 + k) % g.customers;
                if (ordersOf[id] >= want) {
                    needle = id;
                    break;
                }
            }
        }
        Map<Integer, Long> monthly = new java.util.TreeMap<>();
        for (int i = 0; i < g.orders; i++) {
            monthly.merge(g.oYm[i], g.oTotal[i], Long::sum);
        }
        long[] m = monthly.values().stream().mapToLong(Long::longValue).sorted().toArray();
        long median = m[(m.length - 1) / 2];
        long unit = 1;
        while (median / unit >= 1000) {
            unit *= 10;
        }
        long threshold = median / unit * unit;
        if (threshold >= m[m.length - 1]) {
            threshold = m[m.length - 1] - 1; // at least one month passes
        }
        Map<String, String> c = new LinkedHashMap<>();
        c.put("PK_CUSTOMER", Integer.toString(pk));
        c.put("PK_EMAIL", EcomGen.email(pk));
        c.put("NEEDLE_CUSTOMER", Integer.toString(needle));
        c.put("Q17_THRESHOLD", Long.toString(threshold));
        return c;
    }

    /** Seed004Test's constants (its data set of 2,000 customers; see tests/.../seed004/README.md). */
    public static Map<String, String> testConstants() {
        return Map.of("PK_CUSTOMER", "1666", "PK_EMAIL", "user1666@mail6.example", "NEEDLE_CUSTOMER", "257",
                "Q17_THRESHOLD", "9800000");
    }

    /** The template of a query, as in the resource file (trailing newline and semicolon removed). */
    public static String template(String name) {
        try (InputStream in = Queries.class.getResourceAsStream("seed004/" + name + ".sql")) {
            if (in == null) {
                throw new IllegalStateException("no query template seed004/" + name + ".sql");
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            return sql.endsWith(";") ? sql.substring(0, sql.length() - 1).strip() : sql;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** All 31 queries with the placeholders replaced; a placeholder without a value is an error. */
    public static Map<String, String> render(Map<String, String> constants) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : NAMES) {
            String sql = template(n);
            for (Map.Entry<String, String> e : constants.entrySet()) {
                sql = sql.replace("${" + e.getKey() + "}", e.getValue());
            }
            if (sql.contains("${")) {
                throw new IllegalStateException(n + ": no value for a placeholder in " + sql);
            }
            out.put(n, sql);
        }
        return out;
    }

    /** Whether the statement ends in an ORDER BY of its own (outside any parentheses): then row order is compared. */
    public static boolean ordered(String sql) {
        int depth = 0;
        String upper = sql.toUpperCase(java.util.Locale.ROOT);
        for (int i = 0; i < upper.length(); i++) {
            char c = upper.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && upper.startsWith("ORDER BY", i)) {
                return true;
            }
        }
        return false;
    }
}
