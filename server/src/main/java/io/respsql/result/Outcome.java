package io.respsql.result;

import java.util.List;

/**
 * What one statement did, and everything its reply needs: the engine returns it, {@code protocol/}
 * alone encodes it (RESP2/RESP3 in {@code protocol/OutcomeReply}), and the log loader, the
 * replica applier, EXEC and a second wire protocol decide on it without reading reply bytes.
 *
 * <p>The reply it stands for is one of {@link Reply}: rows already streamed to the statement's
 * {@link ResultSink}; {@code +OK}; an integer; lines of text (DESC, DUMP, SHOW, EXPLAIN); nothing
 * now (the query went to a worker, which replies later); or an error with its SQLSTATE code.
 * Independently, {@link #changes} says how many rows a write changed (H2's update count).
 *
 * <p>Immutable. The common outcomes (rows, a write of 0..{@value #CACHED} rows replying OK or its
 * count) are shared instances, so a point statement that succeeds allocates no outcome.
 */
public final class Outcome {
    /** The form of the reply. */
    public enum Reply {
        /** The result rows went to the statement's {@link ResultSink}; nothing more to write. */
        ROWS,
        /** {@code +OK} (INSERT, DDL, PREPARE). */
        OK,
        /** An integer ({@link #value}): UPDATE's and DELETE's counts, DROP TABLE's, RETURN SIZE's bytes. */
        INTEGER,
        /** An array of text lines ({@link #lines}): DESC, DUMP, SHOW, EXPLAIN. */
        LINES,
        /** Nothing now: the statement went to a worker, which replies when it is done. */
        LATER,
        /** An error ({@link #error}, {@link #sqlState}). */
        ERROR
    }

    private static final int CACHED = 64;
    private static final Outcome ROWS = new Outcome(Reply.ROWS, -1, 0, null, null, null);
    private static final Outcome LATER = new Outcome(Reply.LATER, -1, 0, null, null, null);
    private static final Outcome[] OKS = new Outcome[CACHED + 1];
    private static final Outcome[] COUNTS = new Outcome[CACHED + 1];

    static {
        for (int i = 0; i <= CACHED; i++) {
            OKS[i] = new Outcome(Reply.OK, i, 0, null, null, null);
            COUNTS[i] = new Outcome(Reply.INTEGER, i, i, null, null, null);
        }
    }

    private final Reply reply;
    private final long changes;
    private final long value;
    private final List<String> lines;
    private final String error;
    private final String sqlState;

    private Outcome(Reply reply, long changes, long value, List<String> lines, String error, String sqlState) {
        this.reply = reply;
        this.changes = changes;
        this.value = value;
        this.lines = lines;
        this.error = error;
        this.sqlState = sqlState;
    }

    /** A read whose rows were streamed to its {@link ResultSink} (SELECT). */
    public static Outcome rows() {
        return ROWS;
    }

    /**
     * A write whose reply is rows ({@code RETURNING}), streamed to its {@link ResultSink} already,
     * that changed {@code changes} rows.
     */
    public static Outcome rowsWritten(long changes) {
        return new Outcome(Reply.ROWS, changes, 0, null, null, null);
    }

    /** A read handed to a worker: its reply comes later, from there. */
    public static Outcome later() {
        return LATER;
    }

    /** A write replying {@code +OK} that changed {@code changes} rows (1 for a schema change, 0 for a no-op). */
    public static Outcome ok(long changes) {
        return changes >= 0 && changes <= CACHED ? OKS[(int) changes] : new Outcome(Reply.OK, changes, 0, null, null, null);
    }

    /** A write replying the number of rows it changed (UPDATE, DELETE). */
    public static Outcome count(long changes) {
        return changes >= 0 && changes <= CACHED ? COUNTS[(int) changes]
                : new Outcome(Reply.INTEGER, changes, changes, null, null, null);
    }

    /** A write replying the integer {@code value} (DROP TABLE's count, RETURN SIZE's bytes) that changed {@code changes} rows. */
    public static Outcome integer(long value, long changes) {
        return value == changes ? count(changes) : new Outcome(Reply.INTEGER, changes, value, null, null, null);
    }

    /**
     * A read replying lines of text, one bulk string each (DESC, DUMP, SHOW, EXPLAIN). The list may
     * make each line as it is read (DUMP of a large table streams so): read it once, right away.
     */
    public static Outcome lines(List<String> lines) {
        return new Outcome(Reply.LINES, -1, 0, java.util.Collections.unmodifiableList(lines), null, null);
    }

    /**
     * A statement that failed and changed nothing, with {@code error} (the reply's text without
     * '-', e.g. {@code "ERR table 't' does not exist"}) of kind {@code sqlState} ({@code io.respsql.sql.SqlState}).
     */
    public static Outcome failed(String sqlState, String error) {
        return new Outcome(Reply.ERROR, -1, 0, null, error, sqlState);
    }

    public Reply reply() {
        return reply;
    }

    /** The statement succeeded (or went to a worker, which may still fail it: {@link Reply#LATER}). */
    public boolean ok() {
        return reply != Reply.ERROR;
    }

    /** The statement wrote (INSERT, UPDATE, DELETE, DDL, PREPARE) and succeeded. */
    public boolean isWrite() {
        return changes >= 0;
    }

    /** Rows a successful write changed (1 for a schema change); -1 for a read or a failure. */
    public long changes() {
        return changes;
    }

    /** The integer of a {@link Reply#INTEGER} reply; 0 otherwise. */
    public long value() {
        return value;
    }

    /** The lines of a {@link Reply#LINES} reply; null otherwise. */
    public List<String> lines() {
        return lines;
    }

    /** The error reply's text without '-', or null when the statement succeeded. */
    public String error() {
        return error;
    }

    /** The failure's SQLSTATE code, or null when the statement succeeded. */
    public String sqlState() {
        return sqlState;
    }

    @Override
    public String toString() {
        return switch (reply) {
            case ROWS -> "rows";
            case LATER -> "later";
            case OK -> "ok, changed " + changes;
            case INTEGER -> changes >= 0 ? "integer " + value + ", changed " + changes : "integer " + value;
            case LINES -> "lines " + lines;
            case ERROR -> "failed: " + sqlState + " " + error;
        };
    }
}
