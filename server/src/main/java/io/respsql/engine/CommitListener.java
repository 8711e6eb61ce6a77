package io.respsql.engine;

/**
 * Told of every write that took effect, in commit order, on the event-loop thread, before the
 * statement's reply can reach the client. Persistence hangs off this (the append-only log and the
 * change counter behind {@code save} rules); statements that fail are never reported, because a
 * failed statement changes nothing.
 */
public interface CommitListener {
    CommitListener NONE = new CommitListener() {
        @Override
        public void committed(String sql, long changes, boolean postgres) {
        }

        @Override
        public void committedText(CharSequence sql, long changes, boolean postgres) {
        }

        @Override
        public void flushedAll() {
        }
    };

    /**
     * A write statement succeeded. {@code sql} is its text exactly as executed (replaying it on the
     * state before it reproduces the state after it); {@code changes} is the rows it inserted,
     * updated or deleted, or 1 for a schema change. {@code postgres}: it ran in PostgreSQL's dialect
     * ({@code io.respsql.sql.Dialect}), so replaying it must too (the same text may mean something
     * else, or not parse, in the default dialect).
     */
    void committed(String sql, long changes, boolean postgres);

    /**
     * {@link #committed(String, long, boolean)} with the text as a CharSequence that may be a view valid
     * only during this call (a statement read from a request's bytes, {@link AsciiText}): a
     * listener that writes it out (the log, the replication stream) need not make a String; one
     * that keeps it must copy it ({@code toString()}). The engine tells every write through this.
     */
    default void committedText(CharSequence sql, long changes, boolean postgres) {
        committed(sql.toString(), changes, postgres);
    }

    /** Every table was dropped (FLUSHALL/FLUSHDB). */
    void flushedAll();

    /**
     * The writes told next, up to {@link #blockEnded()}, are one MULTI/EXEC block: they took
     * effect together and must be kept (logged, replicated) as one unit.
     */
    default void blockBegun() {
    }

    /** The block begun by {@link #blockBegun()} is complete. */
    default void blockEnded() {
    }

    /** Tells {@code first}, then {@code second}, of every commit (persistence has several listeners). */
    static CommitListener both(CommitListener first, CommitListener second) {
        return new CommitListener() {
            @Override
            public void committed(String sql, long changes, boolean postgres) {
                first.committed(sql, changes, postgres);
                second.committed(sql, changes, postgres);
            }

            @Override
            public void committedText(CharSequence sql, long changes, boolean postgres) {
                first.committedText(sql, changes, postgres);
                second.committedText(sql, changes, postgres);
            }

            @Override
            public void flushedAll() {
                first.flushedAll();
                second.flushedAll();
            }

            @Override
            public void blockBegun() {
                first.blockBegun();
                second.blockBegun();
            }

            @Override
            public void blockEnded() {
                first.blockEnded();
                second.blockEnded();
            }
        };
    }
}
