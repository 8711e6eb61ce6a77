package io.respsql.plan;

import io.respsql.sql.tree.Query;
import io.respsql.storage.ReadableCatalog;

/** Expands a view named in FROM into a derived table of its query (parsed from the view's text). */
final class Views {
    private Views() {
    }

    /** The view called {@code ref.name()} as a relation, or null when there is no such view. */
    static Relation expand(QueryBinder binder, ReadableCatalog catalog, Query.TableRef ref, BlockScope scope) {
        return null;
    }
}
