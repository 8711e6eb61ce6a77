package io.respsql.bench;

/** What one round (or several merged rounds) measured. */
public final class Result {

    public final long requests;
    public final long elapsedNanos;
    public final Stats stats;
    /** Set when the run could not finish (connection refused, closed, bad bytes...). */
    public final String failure;
    /** CPU time the whole client process used while the clock ran (all threads), or -1. */
    public final long cpuNanos;

    public Result(long requests, long elapsedNanos, Stats stats, String failure) {
        this(requests, elapsedNanos, stats, failure, -1);
    }

    public Result(long requests, long elapsedNanos, Stats stats, String failure, long cpuNanos) {
        this.requests = requests;
        this.elapsedNanos = elapsedNanos;
        this.stats = stats;
        this.failure = failure;
        this.cpuNanos = cpuNanos;
    }

    /** Client CPU per request in microseconds, or NaN when unknown. */
    public double cpuMicrosPerRequest() {
        return cpuNanos < 0 || completed() == 0 ? Double.NaN : cpuNanos / 1e3 / completed();
    }

    /** Client CPU time as a share of one core over the timed run, or NaN when unknown. */
    public double cpuShareOfOneCore() {
        return cpuNanos < 0 || elapsedNanos <= 0 ? Double.NaN : (double) cpuNanos / elapsedNanos;
    }

    public double seconds() {
        return elapsedNanos / 1e9;
    }

    /** Requests whose reply was read: {@code requests} unless the run failed part way. */
    public long completed() {
        return stats.samples();
    }

    public double requestsPerSecond() {
        return elapsedNanos <= 0 ? 0 : completed() / seconds();
    }

    public boolean ok() {
        return failure == null && stats.failures() == 0 && stats.samples() == requests;
    }

    public Result plus(Result o) {
        Stats s = new Stats();
        s.merge(stats);
        s.merge(o.stats);
        long cpu = cpuNanos < 0 || o.cpuNanos < 0 ? -1 : cpuNanos + o.cpuNanos;
        return new Result(requests + o.requests, elapsedNanos + o.elapsedNanos, s,
                failure != null ? failure : o.failure, cpu);
    }
}
