package io.respsql.it;

import java.util.function.IntFunction;

/** Builds statement text for tests that need many rows. */
final class SqlText {
    private SqlText() {
    }

    /**
     * {@code INSERT INTO table VALUES (...),(...)} for n = from..to inclusive, each row's values
     * given by {@code values} without parentheses, e.g. {@code n -> n + "," + n % 100 + ",4"}.
     */
    static String insert(String table, int from, int to, IntFunction<String> values) {
        StringBuilder sb = new StringBuilder(32 + (to - from + 1) * 16).append("INSERT INTO ").append(table).append(" VALUES ");
        for (int n = from; n <= to; n++) {
            if (n > from) {
                sb.append(',');
            }
            sb.append('(').append(values.apply(n)).append(')');
        }
        return sb.toString();
    }
}
