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
}
