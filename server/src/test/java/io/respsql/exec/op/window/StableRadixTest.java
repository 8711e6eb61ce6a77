package io.respsql.exec.op.window;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@link StableRadix} against a stable comparison sort: signed order, ties in payload order, any key width. */
class StableRadixTest {
    @Test
    void sortsLikeAStableComparisonSort() {
        Random rnd = new Random(11);
        for (int round = 0; round < 200; round++) {
            int n = round < 5 ? round : round < 60 ? rnd.nextInt(2 * StableRadix.SMALL) : 1 + rnd.nextInt(3000); // small: the insertion sort
            int shape = round % 5;
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = switch (shape) {
                    case 0 -> rnd.nextInt(7) - 3; // many ties, both signs
                    case 1 -> rnd.nextLong(); // all eight bytes
                    case 2 -> rnd.nextInt(1 << 20); // three bytes
                    case 3 -> rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                    default -> 42; // one key: no pass at all
                };
            }
            int[] payload = new int[n];
            for (int i = 0; i < n; i++) {
                payload[i] = n - 1 - i; // not the identity: ties must keep this order
            }
            Integer[] expected = new Integer[n];
            for (int i = 0; i < n; i++) {
                expected[i] = i;
            }
            long[] k0 = keys.clone();
            Arrays.sort(expected, Comparator.comparingLong(i -> k0[i])); // stable
            int[] wantPayload = new int[n];
            long[] wantKeys = new long[n];
            for (int i = 0; i < n; i++) {
                wantPayload[i] = payload[expected[i]];
                wantKeys[i] = keys[expected[i]];
            }
            long[] tk = new long[n];
            int[] tp = new int[n];
            int[] counts = new int[StableRadix.COUNTS];
            Arrays.fill(counts, round); // scratch from an earlier sort: any content
            boolean inTmp = round % 2 == 0 ? StableRadix.sort(keys, payload, n, tk, tp)
                    : StableRadix.sort(keys, payload, n, tk, tp, counts);
            assertArrayEquals(wantKeys, inTmp ? tk : keys, "round " + round);
            assertArrayEquals(wantPayload, inTmp ? tp : payload, "round " + round);
            if (shape == 4) {
                assertFalse(inTmp);
            }
        }
    }
}
