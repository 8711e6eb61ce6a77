package io.respsql.info;

import io.respsql.config.ServerConfig;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;

/**
 * The memory {@code maxmemory} is checked against: the accounted bytes of every table's data
 * and indexes (what {@code INFO tables} shows) plus the clients' buffers (unsent replies and
 * unfinished requests, sampled every 100 ms). Not the JVM's heap use, which includes garbage not
 * yet collected and so would refuse writes at random. Event-loop thread only.
 *
 * <p>Summing the tables walks every column's chunks, too slow for every INSERT, so the check uses
 * a figure refreshed every 100 ms ({@link #refresh()}) and recomputes only when that figure says
 * the limit is exceeded: writes may overshoot by what 100 ms of writes add, and a DROP or DELETE
 * is seen by the very next write.
 */
public final class MemoryAccounting {
    private final ServerConfig config;
    private final ServerStats stats;
    private final Catalog catalog;
    private long cachedTableBytes;

    public MemoryAccounting(ServerConfig config, ServerStats stats, Catalog catalog) {
        this.config = config;
        this.stats = stats;
        this.catalog = catalog;
    }

    /** Data and index bytes of every table. */
    public long tableBytes() {
        long b = 0;
        for (Table t : catalog.tables()) {
            b += t.dataBytes() + t.indexBytes();
        }
        return b;
    }

    /** Table bytes plus client buffers. */
    public long used() {
        return tableBytes() + stats.clientBufferBytes;
    }

    /** Recomputes the table bytes the check uses (the server's cron, every 100 ms); returns {@link #used()}. */
    public long refresh() {
        cachedTableBytes = tableBytes();
        return cachedTableBytes + stats.clientBufferBytes;
    }

    /** Whether commands that may grow memory are to be refused with {@code -OOM}. */
    public boolean overLimit() {
        long limit = config.effectiveMaxMemory();
        if (cachedTableBytes + stats.clientBufferBytes <= limit) {
            return false;
        }
        return refresh() > limit;
    }
}
