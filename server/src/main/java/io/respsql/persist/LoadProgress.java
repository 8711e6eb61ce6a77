package io.respsql.persist;

import java.util.Locale;
import java.util.concurrent.CancellationException;

/**
 * How far a load of the data set is (Redis's {@code server.loading*}): written by the thread that
 * reads the file, read by {@code INFO persistence} and by the command dispatcher on the event loop.
 *
 * <p>Two kinds of load, as in Redis: the load at startup ({@code loading:1}), during which every
 * command not flagged {@code loading} is answered {@code -LOADING}; and a replica's load of its
 * master's snapshot, during which the old data keeps being served ({@code async_loading:1}, Redis's
 * {@code repl-diskless-load swapdb}). Either way the {@code loading_*} fields say how far it is.
 *
 * <p>{@link #at} is the loader's one call per buffer or record: a volatile write and a volatile read.
 */
public final class LoadProgress {
    /** The reply to a command refused while the data set loads (Redis: "-LOADING Redis is loading ..."). */
    public static final String LOADING_REPLY = "LOADING RespSQL is loading the dataset in memory";

    private volatile boolean active;
    private volatile boolean async;
    private volatile boolean cancelled;
    private volatile long startMillis;
    private volatile long totalBytes;
    private volatile long loadedBytes;
    /** Bytes of loads already finished within this one (a snapshot, then the log after it). */
    private volatile long baseBytes;

    /** A load of {@code totalBytes} (0: unknown) begins; {@code async}: the old data keeps being served. */
    public void begin(long totalBytes, boolean async) {
        this.cancelled = false;
        this.async = async;
        this.totalBytes = Math.max(0, totalBytes);
        this.loadedBytes = 0;
        this.baseBytes = 0;
        this.startMillis = System.currentTimeMillis();
        this.active = true;
    }

    /** Another file of the same load follows: its offsets count from the bytes done so far. */
    void nextFile(long done) {
        baseBytes = done;
        loadedBytes = done;
    }

    /** The loader has read up to {@code offset} of the current file; throws once the load was cancelled. */
    void at(long offset) {
        loadedBytes = baseBytes + offset;
        if (cancelled) {
            throw new CancellationException("loading stopped: the server is shutting down");
        }
    }

    /** The load has ended (either way). */
    public void end() {
        active = false;
        async = false;
    }

    /** Makes the loader stop at its next buffer (the server is stopping). */
    public void cancel() {
        cancelled = true;
    }

    /** Whether a load runs (either kind). */
    public boolean active() {
        return active;
    }

    /** Whether commands that need data are refused now: a blocking load (startup) runs. */
    public boolean refusing() {
        return active && !async;
    }

    public long loadedBytes() {
        return loadedBytes;
    }

    public long totalBytes() {
        return totalBytes;
    }

    /** Percent loaded, 0..100 (0 when the total is unknown). */
    public double percent() {
        long total = totalBytes;
        return total <= 0 ? 0 : Math.min(100.0, loadedBytes * 100.0 / total);
    }

    /**
     * The fields of {@code INFO persistence} about loading, as Redis writes them: {@code loading} and
     * {@code async_loading} always; while a load runs, also its start time, sizes, percent and ETA.
     */
    public void info(StringBuilder sb) {
        boolean on = active;
        field(sb, "loading", on && !async ? 1 : 0);
        field(sb, "async_loading", on && async ? 1 : 0);
    }

    /** The {@code loading_*} block Redis adds at the end of the section while a load runs. */
    public void details(StringBuilder sb) {
        if (!active) {
            return;
        }
        long loaded = loadedBytes;
        long total = totalBytes;
        long start = startMillis;
        long elapsed = (System.currentTimeMillis() - start) / 1000;
        long remaining = total > 0 ? Math.max(0, total - loaded) : 1;
        long eta = elapsed == 0 ? 1 : elapsed * remaining / (loaded + 1); // Redis's figure, 1 when unknown
        field(sb, "loading_start_time", start / 1000);
        field(sb, "loading_total_bytes", total);
        field(sb, "loading_rdb_used_mem", 0);
        field(sb, "loading_loaded_bytes", loaded);
        field(sb, "loading_loaded_perc", String.format(Locale.ROOT, "%.2f", percent()));
        field(sb, "loading_eta_seconds", eta);
    }

    private static void field(StringBuilder sb, String name, Object value) {
        sb.append(name).append(':').append(value).append("\r\n");
    }
}
