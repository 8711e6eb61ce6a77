package io.respsql.plan;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.ReadableCatalog;
import io.respsql.storage.ViewDef;

/**
 * Expands a view named in FROM into a derived table of its query, parsed from the text the
 * catalog keeps: bound afresh at every use (so it sees the tables as they are now), its spans
 * pointing into that text while it is bound.
 */
final class Views {
    private Views() {
    }

    /** The view called {@code ref.name()} as a relation, or null when there is no such view. */
    static Relation expand(QueryBinder binder, ReadableCatalog catalog, Query.TableRef ref, BlockScope scope) {
        ViewDef v = catalog == null ? null : catalog.view(ref.name());
        if (v == null) {
            return null;
        }
        Statement st = SqlParser.parse(v.queryText());
        if (!(st instanceof Statement.QueryStatement q)) {
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "view '" + v.name() + "' does not hold a query");
        }
        binder.enterView();
        String outer = binder.swapSql(v.queryText());
        try {
            // A view sees only the catalog, not the query that names it.
            return binder.derived(q.query(), ref.alias() != null ? ref.alias() : v.name(), v.columnNames(), scope, null);
        } finally {
            binder.swapSql(outer);
            binder.leaveView();
        }
    }
}
