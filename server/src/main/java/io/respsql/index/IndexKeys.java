package io.respsql.index;

/**
 * Maps column values to the signed 64-bit keys the B+tree orders by.
 *
 * <p>Integers are their own key. Doubles use the IEEE-754 bit trick that makes signed long
 * order equal numeric order. Text uses its first 8 bytes (an order-preserving prefix): entries
 * that share a prefix are told apart by re-checking the predicate on the row, so a text index
 * narrows the search but never decides equality on its own.
 */
public final class IndexKeys {
    private IndexKeys() {
    }

    public static long ofDouble(double v) {
        if (v == 0) {
            v = 0.0; // -0.0 and 0.0 are equal in SQL, so they share a key
        }
        long bits = Double.doubleToLongBits(v);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** Order-preserving prefix key of UTF-8 bytes (unsigned byte order). */
    public static long ofTextPrefix(byte[] b, int off, int len) {
        long k = 0;
        for (int i = 0; i < 8; i++) {
            k <<= 8;
            if (i < len) {
                k |= b[off + i] & 0xFF;
            }
        }
        return k ^ Long.MIN_VALUE; // unsigned order in a signed compare
    }

    /**
     * Key of a whole text. Truncating to 8 bytes is monotone, so {@code a <= b} implies
     * {@code key(a) <= key(b)}: a range of keys from key(lo) to key(hi) covers every text in
     * [lo, hi], plus a few sharing their prefixes, which the predicate re-check removes.
     */
    public static long ofText(byte[] b) {
        return ofTextPrefix(b, 0, b.length);
    }
}
