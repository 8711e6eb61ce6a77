package io.respsql.exec;

/**
 * Makes an OutOfMemoryError happen before a write statement's first change rather than halfway
 * through it: storage and index structures are not built to be left mid-update, so a write first
 * makes sure the heap can give what it may allocate. The engine turns the error into {@code -OOM}.
 * One per engine (event-loop thread only).
 */
public final class Headroom {
    /** Slack for a text arena or index node that grows by a whole block. */
    public static final long GROWTH_SLACK = 2L << 20;
    /** Bytes an index entry may allocate (a share of a node split), generously. */
    public static final long INDEX_BYTES_PER_ENTRY = 64;
    private static final int BLOCK = 1 << 20;
    /** Statements between two readings of the heap (a reading costs about 0.1 µs). */
    private static final int CHECK_EVERY = 256;

    /** Never-used heap at the last reading, less what the statements since then said they need. */
    private long budget;
    private int sinceReading = CHECK_EVERY;

    /**
     * Returns at once when the heap has never-used room for twice {@code bytes} (nearly always);
     * otherwise allocates {@code bytes} (plus slack) once and drops it, which makes the collector
     * free what it can and throws OutOfMemoryError if that is still not enough. The heap is read
     * every {@value #CHECK_EVERY} statements, or sooner when the remaining budget looks short.
     */
    public void ensure(long bytes) {
        if (bytes <= 0) {
            return;
        }
        long need = bytes + GROWTH_SLACK;
        if (++sinceReading < CHECK_EVERY && budget > 2 * need) {
            budget -= bytes;
            return;
        }
        sinceReading = 0;
        Runtime rt = Runtime.getRuntime();
        budget = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (budget > 2 * need) {
            budget -= bytes;
            return;
        }
        budget = 0; // read again next time
        // Blocks, not one array: a single huge array needs contiguous heap, more than the writes do.
        byte[][] reserve = new byte[(int) Math.min(Integer.MAX_VALUE - 8, (need + BLOCK - 1) / BLOCK)][];
        for (int i = 0; i < reserve.length; i++) {
            reserve[i] = new byte[BLOCK];
        }
    }
}
