package io.respsql.it.diff;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A query's answer (rows of Java values) or its error, and the comparisons the oracles make:
 * as multisets or in order. Numbers compare by value whatever their Java type (an INT 5, a
 * PostgreSQL numeric 5.00 and a FLOAT 5.0 are equal), to 10 significant digits, so that sums
 * of the same floats added in another order still match.
 */
final class Rows {
    private static final MathContext DIGITS = new MathContext(10);

    final List<List<Object>> rows;
    final String error;

    private Rows(List<List<Object>> rows, String error) {
        this.rows = rows;
        this.error = error;
    }

    static Rows of(List<List<Object>> rows) {
        return new Rows(rows, null);
    }

    static Rows error(String text) {
        return new Rows(List.of(), text);
    }

    boolean failed() {
        return error != null;
    }

    int size() {
        return rows.size();
    }

    /** One value as a comparable key: numbers by their value, text as text, NULL as NULL. */
    static String key(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return d.toString();
            }
            v = BigDecimal.valueOf(d == 0 ? 0.0 : d);
        }
        if (v instanceof Number n) {
            BigDecimal b = n instanceof BigDecimal x ? x : new BigDecimal(n.toString());
            b = b.round(DIGITS).stripTrailingZeros();
            return b.signum() == 0 ? "0" : b.toPlainString();
        }
        return "'" + v + "'";
    }

    static String rowKey(List<Object> row) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < row.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(key(row.get(i)));
        }
        return sb.append(')').toString();
    }

    /** The rows as keys, in their order. */
    List<String> keys() {
        List<String> k = new ArrayList<>(rows.size());
        for (List<Object> r : rows) {
            k.add(rowKey(r));
        }
        return k;
    }

    /** The rows as keys, sorted: equal lists are equal multisets. */
    List<String> multiset() {
        List<String> k = keys();
        Collections.sort(k);
        return k;
    }

    /** The distinct rows as sorted keys. */
    List<String> set() {
        return new ArrayList<>(new java.util.TreeSet<>(keys()));
    }

    /** A short description for a finding: the row count and the first rows. */
    String show() {
        if (error != null) {
            return "error: " + error;
        }
        List<String> k = multiset();
        return k.size() + " row(s)" + (k.isEmpty() ? "" : ": " + String.join(" ", k.subList(0, Math.min(12, k.size())))
                + (k.size() > 12 ? " ..." : ""));
    }

    /** The first value of the first row (a one-value answer), or null. */
    Object scalar() {
        return rows.isEmpty() || rows.get(0).isEmpty() ? null : rows.get(0).get(0);
    }
}
