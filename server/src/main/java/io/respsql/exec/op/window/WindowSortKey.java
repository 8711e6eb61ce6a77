package io.respsql.exec.op.window;

import io.respsql.expr.Expression;

/**
 * One {@code ORDER BY} key of a window. {@code nullsFirst} is explicit; {@link #of} gives
 * PostgreSQL's default (NULLs last ascending, first descending).
 */
public record WindowSortKey(Expression expr, boolean descending, boolean nullsFirst) {
    public static WindowSortKey of(Expression expr, boolean descending) {
        return new WindowSortKey(expr, descending, descending);
    }

    public String describe() {
        return expr.describe() + (descending ? " DESC" : "") + (nullsFirst != descending ? (nullsFirst ? " NULLS FIRST" : " NULLS LAST") : "");
    }
}
