package io.respsql.bench;

/** What one round (or several merged rounds) measured. */
public final class Result {

    public final long requests;
    public final long elapsedNanos;
    public final Stats stats;
    /** Set when the run could not finish (connection refused, closed, bad bytes...). */
    public final String failure;

    public Result(long requests, long elapsedNanos, Stats stats, String failure) {
        this.requests = requests;
        this.elapsedNanos = elapsedNanos;
        this.stats = stats;
        this.failure = failure;
    }

    public double seconds() {
        return elapsedNanos / 1e9;
    }

    public double requestsPerSecond() {
        return elapsedNanos <= 0 ? 0 : requests / seconds();
    }

    public boolean ok() {
        return failure == null && stats.failures() == 0 && stats.samples() == requests;
    }

    public Result plus(Result o) {
        Stats s = new Stats();
        s.merge(stats);
        s.merge(o.stats);
        return new Result(requests + o.requests, elapsedNanos + o.elapsedNanos, s,
                failure != null ? failure : o.failure);
    }
}
