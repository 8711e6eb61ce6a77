package io.respsql.bench;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The {@code --json} document of a run. Scalars sit one per line at the top level (so shell
 * scripts can pick them with sed); arrays are written on one line each.
 */
public final class RunJson {

    private RunJson() {
    }

    public static String render(Options o, String transport, Instant startedAt, Result total,
            List<Result> rounds) {
        Stats s = total.stats;
        Histogram h = s.histogram();
        List<String[]> f = new ArrayList<>();
        f.add(kv("tool", Json.quote("gen-benchmark")));
        f.add(kv("format", "1"));
        f.add(kv("started_at", Json.quote(startedAt.toString())));
        f.add(kv("host", Json.quote(o.host)));
        f.add(kv("port", Integer.toString(o.port)));
        f.add(kv("clients", Integer.toString(o.clients)));
        f.add(kv("requests", Long.toString(total.requests)));
        f.add(kv("requests_per_round", Long.toString(o.requests)));
        f.add(kv("rounds", Integer.toString(rounds.size())));
        f.add(kv("threads", Integer.toString(o.threads)));
        f.add(kv("warmup_pings", Long.toString(o.warmup)));
        f.add(kv("transport", Json.quote(transport)));
        f.add(kv("key_mode", Json.quote(o.keyMode.name().toLowerCase(java.util.Locale.ROOT))));
        f.add(kv("key_step", Long.toString(o.step)));
        f.add(kv("key_random_range", Long.toString(o.randomRange)));
        StringBuilder mod = new StringBuilder("[");
        for (int i = 0; i < o.moduli.length; i++) {
            mod.append(i == 0 ? "" : ", ").append(o.moduli[i]);
        }
        f.add(kv("key_modulo", mod.append(']').toString()));
        f.add(kv("expect", Json.quote(o.expect.name())));
        StringBuilder cmd = new StringBuilder("[");
        for (int i = 0; i < o.words.size(); i++) {
            cmd.append(i == 0 ? "" : ", ").append(Json.quote(o.words.get(i)));
        }
        f.add(kv("command", cmd.append(']').toString()));
        f.add(kv("completed", Long.toString(s.samples())));
        f.add(kv("elapsed_seconds", Json.num(total.seconds())));
        f.add(kv("requests_per_second", Json.num(total.requestsPerSecond())));
        f.add(kv("client_cpu_seconds", total.cpuNanos < 0 ? "null" : Json.num(total.cpuNanos / 1e9)));
        f.add(kv("client_cpu_us_per_request", total.cpuNanos < 0 ? "null" : Json.num(total.cpuMicrosPerRequest())));
        f.add(kv("ok", Boolean.toString(total.ok())));
        f.add(kv("error_replies", Long.toString(s.errorReplies())));
        f.add(kv("wrong_type_replies", Long.toString(s.wrongTypeReplies())));
        f.add(kv("first_error", Json.quote(s.firstError())));
        f.add(kv("first_wrong_type", Json.quote(s.firstWrongType())));
        f.add(kv("failure", Json.quote(total.failure)));
        f.add(kv("int_replies", Long.toString(s.intCount())));
        f.add(kv("int_reply_min", s.intCount() == 0 ? "null" : Long.toString(s.intMin())));
        f.add(kv("int_reply_max", s.intCount() == 0 ? "null" : Long.toString(s.intMax())));
        f.add(kv("int_reply_sum", Long.toString(s.intSum())));
        f.add(kv("latency_samples", Long.toString(h.getTotalCount())));
        boolean any = h.getTotalCount() > 0;
        f.add(kv("min_us", any ? Long.toString(h.getMinValue()) : "null"));
        f.add(kv("mean_us", any ? Json.num(h.getMean()) : "null"));
        f.add(kv("stddev_us", any ? Json.num(h.getStdDeviation()) : "null"));
        String[][] pct = {{"p50", "50"}, {"p90", "90"}, {"p99", "99"}, {"p99_9", "99.9"},
            {"p99_99", "99.99"}};
        for (String[] p : pct) {
            f.add(kv(p[0] + "_us", any ? Long.toString(h.getValueAtPercentile(Double.parseDouble(p[1])))
                    : "null"));
        }
        f.add(kv("max_us", any ? Long.toString(h.getMaxValue()) : "null"));
        for (String[] p : new String[][] {{"p50", "50"}, {"p90", "90"}, {"p99", "99"}}) {
            f.add(kv(p[0] + "_ms", any
                    ? Json.num(h.getValueAtPercentile(Double.parseDouble(p[1])) / 1000.0) : "null"));
        }
        f.add(kv("max_ms", any ? Json.num(h.getMaxValue() / 1000.0) : "null"));

        StringBuilder buckets = new StringBuilder("[");
        StringBuilder cumulative = new StringBuilder("[");
        long seen = 0;
        boolean first = true;
        for (int ms = 0; ms < s.msBuckets(); ms++) {
            long c = s.msCount(ms);
            if (c == 0) {
                continue;
            }
            seen += c;
            String sep = first ? "" : ", ";
            first = false;
            buckets.append(sep).append('[').append(ms).append(", ").append(c).append(']');
            cumulative.append(sep).append('[').append(ms).append(", ")
                    .append(Json.num(seen * 100.0 / s.samples())).append(']');
        }
        f.add(kv("histogram_ms", buckets.append(']').toString()));
        f.add(kv("cumulative_ms", cumulative.append(']').toString()));

        StringBuilder dist = new StringBuilder("[");
        if (any) {
            first = true;
            for (HistogramIterationValue v : h.percentiles(5)) {
                dist.append(first ? "" : ", ").append('[')
                        .append(Json.num(v.getPercentileLevelIteratedTo())).append(", ")
                        .append(v.getValueIteratedTo()).append(", ")
                        .append(v.getTotalCountToThisValue()).append(']');
                first = false;
            }
        }
        f.add(kv("percentiles_us", dist.append(']').toString()));
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int len = h.encodeIntoCompressedByteBuffer(buf);
        byte[] enc = new byte[len];
        buf.flip();
        buf.get(enc);
        f.add(kv("hdr_histogram_base64", Json.quote(Base64.getEncoder().encodeToString(enc))));

        StringBuilder rs = new StringBuilder("[");
        for (int i = 0; i < rounds.size(); i++) {
            Result r = rounds.get(i);
            rs.append(i == 0 ? "" : ", ").append("{\"round\": ").append(i + 1)
                    .append(", \"requests\": ").append(r.requests)
                    .append(", \"elapsed_seconds\": ").append(Json.num(r.seconds()))
                    .append(", \"requests_per_second\": ").append(Json.num(r.requestsPerSecond()))
                    .append(", \"bad_replies\": ").append(r.stats.failures())
                    .append(", \"failure\": ").append(Json.quote(r.failure)).append('}');
        }
        f.add(kv("round_results", rs.append(']').toString()));

        StringBuilder sb = new StringBuilder("{\n");
        for (int i = 0; i < f.size(); i++) {
            sb.append("  ").append(Json.quote(f.get(i)[0])).append(": ").append(f.get(i)[1])
                    .append(i + 1 < f.size() ? ",\n" : "\n");
        }
        return sb.append("}\n").toString();
    }

    private static String[] kv(String k, String v) {
        return new String[] {k, v};
    }
}
