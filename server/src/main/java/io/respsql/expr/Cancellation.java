package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

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
    /**
     * Set once by {@link #shutDown} and never cleared: {@link #arm} cannot wipe it (a shutdown
     * between two statements, or between a job's publication and its arming, is not lost).
     */
    private volatile String shutdown;
    /** {@link System#nanoTime()} deadlines, each used only when its reason is not null. */
    private long timeoutAt;
    private String timeoutReason;
    private long loopAt;
    private String loopReason;
    private boolean loopBoundHit;

    /** Beyond this many ms a deadline is "never" (ms * 1e6 would overflow the nanoTime arithmetic). */
    private static final long MAX_MS = Long.MAX_VALUE / 4 / 1_000_000L;

    /**
     * The nanoTime deadline {@code ms} after {@code now}, saturated: any bound, however large
     * (a config value up to Long.MAX_VALUE), gives a deadline in the future, never a wrapped one.
     */
    public static long deadline(long now, long ms) {
        return now + (ms <= 0 ? 0 : ms >= MAX_MS ? MAX_MS * 1_000_000L : ms * 1_000_000L);
    }

    /** Asks the statement to stop; the first reason wins (it becomes the error reply). */
    public void cancel(String why) {
        if (reason == null) {
            reason = why;
        }
    }

    /**
     * Stops this statement and every later one armed on this instance (server shutdown); any thread.
     */
    public void shutDown(String why) {
        if (shutdown == null) {
            shutdown = why;
        }
        cancel(why);
    }

    /**
     * Clears any earlier cancellation (not a {@link #shutDown}) and sets the deadlines (nanoTime): the statement timeout's
     * and the event-loop bound's, each with the error it gives (null: none). Call before the run,
     * on the thread that runs it (or before handing it to a worker).
     */
    public void arm(long timeoutNanos, String timeoutWhy, long loopNanos, String loopWhy) {
        reason = null;
        loopBoundHit = false;
        timeoutAt = timeoutNanos;
        timeoutReason = timeoutWhy;
        loopAt = loopNanos;
        loopReason = loopWhy;
    }

    /** No deadline and no cancellation. */
    public void disarm() {
        arm(0, null, 0, null);
    }

    /**
     * The first bytes of the reply are leaving: the event-loop bound no longer applies (the
     * statement could then neither move nor answer with an error). Until then an overrun while
     * rows are encoded is taken back and moved like any other.
     */
    public void replyStarted() {
        loopReason = null;
    }

    public boolean cancelled() {
        return reason != null || shutdown != null;
    }

    public String reason() {
        String r = shutdown;
        return r != null ? r : reason;
    }

    /**
     * Whether the statement was stopped by the event-loop bound (it may then be moved to a
     * worker); never when shutting down (the statement must stop, not move).
     */
    public boolean loopBoundHit() {
        return loopBoundHit && shutdown == null;
    }

    /** Throws the statement's error when cancellation was asked for or a deadline has passed. */
    public void check() {
        String r = reason;
        if (r == null) {
            r = shutdown;
        }
        if (r == null) {
            if (timeoutReason == null && loopReason == null) {
                return;
            }
            long now = System.nanoTime();
            if (timeoutReason != null && now - timeoutAt >= 0) {
                cancel(timeoutReason);
            } else if (loopReason != null && now - loopAt >= 0) {
                loopBoundHit = reason == null && shutdown == null;
                cancel(loopReason);
            } else {
                return;
            }
            r = reason();
        }
        throw new SqlException(SqlState.QUERY_CANCELED, r);
    }
}
