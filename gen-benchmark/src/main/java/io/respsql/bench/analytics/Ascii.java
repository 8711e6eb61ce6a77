package io.respsql.bench.analytics;

import java.util.Arrays;

/** A growable byte buffer for ASCII text: statements and COPY data are built here without per-value allocation. */
final class Ascii {
    byte[] b;
    int n;

    Ascii(int capacity) {
        b = new byte[capacity];
    }

    void reset() {
        n = 0;
    }

    private void room(int k) {
        if (n + k > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, n + k));
        }
    }

    Ascii ch(char c) {
        room(1);
        b[n++] = (byte) c;
        return this;
    }

    Ascii str(String s) {
        int len = s.length();
        room(len);
        for (int i = 0; i < len; i++) {
            b[n++] = (byte) s.charAt(i);
        }
        return this;
    }

    Ascii num(long v) {
        if (v == Long.MIN_VALUE) {
            return str(Long.toString(v));
        }
        room(20);
        if (v < 0) {
            b[n++] = '-';
            v = -v;
        }
        int start = n;
        do {
            b[n++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        for (int i = start, j = n - 1; i < j; i++, j--) {
            byte t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
        return this;
    }

    private final StringBuilder tsb = new StringBuilder(19);

    /** {@code yyyy-mm-dd hh:mm:ss}. */
    Ascii ts(long epochSecond) {
        tsb.setLength(0);
        EcomGen.appendTimestamp(tsb, epochSecond);
        room(19);
        for (int i = 0; i < tsb.length(); i++) {
            b[n++] = (byte) tsb.charAt(i);
        }
        return this;
    }

    /** user<id>@mail<id % 20>.example, as {@link EcomGen#email}. */
    Ascii email(int id) {
        return str("user").num(id).str("@mail").num(id % 20).str(".example");
    }

    /** Product <id> <category>, as {@link EcomGen#productName}. */
    Ascii productName(int id) {
        return str("Product ").num(id).ch(' ').str(EcomGen.CATEGORIES[id % EcomGen.CATEGORIES.length]);
    }
}
