package io.respsql.index;

import java.util.TreeSet;

/** Temporary stand-in with the B+tree's API (replaced by the real tree). */
public final class LongIntBTree {
    private record P(long k, int r) implements Comparable<P> {
        public int compareTo(P o) {
            int c = Long.compare(k, o.k);
            return c != 0 ? c : Integer.compare(r, o.r);
        }
    }

    private final TreeSet<P> set = new TreeSet<>();

    public boolean insert(long key, int row) { return set.add(new P(key, row)); }
    public boolean remove(long key, int row) { return set.remove(new P(key, row)); }
    public int firstRow(long key) {
        P p = set.ceiling(new P(key, Integer.MIN_VALUE));
        return p != null && p.k == key ? p.r : -1;
    }
    public boolean containsKey(long key) { return firstRow(key) >= 0; }
    public long size() { return set.size(); }
    public long memoryBytes() { return set.size() * 12L; }
    public void clear() { set.clear(); }
    public static LongIntBTree bulkLoad(long[] keys, int[] rows, int n) {
        LongIntBTree t = new LongIntBTree();
        for (int i = 0; i < n; i++) t.insert(keys[i], rows[i]);
        return t;
    }
    public Cursor cursor() { return new Cursor(); }

    public final class Cursor {
        private P cur;
        public boolean seek(long lo) { cur = set.ceiling(new P(lo, Integer.MIN_VALUE)); return valid(); }
        public boolean seekLast(long hi) { cur = set.floor(new P(hi, Integer.MAX_VALUE)); return valid(); }
        public boolean first() { cur = set.isEmpty() ? null : set.first(); return valid(); }
        public boolean last() { cur = set.isEmpty() ? null : set.last(); return valid(); }
        public boolean valid() { return cur != null; }
        public long key() { return cur.k; }
        public int row() { return cur.r; }
        public boolean next() { cur = set.higher(cur); return valid(); }
        public boolean prev() { cur = set.lower(cur); return valid(); }
    }
}
