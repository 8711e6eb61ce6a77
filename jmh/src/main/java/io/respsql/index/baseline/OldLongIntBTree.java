package io.respsql.index.baseline;

import java.util.Arrays;

/**
 * BASELINE for benchmarks only: LongIntBTree as of commit e88f318 (before issue 13), renamed.
 *
 * <p>Original description:
 * An ordered set of (long key, int row) pairs held in an in-memory B+tree, ordered by key and then
 * by row (signed comparison for both).
 *
 * <p>It serves as the primary-key index (one row per key; the caller checks uniqueness with
 * {@link #firstRow} before inserting) and as a non-unique secondary index (many rows per key). Keys
 * arrive already mapped to order-preserving longs.
 *
 * <p>Memory: nodes are primitive arrays only, so an entry costs its 12 payload bytes plus a small
 * share of its leaf's and parents' fixed overhead. Leaf arrays are sized to their contents and grow
 * in small steps up to the leaf capacity, so partly filled leaves do not pay for empty slots; only
 * a leaf started at either end of the whole set by an ordered load is allocated at full capacity.
 *
 * <p>Not thread-safe. A cursor is only valid while the tree is not modified.
 */
public final class OldLongIntBTree {

    /**
     * Maximum entries per leaf. A leaf's fixed cost (object, two array headers, its parent slot)
     * is about 80 bytes, roughly 0.35 bytes per entry at this size. 128 measured up to 1.4
     * bytes/entry worse on the ascending-runs loads; 512 saves 0.15 to 0.45 but doubles the data
     * moved by every insert or delete inside a leaf and by every leaf growth step.
     */
    static final int DEFAULT_LEAF_CAPACITY = 256;
    /**
     * Maximum children per inner node. Inner nodes are under 1% of the memory; 128 keeps 10M
     * entries within three inner levels while an inner node's arrays stay a few kilobytes.
     */
    static final int DEFAULT_INNER_CAPACITY = 128;
    /**
     * Leaf arrays grow by this many slots, leaving about half a step unused per growing leaf.
     * Larger or proportional steps measured worse: when many keys grow in lockstep (a secondary
     * index fed in row order), their leaves' unused tails line up, up to 13.6 bytes/entry with
     * steps of 16 against 12.9 with 8. The price is copying a growing leaf every 8 inserts.
     */
    static final int LEAF_GROWTH_STEP = 8;

    // Heap footprint with compressed oops and class pointers (the default for heaps below 32 GB):
    // 12-byte object headers, 4-byte references, 16-byte array headers, 8-byte alignment.
    /** Leaf object: header 12 + keys, rows, size, prev, next (4 each). */
    static final long LEAF_OBJECT_BYTES = 32;
    /** Inner object: header 12 + keys, rows, size, children (4 each). */
    static final long INNER_OBJECT_BYTES = 32;

    /** Fields shared by both node kinds: sorted (key,row) pairs and how many are used. */
    abstract static class Node {
        long[] keys;
        int[] rows;
        int size;
    }

    /** Leaf: entries [0,size) of keys/rows, linked to its neighbours so cursors can walk the set. */
    static final class Leaf extends Node {
        Leaf prev;
        Leaf next;
    }

    /**
     * Inner node with children [0,size). keys/rows[i] for i >= 1 is the separator of child i: every
     * pair in child i is >= it, every pair in child i-1 is below it. Slot 0 has no separator, which
     * keeps child and separator indices aligned.
     */
    static final class Inner extends Node {
        Node[] children;
    }

    final int leafCapacity;
    final int innerCapacity;
    /** Capacity of a leaf that starts empty or with one entry and is not known to fill up. */
    private final int minLeafAlloc;
    /** Smallest leaf a split may produce; stops uneven splits from creating tiny leaves. */
    private final int minSplitPiece;

    Node root;
    /** Number of inner levels above the leaves; 0 when the root is a leaf. */
    int height;
    private long size;
    private long memoryBytes;

    // The inner nodes and child slots of the last descent, reused by insert and remove so that
    // neither needs parent pointers nor allocates.
    private Inner[] pathNodes = new Inner[8];
    private int[] pathSlots = new int[8];

    public OldLongIntBTree() {
        this(DEFAULT_LEAF_CAPACITY, DEFAULT_INNER_CAPACITY);
    }

