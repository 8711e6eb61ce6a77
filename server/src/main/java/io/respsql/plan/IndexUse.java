package io.respsql.plan;

/**
 * Whether the planner may use indexes for the statement being planned on this thread: off for a
 * connection that said {@code SET use_indexes = off}, so every relation is read by a full scan
 * (and joins by hash or nested loops). Differential tests run the same statement both ways and
 * compare the answers. A thread-local so that the event loop's setting never leaks into a
 * worker's planning; {@code Boolean} constants only, nothing allocated per statement.
 */
public final class IndexUse {
    private static final ThreadLocal<Boolean> OFF = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private IndexUse() {
    }

    /** True while indexes are switched off for this thread's statement. */
    public static boolean off() {
        return OFF.get();
    }

    /** Switches indexes off ({@code true}) or back on for this thread's statements. */
    public static void off(boolean off) {
        OFF.set(off ? Boolean.TRUE : Boolean.FALSE);
    }
}
