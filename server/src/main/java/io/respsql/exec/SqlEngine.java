package io.respsql.exec;

import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;

/**
 * Entry point of the SQL pipeline: text → tokens → statement → plan → execution → reply.
 * Runs on the event-loop thread only.
 */
public final class SqlEngine {
    private final Catalog catalog;

    public SqlEngine(Catalog catalog) {
        this.catalog = catalog;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Executes one statement and writes exactly one reply (a result or an {@code -ERR}). */
    public void execute(String sql, RespWriter out) {
        out.error("ERR SQL engine not built yet");
    }
}
