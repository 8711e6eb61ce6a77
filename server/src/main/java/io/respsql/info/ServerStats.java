package io.respsql.info;

import io.respsql.config.ServerConfig;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters for {@code INFO}. Written and read on the event-loop thread only, so plain fields: no
 * locks, no atomics, no allocation per request.
 */
public final class ServerStats {
    private static final int OPS_SAMPLES = 16;

    /** The SLOWLOG; its threshold and length are read from the configuration on each use. */
    public final SlowLog slowLog;
    /** The latency monitor (LATENCY LATEST / HISTORY); on when latency-monitor-threshold is above 0. */
    public final LatencyMonitor latency;

    /** Stats whose SLOWLOG uses the default configuration. */
    public ServerStats() {
        this(new ServerConfig());
    }

    public ServerStats(ServerConfig config) {
        this.slowLog = new SlowLog(config);
        this.latency = new LatencyMonitor(config);
    }

    // ---- counters reset by CONFIG RESETSTAT --------------------------------------------------
    public long totalConnectionsReceived;
    public long totalCommandsProcessed;
    public long rejectedConnections;
    public long totalErrorReplies;
    public long totalNetInputBytes;
    public long totalNetOutputBytes;
    public long clientQueryBufferLimitDisconnections;
    public long clientOutputBufferLimitDisconnections;
    /** Replication, as Redis's {@code sync_full}, {@code sync_partial_ok}, {@code sync_partial_err}. */
    public long syncFull;
    public long syncPartialOk;
    public long syncPartialErr;
    /** Error replies by their first word (ERR, OOM, NOAUTH, ...), for {@code INFO errorstats}. */
    private final Map<String, long[]> errorsByType = new TreeMap<>();

    // ---- client buffers, sampled by the server's cron ---------------------------------------------
    /** Bytes held for clients: unsent replies plus unfinished requests, summed over clients. */
    public long clientBufferBytes;
    /** Largest unfinished request and largest unsent output of any one client at the last sample. */
    public long clientRecentMaxInputBuffer;
    public long clientRecentMaxOutputBuffer;

    // ---- gauges ---------------------------------------------------------------------------------
    public int connectedClients;
    /** Of {@link #connectedClients}, the replicas' links: Redis's connected_clients leaves them out. */
    public int replicaClients;
    /** Clients held by a blocking command (WAIT). */
    public int blockedClients;
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

    /** Records {@code used} (the accounted memory) for the peak; returns the peak. */
    public long notePeak(long used) {
        if (used > usedMemoryPeak) {
            usedMemoryPeak = used;
        }
        return usedMemoryPeak;
    }

    /** The highest accounted memory seen (sampled on INFO and every 100 ms). */
    public long usedMemoryPeak() {
        return usedMemoryPeak;
    }

    /**
     * Counts one error reply with text {@code error} ({@code CODE message}, without '-'):
     * {@code total_error_replies} and its code's {@code errorstat_}.
     */
    public void countErrorReply(String error) {
        totalErrorReplies++;
        int i = 0;
        while (i < error.length() && i < 32 && error.charAt(i) != ' ' && error.charAt(i) != '\r') {
            i++;
        }
        countError(error.substring(0, i));
    }

    /** Counts an error reply whose code is {@code code} (e.g. {@code ERR}). */
    public void countError(String code) {
        errorsByType.computeIfAbsent(code, k -> new long[1])[0]++;
    }

    /** Error replies per code since the last reset, sorted by code. */
    public Map<String, long[]> errorsByType() {
        return errorsByType;
    }

    /** {@code CONFIG RESETSTAT}: zeroes the counters (not the gauges). */
    public void reset() {
        totalConnectionsReceived = 0;
        totalCommandsProcessed = 0;
        rejectedConnections = 0;
        totalErrorReplies = 0;
        clientQueryBufferLimitDisconnections = 0;
        clientOutputBufferLimitDisconnections = 0;
        syncFull = 0;
        syncPartialOk = 0;
        syncPartialErr = 0;
        errorsByType.clear();
        totalNetInputBytes = 0;
        totalNetOutputBytes = 0;
        lastSampleCommands = 0;
        java.util.Arrays.fill(opsSamples, 0);
        usedMemoryPeak = 0;
    }
}
