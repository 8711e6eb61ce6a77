package io.respsql.exec.op.order;

import io.respsql.expr.Expression;

/**
 * One ORDER BY key. {@code nullsFirst} is explicit: the planner resolves the default (NULLs
 * last ascending, first descending, as PostgreSQL) or NULLS FIRST/LAST as written.
 */
public record SortKey(Expression expr, boolean descending, boolean nullsFirst) {
    /** The PostgreSQL default NULL placement for the direction. */
    public static SortKey of(Expression expr, boolean descending) {
        return new SortKey(expr, descending, descending);
    }

    public String describe() {
        return expr.describe() + (descending ? " DESC" : "") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
