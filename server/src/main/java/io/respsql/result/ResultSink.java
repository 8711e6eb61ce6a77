package io.respsql.result;

/**
 * Where a statement's result goes: columns, then rows of typed values. The executor says what
 * the values are; the implementation (in {@code protocol/}) decides how they look on the wire,
 * so the 2010 comma-joined rows, typed arrays and RESP3 types are chosen in one place, as
 * Redis's networking.c chooses between RESP2 and RESP3.
 *
 * <p>The row count comes first because every RESP aggregate carries its length up front; the
 * executor knows it (rows are gathered, sorted and cut before the first is written). Rows are
 * still encoded, and streamed out in chunks, one at a time. One instance belongs to the
 * event-loop thread: implementations keep no per-row state beyond the row being written and
 * must not allocate per value.
 */
public interface ResultSink {
    /** A result of {@code rowCount} rows with these columns follows. */
    void columns(ResultColumns columns, long rowCount);

    void beginRow();

    void longValue(long v);

    void doubleValue(double v);

    /** A TEXT value: {@code len} UTF-8 bytes of {@code b} from {@code off} (not kept after the call). */
    void textValue(byte[] b, int off, int len);

    /**
     * SQL NULL. Today only an aggregate over no rows (SUM, AVG, MIN, MAX) has no value; once
     * columns can hold NULL (issue 10) column values arrive here as well.
     */
    void nullValue();

    void endRow();

    /** The result is complete. */
    void end();

    /**
     * The result of a select list that is one {@code COUNT(*)} and nothing else: one row, one
     * column. The 2010 dialect replies it as a bare integer; other forms as any one-row result.
     */
    void countStar(ResultColumns columns, long count);
    /**
     * Takes back everything this result wrote since its statement began, so the statement can
     * answer otherwise (a query that overran the event-loop bound runs again on a worker). False
     * when part of it already left: nothing more may follow, and the connection closes.
     */
    default boolean retract() {
        return true;
    }

    /**
     * {@code r} runs when the first part of this result leaves (a streamed reply's first chunk):
     * from then on it cannot be taken back. Null: nobody is told.
     */
    default void onLeaving(Runnable r) {
    }

    /** A sink that keeps nothing: the log loader and a replica apply statements without replying. */
    ResultSink NONE = new ResultSink() {
        @Override
        public void columns(ResultColumns columns, long rowCount) {
        }

        @Override
        public void beginRow() {
        }

        @Override
        public void longValue(long v) {
        }

        @Override
        public void doubleValue(double v) {
        }

        @Override
        public void textValue(byte[] b, int off, int len) {
        }

        @Override
        public void nullValue() {
        }

        @Override
        public void endRow() {
        }

        @Override
        public void end() {
        }

        @Override
        public void countStar(ResultColumns columns, long count) {
        }
    };
}
