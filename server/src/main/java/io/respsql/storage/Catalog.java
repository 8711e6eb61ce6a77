package io.respsql.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * All tables and views by name (one namespace, case-insensitive, original spelling kept) and every
 * index name, which is global as in the 2010 dialect ({@code DROP INDEX name} names no table).
 * The catalog does not check names: the executor asks {@link #nameTaken} and reports the clash.
 * Owned by the event loop.
 */
public final class Catalog {
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Table> indexOwners = new LinkedHashMap<>();
    private final Map<String, ViewDef> views = new LinkedHashMap<>();

    public Collection<Table> tables() {
        return Collections.unmodifiableCollection(tables.values());
    }

    public Table table(String name) {
        return tables.get(key(name));
    }

    /** Adds a table (with its primary key's index name, if it has one). Work tables are refused. */
    public void add(Table t) {
        if (t.isWorkTable()) {
            throw new IllegalArgumentException("work table " + t.name() + " cannot join the catalog");
        }
        tables.put(key(t.name()), t);
        if (t.primaryIndex() != null) {
            indexOwners.put(key(t.primaryIndex().name()), t);
        }
    }

    /** Whether a table or a view is called {@code name} (case-insensitive). */
    public boolean nameTaken(String name) {
        String k = key(name);
        return tables.containsKey(k) || views.containsKey(k);
    }

    /** Adds a view; the caller has checked {@link #nameTaken}. */
    public void addView(ViewDef v) {
        views.put(key(v.name()), v);
    }

    /** The view called {@code name} (case-insensitive), or null. */
    public ViewDef view(String name) {
        return views.get(key(name));
    }

    /** Removes the view; returns it, or null when there was none. */
    public ViewDef dropView(String name) {
        return views.remove(key(name));
    }

    /** Every view, in creation order. */
    public Collection<ViewDef> views() {
        return Collections.unmodifiableCollection(views.values());
    }

    /** Removes the table and its indexes; returns the number of objects dropped (table + indexes). */
    public int drop(Table t) {
        tables.remove(key(t.name()));
        for (TableIndex ix : t.indexes()) {
            indexOwners.remove(key(ix.name()));
        }
        return 1 + t.indexes().size();
    }

    public Table indexOwner(String indexName) {
        return indexOwners.get(key(indexName));
    }

    public void registerIndex(String indexName, Table t) {
        indexOwners.put(key(indexName), t);
    }

    public void unregisterIndex(String indexName) {
        indexOwners.remove(key(indexName));
    }

    /**
     * A point-in-time image of every table for a snapshot, in O(tables × columns × chunks): see
     * {@link CatalogImage}. Event loop only; the caller must {@link CatalogImage#release()} it
     * before taking another.
     */
    public CatalogImage capture() {
        List<TableImage> images = new ArrayList<>(tables.size());
        for (Table t : tables.values()) {
            images.add(t.capture());
        }
        return new CatalogImage(images, new ArrayList<>(views.values()), System.currentTimeMillis());
    }

    /** Copies of the name maps, which {@link #restoreNames} puts back (a transaction's rollback of DDL). */
    record Names(Map<String, Table> tables, Map<String, Table> indexOwners, Map<String, ViewDef> views) {
    }

    Names saveNames() {
        return new Names(new LinkedHashMap<>(tables), new LinkedHashMap<>(indexOwners), new LinkedHashMap<>(views));
    }

    void restoreNames(Names saved) {
        tables.clear();
        tables.putAll(saved.tables());
        indexOwners.clear();
        indexOwners.putAll(saved.indexOwners());
        views.clear();
        views.putAll(saved.views());
    }

    /** Drops every table and view (FLUSHALL). */
    public void clear() {
        tables.clear();
        indexOwners.clear();
        views.clear();
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
