package io.respsql.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * All tables and views by name (one namespace, case-insensitive, original spelling kept) and every
 * index name, which is global as in the 2010 dialect ({@code DROP INDEX name} names no table).
 * The catalog does not check names: the executor asks {@link #nameTaken} and reports the clash.
 * Owned by the event loop.
 *
 * <p>Captures ({@link #capture()}, {@link #readView()}) may overlap in any number; the catalog
 * keeps the outstanding ones for accounting ({@link #captureHeldBytes()}).
 */
public final class Catalog implements ReadableCatalog {
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Table> indexOwners = new LinkedHashMap<>();
    private final Map<String, ViewDef> views = new LinkedHashMap<>();
    /**
     * Prepared statements by name (a namespace of their own). Not part of the schema: they do not
     * bump {@link #schemaVersion}, and FLUSHALL ({@link #clear}) keeps them.
     */
    private final Map<String, PreparedDef> prepared = new LinkedHashMap<>();
    /** Sequences by name; they share the tables' namespace ({@link #nameTaken}). */
    private final Map<String, Sequence> sequences = new LinkedHashMap<>();
    /** Captures not yet released, oldest first. */
    private final List<CatalogImage> captures = new ArrayList<>();
    /** Bumped by every change of the schema (tables, indexes, views): cached plans of an older one are stale. */
    private long schemaVersion;

    @Override
    public Collection<Table> tables() {
        return Collections.unmodifiableCollection(tables.values());
    }

    @Override
    public Table table(String name) {
        return tables.get(key(name));
    }

    /** Adds a table (with its primary key's index name, if it has one). Work tables are refused. */
    public void add(Table t) {
        if (t.isWorkTable()) {
            throw new IllegalArgumentException("work table " + t.name() + " cannot join the catalog");
        }
        if (t.isReadOnly()) {
            throw new IllegalArgumentException("read view table " + t.name() + " cannot join the catalog");
        }
        schemaVersion++;
        tables.put(key(t.name()), t);
        if (t.primaryIndex() != null) {
            indexOwners.put(key(t.primaryIndex().name()), t);
        }
    }

    /** Whether a table or a view is called {@code name} (case-insensitive). */
    @Override
    public boolean nameTaken(String name) {
        String k = key(name);
        return tables.containsKey(k) || views.containsKey(k) || sequences.containsKey(k);
    }

    // ---- sequences ----

    /** The sequence called {@code name} (case-insensitive), or null. */
    public Sequence sequence(String name) {
        return sequences.isEmpty() ? null : sequences.get(key(name));
    }

    /** Adds a sequence; the caller has checked {@link #nameTaken}. */
    public void addSequence(Sequence s) {
        schemaVersion++;
        sequences.put(key(s.name()), s);
    }

    /** Removes a sequence; returns it, or null when there was none. */
    public Sequence dropSequence(String name) {
        schemaVersion++;
        return sequences.remove(key(name));
    }

    /** Every sequence, in creation order. */
    public Collection<Sequence> sequences() {
        return Collections.unmodifiableCollection(sequences.values());
    }

    /** The sequences owned by a column of {@code table} (SERIAL, identity, OWNED BY). */
    public List<Sequence> sequencesOwnedBy(String table) {
        List<Sequence> out = new ArrayList<>();
        for (Sequence s : sequences.values()) {
            if (s.ownedBy(table, null)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The sequence behind identity column {@code column} of {@code table}, or null. */
    public Sequence identityOf(String table, String column) {
        for (Sequence s : sequences.values()) {
            if (s.identity != 0 && s.ownedBy(table, column)) {
                return s;
            }
        }
        return null;
    }

    /** Adds a view; the caller has checked {@link #nameTaken}. */
    public void addView(ViewDef v) {
        schemaVersion++;
        views.put(key(v.name()), v);
    }

    /** The view called {@code name} (case-insensitive), or null. */
    @Override
    public ViewDef view(String name) {
        return views.get(key(name));
    }

    /** Removes the view; returns it, or null when there was none. */
    public ViewDef dropView(String name) {
        schemaVersion++;
        return views.remove(key(name));
    }

    /** Every view, in creation order. */
    @Override
    public Collection<ViewDef> views() {
        return Collections.unmodifiableCollection(views.values());
    }

    /** The prepared statement called {@code name} (case-insensitive), or null. */
    public PreparedDef prepared(String name) {
        return prepared.get(key(name));
    }

    /** Adds or replaces a prepared statement; returns the one it replaced, or null. */
    public PreparedDef putPrepared(PreparedDef p) {
        return prepared.put(key(p.name()), p);
    }

    /** Removes a prepared statement; returns it, or null when there was none. */
    public PreparedDef removePrepared(String name) {
        return prepared.remove(key(name));
    }

    /** Every prepared statement, in the order they were first prepared. */
    public Collection<PreparedDef> preparedStatements() {
        return Collections.unmodifiableCollection(prepared.values());
    }

    /** Replaces every prepared statement by {@code with} (a replica's full sync takes the master's). */
    public void replacePrepared(Collection<PreparedDef> with) {
        prepared.clear();
        for (PreparedDef p : with) {
            putPrepared(p);
        }
    }

    /** Removes the table and its indexes; returns the number of objects dropped (table + indexes). */
    public int drop(Table t) {
        schemaVersion++;
        tables.remove(key(t.name()));
        for (TableIndex ix : t.indexes()) {
            indexOwners.remove(key(ix.name()));
        }
        return 1 + t.indexes().size();
    }

    /** ALTER TABLE ... RENAME TO; the caller checked that {@code to} is free (and saved the names in a block). */
    public void renameTable(Table t, String to) {
        schemaVersion++;
        tables.remove(key(t.name()));
        t.rename(to);
        tables.put(key(to), t);
    }

    /**
     * ALTER INDEX ... RENAME TO; the caller checked that {@code to} is free, and in a block saved
     * the names ({@code UndoLog.catalogChanging}) and the owner's shape ({@code UndoLog.tableAltering}).
     */
    public void renameIndex(String from, String to) {
        Table t = indexOwners.get(key(from));
        TableIndex ix = t.indexes().get(t.indexPosition(from));
        schemaVersion++;
        indexOwners.remove(key(from));
        ix.rename(to);
        indexOwners.put(key(to), t);
    }

    public Table indexOwner(String indexName) {
        return indexOwners.get(key(indexName));
    }

    public void registerIndex(String indexName, Table t) {
        schemaVersion++;
        indexOwners.put(key(indexName), t);
    }

    public void unregisterIndex(String indexName) {
        schemaVersion++;
        indexOwners.remove(key(indexName));
    }

    /**
     * A point-in-time image of every table for a snapshot, in O(tables × columns × chunks): see
     * {@link CatalogImage}. Event loop only; the caller must {@link CatalogImage#release()} it
     * (other captures may be taken meanwhile).
     */
    public CatalogImage capture() {
        if (uncommitted.getAsBoolean()) {
            throw new IllegalStateException(UNCOMMITTED);
        }
        return capture(tables.values());
    }

    // ---- tx: a snapshot never holds a transaction's uncommitted writes ----
    public static final String UNCOMMITTED = "a transaction has uncommitted writes: a snapshot now would hold them;"
            + " try again after its COMMIT or ROLLBACK";
    private java.util.function.BooleanSupplier uncommitted = () -> false;
    private Runnable rollbackUncommitted = () -> { };
    private java.util.function.Supplier<ReadView> committedImage = () -> null;

    /**
     * Installed by the engine: whether a transaction holds uncommitted writes, how to roll it back,
     * and the committed data as before its first write (a view the caller releases; null if none).
     */
    public void uncommittedCheck(java.util.function.BooleanSupplier check, Runnable rollback,
            java.util.function.Supplier<ReadView> committed) {
        this.uncommitted = check;
        this.rollbackUncommitted = rollback;
        this.committedImage = committed;
    }

    /**
     * mend: while a transaction holds uncommitted writes, the committed data as before its first
     * write (the image its readers read), for SHUTDOWN's final save: the transaction stays open
     * (so a failed save leaves it as it was). Null when there is no such image. The caller
     * releases the view (its capture stays owned by the transaction).
     */
    public ReadView committedImage() {
        return committedImage.get();
    }

    /** Whether an open transaction holds uncommitted writes: no snapshot may be captured now. */
    public boolean hasUncommitted() {
        return uncommitted.getAsBoolean();
    }

    /** Rolls back the open transaction's uncommitted writes (before the final save of a SHUTDOWN). */
    public void rollbackUncommitted() {
        rollbackUncommitted.run();
    }

    private CatalogImage capture(Collection<Table> which) {
        List<TableImage> images = new ArrayList<>(which.size());
        for (Table t : which) {
            images.add(t.capture());
        }
        CatalogImage image = new CatalogImage(this, images, new ArrayList<>(views.values()),
                new ArrayList<>(prepared.values()), System.currentTimeMillis());
        List<Sequence> seqs = new ArrayList<>(sequences.size());
        for (Sequence q : sequences.values()) {
            seqs.add(q.copy());
        }
        image.sequences(seqs);
        image.constraints = TableConstraints.encode(which);
        image.partitions = Partitioning.encode(which); // partition
        captures.add(image);
        return image;
    }

    /**
     * Every table and view as of now, read-only, for a statement run on another thread: see
     * {@link ReadView}. O(tables × columns × chunks), no row data copied. Event loop only; the
     * caller must {@link ReadView#release()} it, on the event loop, once its readers are done.
     */
    public ReadView readView() {
        return new ReadView(capture(tables.values()));
    }

    /**
     * {@link #readView()} of only {@code only} (the tables a statement reads; each must be in this
     * catalog), with every view definition: cheaper when the catalog holds many tables.
     */
    public ReadView readView(Collection<Table> only) {
        for (Table t : only) {
            if (!contains(t)) {
                throw new IllegalArgumentException("table " + t.name() + " is not in the catalog");
            }
        }
        return new ReadView(capture(new ArrayList<>(new LinkedHashSet<>(only))));
    }

    /** Whether {@code t} itself (not only its name) is in the catalog now. */
    boolean contains(Table t) {
        return tables.get(key(t.name())) == t;
    }

    void captureReleased(CatalogImage image) {
        captures.remove(image);
    }

    /** Captures (BGSAVE images, read views) taken and not yet released. */
    public int outstandingCaptures() {
        return captures.size();
    }

    /**
     * Heap bytes held by outstanding captures beyond the live data (each array counted once
     * however many captures share it): INFO's "capture bytes held". Event loop only; O(captures ×
     * tables × columns × chunks).
     */
    public long captureHeldBytes() {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        long b = 0;
        for (CatalogImage image : captures) {
            b += image.heldBytes(seen);
        }
        return b;
    }

    /** Chunks copied since each outstanding capture was taken, summed (a chunk copied under two captures counts twice). */
    public long captureCopiedChunks() {
        long n = 0;
        for (CatalogImage image : captures) {
            n += image.copiedChunks();
        }
        return n;
    }

    /** Copies of the name maps, which {@link #restoreNames} puts back (a transaction's rollback of DDL). */
    record Names(Map<String, Table> tables, Map<String, Table> indexOwners, Map<String, ViewDef> views,
                 Map<String, Sequence> sequences) {
    }

    Names saveNames() {
        return new Names(new LinkedHashMap<>(tables), new LinkedHashMap<>(indexOwners), new LinkedHashMap<>(views),
                new LinkedHashMap<>(sequences));
    }

    void restoreNames(Names saved) {
        schemaVersion++;
        tables.clear();
        tables.putAll(saved.tables());
        indexOwners.clear();
        indexOwners.putAll(saved.indexOwners());
        views.clear();
        views.putAll(saved.views());
        sequences.clear();
        sequences.putAll(saved.sequences());
    }

    /** Drops every table and view (FLUSHALL); prepared statements stay, as they always did. */
    public void clear() {
        schemaVersion++;
        tables.clear();
        indexOwners.clear();
        views.clear();
        sequences.clear();
    }

    /**
     * Replaces everything in this catalog by what {@code loaded} holds (tables with their indexes,
     * views, prepared statements), in one step on the event loop: a data set loaded on another
     * thread into a catalog nobody served (startup, a replica's full sync) is handed over. O(tables
     * + indexes + views); no row is copied. {@code loaded} must not be used afterwards.
     */
    public void takeAll(Catalog loaded) {
        clear();
        for (Table t : loaded.tables()) {
            add(t);
            for (TableIndex ix : t.indexes()) {
                registerIndex(ix.name(), t);
            }
        }
        for (ViewDef v : loaded.views()) {
            addView(v);
        }
        replacePrepared(loaded.preparedStatements());
        for (Sequence q : loaded.sequences()) {
            addSequence(q);
        }
    }

    /**
     * A number that changes whenever a table, index or view is added or removed (DDL, FLUSHALL, a
     * snapshot load, a rollback that restores the schema): plans made under another are stale.
     * Callers that change the schema in another way call {@link #schemaChanged()}.
     */
    public long schemaVersion() {
        return schemaVersion;
    }

    public void schemaChanged() {
        schemaVersion++;
    }

    static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
