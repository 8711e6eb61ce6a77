package io.respsql.info;

import io.respsql.config.ServerConfig;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;

/**
 * The memory {@code maxmemory} is checked against: the accounted bytes of every table's data
 * and indexes (what {@code INFO tables} shows) plus the clients' buffers (unsent replies and
 * unfinished requests, sampled every 100 ms). Not the JVM's heap use, which includes garbage not
 * yet collected and so would refuse writes at random. Event-loop thread only.
 */
public final class MemoryAccounting {
    private final ServerConfig config;
    private final ServerStats stats;
    private final Catalog catalog;

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

    /** Whether commands that may grow memory are to be refused with {@code -OOM}. */
    public boolean overLimit() {
        return used() > config.effectiveMaxMemory();
    }
}
