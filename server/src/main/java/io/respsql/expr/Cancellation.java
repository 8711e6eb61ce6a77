package io.respsql.expr;

import io.respsql.sql.SqlException;

/**
 * A request to stop a running statement: set from another thread (statement timeout, CLIENT
 * CANCEL, CLIENT KILL, shutdown) or by a deadline read here. Checked by the operators once per
 * batch of rows (scans, join probes, nested loops, sort output): one volatile read, plus one clock
 * read when a deadline is armed, so the check costs nothing measurable per row and a statement
 * stops within one batch of its deadline.
 *
 * <p>On the event loop one instance is re-armed for every statement ({@link #arm}); a worker's
 * statement gets its own.
 */
public final class Cancellation {
    private volatile String reason;
    /** {@link System#nanoTime()} after which {@link #check} cancels (only when {@link #armed}). */
    private long deadline;
    private boolean armed;
    private String deadlineReason;
    /** The deadline armed is the event-loop bound (loop-statement-max-ms), not a statement timeout. */
    private boolean deadlineIsLoopBound;
    private boolean loopBoundHit;

    /** Asks the statement to stop; the first reason wins (it becomes the error reply). */
    public void cancel(String why) {
        if (reason == null) {
            reason = why;
        }
    }

    /**
     * Clears any earlier cancellation and sets a deadline (nanoTime) with its reason; {@code
     * deadlineNanos} is used only when {@code deadlineReason} is not null. Call before the run, on
     * the thread that runs it (or before handing it to a worker).
     */
    public void arm(long deadlineNanos, String why, boolean loopBound) {
        reason = null;
        loopBoundHit = false;
        armed = why != null;
        deadline = deadlineNanos;
        deadlineReason = why;
        deadlineIsLoopBound = loopBound;
    }

    /** No deadline and no cancellation (the next statement's state before it arms its own). */
    public void disarm() {
        arm(0, null, false);
    }

    public boolean cancelled() {
        return reason != null;
    }

    public String reason() {
        return reason;
    }

    /** Whether the statement was stopped by the event-loop bound (it may then be moved to a worker). */
    public boolean loopBoundHit() {
        return loopBoundHit;
    }

    /** Throws the statement's error when cancellation was asked for or its deadline has passed. */
    public void check() {
        String r = reason;
        if (r == null) {
            if (!armed || System.nanoTime() - deadline < 0) {
                return;
            }
            loopBoundHit = deadlineIsLoopBound && reason == null;
            cancel(deadlineReason);
            r = reason;
        }
        throw new SqlException(r);
    }
}
