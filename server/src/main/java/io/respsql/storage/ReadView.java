package io.respsql.storage;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalog as of one moment, read-only, for a long read-only statement run on a worker thread
 * while the event loop keeps writing the live tables ({@link Catalog#readView()}).
 *
 * <p>Every table is a {@link Table} of its own ({@link Table#isReadOnly()}) whose columns and row
 * slots share the arrays of a capture (the copy-on-write capture BGSAVE uses, see
 * {@link CatalogImage}): reads go through the same {@code IntColumn.get}, {@code TextColumn.bytes},
 * {@code Column.isNull}, {@code RowAllocator.nextLive}, ... as on a live table, so a plan built for
 * it runs unchanged. A view's table has no primary key ({@link Table#hasPrimaryKey()} false, the
 * key column still NOT NULL) and no index ({@link Table#indexes()} empty, {@link Table#indexOn}
 * null): plans over it scan. Every write to it throws IllegalStateException.
 *
 * <p>Threads: taken on the event loop; then readable by any thread, and by several at once (no
 * read method writes any field), once handed over through a happens-before edge
 * ({@code Executor.execute}, {@code Thread.start}, a concurrent queue): the captured arrays and
 * the view's own objects were all written before the hand-off and are never written after it,
 * while the live tables copy a shared chunk before writing it. {@link #release()} runs on the event
 * loop after every reader is done and its end has reached the event loop through such an edge
 * (the worker's completion hand-off): from then on the live tables stop copying and may write
 * arrays the view shares, so reading the view after release is undefined.
 *
 * <p>Dropping a table (or FLUSHALL) while a view is outstanding does not affect the view: it keeps
 * its arrays. Views of several captures and BGSAVE images may overlap and be released in any order.
 */
public final class ReadView implements ReadableCatalog {
    private final CatalogImage image;
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<Table, Table> bySource = new IdentityHashMap<>();
    private final Map<String, ViewDef> views = new LinkedHashMap<>();

    ReadView(CatalogImage image) {
        this.image = image;
        for (TableImage t : image.tables()) {
            Table view = Table.readOnlyOf(t);
            view.partitioning = Partitioning.copyOf(t.source.partitioning); // partition: a read of a parent reads its partitions
            tables.put(Catalog.key(t.name()), view);
            bySource.put(t.source, view);
        }
        for (ViewDef v : image.views()) {
            views.put(Catalog.key(v.name()), v);
        }
    }

    @Override
    public Table table(String name) {
        return tables.get(Catalog.key(name));
    }

    private Map<String, Table> systemRelations = Map.of();

    /**
     * The system relations a query's plan built on the event loop (by lower-case name as the query
     * wrote them), handed over with the view: built from the live catalog at the capture's moment.
     */
    public ReadView systemRelations(Map<String, Table> built) {
        this.systemRelations = Map.copyOf(built);
        return this;
    }

    @Override
    public Table systemRelation(String name) {
        return systemRelations.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** This view's table for live table {@code live} (identity), or null when it was not captured. */
    public Table tableOf(Table live) {
        return bySource.get(live);
    }

    @Override
    public ViewDef view(String name) {
        return views.get(Catalog.key(name));
    }

    @Override
    public Collection<Table> tables() {
        return Collections.unmodifiableCollection(tables.values());
    }

    @Override
    public Collection<ViewDef> views() {
        return Collections.unmodifiableCollection(views.values());
    }

    @Override
    public boolean nameTaken(String name) {
        String k = Catalog.key(name);
        return tables.containsKey(k) || views.containsKey(k);
    }

    /** Wall-clock time of the capture, epoch milliseconds. */
    public long createdMillis() {
        return image.createdMillis();
    }

    /**
     * Ends the view (event loop only, after every reader is done): the live tables stop copying
     * the chunks no other outstanding capture holds. Idempotent.
     */
    public void release() {
        if (onRelease != null) {
            if (!aliasReleased) {
                aliasReleased = true;
                onRelease.run();
            }
            return;
        }
        image.release();
    }

    /** Whether {@link #release()} was called. */
    public boolean released() {
        return onRelease != null ? aliasReleased : image.released();
    }

    // ---- txfix: one capture read by several statements ----

    /** Set on an {@link #alias}: what its release does instead of releasing the capture. */
    private Runnable onRelease;
    private boolean aliasReleased;

    /**
     * Another view of this view's capture (its own table objects and system relations), for one
     * more reader of a capture that stays owned elsewhere (a transaction's snapshot or committed
     * image read by a statement moved to a worker): its {@link #release()} runs {@code onRelease}
     * once (the owner's reference count), not the capture's release. Event loop only.
     */
    public ReadView alias(Runnable onRelease) {
        if (released()) {
            throw new IllegalStateException("read view already released");
        }
        ReadView v = new ReadView(image);
        v.onRelease = java.util.Objects.requireNonNull(onRelease);
        return v;
    }

    /** mend: the capture this view reads (SHUTDOWN saves a transaction's committed image). */
    public CatalogImage image() {
        return image;
    }

    /** Chunks the captured tables copied since the view was taken; see {@link CatalogImage#copiedChunks()}. Event loop only. */
    public long copiedChunks() {
        return image.copiedChunks();
    }

    /** Memory the view keeps beyond the live data; see {@link CatalogImage#heldBytes()}. Event loop only. */
    public long heldBytes() {
        return image.heldBytes();
    }

    /** Names of the captured tables, in creation order (diagnostics). */
    List<String> tableNames() {
        return List.copyOf(tables.keySet());
    }
}
