package io.respsql.storage;

import java.util.Collection;

/**
 * Tables and views by name, for binding a query: the live {@link Catalog} or a {@link ReadView}
 * (the catalog as of a capture, read-only). Names are case-insensitive.
 */
public interface ReadableCatalog {
    /** The table called {@code name}, or null. */
    Table table(String name);

    /** The view called {@code name}, or null. */
    ViewDef view(String name);

    /** Every table, in creation order. */
    Collection<Table> tables();

    /** Every view, in creation order. */
    Collection<ViewDef> views();

    /** Whether a table or a view is called {@code name}. */
    boolean nameTaken(String name);

    /**
     * A system relation (pg_class, information_schema.tables, ...) already built for this catalog,
     * or null: a read view carries those its query's plan built on the event loop, since the view
     * itself has no indexes, sequences or constraints to build them from.
     */
    default Table systemRelation(String name) {
        return null;
    }
}