    /** Custom node capacities; small ones give deep trees for tests. */
    OldLongIntBTree(int leafCapacity, int innerCapacity) {
        if (leafCapacity < 2 || innerCapacity < 3) {
            throw new IllegalArgumentException("capacities too small: " + leafCapacity + ", " + innerCapacity);
        }
        this.leafCapacity = leafCapacity;
        this.innerCapacity = innerCapacity;
        this.minLeafAlloc = Math.min(LEAF_GROWTH_STEP, leafCapacity);
        this.minSplitPiece = Math.max(1, leafCapacity / 16);
        clear();
    }

    // ------------------------------------------------------------------ public API

    /** Adds the pair; returns false if it was already present. */
    public boolean insert(long key, int row) {
        Leaf leaf = descendRecordingPath(key, row);
        final int n = leaf.size;
        final long[] ks = leaf.keys;
        final int[] rs = leaf.rows;
        int pos;
        if (n == 0 || less(ks[n - 1], rs[n - 1], key, row)) {
            pos = n; // appends are the common case for ordered loads: skip the search
        } else {
            pos = lowerBound(ks, rs, n, key, row);
            if (ks[pos] == key && rs[pos] == row) {
                return false;
            }
        }
        size++;
        if (n < ks.length) {
            System.arraycopy(ks, pos, ks, pos + 1, n - pos);
            System.arraycopy(rs, pos, rs, pos + 1, n - pos);
            ks[pos] = key;
            rs[pos] = row;
            leaf.size = n + 1;
        } else if (n < leafCapacity) {
            growLeaf(leaf, pos, key, row);
        } else {
            splitLeaf(leaf, pos, key, row);
        }
        return true;
    }

    /** Removes the pair; returns false if absent. */
    public boolean remove(long key, int row) {
        Leaf leaf = descendRecordingPath(key, row);
        final int n = leaf.size;
        final long[] ks = leaf.keys;
        final int[] rs = leaf.rows;
        int pos = lowerBound(ks, rs, n, key, row);
        if (pos == n || ks[pos] != key || rs[pos] != row) {
            return false;
        }
        System.arraycopy(ks, pos + 1, ks, pos, n - pos - 1);
        System.arraycopy(rs, pos + 1, rs, pos, n - pos - 1);
        leaf.size = n - 1;
        size--;
        if (n == 1 && height > 0) {
            removeEmptyLeaf(leaf);
        }
        return true;
    }

    /**
     * Smallest row stored under key, or -1 if the key is absent. O(log n). Rows are expected to be
     * non-negative; a stored row of -1 is indistinguishable from absence (use containsKey).
     */
    public int firstRow(long key) {
        Leaf leaf = descend(key, Integer.MIN_VALUE);
        int i = lowerBoundKey(leaf.keys, leaf.size, key);
        if (i == leaf.size) {
            // Every pair here is smaller; the answer, if any, opens the next leaf.
            leaf = leaf.next;
            if (leaf == null) {
                return -1;
            }
            i = 0;
        }
        return leaf.keys[i] == key ? leaf.rows[i] : -1;
    }

    public boolean containsKey(long key) {
        Leaf leaf = descend(key, Integer.MIN_VALUE);
        int i = lowerBoundKey(leaf.keys, leaf.size, key);
        if (i == leaf.size) {
            leaf = leaf.next;
            if (leaf == null) {
                return false;
            }
            i = 0;
        }
        return leaf.keys[i] == key;
    }

    public long size() {
        return size;
    }

    /** Estimated heap bytes of all nodes (arrays + object headers), for INFO/DESC. */
    public long memoryBytes() {
        return memoryBytes;
    }

    public void clear() {
        Leaf leaf = newLeaf(minLeafAlloc);
        root = leaf;
        height = 0;
        size = 0;
        memoryBytes = leafBytes(leaf);
        Arrays.fill(pathNodes, null);
    }

    /** Builds a tree from pairs already sorted by (key,row) and distinct, with full leaves. */
    public static OldLongIntBTree bulkLoad(long[] keys, int[] rows, int n) {
        return bulkLoad(keys, rows, n, DEFAULT_LEAF_CAPACITY, DEFAULT_INNER_CAPACITY);
    }

