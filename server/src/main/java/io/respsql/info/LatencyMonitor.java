package io.respsql.info;

import io.respsql.config.ServerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Redis's latency monitor: with {@code latency-monitor-threshold} (milliseconds, 0 = off) set,
 * each event that takes at least that long is recorded under its event name ({@code command},
 * {@code fast-command}): per event the latest samples, one per second (the highest of that
 * second), at most {@link #SAMPLES}, and the all-time maximum. Event-loop thread only.
 */
public final class LatencyMonitor {
    /** Samples kept per event, as Redis's {@code LATENCY_TS_LEN}. */
    public static final int SAMPLES = 160;

    /** One sample: Unix time in seconds, latency in milliseconds. */
    public record Sample(long time, long latencyMs) {
    }

    /** The latest sample and the maximum of one event. */
    public record Latest(String event, long time, long latencyMs, long maxMs) {
    }

    private static final class Series {
        final long[] times = new long[SAMPLES];
        final long[] latencies = new long[SAMPLES];
        int next;
        int size;
        long max;
    }

    private final ServerConfig config;
    private final Map<String, Series> events = new TreeMap<>();

    public LatencyMonitor(ServerConfig config) {
        this.config = config;
    }

    /** Records {@code latencyMs} for {@code event} if the monitor is on and it reaches the threshold. */
    public void addIfNeeded(String event, long latencyMs, long nowMillis) {
        long threshold = config.latencyMonitorThreshold();
        if (threshold > 0 && latencyMs >= threshold) {
            add(event, latencyMs, nowMillis / 1000);
        }
    }

    void add(String event, long latencyMs, long nowSec) {
        Series s = events.computeIfAbsent(event, e -> new Series());
        s.max = Math.max(s.max, latencyMs);
        int last = (s.next + SAMPLES - 1) % SAMPLES;
        if (s.size > 0 && s.times[last] == nowSec) {
            s.latencies[last] = Math.max(s.latencies[last], latencyMs);
            return;
        }
        s.times[s.next] = nowSec;
        s.latencies[s.next] = latencyMs;
        s.next = (s.next + 1) % SAMPLES;
        s.size = Math.min(SAMPLES, s.size + 1);
    }

    /** Every event's latest sample, by event name. */
    public List<Latest> latest() {
        List<Latest> out = new ArrayList<>();
        for (Map.Entry<String, Series> e : events.entrySet()) {
            Series s = e.getValue();
            int last = (s.next + SAMPLES - 1) % SAMPLES;
            out.add(new Latest(e.getKey(), s.times[last], s.latencies[last], s.max));
        }
        return out;
    }

    /** The samples of {@code event}, oldest first; empty for an event never recorded. */
    public List<Sample> history(String event) {
        Series s = events.get(event);
        List<Sample> out = new ArrayList<>();
        if (s != null) {
            for (int i = 0; i < s.size; i++) {
                int j = (s.next - s.size + i + SAMPLES) % SAMPLES;
                out.add(new Sample(s.times[j], s.latencies[j]));
            }
        }
        return out;
    }

    /** Forgets the named events (every event if none is named); returns how many there were. */
    public int reset(List<String> names) {
        if (names.isEmpty()) {
            int n = events.size();
            events.clear();
            return n;
        }
        int n = 0;
        for (String name : names) {
            if (events.remove(name) != null) {
                n++;
            }
        }
        return n;
    }
}
