package io.respsql.bench;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Figures of one run (or of one event-loop thread of it, merged at the end): a microsecond
 * HdrHistogram, exact per-millisecond counts for the 2010 report, reply checks and the values of
 * integer replies. Not thread-safe: each thread records into its own.
 */
public final class Stats {

    /** Longest latency the histogram tracks, in microseconds (one hour); longer ones are clamped. */
    public static final long MAX_TRACKED_US = 3_600_000_000L;

    final Histogram histogram = new Histogram(MAX_TRACKED_US, 3);
    long[] msCounts = new long[64];
    long samples;

    long errorReplies;
    long wrongTypeReplies;
    String firstError;
    long firstErrorAt = Long.MAX_VALUE;
    String firstWrongType;
    long firstWrongTypeAt = Long.MAX_VALUE;

    long intCount;
    long intMin = Long.MAX_VALUE;
    long intMax = Long.MIN_VALUE;
    long intSum;

    /** Records one request's latency and checks its reply. */
    public void record(long latencyNanos, byte replyType, long intValue, String replyText,
            ReplyType expected, long now) {
        if (latencyNanos < 0) {
            latencyNanos = 0;
        }
        samples++;
        long us = latencyNanos / 1_000;
        histogram.recordValue(Math.min(us, MAX_TRACKED_US));
        long ms = latencyNanos / 1_000_000;
        if (ms >= msCounts.length) {
            long size = msCounts.length;
            while (size <= ms) {
                size *= 2;
            }
            msCounts = Arrays.copyOf(msCounts, (int) Math.min(size, Integer.MAX_VALUE - 8));
            if (ms >= msCounts.length) {
                ms = msCounts.length - 1;
            }
        }
        msCounts[(int) ms]++;
        if (replyType == ':') {
            intCount++;
            intSum += intValue;
            if (intValue < intMin) {
                intMin = intValue;
            }
            if (intValue > intMax) {
                intMax = intValue;
            }
        }
        if (!expected.accepts(replyType)) {
            if (replyType == '-') {
                errorReplies++;
                if (now < firstErrorAt) {
                    firstErrorAt = now;
                    firstError = replyText;
                }
            } else {
                wrongTypeReplies++;
                if (now < firstWrongTypeAt) {
                    firstWrongTypeAt = now;
                    firstWrongType = ReplyType.describe(replyType) + " reply " + replyText;
                }
            }
        }
    }

    public void merge(Stats o) {
        histogram.add(o.histogram);
        if (o.msCounts.length > msCounts.length) {
            msCounts = Arrays.copyOf(msCounts, o.msCounts.length);
        }
        for (int i = 0; i < o.msCounts.length; i++) {
            msCounts[i] += o.msCounts[i];
        }
        samples += o.samples;
        errorReplies += o.errorReplies;
        wrongTypeReplies += o.wrongTypeReplies;
        if (o.firstErrorAt < firstErrorAt) {
            firstErrorAt = o.firstErrorAt;
            firstError = o.firstError;
        }
        if (o.firstWrongTypeAt < firstWrongTypeAt) {
            firstWrongTypeAt = o.firstWrongTypeAt;
            firstWrongType = o.firstWrongType;
        }
        intCount += o.intCount;
        intSum += o.intSum;
        intMin = Math.min(intMin, o.intMin);
        intMax = Math.max(intMax, o.intMax);
    }

    public long samples() {
        return samples;
    }

    public long errorReplies() {
        return errorReplies;
    }

    public long wrongTypeReplies() {
        return wrongTypeReplies;
    }

    /** Replies that were errors or not of the expected type. */
    public long failures() {
        return errorReplies + wrongTypeReplies;
    }

    public String firstError() {
        return firstError;
    }

    public String firstWrongType() {
        return firstWrongType;
    }

    public Histogram histogram() {
        return histogram;
    }

    /** Count of samples whose latency fell in [ms, ms+1) milliseconds. */
    public long msCount(int ms) {
        return ms < msCounts.length ? msCounts[ms] : 0;
    }

    public int msBuckets() {
        return msCounts.length;
    }

    public long intCount() {
        return intCount;
    }

    public long intMin() {
        return intMin;
    }

    public long intMax() {
        return intMax;
    }

    public long intSum() {
        return intSum;
    }
}
