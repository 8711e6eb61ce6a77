package io.respsql.bench.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ExpectedTest {

    @Test
    void seriesMatchBruteForce() {
        for (long n = 0; n <= 1234; n++) {
            long sum = 0;
            for (long id = 1; id <= n; id++) {
                sum += id;
            }
            assertEquals(sum, Expected.sum1ToN(n), "sum1ToN(" + n + ")");
        }
        assertEquals(5050 - 55, Expected.sumRange(11, 100));
        assertEquals(0, Expected.sumRange(5, 4));
    }

    @Test
    void groupCountsSumsAndLastIdsMatchBruteForce() {
        for (long mod : new long[] {1, 3, 100}) {
            for (long n = 0; n <= 420; n++) {
                for (long k = 0; k < mod; k++) {
                    long count = 0;
                    long sum = 0;
                    long last = 0;
                    for (long id = 1; id <= n; id++) {
                        if (id % mod == k) {
                            count++;
                            sum += id;
                            last = id;
                        }
                    }
                    String at = "n=" + n + " mod=" + mod + " k=" + k;
                    assertEquals(count, Expected.countModEq(n, mod, k), "count " + at);
                    assertEquals(sum, Expected.sumModEq(n, mod, k), "sum " + at);
                    assertEquals(last, Expected.lastModEq(n, mod, k), "last " + at);
                }
            }
        }
        assertEquals(0, Expected.countModEq(1000, 100, 100), "grp never reaches the modulus");
    }

    @Test
    void fiveMillionRowsAreExact() {
        // 5,000,000 * 5,000,001 / 2, beyond 2^53 once multiplied out by a double-based sum.
        assertEquals(12_500_002_500_000L, Expected.sum1ToN(5_000_000));
        assertEquals(50_000, Expected.countModEq(5_000_000, 100, 5));
        assertEquals(4_999_905, Expected.lastModEq(5_000_000, 100, 5));
        long[] s = SizeSweep.expectedSums(5_000_000);
        assertArrayEquals(new long[] {12_500_002_500_000L, 12_500_002_500_001L,
            12_500_002_500_001L + 50_000_000L, 12_500_002_500_001L + 50_000_000L + 35_000_000L}, s);
    }

    @Test
    void overflowIsAnErrorNotAWrap() {
        assertThrows(ArithmeticException.class, () -> Expected.sum1ToN(Long.MAX_VALUE / 2));
    }

    @Test
    void sectionOneSumsFollowTheStatementsAppliedToAModel() {
        for (int n : new int[] {1, 4, 5, 6, 99, 105, 1000, 2345}) {
            long[] v = new long[n + 1];
            long sum = 0;
            for (int id = 1; id <= n; id++) {
                v[id] = id;
                sum += id;
            }
            long[] want = new long[4];
            want[0] = sum;
            v[1] += 1; // U1
            want[1] = total(v);
            for (int id = 1; id <= n; id++) { // U2
                if (id % 100 == 5) {
                    v[id] += 1000;
                }
            }
            want[2] = total(v);
            for (int id = 1; id <= n; id++) { // U3
                v[id] += 7;
            }
            want[3] = total(v);
            assertArrayEquals(want, SizeSweep.expectedSums(n), "n=" + n);
        }
    }

    private static long total(long[] v) {
        long s = 0;
        for (long x : v) {
            s += x;
        }
        return s;
    }
}