    static OldLongIntBTree bulkLoad(long[] keys, int[] rows, int n, int leafCapacity, int innerCapacity) {
        if (n < 0 || n > keys.length || n > rows.length) {
            throw new IllegalArgumentException("n=" + n + " out of range");
        }
        for (int i = 1; i < n; i++) {
            if (!less(keys[i - 1], rows[i - 1], keys[i], rows[i])) {
                throw new IllegalArgumentException("pairs not sorted and distinct at index " + i);
            }
        }
        OldLongIntBTree tree = new OldLongIntBTree(leafCapacity, innerCapacity);
        if (n == 0) {
            return tree;
        }
        long bytes = 0;

        // Leaves, all full except the last one.
        int count = (int) ((n + (long) leafCapacity - 1) / leafCapacity);
        Node[] level = new Node[count];
        Leaf prev = null;
        for (int i = 0; i < count; i++) {
            int from = i * leafCapacity;
            int len = Math.min(leafCapacity, n - from);
            Leaf leaf = tree.newLeaf(len == leafCapacity ? leafCapacity : tree.fittedLeafCapacity(len));
            System.arraycopy(keys, from, leaf.keys, 0, len);
            System.arraycopy(rows, from, leaf.rows, 0, len);
            leaf.size = len;
            leaf.prev = prev;
            if (prev != null) {
                prev.next = leaf;
            }
            prev = leaf;
            level[i] = leaf;
            bytes += leafBytes(leaf);
        }

        // Inner levels, each node full except the last of its level. The separator of a child is
        // its first pair, found by walking down its leftmost path.
        int height = 0;
        while (count > 1) {
            int parents = (count + innerCapacity - 1) / innerCapacity;
            Node[] up = new Node[parents];
            for (int p = 0; p < parents; p++) {
                Inner in = tree.newInner();
                int from = p * innerCapacity;
                int len = Math.min(innerCapacity, count - from);
                for (int c = 0; c < len; c++) {
                    Node child = level[from + c];
                    in.children[c] = child;
                    if (c > 0) {
                        Leaf first = leftmostLeaf(child);
                        in.keys[c] = first.keys[0];
                        in.rows[c] = first.rows[0];
                    }
                }
                in.size = len;
                up[p] = in;
                bytes += tree.innerBytes();
            }
            level = up;
            count = parents;
            height++;
        }
        tree.root = level[0];
        tree.height = height;
        tree.ensurePathCapacity();
        tree.size = n;
        tree.memoryBytes = bytes;
        return tree;
    }

    /** A new cursor; cursors are reusable (re-seek) so callers allocate one and keep it. */
    public Cursor cursor() {
        return new Cursor();
    }

    /**
     * A position in the set. Walks the leaf chain, so stepping is O(1) and never allocates. Must
     * be re-positioned after the tree is modified.
     */
    public final class Cursor {
        /** Current leaf, or null when not positioned on a pair. */
        private Leaf leaf;
        private int index;

        private Cursor() {
        }

        /** Positions at the first pair with key >= lo (row ignored). Returns valid(). */
        public boolean seek(long lo) {
            Leaf l = descend(lo, Integer.MIN_VALUE);
            int i = lowerBoundKey(l.keys, l.size, lo);
            if (i == l.size) {
                l = l.next;
                i = 0;
            }
            return moveTo(l, i);
        }

        /** Positions at the last pair with key <= hi. Returns valid(). */
        public boolean seekLast(long hi) {
            Leaf l = descend(hi, Integer.MAX_VALUE);
            int i = upperBoundKey(l.keys, l.size, hi) - 1;
            if (i < 0) {
                l = l.prev;
                i = l == null ? 0 : l.size - 1;
            }
            return moveTo(l, i);
        }

        /** Positions at the smallest pair. */
        public boolean first() {
            Node node = root;
            for (int d = height; d > 0; d--) {
                node = ((Inner) node).children[0];
            }
            return moveTo((Leaf) node, 0);
        }

        /** Positions at the largest pair. */
        public boolean last() {
            Node node = root;
            for (int d = height; d > 0; d--) {
                node = ((Inner) node).children[node.size - 1];
            }
            return moveTo((Leaf) node, node.size - 1);
        }

        public boolean valid() {
            return leaf != null;
        }

