package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;

/**
 * The values an aggregate's DISTINCT has seen, for all groups at once: one hash set of
 * (group, value) pairs, primitive, rather than a set object per group.
 */
final class DistinctValues {
    private final KeyBuffer buf;
    private final KeyTable table;

    /** Integer values (COUNT(DISTINCT id), the common case): a primitive (group, value) set instead. */
    private final GroupLongSet pairs;

    DistinctValues(byte kind) {
        this.pairs = kind == Keys.LONG ? new GroupLongSet() : null;
        byte[] kinds = {Keys.LONG, kind};
        this.buf = new KeyBuffer(kinds);
        this.table = new KeyTable(new KeyStore(kinds));
    }

    boolean firstLong(int g, long v) {
        if (pairs != null) {
            // a value that fits in an int goes with its group into one long: one array, one cache
            // line per probe (a given value always takes the same path, so each pair is seen once)
            return v == (int) v ? packed.add(((long) (g + 1) << 32) | (v & 0xFFFFFFFFL)) : pairs.add(g, v);
        }
        buf.reset();
        buf.setLong(0, g);
        buf.setLong(1, v);
        table.findOrAdd(buf);
        return table.added;
    }

    private final PackedSet packed = new PackedSet();

    /** Open-addressing set of non-zero longs ((group + 1) << 32 | int value); 0 marks an empty slot. */
    private static final class PackedSet {
        private long[] slots = new long[64];
        private int mask = 63;
        private int size;

        boolean add(long e) {
            long[] sl = slots;
            int m = mask;
            int i = (int) it.unimi.dsi.fastutil.HashCommon.mix(e) & m;
            long x;
            while ((x = sl[i]) != 0) {
                if (x == e) {
                    return false;
                }
                i = (i + 1) & m;
            }
            sl[i] = e;
            if (++size * 2 > sl.length) {
                rehash();
            }
            return true;
        }

        private void rehash() {
            long[] fresh = new long[slots.length * 2];
            int m = fresh.length - 1;
            for (long x : slots) {
                if (x != 0) {
                    int i = (int) it.unimi.dsi.fastutil.HashCommon.mix(x) & m;
                    while (fresh[i] != 0) {
                        i = (i + 1) & m;
                    }
                    fresh[i] = x;
                }
            }
            slots = fresh;
            mask = m;
        }
    }

    /** Open-addressing set of (group, long) pairs in parallel arrays; linear probing. */
    private static final class GroupLongSet {
        private long[] vals = new long[64];
        /** group + 1 per slot, 0 empty. */
        private int[] groups = new int[64];
        private int mask = 63;
        private int size;

        private static int hash(int g, long v) {
            return it.unimi.dsi.fastutil.HashCommon.mix((int) (v ^ (v >>> 32)) * 0x9E3779B1 + g);
        }

        boolean add(int g, long v) {
            int[] gs = groups;
            long[] vs = vals;
            int m = mask;
            int i = hash(g, v) & m;
            int s;
            while ((s = gs[i]) != 0) {
                if (s == g + 1 && vs[i] == v) {
                    return false;
                }
                i = (i + 1) & m;
            }
            gs[i] = g + 1;
            vs[i] = v;
            if (++size * 2 > gs.length) {
                rehash();
            }
            return true;
        }

        private void rehash() {
            int n = groups.length * 2;
            int[] fg = new int[n];
            long[] fv = new long[n];
            int m = n - 1;
            for (int i = 0; i < groups.length; i++) {
                int s = groups[i];
                if (s == 0) {
                    continue;
                }
                int j = hash(s - 1, vals[i]) & m;
                while (fg[j] != 0) {
                    j = (j + 1) & m;
                }
                fg[j] = s;
                fv[j] = vals[i];
            }
            groups = fg;
            vals = fv;
            mask = m;
        }
    }

    boolean firstDouble(int g, double d) {
        buf.reset();
        buf.setLong(0, g);
        buf.setDouble(1, d);
        table.findOrAdd(buf);
        return table.added;
    }

    /** A NUMERIC value by value (1.0 = 1.00), as PostgreSQL's DISTINCT compares numerics (textfn). */
    boolean firstNumeric(int g, long u, int scale, java.math.BigDecimal big) {
        buf.reset();
        buf.setLong(0, g);
        buf.setNumeric(1, u, scale, big, false);
        table.findOrAdd(buf);
        return table.added;
    }

    boolean firstText(int g, byte[] b, int off, int len) {
        buf.reset();
        buf.setLong(0, g);
        buf.setText(1, b, off, len);
        table.findOrAdd(buf);
        return table.added;
    }
}
