package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * A request to stop a statement running on a worker thread (statement timeout, CLIENT KILL).
 * Set from the event loop or a timer, read by scans once per batch: one volatile read, so the
 * flag costs nothing measurable and a cancelled query stops within one batch of rows.
 */
public final class Cancellation {
    private volatile String reason;

    /** Asks the statement to stop; the first reason wins (it becomes the error reply). */
    public void cancel(String why) {
        if (reason == null) {
            reason = why;
        }
    }

    public boolean cancelled() {
        return reason != null;
    }

    public String reason() {
        return reason;
    }

    /** Throws the statement's error when cancellation was asked for. */
    public void check() {
        String r = reason;
        if (r != null) {
            throw new SqlException(SqlState.QUERY_CANCELED, r);
        }
    }
}
