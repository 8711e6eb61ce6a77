package io.respsql.info;

import io.respsql.config.ServerConfig;

/**
 * Counters for {@code INFO}. Written and read on the event-loop thread only, so plain fields: no
 * locks, no atomics, no allocation per request.
 */
public final class ServerStats {
    private static final int OPS_SAMPLES = 16;

    /** The SLOWLOG; its threshold and length are read from the configuration on each use. */
    public final SlowLog slowLog;

    /** Stats whose SLOWLOG uses the default configuration. */
    public ServerStats() {
        this(new ServerConfig());
    }

    public ServerStats(ServerConfig config) {
        this.slowLog = new SlowLog(config);
    }

    // ---- counters reset by CONFIG RESETSTAT --------------------------------------------------
    public long totalConnectionsReceived;
    public long totalCommandsProcessed;
    public long rejectedConnections;
    public long totalErrorReplies;
    public long totalNetInputBytes;
    public long totalNetOutputBytes;

    // ---- gauges ---------------------------------------------------------------------------------
    public int connectedClients;
    private long usedMemoryPeak;

    // ---- instantaneous ops/sec: a moving average of per-interval rates, as Redis computes it ---
    private final long[] opsSamples = new long[OPS_SAMPLES];
    private int opsSampleIndex;
    private long lastSampleMillis;
    private long lastSampleCommands;

    /** Wall-clock milliseconds refreshed by {@link #tick(long)}; cheap "now" for idle times. */
    private long clockMillis = System.currentTimeMillis();

    /** Called periodically (every 100 ms) on the event loop. */
    public void tick(long nowMillis) {
        clockMillis = nowMillis;
        long elapsed = nowMillis - lastSampleMillis;
        if (lastSampleMillis != 0 && elapsed > 0) {
            long ops = totalCommandsProcessed - lastSampleCommands;
            opsSamples[opsSampleIndex] = ops * 1000 / elapsed;
            opsSampleIndex = (opsSampleIndex + 1) % OPS_SAMPLES;
        }
        lastSampleMillis = nowMillis;
        lastSampleCommands = totalCommandsProcessed;
        usedMemory();
    }

    public long clockMillis() {
        return clockMillis;
    }

    public long instantaneousOpsPerSec() {
        long sum = 0;
        for (long s : opsSamples) {
            sum += s;
        }
        return sum / OPS_SAMPLES;
    }

    /** Heap in use now; also updates the peak. */
    public long usedMemory() {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        if (used > usedMemoryPeak) {
            usedMemoryPeak = used;
        }
        return used;
    }

    /** The highest heap use seen by {@link #usedMemory()} (sampled every 100 ms and on INFO). */
    public long usedMemoryPeak() {
        return usedMemoryPeak;
    }

    /** {@code CONFIG RESETSTAT}: zeroes the counters (not the gauges). */
    public void reset() {
        totalConnectionsReceived = 0;
        totalCommandsProcessed = 0;
        rejectedConnections = 0;
        totalErrorReplies = 0;
        totalNetInputBytes = 0;
        totalNetOutputBytes = 0;
        lastSampleCommands = 0;
        java.util.Arrays.fill(opsSamples, 0);
        usedMemoryPeak = 0;
        usedMemory();
    }
}
