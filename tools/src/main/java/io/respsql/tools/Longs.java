package io.respsql.tools;

import java.util.Arrays;

/** A growable long[]: one entry per statement, so no boxing per statement. */
final class Longs {
    private long[] a = new long[64];
    private int n;

    void add(long v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n++] = v;
    }

    long get(int i) {
        return a[i];
    }

    int size() {
        return n;
    }
}
