package io.respsql.tools;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array a statement is built in, reused from one statement to the next. */
final class ByteBuf {
    byte[] a = new byte[1 << 16];
    int len;

    void put(int b) {
        if (len == a.length) {
            a = Arrays.copyOf(a, len * 2);
        }
        a[len++] = (byte) b;
    }

    void put(byte[] b, int from, int to) {
        int n = to - from;
        if (len + n > a.length) {
            a = Arrays.copyOf(a, Math.max(a.length * 2, len + n));
        }
        System.arraycopy(b, from, a, len, n);
        len += n;
    }

    void put(byte[] b) {
        put(b, 0, b.length);
    }

    void put(String ascii) {
        put(ascii.getBytes(StandardCharsets.UTF_8));
    }
}