        public long key() {
            return leaf.keys[index];
        }

        public int row() {
            return leaf.rows[index];
        }

        /** Advances; returns valid(). */
        public boolean next() {
            if (leaf == null) {
                return false;
            }
            if (++index < leaf.size) {
                return true;
            }
            leaf = leaf.next;
            index = 0;
            return leaf != null;
        }

        /** Steps back; returns valid(). */
        public boolean prev() {
            if (leaf == null) {
                return false;
            }
            if (--index >= 0) {
                return true;
            }
            leaf = leaf.prev;
            if (leaf == null) {
                return false;
            }
            index = leaf.size - 1;
            return true;
        }

        private boolean moveTo(Leaf l, int i) {
            // Only an empty root leaf can have size 0; every other leaf holds at least one pair.
            if (l == null || l.size == 0) {
                leaf = null;
                return false;
            }
            leaf = l;
            index = i;
            return true;
        }
    }

    // ------------------------------------------------------------------ descent and search

    private Leaf descend(long key, int row) {
        Node node = root;
        for (int d = height; d > 0; d--) {
            Inner in = (Inner) node;
            node = in.children[childIndex(in, key, row)];
        }
        return (Leaf) node;
    }

    private Leaf descendRecordingPath(long key, int row) {
        Node node = root;
        for (int d = 0; d < height; d++) {
            Inner in = (Inner) node;
            int slot = childIndex(in, key, row);
            pathNodes[d] = in;
            pathSlots[d] = slot;
            node = in.children[slot];
        }
        return (Leaf) node;
    }

    /** The child whose range holds (key,row): the last one whose separator is <= it. */
    private static int childIndex(Inner in, long key, int row) {
        final long[] ks = in.keys;
        final int[] rs = in.rows;
        int hi = in.size;
        // Ordered loads always descend into the last child; check it before searching.
        if (hi > 1 && !less(key, row, ks[hi - 1], rs[hi - 1])) {
            return hi - 1;
        }
        int lo = 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (less(key, row, ks[mid], rs[mid])) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo - 1;
    }

