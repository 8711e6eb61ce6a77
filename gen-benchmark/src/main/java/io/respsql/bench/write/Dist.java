package io.respsql.bench.write;

import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Summary statistics of latency samples (nanoseconds). */
final class Dist {

    private Dist() {
    }

    /** Nearest-rank percentile (0 < q <= 100) of unsorted samples; NaN when there are none. */
    static double percentile(long[] samples, double q) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(q / 100.0 * s.length);
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }

    /** Median of values: the middle one, or the mean of the two middle ones; NaN when empty. */
    static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    /**
     * Median over rounds of each round's p50: rounds yield unequal sample counts, so pooling
     * would weight the rounds that ran faster. Rounds with no sample are left out.
     */
    static double medianOfRoundP50s(List<Histogram> rounds) {
        double[] p50 = new double[rounds.size()];
        for (int i = 0; i < p50.length; i++) {
            Histogram h = rounds.get(i);
            p50[i] = h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(50);
        }
        return median(p50);
    }

    /** The rounds' histograms merged: for tails, a property of single requests. */
    static Histogram pooled(List<Histogram> rounds) {
        Histogram all = newHistogram();
        for (Histogram h : rounds) {
            all.add(h);
        }
        return all;
    }

    static Histogram newHistogram() {
        return new Histogram(3_600_000_000_000L, 3);
    }

    static String us(double nanos) {
        if (Double.isNaN(nanos)) {
            return "-";
        }
        double us = nanos / 1000.0;
        if (us >= 100_000) {
            return String.format("%,.0f", us);
        }
        return us >= 100 ? String.format("%.0f", us) : String.format("%.1f", us);
    }

    static String ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || b == 0) {
            return "-";
        }
        double r = a / b;
        if (r >= 10) {
            return String.format("%.0f", r);
        }
        // Two significant digits below 0.1, so a 300x difference does not print as 0.00.
        return r >= 0.1 ? String.format("%.2f", r) : String.format("%.2g", r);
    }
}
