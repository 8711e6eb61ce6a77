package io.respsql.expr;

import java.util.Arrays;

/** An open-addressing set of byte strings, probed with a slice of any array: no key object per probe. */
final class ByteSet {
    private byte[][] table;
    private int size;

    ByteSet(int expected) {
        int cap = 4;
        while (cap < expected * 2) {
            cap <<= 1;
        }
        table = new byte[cap][];
    }

    static int hash(byte[] a, int off, int len) {
        int h = 1;
        for (int i = off; i < off + len; i++) {
            h = 31 * h + a[i];
        }
        return h ^ (h >>> 16);
    }

    void add(byte[] key) {
        if (contains(key, 0, key.length)) {
            return;
        }
        if ((size + 1) * 2 > table.length) {
            byte[][] old = table;
            table = new byte[old.length * 2][];
            size = 0;
            for (byte[] k : old) {
                if (k != null) {
                    insert(k);
                }
            }
        }
        insert(key);
    }

    private void insert(byte[] key) {
        int mask = table.length - 1;
        int i = hash(key, 0, key.length) & mask;
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = key;
        size++;
    }

    boolean contains(byte[] a, int off, int len) {
        int mask = table.length - 1;
        int i = hash(a, off, len) & mask;
        byte[] k;
        while ((k = table[i]) != null) {
            if (k.length == len && Arrays.equals(k, 0, len, a, off, off + len)) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }
}
