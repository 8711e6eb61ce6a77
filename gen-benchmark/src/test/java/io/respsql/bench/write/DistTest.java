package io.respsql.bench.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class DistTest {

    @Test
    void nearestRankPercentiles() {
        long[] s = {50, 10, 40, 20, 30};
        assertEquals(10, Dist.percentile(s, 1));
        assertEquals(30, Dist.percentile(s, 50));
        assertEquals(40, Dist.percentile(s, 80));
        assertEquals(50, Dist.percentile(s, 81));
        assertEquals(50, Dist.percentile(s, 100));
        assertTrue(Double.isNaN(Dist.percentile(new long[0], 50)));
        assertEquals(50, s[0], "the samples are not sorted in place");
    }

    @Test
    void medianOfOddEvenAndEmpty() {
        assertEquals(3, Dist.median(new double[] {5, 1, 3}));
        assertEquals(2.5, Dist.median(new double[] {4, 1, 3, 2}));
        assertEquals(2, Dist.median(new double[] {Double.NaN, 1, 3}), "rounds with no sample are left out");
        assertTrue(Double.isNaN(Dist.median(new double[0])));
    }

    @Test
    void medianOfRoundsIsNotThePooledMedian() {
        // A fast round with many samples would dominate a pooled median; the median of the
        // rounds' p50s gives each round one vote.
        Histogram fast = round(100_000, 1000);
        Histogram slow1 = round(500_000, 10);
        Histogram slow2 = round(600_000, 10);
        List<Histogram> rounds = List.of(fast, slow1, slow2);
        assertEquals(500_000, Dist.medianOfRoundP50s(rounds), 500_000 * 0.001);
        Histogram pooled = Dist.pooled(rounds);
        assertEquals(1020, pooled.getTotalCount());
        assertEquals(100_000, pooled.getValueAtPercentile(50), 100);
        assertEquals(600_000, pooled.getValueAtPercentile(99.5), 600);
        assertEquals(1000, fast.getTotalCount(), "pooling leaves the rounds as they were");
    }

    @Test
    void emptyRoundsDoNotVote() {
        List<Histogram> rounds = List.of(round(200_000, 5), Dist.newHistogram(), round(400_000, 5));
        assertEquals(300_000, Dist.medianOfRoundP50s(rounds), 300);
    }

    @Test
    void formatting() {
        assertEquals("27.5", Dist.us(27_500));
        assertEquals("275", Dist.us(275_000));
        assertEquals("1,234,568", Dist.us(1_234_567_890));
        assertEquals("-", Dist.us(Double.NaN));
        assertEquals("0.50", Dist.ratio(1, 2));
        assertEquals("12", Dist.ratio(120, 10));
        assertEquals("-", Dist.ratio(1, 0));
        assertEquals("0.0033", Dist.ratio(57.3, 17328));
        assertEquals("0.10", Dist.ratio(1, 10));
    }

    private static Histogram round(long value, int count) {
        Histogram h = Dist.newHistogram();
        h.recordValueWithCount(value, count);
        return h;
    }
}
