package io.respsql.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReportTest {

    private static Stats stats(long[][] msAndCount) {
        Stats s = new Stats();
        for (long[] mc : msAndCount) {
            for (long i = 0; i < mc[1]; i++) {
                s.record(mc[0] * 1_000_000 + 300_000, (byte) ':', 1, null, ReplyType.INT, 0);
            }
        }
        return s;
    }

    @Test
    void the2010LayoutExactly() {
        // The shape of the 2010 "MOD: 1000" run: 1000 requests, 4 populated buckets.
        Stats s = stats(new long[][] {{30, 52}, {31, 731}, {32, 215}, {33, 2}});
        Result r = new Result(1000, 31_180_000_000L, s, null);
        String expected = ""
                + "  1000 requests completed in 31.18 seconds\n"
                + "  1 parallel clients\n"
                + "\n"
                + "5.20% <= 30 milliseconds\n"
                + "78.30% <= 31 milliseconds\n"
                + "99.80% <= 32 milliseconds\n"
                + "100.00% <= 33 milliseconds\n"
                + "32.07 requests per second\n"
                + "\n"
                + "\n";
        assertEquals(expected, Report.classic(r, 1, false));
    }

    @Test
    void subMillisecondLatenciesFallInBucketZero() {
        Stats s = new Stats();
        s.record(999_999, (byte) '+', 0, null, ReplyType.OK, 0);
        s.record(1_000_000, (byte) '+', 0, null, ReplyType.OK, 0);
        s.record(1_999_999, (byte) '+', 0, null, ReplyType.OK, 0);
        s.record(12_000, (byte) '+', 0, null, ReplyType.OK, 0);
        String out = Report.classic(new Result(4, 1_000_000_000L, s, null), 50, false);
        assertTrue(out.contains("\n50.00% <= 0 milliseconds\n100.00% <= 1 milliseconds\n4.00 requests per second\n"), out);
        assertTrue(out.startsWith("  4 requests completed in 1.00 seconds\n  50 parallel clients\n\n"), out);
    }

    @Test
    void quietIsTheRateLineAndOneBlankLine() {
        Stats s = stats(new long[][] {{0, 7_326}});
        assertEquals("73260.00 requests per second\n\n",
                Report.classic(new Result(7_326, 100_000_000L, s, null), 200, true));
    }

    @Test
    void twoDecimalsLikeC() {
        assertEquals("0.12", Report.f2(0.125));  // exact tie: half-even, as glibc printf
        assertEquals("0.38", Report.f2(0.375));
        assertEquals("2711.86", Report.f2(2711.8600000001));
        assertEquals("100.00", Report.f2(100));
        assertEquals("0.00", Report.f2(0));
    }

    @Test
    void percentileBlockComesFromTheMicrosecondHistogram() {
        Stats s = new Stats();
        for (int i = 1; i <= 1000; i++) {
            s.record(i * 1_000L, (byte) '+', 0, null, ReplyType.OK, 0);
        }
        String out = Report.percentiles(new Result(1000, 1, s, null));
        assertTrue(out.startsWith("Latency in microseconds (1000 samples):\n"), out);
        assertTrue(out.contains("  min     1\n"), out);
        assertTrue(out.contains("  p50     500\n"), out);
        assertTrue(out.contains("  p90     900\n"), out);
        assertTrue(out.contains("  p99     990\n"), out);
        assertTrue(out.contains("  p99.9   999\n"), out);
        assertTrue(out.contains("  max     1000\n"), out);
    }

    @Test
    void problemsNameTheFirstError() {
        Stats s = new Stats();
        s.record(1000, (byte) ':', 1, null, ReplyType.INT, 1);
        s.record(1000, (byte) '-', 0, "-ERR first", ReplyType.INT, 2);
        s.record(1000, (byte) '-', 0, "-ERR second", ReplyType.INT, 3);
        s.record(1000, (byte) '+', 0, "+OK", ReplyType.INT, 4);
        Result r = new Result(4, 1, s, null);
        String p = Report.problems(r, ReplyType.INT);
        assertTrue(p.contains("2 of 4 replies were errors; first: -ERR first"), p);
        assertTrue(p.contains("1 of 4 replies were not of the expected type (INT, integer); first: status reply +OK"), p);
        assertEquals(3, s.failures());
        assertNull(Report.problems(new Result(1, 1, stats(new long[][] {{1, 1}}), null), ReplyType.INT));
    }
}
