package io.respsql.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.HdrHistogram.Histogram;

/** Text reports: the 2010 layout, then the microsecond percentiles and the reply checks. */
public final class Report {

    private Report() {
    }

    /** Formats like C's {@code printf("%.2f")}: the exact binary value, rounded half-even. */
    public static String f2(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        return new BigDecimal(v).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    /**
     * The 2010 report. Not quiet:
     * <pre>
     *   N requests completed in S seconds
     *   C parallel clients
     *
     * P% &lt;= L milliseconds      (one line per millisecond bucket that had a sample)
     * R requests per second
     *
     *
     * </pre>
     * Quiet: {@code R requests per second} and one blank line. Bucket L holds the latencies in
     * [L, L+1) milliseconds, as the 2010 client's whole-millisecond clock did.
     */
    public static String classic(Result r, int clients, boolean quiet) {
        StringBuilder sb = new StringBuilder();
        String rate = f2(r.requestsPerSecond()) + " requests per second\n";
        if (quiet) {
            return sb.append(rate).append('\n').toString();
        }
        sb.append("  ").append(r.completed()).append(" requests completed in ").append(f2(r.seconds()))
                .append(" seconds\n");
        sb.append("  ").append(clients).append(" parallel clients\n");
        sb.append('\n');
        Stats s = r.stats;
        long seen = 0;
        long total = s.samples();
        for (int ms = 0; ms < s.msBuckets(); ms++) {
            long c = s.msCount(ms);
            if (c == 0) {
                continue;
            }
            seen += c;
            sb.append(f2(seen * 100.0 / total)).append("% <= ").append(ms).append(" milliseconds\n");
        }
        sb.append(rate).append('\n').append('\n');
        return sb.toString();
    }

    /** Percentiles from the microsecond histogram. */
    public static String percentiles(Result r) {
        Histogram h = r.stats.histogram();
        StringBuilder sb = new StringBuilder();
        sb.append("Latency in microseconds (").append(h.getTotalCount()).append(" samples):\n");
        line(sb, "min", h.getMinValue());
        line(sb, "p50", h.getValueAtPercentile(50));
        line(sb, "p90", h.getValueAtPercentile(90));
        line(sb, "p99", h.getValueAtPercentile(99));
        line(sb, "p99.9", h.getValueAtPercentile(99.9));
        line(sb, "p99.99", h.getValueAtPercentile(99.99));
        line(sb, "max", h.getMaxValue());
        sb.append(String.format(java.util.Locale.ROOT, "  %-7s %.1f%n", "mean", h.getMean()));
        if (r.cpuNanos >= 0) {
            sb.append(String.format(java.util.Locale.ROOT,
                    "Client CPU while timed: %.2f s, %.1f%% of one core, %.2f us per request%n",
                    r.cpuNanos / 1e9, 100 * r.cpuShareOfOneCore(), r.cpuMicrosPerRequest()));
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String name, long us) {
        sb.append(String.format(java.util.Locale.ROOT, "  %-7s %d%n", name, us));
    }

    /** Lines about replies that were not as expected, or null when all were. */
    public static String problems(Result r, ReplyType expect) {
        StringBuilder sb = new StringBuilder();
        Stats s = r.stats;
        if (s.errorReplies() > 0) {
            sb.append(s.errorReplies()).append(" of ").append(r.requests)
                    .append(" replies were errors; first: ").append(s.firstError()).append('\n');
        }
        if (s.wrongTypeReplies() > 0) {
            sb.append(s.wrongTypeReplies()).append(" of ").append(r.requests)
                    .append(" replies were not of the expected type (").append(expect.name())
                    .append(", ").append(expect.description).append("); first: ")
                    .append(s.firstWrongType()).append('\n');
        }
        if (r.failure != null) {
            sb.append(r.failure).append('\n');
        }
        return sb.length() == 0 ? null : sb.toString();
    }
}
