package io.respsql.engine;

/**
 * What one {@link SqlEngine#execute} did, beside the reply it wrote: succeeded (a read, or a write
 * and the rows it changed) or failed (the error text, as the reply carries it without the leading
 * '-'). The log loader and the replica applier decide on this instead of reading reply bytes.
 *
 * <p>Immutable. The common outcomes (a read, a write of 0..{@value #CACHED} rows) are shared
 * instances, so a statement that succeeds allocates no outcome.
 */
public final class Outcome {
    private static final int CACHED = 64;
    /** A statement that read (SELECT, DESC, DUMP, SHOW, EXPLAIN): succeeded, changed nothing. */
    public static final Outcome READ = new Outcome(true, -1, null, null);
    private static final Outcome[] WRITES = new Outcome[CACHED + 1];

    static {
        for (int i = 0; i <= CACHED; i++) {
            WRITES[i] = new Outcome(true, i, null, null);
        }
    }

    private final boolean ok;
    private final long changes;
    private final String error;
    private final String sqlState;

    private Outcome(boolean ok, long changes, String error, String sqlState) {
        this.ok = ok;
        this.changes = changes;
        this.error = error;
        this.sqlState = sqlState;
    }

    /** A write that succeeded: {@code changes} rows inserted, updated or deleted (1 for a schema change). */
    public static Outcome wrote(long changes) {
        return changes >= 0 && changes <= CACHED ? WRITES[(int) changes] : new Outcome(true, changes, null, null);
    }

    /**
     * A statement that failed with {@code error} (the reply's text without '-', e.g.
     * {@code "ERR table 't' does not exist"}) of kind {@code sqlState} ({@link io.respsql.sql.SqlState}).
     */
    public static Outcome failed(String sqlState, String error) {
        return new Outcome(false, -1, error, sqlState);
    }

    /** A statement that failed with a {@link io.respsql.sql.SqlException}: its text after {@code ERR }, its code. */
    public static Outcome failed(io.respsql.sql.SqlException e) {
        return new Outcome(false, -1, "ERR " + e.getMessage(), e.sqlState());
    }

    public boolean ok() {
        return ok;
    }

    /** The statement wrote (INSERT, UPDATE, DELETE, DDL) and succeeded. */
    public boolean isWrite() {
        return ok && changes >= 0;
    }

    /** Rows a successful write changed (1 for a schema change); -1 for a read or a failure. */
    public long changes() {
        return changes;
    }

    /** The error reply's text without '-', or null when the statement succeeded. */
    public String error() {
        return error;
    }

    /** The failure's SQLSTATE code ({@link io.respsql.sql.SqlState}), or null when the statement succeeded. */
    public String sqlState() {
        return sqlState;
    }

    @Override
    public String toString() {
        return ok ? (changes >= 0 ? "wrote " + changes : "read") : "failed: " + sqlState + " " + error;
    }
}
