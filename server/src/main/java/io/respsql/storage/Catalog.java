package io.respsql.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * All tables by name (case-insensitive, original spelling kept) and every index name, which is
 * global as in the 2010 dialect ({@code DROP INDEX name} names no table). Owned by the event loop.
 */
public final class Catalog {
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Table> indexOwners = new LinkedHashMap<>();

    public Collection<Table> tables() {
        return Collections.unmodifiableCollection(tables.values());
    }

    public Table table(String name) {
        return tables.get(key(name));
    }

    public void add(Table t) {
        tables.put(key(t.name()), t);
        indexOwners.put(key(t.primaryIndex().name()), t);
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
        return new CatalogImage(images, System.currentTimeMillis());
    }

    /** Copies of the name maps, which {@link #restoreNames} puts back (a transaction's rollback of DDL). */
    record Names(Map<String, Table> tables, Map<String, Table> indexOwners) {
    }

    Names saveNames() {
        return new Names(new LinkedHashMap<>(tables), new LinkedHashMap<>(indexOwners));
    }

    void restoreNames(Names saved) {
        tables.clear();
        tables.putAll(saved.tables());
        indexOwners.clear();
        indexOwners.putAll(saved.indexOwners());
    }

    /** Drops every table (FLUSHALL). */
    public void clear() {
        tables.clear();
        indexOwners.clear();
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
