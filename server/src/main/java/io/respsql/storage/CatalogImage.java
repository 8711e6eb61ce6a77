package io.respsql.storage;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Every table as of one moment, taken by {@link Catalog#capture()} in O(tables × columns × chunks)
 * without copying row data: the image keeps the column chunk arrays of that moment, and the tables
 * copy a chunk before writing it while a capture holding it is outstanding (copy-on-write).
 *
 * <p>Taken and released on the event loop; read by any thread in between. A thread that gets
 * the image through {@code Executor.execute}, {@code Thread.start} or a concurrent queue sees
 * every array as it was at capture time, because those hand-offs are happens-before edges and the
 * arrays are never written after the capture. The reader must be done before {@link #release()}
 * (its end must reach the event loop through such an edge too), since writes then stop copying.
 *
 * <p>Any number of captures may be outstanding at once (a BGSAVE, an AOF rewrite, a replica's
 * full sync, read views): a chunk stays frozen until every outstanding capture holding it is
 * released, in any order (see {@link Column}).
 */
public final class CatalogImage {
    private final Catalog owner;
    private final List<TableImage> tables;
    private final List<ViewDef> views;
    private final List<PreparedDef> prepared;
    /** Copies of the sequences as of the capture (their state included). */
    private List<Sequence> sequences = List.of();
    private final long createdMillis;
    private final long copiedAtCapture;
    /** The snapshot's "constraints" section ({@link TableConstraints#encode}), or null: none. */
    byte[] constraints;
    private long copiedAtRelease = -1;
    /** partition: the snapshot's "partitions" section ({@link Partitioning#encode}), or null: none. */
    byte[] partitions;

    CatalogImage(Catalog owner, List<TableImage> tables, List<ViewDef> views, List<PreparedDef> prepared,
            long createdMillis) {
        this.owner = owner;
        this.tables = Collections.unmodifiableList(tables);
        this.views = Collections.unmodifiableList(views);
        this.prepared = Collections.unmodifiableList(prepared);
        this.createdMillis = createdMillis;
        this.copiedAtCapture = copiedNow();
    }

    /** The constraints of the captured tables as a snapshot section (see {@link TableConstraints#encode}), or null. */
    public byte[] constraintsSection() {
        return constraints;
    }

    /** partition: the partition trees of the captured tables as a snapshot section, or null. */
    public byte[] partitionsSection() {
        return partitions;
    }

    public List<TableImage> tables() {
        return tables;
    }

    /** The views, in creation order (immutable definitions). */
    public List<ViewDef> views() {
        return views;
    }

    /** The prepared statements, in the order they were first prepared (immutable definitions). */
    public List<PreparedDef> preparedStatements() {
        return prepared;
    }

    /** The sequences as of the capture (copies: later nextval calls do not reach them), in creation order. */
    public List<Sequence> sequences() {
        return sequences;
    }

    void sequences(List<Sequence> copies) {
        this.sequences = Collections.unmodifiableList(copies);
    }

    /** Whether nothing was captured: no table, view, prepared statement or sequence (a log rewrite then writes no preamble). */
    public boolean isEmpty() {
        return tables.isEmpty() && views.isEmpty() && prepared.isEmpty() && sequences.isEmpty();
    }

    /** Wall-clock time of the capture, epoch milliseconds. */
    public long createdMillis() {
        return createdMillis;
    }

    /** Live rows across all tables. */
    public long rowCount() {
        long n = 0;
        for (TableImage t : tables) {
            n += t.rows().liveCount();
        }
        return n;
    }

    /**
     * Ends the capture (event loop only): chunks no other outstanding capture holds are unfrozen,
     * so later writes stop copying them. The image's own arrays stay readable, but are no longer
     * protected from the tables' writes. Idempotent.
     */
    public void release() {
        if (copiedAtRelease >= 0) {
            return;
        }
        copiedAtRelease = copiedNow();
        for (TableImage t : tables) {
            t.release();
        }
        owner.captureReleased(this);
    }

    /** Whether {@link #release()} was called. */
    public boolean released() {
        return copiedAtRelease >= 0;
    }

    /**
     * Chunks the captured tables copied since this capture (so far, or until {@link #release()}),
     * whichever outstanding capture made them copy; event loop only. {@link #heldBytes()} is the
     * memory this capture keeps.
     */
    public long copiedChunks() {
        return (copiedAtRelease >= 0 ? copiedAtRelease : copiedNow()) - copiedAtCapture;
    }

    /**
     * Heap bytes of the arrays this capture holds that the live tables no longer use (copied,
     * resized or compacted away since the capture; all of a table dropped since): the memory it
     * keeps alive beyond the live data. Arrays shared with other captures count here too; see
     * {@link Catalog#captureHeldBytes()} for the total. 0 once released. Event loop only; O(chunks).
     */
    public long heldBytes() {
        return released() ? 0 : heldBytes(Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /** {@link #heldBytes()}, not counting the arrays in {@code seen} and adding those counted. */
    long heldBytes(Set<Object> seen) {
        long b = 0;
        for (TableImage t : tables) {
            b += t.heldBytes(owner.contains(t.source), seen);
        }
        return b;
    }

    private long copiedNow() {
        long n = 0;
        for (TableImage t : tables) {
            n += t.source.copiedChunks();
        }
        return n;
    }
}
