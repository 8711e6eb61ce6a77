package io.respsql.storage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * One log line every few seconds while long work over the data set runs (a snapshot load or write
 * at startup, SAVE/BGSAVE, an AOF rewrite's preamble, a full sync on both sides, an index build), so
 * a server busy with a large data set can be told from a hung one: how far (percent when the total is known), how fast, how long is left. Work shorter
 * than the interval logs nothing. Callers report progress at buffer boundaries, not per value: a
 * call costs one clock read.
 */
public final class ProgressLog {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressLog.class);
    public static final long DEFAULT_INTERVAL_NANOS = 5_000_000_000L;

    /** How often, and where the lines go: tests shorten the one and catch the other. */
    public static volatile long intervalNanos = DEFAULT_INTERVAL_NANOS;
    public static volatile Consumer<String> sink = LOG::info;

    private final String what;
    private final long startNanos = System.nanoTime();
    private long nextNanos;

    public ProgressLog(String what) {
        this.what = what;
        this.nextNanos = startNanos + intervalNanos;
    }

    /**
     * Progress so far: {@code done} of {@code total} (total &lt;= 0: unknown) and {@code bytes} moved;
     * logs when the interval has passed since the last line.
     */
    public void at(long done, long total, long bytes) {
        long now = System.nanoTime();
        if (now < nextNanos) {
            return;
        }
        nextNanos = now + intervalNanos;
        double secs = Math.max(1e-9, (now - startNanos) / 1e9);
        StringBuilder sb = new StringBuilder(what).append(": ");
        if (total > 0) {
            double f = Math.min(1.0, done / (double) total);
            sb.append(String.format(Locale.ROOT, "%d%%, ", (int) Math.floor(f * 100)));
            sb.append(String.format(Locale.ROOT, "%.1f MB in %.0f s (%.1f MB/s)", bytes / 1e6, secs, bytes / 1e6 / secs));
            if (f > 0 && f < 1) {
                sb.append(String.format(Locale.ROOT, ", about %.0f s left", secs * (1 - f) / f));
            }
        } else {
            sb.append(String.format(Locale.ROOT, "%.1f MB in %.0f s (%.1f MB/s)", bytes / 1e6, secs, bytes / 1e6 / secs));
        }
        sink.accept(sb.toString());
    }

    /**
     * Progress of work over {@code rowCount} rows (an index build): {@code done} of {@code total}
     * units of work; logs when the interval has passed since the last line.
     */
    public void rows(long done, long total, long rowCount) {
        long now = System.nanoTime();
        if (now < nextNanos) {
            return;
        }
        nextNanos = now + intervalNanos;
        double secs = Math.max(1e-9, (now - startNanos) / 1e9);
        double f = total > 0 ? Math.min(1.0, done / (double) total) : 0;
        StringBuilder sb = new StringBuilder(what).append(": ");
        sb.append(String.format(Locale.ROOT, "%d%% of %d rows in %.0f s", (int) Math.floor(f * 100), rowCount, secs));
        if (f > 0 && f < 1) {
            sb.append(String.format(Locale.ROOT, ", about %.0f s left", secs * (1 - f) / f));
        }
        sink.accept(sb.toString());
    }
}
