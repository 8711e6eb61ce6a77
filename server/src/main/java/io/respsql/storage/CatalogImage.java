package io.respsql.storage;

import java.util.Collections;
import java.util.List;

/**
 * Every table as of one moment, taken by {@link Catalog#capture()} in O(tables × columns × chunks)
 * without copying row data: the image keeps the column chunk arrays of that moment, and the tables
 * copy a chunk before writing it while the capture is outstanding (copy-on-write).
 *
 * <p>Taken and released on the event loop; read by any one thread in between. A thread that gets
 * the image through {@code Executor.execute}, {@code Thread.start} or a concurrent queue sees
 * every array as it was at capture time, because those hand-offs are happens-before edges and the
 * arrays are never written after the capture. Only one capture may be outstanding at a time.
 */
public final class CatalogImage {
    private final List<TableImage> tables;
    private final List<ViewDef> views;
    private final long createdMillis;
    private final long copiedAtCapture;
    private long copiedAtRelease = -1;

    CatalogImage(List<TableImage> tables, List<ViewDef> views, long createdMillis) {
        this.tables = Collections.unmodifiableList(tables);
        this.views = Collections.unmodifiableList(views);
        this.createdMillis = createdMillis;
        this.copiedAtCapture = copiedNow();
    }

    public List<TableImage> tables() {
        return tables;
    }

    /** The views, in creation order (immutable definitions). */
    public List<ViewDef> views() {
        return views;
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
     * Ends the capture (event loop only): chunks still frozen are unfrozen, so later writes stop
     * copying. The image's own arrays stay readable. Idempotent.
     */
    public void release() {
        if (copiedAtRelease >= 0) {
            return;
        }
        copiedAtRelease = copiedNow();
        for (TableImage t : tables) {
            t.source.releaseCapture();
        }
    }

    /** Chunks the tables copied because of this capture (so far, or until {@link #release()}); event loop only. */
    public long copiedChunks() {
        return (copiedAtRelease >= 0 ? copiedAtRelease : copiedNow()) - copiedAtCapture;
    }

    private long copiedNow() {
        long n = 0;
        for (TableImage t : tables) {
            n += t.source.copiedChunks();
        }
        return n;
    }
}
