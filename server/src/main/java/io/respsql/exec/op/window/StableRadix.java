package io.respsql.exec.op.window;

import java.util.Arrays;

/**
 * A stable LSD radix sort of (long key, int payload) pairs by the key's signed order: one pass
 * over the keys counts all eight byte digits, then one scatter pass per byte on which the keys
 * differ (keys that span a few bytes, as most ids, amounts and dates do, take two to four).
 * Stability is what the window sort needs: equal keys keep their payloads' current order, so
 * sorting by the last key first and the first key last orders by all of them.
 */
final class StableRadix {
    private StableRadix() {
    }

    /**
     * Sorts {@code keys[0..n)} and {@code payload[0..n)} together; {@code tmpKeys} and
     * {@code tmpPayload} hold at least {@code n} each. The result may end in either pair of
     * arrays: returns true when it is in the tmp ones.
     */
    static boolean sort(long[] keys, int[] payload, int n, long[] tmpKeys, int[] tmpPayload) {
        return sort(keys, payload, n, tmpKeys, tmpPayload, n < SMALL ? null : new int[COUNTS]);
    }

    /** Length of the digit-count scratch {@link #sort(long[], int[], int, long[], int[], int[])} takes. */
    static final int COUNTS = 8 * 256;
    /** Below this many pairs an insertion sort (in place, stable) beats clearing and walking the counts. */
    static final int SMALL = 24;

    /**
     * As {@link #sort(long[], int[], int, long[], int[])}, counting digits in {@code counts}
     * (at least {@link #COUNTS} ints, any content; unused below {@link #SMALL} pairs, may then be
     * null): a caller sorting many small batches allocates nothing.
     */
    static boolean sort(long[] keys, int[] payload, int n, long[] tmpKeys, int[] tmpPayload, int[] counts) {
        if (n < 2) {
            return false;
        }
        if (n < SMALL) {
            for (int i = 1; i < n; i++) {
                long k = keys[i];
                int p = payload[i];
                int j = i - 1;
                while (j >= 0 && keys[j] > k) { // strictly greater: equal keys keep their order
                    keys[j + 1] = keys[j];
                    payload[j + 1] = payload[j];
                    j--;
                }
                keys[j + 1] = k;
                payload[j + 1] = p;
            }
            return false;
        }
        Arrays.fill(counts, 0, COUNTS, 0);
        for (int i = 0; i < n; i++) {
            long k = keys[i] ^ Long.MIN_VALUE; // signed order as unsigned digits
            for (int d = 0; d < 8; d++) {
                counts[(d << 8) | (int) ((k >>> (d << 3)) & 0xFF)]++;
            }
        }
        long[] srcK = keys;
        int[] srcP = payload;
        long[] dstK = tmpKeys;
        int[] dstP = tmpPayload;
        boolean swapped = false;
        for (int d = 0; d < 8; d++) {
            int base = d << 8;
            int first = (int) (((srcK[0] ^ Long.MIN_VALUE) >>> (d << 3)) & 0xFF);
            if (counts[base + first] == n) {
                continue; // every key has this digit: the pass would move nothing
            }
            int sum = 0;
            for (int b = 0; b < 256; b++) {
                int c = counts[base + b];
                counts[base + b] = sum;
                sum += c;
            }
            int shift = d << 3;
            for (int i = 0; i < n; i++) {
                long k = srcK[i];
                int at = counts[base + (int) (((k ^ Long.MIN_VALUE) >>> shift) & 0xFF)]++;
                dstK[at] = k;
                dstP[at] = srcP[i];
            }
            long[] tk = srcK;
            srcK = dstK;
            dstK = tk;
            int[] tp = srcP;
            srcP = dstP;
            dstP = tp;
            swapped = !swapped;
        }
        return swapped;
    }
}