    /** First index in [0,n) whose pair is >= (key,row), or n. */
    private static int lowerBound(long[] ks, int[] rs, int n, long key, int row) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (less(ks[mid], rs[mid], key, row)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First index in [0,n) whose key is >= key, or n. */
    private static int lowerBoundKey(long[] ks, int n, long key) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ks[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First index in [0,n) whose key is > key, or n. */
    private static int upperBoundKey(long[] ks, int n, long key) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ks[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static boolean less(long k1, int r1, long k2, int r2) {
        return k1 < k2 || (k1 == k2 && r1 < r2);
    }

    private static Leaf leftmostLeaf(Node node) {
        while (node instanceof Inner) {
            node = ((Inner) node).children[0];
        }
        return (Leaf) node;
    }

    // ------------------------------------------------------------------ insertion

    /** Inserts into a leaf whose arrays are full but below capacity, by moving to larger arrays. */
    private void growLeaf(Leaf leaf, int pos, long key, int row) {
        final int n = leaf.size;
        int cap = Math.min(leafCapacity, leaf.keys.length + LEAF_GROWTH_STEP);
        long[] nk = new long[cap];
        int[] nr = new int[cap];
        copyWithInsert(leaf.keys, leaf.rows, pos, key, row, 0, n + 1, nk, nr);
        memoryBytes += leafArrayBytes(cap) - leafArrayBytes(leaf.keys.length);
        leaf.keys = nk;
        leaf.rows = nr;
        leaf.size = n + 1;
    }

    /**
     * Splits a full leaf while inserting (key,row) at pos, then links the new right sibling into
     * the parent.
     */
    private void splitLeaf(Leaf leaf, int pos, long key, int row) {
        final int n = leaf.size;
        final long[] ks = leaf.keys;
        final int[] rs = leaf.rows;
        Leaf right = new Leaf();
        long sepKey;
        int sepRow;
        if (pos == n) {
            // Past the end: an ascending sequence (a primary key, or one key's rows arriving in
            // order). This leaf stays full and the sibling starts with the new pair alone. The
            // separator sits just above this leaf's last pair, so later pairs falling between the
            // two leaves (a descending sequence) also reach the sibling, which has room.
            // At the end of the whole set this is an ordered load that will fill the sibling, so
            // it gets full-size arrays at once. Elsewhere there may be many such append points
            // (one per key of a secondary index) and full-size arrays would sit half empty.
            allocate(right, leaf.next == null ? leafCapacity : minLeafAlloc);
            right.keys[0] = key;
            right.rows[0] = row;
            right.size = 1;
            if (rs[n - 1] != Integer.MAX_VALUE) {
                sepKey = ks[n - 1];
                sepRow = rs[n - 1] + 1;
            } else {
                sepKey = ks[n - 1] + 1; // cannot overflow: (key,row) is larger still
                sepRow = Integer.MIN_VALUE;
            }
        } else if (pos == 0) {
            // Before the start: a descending sequence. Mirror image of the case above: the full
            // arrays move unchanged to the sibling and this leaf restarts with the new pair.
            right.keys = ks;
            right.rows = rs;
            right.size = n;
            allocate(leaf, leaf.prev == null ? leafCapacity : minLeafAlloc);
            leaf.keys[0] = key;
            leaf.rows[0] = row;
            leaf.size = 1;
            sepKey = ks[0];
            sepRow = rs[0];
        } else {
            // Middle: cut at the key boundary closest to the middle. In a secondary index fed in
            // row order each key's rows are appended at the end of its run. Cutting between runs
            // puts that append point at a leaf's end, from where the key's later rows fill new
            // leaves completely (the case above); an even cut inside a long run would instead
            // leave a half-empty leaf behind on every split. With unique keys every position is a
            // boundary and this is an even split.
            int leftCount = chooseLeafSplit(ks, n, pos, key);
            int rightCount = n + 1 - leftCount;

            allocate(right, fittedLeafCapacity(rightCount));
            copyWithInsert(ks, rs, pos, key, row, leftCount, n + 1, right.keys, right.rows);
            right.size = rightCount;

            // Both halves may keep growing, so both get fitted arrays with a little room.
            int leftCap = fittedLeafCapacity(leftCount);
            if (leftCap < ks.length) {
                long[] nk = new long[leftCap];
                int[] nr = new int[leftCap];
                copyWithInsert(ks, rs, pos, key, row, 0, leftCount, nk, nr);
                memoryBytes += leafArrayBytes(leftCap) - leafArrayBytes(ks.length);
                leaf.keys = nk;
                leaf.rows = nr;
            } else if (pos < leftCount) {
                System.arraycopy(ks, pos, ks, pos + 1, leftCount - 1 - pos);
                System.arraycopy(rs, pos, rs, pos + 1, leftCount - 1 - pos);
                ks[pos] = key;
                rs[pos] = row;
            }
            leaf.size = leftCount;
            sepKey = right.keys[0];
            sepRow = right.rows[0];
        }
        memoryBytes += LEAF_OBJECT_BYTES;

        right.prev = leaf;
        right.next = leaf.next;
        if (leaf.next != null) {
            leaf.next.prev = right;
        }
        leaf.next = right;
        insertIntoParent(sepKey, sepRow, right);
    }

    /**
     * Number of entries the left half keeps when a full leaf of n entries splits while inserting
     * key at pos: the split point between two different keys closest to the middle, or the middle
     * if there is none. Both halves keep at least minSplitPiece entries; otherwise some insert
     * orders would split off a tiny leaf on every few inserts.
     */
    private int chooseLeafSplit(long[] ks, int n, int pos, long key) {
        final int mid = (n + 1) >>> 1;
        final int lo = minSplitPiece;
        final int hi = n + 1 - minSplitPiece;
        for (int d = 0; ; d++) {
            int below = mid - d;
            int above = mid + d;
            boolean inRange = false;
            if (below >= lo) {
                inRange = true;
                if (keyWithInsert(ks, pos, key, below - 1) != keyWithInsert(ks, pos, key, below)) {
                    return below;
                }
            }
            if (above <= hi) {
                inRange = true;
                if (keyWithInsert(ks, pos, key, above - 1) != keyWithInsert(ks, pos, key, above)) {
                    return above;
                }
            }
            if (!inRange) {
                return mid;
            }
        }
    }

    /** Key at position i of the sequence "ks with key inserted at pos". */
    private static long keyWithInsert(long[] ks, int pos, long key, int i) {
        return i < pos ? ks[i] : i == pos ? key : ks[i - 1];
    }

    /**
     * Copies positions [from,to) of the sequence "ks/rs with (key,row) inserted at pos" into the
     * start of dk/dr.
     */
    private static void copyWithInsert(long[] ks, int[] rs, int pos, long key, int row,
                                       int from, int to, long[] dk, int[] dr) {
        int d = 0;
        if (from < pos) {
            int len = Math.min(to, pos) - from;
            System.arraycopy(ks, from, dk, 0, len);
            System.arraycopy(rs, from, dr, 0, len);
            d = len;
        }
        if (from <= pos && pos < to) {
            dk[d] = key;
            dr[d] = row;
            d++;
        }
        int start = Math.max(from, pos + 1);
        if (start < to) {
            System.arraycopy(ks, start - 1, dk, d, to - start);
            System.arraycopy(rs, start - 1, dr, d, to - start);
        }
    }

    /**
     * Adds child `right` with separator (sepKey,sepRow) just after the child the last descent
     * went through, splitting full inner nodes up to the root.
     */
    private void insertIntoParent(long sepKey, int sepRow, Node right) {
        for (int d = height - 1; d >= 0; d--) {
            Inner parent = pathNodes[d];
            int at = pathSlots[d] + 1;
            int n = parent.size;
            if (n < innerCapacity) {
                System.arraycopy(parent.children, at, parent.children, at + 1, n - at);
                System.arraycopy(parent.keys, at, parent.keys, at + 1, n - at);
                System.arraycopy(parent.rows, at, parent.rows, at + 1, n - at);
                parent.children[at] = right;
                parent.keys[at] = sepKey;
                parent.rows[at] = sepRow;
                parent.size = n + 1;
                return;
            }
            Inner sibling = splitInner(parent, at, sepKey, sepRow, right);
            // splitInner leaves the separator to push up in the sibling's unused slot 0.
            sepKey = sibling.keys[0];
            sepRow = sibling.rows[0];
            right = sibling;
        }
        Inner newRoot = newInner();
        newRoot.children[0] = root;
        newRoot.children[1] = right;
        newRoot.keys[1] = sepKey;
        newRoot.rows[1] = sepRow;
        newRoot.size = 2;
        root = newRoot;
        height++;
        memoryBytes += innerBytes();
        ensurePathCapacity();
    }

    /**
     * Splits a full inner node while adding a child at slot `at`; returns the new right sibling,
     * whose slot 0 holds the separator for the grandparent. Inner nodes are few (about one per
     * hundred leaves), so this favours clarity over avoiding a temporary copy.
     */
    private Inner splitInner(Inner node, int at, long sepKey, int sepRow, Node child) {
        final int n = node.size;
        Inner right = newInner();
        memoryBytes += innerBytes();
        if (at == n) {
            // Appending: keep this node full, as for leaves, so ordered loads fill inner nodes.
            right.children[0] = child;
            right.keys[0] = sepKey;
            right.rows[0] = sepRow;
            right.size = 1;
            return right;
        }
        long[] tk = new long[n + 1];
        int[] tr = new int[n + 1];
        Node[] tc = new Node[n + 1];
        System.arraycopy(node.keys, 0, tk, 0, at);
        System.arraycopy(node.rows, 0, tr, 0, at);
        System.arraycopy(node.children, 0, tc, 0, at);
        tk[at] = sepKey;
        tr[at] = sepRow;
        tc[at] = child;
        System.arraycopy(node.keys, at, tk, at + 1, n - at);
        System.arraycopy(node.rows, at, tr, at + 1, n - at);
        System.arraycopy(node.children, at, tc, at + 1, n - at);

        int leftCount = (n + 1) >>> 1;
        int rightCount = n + 1 - leftCount;
        System.arraycopy(tk, 0, node.keys, 0, leftCount);
        System.arraycopy(tr, 0, node.rows, 0, leftCount);
        System.arraycopy(tc, 0, node.children, 0, leftCount);
        Arrays.fill(node.children, leftCount, n, null);
        node.size = leftCount;
        System.arraycopy(tk, leftCount, right.keys, 0, rightCount);
        System.arraycopy(tr, leftCount, right.rows, 0, rightCount);
        System.arraycopy(tc, leftCount, right.children, 0, rightCount);
        right.size = rightCount;
        return right;
    }

    // ------------------------------------------------------------------ removal

    /**
     * Unlinks an emptied non-root leaf from the chain and from its parent, removes inner nodes
     * left without children, and shortens the tree while the root has a single child. Leaves are
     * never merged: partly filled leaves cost little since their arrays were sized on split.
     */
    private void removeEmptyLeaf(Leaf leaf) {
        if (leaf.prev != null) {
            leaf.prev.next = leaf.next;
        }
        if (leaf.next != null) {
            leaf.next.prev = leaf.prev;
        }
        memoryBytes -= leafBytes(leaf);
        for (int d = height - 1; d >= 0; d--) {
            Inner parent = pathNodes[d];
            removeChild(parent, pathSlots[d]);
            if (parent.size > 0) {
                break;
            }
            memoryBytes -= innerBytes(); // the root keeps two or more children, so it never gets here
        }
        while (height > 0 && root.size == 1) {
            root = ((Inner) root).children[0];
            height--;
            memoryBytes -= innerBytes();
        }
    }

    private static void removeChild(Inner node, int slot) {
        final int n = node.size;
        System.arraycopy(node.children, slot + 1, node.children, slot, n - slot - 1);
        node.children[n - 1] = null;
        if (slot > 0) {
            System.arraycopy(node.keys, slot + 1, node.keys, slot, n - slot - 1);
            System.arraycopy(node.rows, slot + 1, node.rows, slot, n - slot - 1);
        } else if (n > 2) {
            // Child 1 becomes the first child and needs no separator: its lower bound is now
            // this node's own, which is weaker and therefore still correct.
            System.arraycopy(node.keys, 2, node.keys, 1, n - 2);
            System.arraycopy(node.rows, 2, node.rows, 1, n - 2);
        }
        node.size = n - 1;
    }

    // ------------------------------------------------------------------ allocation and accounting

    private Leaf newLeaf(int capacity) {
        Leaf leaf = new Leaf();
        leaf.keys = new long[capacity];
        leaf.rows = new int[capacity];
        return leaf;
    }

    /** Gives a leaf fresh arrays and counts them (the leaf object is counted by the caller). */
    private void allocate(Leaf leaf, int capacity) {
        leaf.keys = new long[capacity];
        leaf.rows = new int[capacity];
        memoryBytes += leafArrayBytes(capacity);
    }

    private Inner newInner() {
        Inner in = new Inner();
        in.keys = new long[innerCapacity];
        in.rows = new int[innerCapacity];
        in.children = new Node[innerCapacity];
        return in;
    }

    /** Capacity for a leaf created with `count` entries: a whole number of growth steps, with room for one more. */
    private int fittedLeafCapacity(int count) {
        int cap = (count / LEAF_GROWTH_STEP + 1) * LEAF_GROWTH_STEP;
        return Math.min(leafCapacity, cap);
    }

    private void ensurePathCapacity() {
        if (pathNodes.length < height) {
            int len = Math.max(height, pathNodes.length * 2);
            pathNodes = Arrays.copyOf(pathNodes, len);
            pathSlots = Arrays.copyOf(pathSlots, len);
        }
    }

    static long leafArrayBytes(int capacity) {
        return 16 + 8L * capacity + align8(16 + 4L * capacity);
    }

    static long leafBytes(Leaf leaf) {
        return LEAF_OBJECT_BYTES + leafArrayBytes(leaf.keys.length);
    }

    long innerBytes() {
        return INNER_OBJECT_BYTES + 16 + 8L * innerCapacity + 2 * align8(16 + 4L * innerCapacity);
    }

    private static long align8(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** Recomputes memoryBytes() by walking every node; for consistency checks. */
    long computeMemoryBytes() {
        return computeMemoryBytes(root, height);
    }

    private long computeMemoryBytes(Node node, int depth) {
        if (depth == 0) {
            return leafBytes((Leaf) node);
        }
        Inner in = (Inner) node;
        long sum = innerBytes();
        for (int i = 0; i < in.size; i++) {
            sum += computeMemoryBytes(in.children[i], depth - 1);
        }
        return sum;
    }
}
