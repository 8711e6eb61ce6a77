package io.respsql.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An ordered set of (long key, int row) pairs, ordered by key and then by row (signed comparison
 * for both).
 *
 * <p>It serves as the primary-key index (one row per key; the caller checks uniqueness with
 * {@link #firstRow} before inserting) and as a non-unique secondary index (many rows per key). Keys
 * arrive already mapped to order-preserving longs.
 *
 * <p>Two representations behind the same methods, chosen by the data (issue 13 measured both
 * against the plain (key,row) B+tree, which cost 12.3 bytes per entry):
 * <ul>
 * <li><b>Dense</b>: while every key is distinct and the keys fill at least about half of their
 * range (a primary key 1..N, the common case), the set is an array from key offset to row, in
 * pages of {@value #DEFAULT_PAGE_SHIFT}-bit size: 4 bytes per entry and a lookup of two loads. A
 * pair that does not fit (a second row for a key, a key far outside the range, a range grown too
 * sparse) turns the set into the tree once, in O(n); it does not turn back except through
 * {@link #clear()} or {@link #bulkLoad}.
 * <li><b>Tree</b>: a B+tree whose leaves store their keys run-length encoded: each distinct key of
 * a leaf once, with the end of its run of rows. A key that repeats (a secondary index on a foreign
 * key) costs its 4-byte row per entry; a leaf of distinct keys keeps no run ends at all, so unique
 * keys still cost 12 bytes as before.
 * </ul>
 *
 * <p>Not thread-safe. A cursor is only valid while the set is not modified.
 */
public final class LongIntBTree {

    /**
     * Maximum entries per leaf. 128 measured up to 1.4 bytes/entry worse on the ascending-runs
     * loads; 512 saves a little but doubles the data moved by every insert or delete in a leaf.
     */
    static final int DEFAULT_LEAF_CAPACITY = 256;
    /** Maximum children per inner node; 128 keeps 10M entries within three inner levels. */
    static final int DEFAULT_INNER_CAPACITY = 128;
    /**
     * Leaf arrays grow by this many slots. When many keys grow in lockstep (a secondary index fed
     * in row order) their leaves' unused tails line up, so small steps waste less.
     */
    static final int LEAF_GROWTH_STEP = 8;
    /** Dense pages hold 4096 slots (16 KB): small enough to free when emptied, few enough to index. */
    static final int DEFAULT_PAGE_SHIFT = 12;
    /** Dense slot value of an absent key. A row of this value makes the set a tree. */
    static final int EMPTY = Integer.MIN_VALUE;
    /** Dense slots stay below 2^30 so slot offsets are ints. */
    private static final int MAX_DENSE_SLOTS_SHIFT = 30;

    // Heap footprint with compressed oops and class pointers (the default for heaps below 32 GB):
    // 12-byte object headers, 4-byte references, 16-byte array headers, 8-byte alignment.
    /** Leaf object: header 12 + size, runs, keys, rows, ends, prev, next (4 each) = 40. */
    static final long LEAF_OBJECT_BYTES = 40;
    /** Inner object: header 12 + size, keys, rows, children (4 each) = 28, aligned to 32. */
    static final long INNER_OBJECT_BYTES = 32;

    abstract static class Node {
        int size;
    }

    /**
     * Leaf with entries [0,size): rows[i] is the row of entry i. Its keys are runs: keys[r] for r
     * in [0,runs) are the distinct keys, ascending, and run r covers entries [start(r), end(r)).
     * ends == null means every run is one entry (runs == size), so unique keys pay nothing for
     * the encoding; ends is dropped again whenever runs == size after a removal.
     */
    static final class Leaf extends Node {
        long[] keys;
        int[] rows;
        int[] ends;
        int runs;
        Leaf prev;
        Leaf next;

        int start(int r) {
            return r == 0 ? 0 : ends == null ? r : ends[r - 1];
        }

        int end(int r) {
            return ends == null ? r + 1 : ends[r];
        }

        /** Run holding entry i. */
        int runOf(int i) {
            if (ends == null) {
                return i;
            }
            int lo = 0;
            int hi = runs - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ends[mid] <= i) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        long keyAt(int i) {
            return keys[runOf(i)];
        }
    }

    /**
     * Inner node with children [0,size). keys/rows[i] for i >= 1 is the separator of child i: every
     * pair in child i is >= it, every pair in child i-1 is below it. Slot 0 has no separator.
     */
    static final class Inner extends Node {
        long[] keys;
        int[] rows;
        Node[] children;
    }

    final int leafCapacity;
    final int innerCapacity;
    private final int minLeafAlloc;
    private final int minSplitPiece;

    // ---- dense representation
    final boolean denseAllowed;
    final int pageShift;
    private final int pageSize;
    private final int pageMask;
    /** Slots below the first key when a dense set starts, for keys arriving a little out of order. */
    private final int denseHeadroom;
    /** Unused slots a dense set may hold beyond one per entry before it becomes a tree. */
    private final int denseSlack;
    /** Whether the set is currently dense. */
    boolean dense;
    /** Key of slot 0. */
    private long denseBase;
    /** Page p holds slots [p << pageShift, ...), its length a power of two up to pageSize; null if none used. */
    int[][] pages;
    /** Live entries per page. */
    private int[] pageLive;
    /** Pages [0, pageCount) of the directory are in range. */
    private int pageCount;
    /** Sum of page lengths. */
    private long allocatedSlots;

    // ---- tree representation
    Node root;
    int height;

    private long size;
    private long memoryBytes;

    private Inner[] pathNodes = new Inner[8];
    private int[] pathSlots = new int[8];

    public LongIntBTree() {
        this(DEFAULT_LEAF_CAPACITY, DEFAULT_INNER_CAPACITY, true, DEFAULT_PAGE_SHIFT);
    }

    /** Tree only (never dense), with custom node capacities; small ones give deep trees for tests. */
    LongIntBTree(int leafCapacity, int innerCapacity) {
        this(leafCapacity, innerCapacity, false, DEFAULT_PAGE_SHIFT);
    }

    /** Custom capacities and dense page size (small pages exercise page handling in tests). */
    LongIntBTree(int leafCapacity, int innerCapacity, boolean denseAllowed, int pageShift) {
        if (leafCapacity < 2 || innerCapacity < 3 || leafCapacity > 65536) {
            throw new IllegalArgumentException("capacities out of range: " + leafCapacity + ", " + innerCapacity);
        }
        if (pageShift < 2 || pageShift > 20) {
            throw new IllegalArgumentException("page shift out of range: " + pageShift);
        }
        this.leafCapacity = leafCapacity;
        this.innerCapacity = innerCapacity;
        this.minLeafAlloc = Math.min(LEAF_GROWTH_STEP, leafCapacity);
        this.minSplitPiece = Math.max(1, leafCapacity / 16);
        this.denseAllowed = denseAllowed;
        this.pageShift = pageShift;
        this.pageSize = 1 << pageShift;
        this.pageMask = pageSize - 1;
        this.denseHeadroom = pageSize / 64;
        this.denseSlack = Math.max(16, pageSize / 2);
        clear();
    }

    // ------------------------------------------------------------------ public API

    /** Adds the pair; returns false if it was already present. */
    public boolean insert(long key, int row) {
        if (dense) {
            int r = denseInsert(key, row);
            if (r >= 0) {
                return r == 1;
            }
            if (size < pageSize / 4 && relayout(key, row)) {
                return true;
            }
            toTree();
        }
        return treeInsert(key, row);
    }

    /** Removes the pair; returns false if absent. */
    public boolean remove(long key, int row) {
        return dense ? denseRemove(key, row) : treeRemove(key, row);
    }

    /**
     * Smallest row stored under key, or -1 if the key is absent. Rows are expected to be
     * non-negative; a stored row of -1 is indistinguishable from absence (use containsKey).
     */
    public int firstRow(long key) {
        if (dense) {
            int r = denseGet(key);
            return r == EMPTY ? -1 : r;
        }
        Leaf leaf = descend(key, Integer.MIN_VALUE);
        int r = lowerBoundKey(leaf.keys, leaf.runs, key);
        if (r == leaf.runs) {
            leaf = leaf.next;
            if (leaf == null) {
                return -1;
            }
            r = 0;
        }
        return leaf.keys[r] == key ? leaf.rows[leaf.start(r)] : -1;
    }

    public boolean containsKey(long key) {
        if (dense) {
            return denseGet(key) != EMPTY;
        }
        Leaf leaf = descend(key, Integer.MIN_VALUE);
        int r = lowerBoundKey(leaf.keys, leaf.runs, key);
        if (r == leaf.runs) {
            leaf = leaf.next;
            if (leaf == null) {
                return false;
            }
            r = 0;
        }
        return leaf.keys[r] == key;
    }

    public long size() {
        return size;
    }

    /** Estimated heap bytes of all nodes or pages (arrays + object headers), for INFO/DESC. */
    public long memoryBytes() {
        return memoryBytes;
    }

    public void clear() {
        size = 0;
        Arrays.fill(pathNodes, null);
        if (denseAllowed) {
            dense = true;
            root = null;
            height = 0;
            pages = new int[4][];
            pageLive = new int[4];
            pageCount = 0;
            allocatedSlots = 0;
            denseBase = 0;
            memoryBytes = directoryBytes();
        } else {
            setEmptyTree();
        }
    }

    private void setEmptyTree() {
        dense = false;
        pages = null;
        pageLive = null;
        pageCount = 0;
        allocatedSlots = 0;
        Leaf leaf = newLeaf(minLeafAlloc, minLeafAlloc);
        root = leaf;
        height = 0;
        memoryBytes = leafBytes(leaf);
    }

    /** Builds a set from pairs already sorted by (key,row) and distinct. */
    public static LongIntBTree bulkLoad(long[] keys, int[] rows, int n) {
        return bulkLoad(keys, rows, n, DEFAULT_LEAF_CAPACITY, DEFAULT_INNER_CAPACITY, true, DEFAULT_PAGE_SHIFT);
    }

    /** Tree-only bulk load with custom capacities (tests). */
    static LongIntBTree bulkLoad(long[] keys, int[] rows, int n, int leafCapacity, int innerCapacity) {
        return bulkLoad(keys, rows, n, leafCapacity, innerCapacity, false, DEFAULT_PAGE_SHIFT);
    }

    static LongIntBTree bulkLoad(long[] keys, int[] rows, int n, int leafCapacity, int innerCapacity,
                                 boolean denseAllowed, int pageShift) {
        if (n < 0 || n > keys.length || n > rows.length) {
            throw new IllegalArgumentException("n=" + n + " out of range");
        }
        boolean distinctKeys = true;
        boolean emptyRow = false;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                if (!less(keys[i - 1], rows[i - 1], keys[i], rows[i])) {
                    throw new IllegalArgumentException("pairs not sorted and distinct at index " + i);
                }
                distinctKeys &= keys[i - 1] != keys[i];
            }
            emptyRow |= rows[i] == EMPTY;
        }
        LongIntBTree tree = new LongIntBTree(leafCapacity, innerCapacity, denseAllowed, pageShift);
        if (n == 0) {
            return tree;
        }
        if (denseAllowed && distinctKeys && !emptyRow && tree.denseLoad(keys, rows, n)) {
            return tree;
        }
        tree.setEmptyTree();
        TreeBuilder b = tree.new TreeBuilder();
        for (int i = 0; i < n; i++) {
            b.add(keys[i], rows[i]);
        }
        b.finish();
        return tree;
    }

    /** A new cursor; cursors are reusable (re-seek) so callers allocate one and keep it. */
    public Cursor cursor() {
        return new Cursor();
    }

    /**
     * A position in the set. Stepping is O(1) amortized and never allocates. Must be
     * re-positioned after the set is modified. key() and row() are fields set by each move.
     */
    public final class Cursor {
        private static final int INVALID = 0;
        private static final int TREE = 1;
        private static final int DENSE = 2;

        private int state;
        private long key;
        private int row;
        // tree position
        private Leaf leaf;
        private int index;
        private int run;
        private int runStart;
        private int runEnd;
        // dense position: slot offset from denseBase, and its page
        private int slot;
        private int[] page;

        private Cursor() {
        }

        /**
         * How many pairs {@link #copyRun} would copy: from here to the end of the current key's
         * run in this leaf (1 in a dense layout, where keys are distinct). Only when valid().
         */
        public int runRemaining() {
            return state == TREE ? runEnd - index : 1;
        }

        /**
         * Copies the rows of the {@link #runRemaining()} pairs from here on (all with the current
         * key) into {@code dst[at..]}, and positions on the last of them, so {@link #next()} goes on
         * after it: a whole run of an index range at once instead of one step per row.
         */
        public int copyRun(int[] dst, int at) {
            if (state != TREE) {
                dst[at] = row;
                return 1;
            }
            int n = runEnd - index;
            System.arraycopy(leaf.rows, index, dst, at, n);
            index = runEnd - 1;
            row = leaf.rows[index];
            return n;
        }

        /**
         * Copies the rows of the pairs from here on whose key is at most {@code hi}, up to
         * {@code cap} of them, into {@code dst[0..)} and moves past them; returns how many (0: none
         * left in range). A range walked a batch at a time (UPDATE's increment over an index
         * range): a leaf's rows or a dense page's slots are copied in one loop, not a step per row.
         */
        public int fill(long hi, int[] dst, int cap) {
            int n = 0;
            while (n < cap && state != INVALID && key <= hi) {
                if (state == TREE) {
                    Leaf l = leaf;
                    // the rest of the leaf when its last key is in range, else the rest of this key's run
                    int end = l.keys[l.runs - 1] <= hi ? l.size : runEnd;
                    int take = Math.min(end - index, cap - n);
                    System.arraycopy(l.rows, index, dst, n, take);
                    n += take;
                    int last = index + take - 1;
                    if (last != index) {
                        treeMove(l, last);
                    }
                    next();
                    continue;
                }
                // dense: consecutive slots of this page hold consecutive keys
                int[] pg = page;
                int p = slot >>> pageShift;
                int i = slot & pageMask;
                long k = key;
                while (i < pg.length && n < cap && k <= hi) {
                    int r = pg[i];
                    if (r != EMPTY) {
                        dst[n++] = r;
                    }
                    i++;
                    k++;
                }
                denseForward(p, i); // the next live slot, maybe on a later page (its key may be above hi)
            }
            return n;
        }

        /** Positions at the first pair with key >= lo (row ignored). Returns valid(). */
        public boolean seek(long lo) {
            if (dense) {
                if (lo <= denseBase) {
                    return denseForward(0, 0);
                }
                long off = lo - denseBase;
                if (off < 0 || off >= ((long) pageCount << pageShift)) {
                    return invalidate();
                }
                return denseForward((int) (off >>> pageShift), (int) off & pageMask);
            }
            Leaf l = descend(lo, Integer.MIN_VALUE);
            int r = lowerBoundKey(l.keys, l.runs, lo);
            if (r == l.runs) {
                return treeMove(l.next, 0);
            }
            return treeMove(l, l.start(r));
        }

        /**
         * {@link #seek} for probes in ascending key order: the cursor is where the previous, smaller
         * probe stopped, so every pair before it has a key below {@code lo}. When lo falls inside
         * the current leaf only that leaf is searched, from the current run, with no descent from
         * the root: an IN list's sorted keys mostly share leaves (a merge walk of list and index).
         */
        public boolean seekAhead(long lo) {
            if (state == TREE && lo <= key && index == runStart) {
                // on the first pair above the previous probe's key, so also the first at or above lo
                return true;
            }
            if (state == TREE && lo > key) {
                Leaf l = leaf;
                int n = l.runs;
                if (lo <= l.keys[n - 1]) {
                    int a = run;
                    int b = n;
                    long[] ks = l.keys;
                    while (a < b) {
                        int mid = (a + b) >>> 1;
                        if (ks[mid] < lo) {
                            a = mid + 1;
                        } else {
                            b = mid;
                        }
                    }
                    return treeMove(l, l.start(a));
                }
            }
            return seek(lo);
        }

        /** Positions at the last pair with key <= hi. Returns valid(). */
        public boolean seekLast(long hi) {
            if (dense) {
                if (hi < denseBase) {
                    return invalidate();
                }
                long off = hi - denseBase;
                if (off < 0 || off >= ((long) pageCount << pageShift)) {
                    return last();
                }
                return denseBackward((int) (off >>> pageShift), (int) off & pageMask);
            }
            Leaf l = descend(hi, Integer.MAX_VALUE);
            int r = upperBoundKey(l.keys, l.runs, hi) - 1;
            if (r < 0) {
                Leaf p = l.prev;
                return p == null ? invalidate() : treeMove(p, p.size - 1);
            }
            return treeMove(l, l.end(r) - 1);
        }

        /** Positions at the smallest pair. */
        public boolean first() {
            if (dense) {
                return denseForward(0, 0);
            }
            Node node = root;
            for (int d = height; d > 0; d--) {
                node = ((Inner) node).children[0];
            }
            return treeMove((Leaf) node, 0);
        }

        /** Positions at the largest pair. */
        public boolean last() {
            if (dense) {
                return pageCount == 0 ? invalidate() : denseBackward(pageCount - 1, pageMask);
            }
            Node node = root;
            for (int d = height; d > 0; d--) {
                node = ((Inner) node).children[node.size - 1];
            }
            return treeMove((Leaf) node, node.size - 1);
        }

        public boolean valid() {
            return state != INVALID;
        }

        public long key() {
            return key;
        }

        public int row() {
            return row;
        }

        /** Advances; returns valid(). */
        public boolean next() {
            if (state == TREE) {
                final Leaf l = leaf;
                int i = ++index;
                if (i < l.size) {
                    if (i == runEnd) {
                        int r = ++run;
                        runStart = i;
                        runEnd = l.end(r);
                        key = l.keys[r];
                    }
                    row = l.rows[i];
                    return true;
                }
                return treeMove(l.next, 0);
            }
            if (state == DENSE) {
                int s = slot + 1;
                int i = s & pageMask;
                int[] pg = page;
                // Fast path: the next slot of the same page is live (a dense key range).
                if (i != 0 && i < pg.length) {
                    int r = pg[i];
                    if (r != EMPTY) {
                        slot = s;
                        key++;
                        row = r;
                        return true;
                    }
                }
                return denseForward(s >>> pageShift, i);
            }
            return false;
        }

        /** Steps back; returns valid(). */
        public boolean prev() {
            if (state == TREE) {
                final Leaf l = leaf;
                int i = --index;
                if (i >= 0) {
                    if (i < runStart) {
                        int r = --run;
                        runEnd = runStart;
                        runStart = l.start(r);
                        key = l.keys[r];
                    }
                    row = l.rows[i];
                    return true;
                }
                Leaf p = l.prev;
                return p == null ? invalidate() : treeMove(p, p.size - 1);
            }
            if (state == DENSE) {
                if (slot == 0) {
                    return invalidate();
                }
                int s = slot - 1;
                return denseBackward(s >>> pageShift, s & pageMask);
            }
            return false;
        }

        private boolean invalidate() {
            state = INVALID;
            leaf = null;
            page = null;
            return false;
        }

        private boolean treeMove(Leaf l, int i) {
            // Only an empty root leaf can have size 0; every other leaf holds at least one pair.
            if (l == null || l.size == 0) {
                return invalidate();
            }
            state = TREE;
            leaf = l;
            page = null;
            index = i;
            int r = l.runOf(i);
            run = r;
            runStart = l.start(r);
            runEnd = l.end(r);
            key = l.keys[r];
            row = l.rows[i];
            return true;
        }

        /** First live slot at or after slot s of page p. */
        private boolean denseForward(int p, int s) {
            final int[][] ps = pages;
            for (; p < pageCount; p++, s = 0) {
                int[] pg = ps[p];
                if (pg == null) {
                    continue;
                }
                for (; s < pg.length; s++) {
                    int r = pg[s];
                    if (r != EMPTY) {
                        return denseAt((p << pageShift) | s, r, pg);
                    }
                }
            }
            return invalidate();
        }

        /** Last live slot at or before slot s of page p. */
        private boolean denseBackward(int p, int s) {
            final int[][] ps = pages;
            for (; p >= 0; p--, s = pageMask) {
                int[] pg = ps[p];
                if (pg == null) {
                    continue;
                }
                for (s = Math.min(s, pg.length - 1); s >= 0; s--) {
                    int r = pg[s];
                    if (r != EMPTY) {
                        return denseAt((p << pageShift) | s, r, pg);
                    }
                }
            }
            return invalidate();
        }

        private boolean denseAt(int s, int r, int[] pg) {
            state = DENSE;
            leaf = null;
            page = pg;
            slot = s;
            key = denseBase + s;
            row = r;
            return true;
        }
    }

    // ------------------------------------------------------------------ dense representation

    /** Row at key, or EMPTY. */
    private int denseGet(long key) {
        if (key < denseBase) {
            return EMPTY;
        }
        long off = key - denseBase;
        if (off < 0 || off >= ((long) pageCount << pageShift)) {
            return EMPTY;
        }
        int[] pg = pages[(int) (off >>> pageShift)];
        int s = (int) off & pageMask;
        return pg == null || s >= pg.length ? EMPTY : pg[s];
    }

    /** 1: inserted, 0: already present, -1: does not fit the dense representation. */
    private int denseInsert(long key, int row) {
        if (row == EMPTY) {
            return -1;
        }
        if (size == 0 && pageCount == 0) {
            long base = key - denseHeadroom;
            denseBase = base > key ? Long.MIN_VALUE : base; // clamp at the bottom of the key space
        }
        long off;
        if (key >= denseBase) {
            off = key - denseBase;
            if (off < 0) {
                return -1; // key - base overflows: a range wider than the key space can index
            }
        } else {
            long back = denseBase - key;
            if (back < 0) {
                return -1;
            }
            long add = (back + pageSize - 1) >>> pageShift;
            long newBase = denseBase - (add << pageShift);
            if (add > 2 || newBase > denseBase || pageCount + add > (1L << (MAX_DENSE_SLOTS_SHIFT - pageShift))) {
                return -1;
            }
            prependPages((int) add);
            denseBase = newBase;
            off = key - denseBase;
        }
        long p = off >>> pageShift;
        if (p >= pageCount) {
            // Ascending loads reach the next page; a larger jump leaves a gap too sparse to keep.
            if (p > pageCount + 1 || p >= (1L << (MAX_DENSE_SLOTS_SHIFT - pageShift))) {
                return -1;
            }
            ensureDirectory((int) p + 1);
            pageCount = (int) p + 1;
        }
        int page = (int) p;
        int s = (int) off & pageMask;
        int[] pg = pages[page];
        if (pg == null || s >= pg.length) {
            int len = Math.min(pageSize, Math.max(16, Integer.highestOneBit(s) << 1));
            int old = pg == null ? 0 : pg.length;
            // Keep at most about one unused slot per entry (8 bytes per entry at worst).
            if (allocatedSlots + len - old > 2 * (size + 1) + denseSlack) {
                return -1;
            }
            int[] np = new int[len];
            if (old > 0) {
                System.arraycopy(pg, 0, np, 0, old);
            }
            Arrays.fill(np, old, len, EMPTY);
            memoryBytes += intArrayBytes(len) - (old == 0 ? 0 : intArrayBytes(old));
            allocatedSlots += len - old;
            pages[page] = np;
            pg = np;
        }
        int cur = pg[s];
        if (cur != EMPTY) {
            return cur == row ? 0 : -1;
        }
        pg[s] = row;
        pageLive[page]++;
        size++;
        return 1;
    }

    private boolean denseRemove(long key, int row) {
        if (row == EMPTY || key < denseBase) {
            return false;
        }
        long off = key - denseBase;
        if (off < 0 || off >= ((long) pageCount << pageShift)) {
            return false;
        }
        int page = (int) (off >>> pageShift);
        int s = (int) off & pageMask;
        int[] pg = pages[page];
        if (pg == null || s >= pg.length || pg[s] != row) {
            return false;
        }
        pg[s] = EMPTY;
        size--;
        if (--pageLive[page] == 0) {
            pages[page] = null;
            allocatedSlots -= pg.length;
            memoryBytes -= intArrayBytes(pg.length);
        }
        if (size == 0) {
            clear(); // a new first key may start the range anywhere
        } else if (allocatedSlots > 4 * size + 2L * denseSlack) {
            toTree(); // deletes left the pages too sparse (over 16 bytes per entry)
        }
        return true;
    }

    private void ensureDirectory(int count) {
        if (count > pages.length) {
            long before = directoryBytes();
            int len = Math.max(count, pages.length * 2);
            pages = Arrays.copyOf(pages, len);
            pageLive = Arrays.copyOf(pageLive, len);
            memoryBytes += directoryBytes() - before;
        }
    }

    private void prependPages(int add) {
        long before = directoryBytes();
        int len = Math.max(pageCount + add, pages.length);
        int[][] np = new int[len][];
        int[] nl = new int[len];
        System.arraycopy(pages, 0, np, add, pageCount);
        System.arraycopy(pageLive, 0, nl, add, pageCount);
        pages = np;
        pageLive = nl;
        pageCount += add;
        memoryBytes += directoryBytes() - before;
    }

    /** Loads distinct sorted keys densely if they are dense enough; false (nothing changed) if not. */
    private boolean denseLoad(long[] keys, int[] rows, int n) {
        long base = keys[0] - denseHeadroom;
        if (base > keys[0]) {
            base = Long.MIN_VALUE;
        }
        long span = keys[n - 1] - base + 1;
        if (span <= 0 || span > (1L << MAX_DENSE_SLOTS_SHIFT) || span > 2L * n + denseSlack) {
            return false;
        }
        int count = (int) ((span + pageSize - 1) >>> pageShift);
        denseBase = base;
        pages = new int[count][];
        pageLive = new int[count];
        pageCount = count;
        allocatedSlots = 0;
        for (int i = 0; i < n; i++) {
            long off = keys[i] - base;
            int p = (int) (off >>> pageShift);
            int s = (int) off & pageMask;
            int[] pg = pages[p];
            if (pg == null) {
                // Every page is full size but the last, which is sized to its highest slot.
                int len = p < count - 1 ? pageSize
                        : Math.min(pageSize, Math.max(16, Integer.highestOneBit((int) ((keys[n - 1] - base) & pageMask)) << 1));
                pg = new int[len];
                Arrays.fill(pg, EMPTY);
                pages[p] = pg;
                allocatedSlots += len;
            }
            pg[s] = rows[i];
            pageLive[p]++;
        }
        size = n;
        memoryBytes = computeDenseBytes();
        return true;
    }

    /**
     * A small dense set laid out again around its keys and the new one (a new base): the first
     * keys of a load arrive out of order when many clients insert at once, and the first key
     * seen need not be the lowest. False (nothing changed) when the keys are not dense or
     * distinct; then the caller makes the set a tree. O(size), and size is small here.
     */
    private boolean relayout(long key, int row) {
        if (row == EMPTY) {
            return false;
        }
        int n = (int) size;
        long[] ks = new long[n + 1];
        int[] rs = new int[n + 1];
        int i = 0;
        boolean placed = false;
        for (int p = 0; p < pageCount; p++) {
            int[] pg = pages[p];
            if (pg == null) {
                continue;
            }
            for (int s = 0; s < pg.length; s++) {
                if (pg[s] == EMPTY) {
                    continue;
                }
                long k = denseBase + (((long) p << pageShift) | s);
                if (!placed && key <= k) {
                    if (key == k) {
                        return false; // a second row for the key: not a dense set
                    }
                    ks[i] = key;
                    rs[i++] = row;
                    placed = true;
                }
                ks[i] = k;
                rs[i++] = pg[s];
            }
        }
        if (!placed) {
            ks[i] = key;
            rs[i] = row;
        }
        return denseLoad(ks, rs, n + 1);
    }

    /** Rebuilds the dense entries as a tree, in key order, with full leaves. */
    private void toTree() {
        int[][] ps = pages;
        int count = pageCount;
        long base = denseBase;
        long n = size;
        setEmptyTree();
        if (n == 0) {
            return;
        }
        TreeBuilder b = new TreeBuilder();
        for (int p = 0; p < count; p++) {
            int[] pg = ps[p];
            if (pg == null) {
                continue;
            }
            for (int s = 0; s < pg.length; s++) {
                if (pg[s] != EMPTY) {
                    b.add(base + (((long) p << pageShift) | s), pg[s]);
                }
            }
        }
        b.finish();
    }

    private long directoryBytes() {
        return align8(16 + 4L * pages.length) + intArrayBytes(pageLive.length);
    }

    private long computeDenseBytes() {
        long b = directoryBytes();
        for (int p = 0; p < pageCount; p++) {
            if (pages[p] != null) {
                b += intArrayBytes(pages[p].length);
            }
        }
        return b;
    }

    // ------------------------------------------------------------------ bulk building

    /** Appends pairs in ascending order into full leaves, then builds the inner levels. */
    private final class TreeBuilder {
        private final List<Node> leaves = new ArrayList<>();
        private Leaf cur;
        private long count;

        void add(long key, int row) {
            if (cur == null || cur.size == leafCapacity) {
                Leaf l = new Leaf();
                l.rows = new int[leafCapacity];
                l.keys = new long[leafCapacity];
                l.ends = new int[leafCapacity];
                if (cur != null) {
                    trim(cur);
                    cur.next = l;
                    l.prev = cur;
                }
                cur = l;
                leaves.add(l);
            }
            Leaf l = cur;
            int n = l.size;
            if (l.runs > 0 && l.keys[l.runs - 1] == key) {
                l.ends[l.runs - 1] = n + 1;
            } else {
                l.keys[l.runs] = key;
                l.ends[l.runs] = n + 1;
                l.runs++;
            }
            l.rows[n] = row;
            l.size = n + 1;
            count++;
        }

        /** Fits a finished leaf's arrays: rows full (or fitted for the last), keys to its runs. */
        private void trim(Leaf l) {
            if (l.size < l.rows.length) {
                l.rows = Arrays.copyOf(l.rows, fittedLeafCapacity(l.size));
            }
            if (l.runs == l.size) {
                l.ends = null;
                if (l.keys.length != l.runs && l.rows.length != l.size) {
                    l.keys = Arrays.copyOf(l.keys, l.rows.length); // last leaf, unique keys: room to grow
                } else if (l.keys.length != l.runs) {
                    l.keys = Arrays.copyOf(l.keys, l.runs);
                }
            } else {
                // A full leaf splits on its next insert anyway: its runs get exact arrays.
                int cap = l.size == leafCapacity ? l.runs : fittedRunCapacity(l.runs);
                l.keys = Arrays.copyOf(l.keys, cap);
                l.ends = Arrays.copyOf(l.ends, cap);
            }
        }

        void finish() {
            if (cur == null) {
                return;
            }
            trim(cur);
            long bytes = 0;
            for (Node leaf : leaves) {
                bytes += leafBytes((Leaf) leaf);
            }
            List<Node> level = leaves;
            int h = 0;
            while (level.size() > 1) {
                List<Node> up = new ArrayList<>((level.size() + innerCapacity - 1) / innerCapacity);
                for (int from = 0; from < level.size(); from += innerCapacity) {
                    Inner in = newInner();
                    int len = Math.min(innerCapacity, level.size() - from);
                    for (int c = 0; c < len; c++) {
                        Node child = level.get(from + c);
                        in.children[c] = child;
                        if (c > 0) {
                            Leaf first = leftmostLeaf(child);
                            in.keys[c] = first.keys[0];
                            in.rows[c] = first.rows[0];
                        }
                    }
                    in.size = len;
                    up.add(in);
                    bytes += innerBytes();
                }
                level = up;
                h++;
            }
            root = level.get(0);
            height = h;
            ensurePathCapacity();
            size = count;
            memoryBytes = bytes;
        }
    }

    // ------------------------------------------------------------------ tree: descent and search

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

    /** First index in [lo,hi) whose row is >= row, or hi. */
    private static int lowerBoundRow(int[] rs, int lo, int hi, int row) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (rs[mid] < row) {
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

    // ------------------------------------------------------------------ tree: insertion

    private boolean treeInsert(long key, int row) {
        Leaf leaf = descendRecordingPath(key, row);
        final int n = leaf.size;
        final int runs = leaf.runs;
        int r;
        int pos;
        boolean sameKey;
        if (n == 0) {
            r = 0;
            pos = 0;
            sameKey = false;
        } else {
            long lastKey = leaf.keys[runs - 1];
            if (key > lastKey || (key == lastKey && row > leaf.rows[n - 1])) {
                // Appends are the common case for ordered loads: skip the search.
                pos = n;
                sameKey = key == lastKey;
                r = sameKey ? runs - 1 : runs;
            } else {
                r = lowerBoundKey(leaf.keys, runs, key);
                sameKey = r < runs && leaf.keys[r] == key;
                if (sameKey) {
                    int e = leaf.end(r);
                    pos = lowerBoundRow(leaf.rows, leaf.start(r), e, row);
                    if (pos < e && leaf.rows[pos] == row) {
                        return false;
                    }
                } else {
                    pos = leaf.start(r);
                }
            }
        }
        size++;
        if (n < leafCapacity) {
            leafInsertAt(leaf, r, sameKey, pos, key, row);
        } else {
            splitLeaf(leaf, pos, key, row);
        }
        return true;
    }

    /** Inserts (key,row) at entry pos of a leaf below capacity: into run r, or as a new run at r. */
    private void leafInsertAt(Leaf leaf, int r, boolean sameKey, int pos, long key, int row) {
        final int n = leaf.size;
        final int runs = leaf.runs;
        if (n == leaf.rows.length) {
            int cap = Math.min(leafCapacity, n + LEAF_GROWTH_STEP);
            memoryBytes += intArrayBytes(cap) - intArrayBytes(n);
            leaf.rows = Arrays.copyOf(leaf.rows, cap);
        }
        int[] rs = leaf.rows;
        System.arraycopy(rs, pos, rs, pos + 1, n - pos);
        rs[pos] = row;
        leaf.size = n + 1;
        if (sameKey) {
            if (leaf.ends == null) {
                // First repeated key of the leaf: runs so far are one entry each.
                int[] e = new int[leaf.keys.length];
                for (int j = 0; j < runs; j++) {
                    e[j] = j + 1;
                }
                leaf.ends = e;
                memoryBytes += intArrayBytes(e.length);
            }
            int[] e = leaf.ends;
            for (int j = r; j < runs; j++) {
                e[j]++;
            }
            return;
        }
        if (runs == leaf.keys.length) {
            int cap = Math.min(leafCapacity, runs + LEAF_GROWTH_STEP);
            memoryBytes += longArrayBytes(cap) - longArrayBytes(runs);
            leaf.keys = Arrays.copyOf(leaf.keys, cap);
            if (leaf.ends != null) {
                memoryBytes += intArrayBytes(cap) - intArrayBytes(leaf.ends.length);
                leaf.ends = Arrays.copyOf(leaf.ends, cap);
            }
        }
        long[] ks = leaf.keys;
        System.arraycopy(ks, r, ks, r + 1, runs - r);
        ks[r] = key;
        int[] e = leaf.ends;
        if (e != null) {
            System.arraycopy(e, r, e, r + 1, runs - r);
            e[r] = pos + 1;
            for (int j = r + 1; j <= runs; j++) {
                e[j]++;
            }
        }
        leaf.runs = runs + 1;
    }

    /** Inserts into a leaf below capacity, finding the place (used after a split). */
    private void leafInsert(Leaf leaf, long key, int row) {
        int r = lowerBoundKey(leaf.keys, leaf.runs, key);
        boolean sameKey = r < leaf.runs && leaf.keys[r] == key;
        int pos = sameKey ? lowerBoundRow(leaf.rows, leaf.start(r), leaf.end(r), row) : leaf.start(r);
        leafInsertAt(leaf, r, sameKey, pos, key, row);
    }

    /**
     * Splits a full leaf while inserting (key,row) at entry pos, then links the new right sibling
     * into the parent.
     */
    private void splitLeaf(Leaf leaf, int pos, long key, int row) {
        final int n = leaf.size;
        memoryBytes -= leafBytes(leaf);
        Leaf right;
        long sepKey;
        int sepRow;
        if (pos == n) {
            // Past the end: an ascending sequence (a primary key, or one key's rows arriving in
            // order). This leaf stays full and the sibling starts with the new pair alone. The
            // separator sits just above this leaf's last pair, so later pairs falling between the
            // two leaves also reach the sibling, which has room. At the end of the whole set this
            // is an ordered load that will fill the sibling, so it gets full-size arrays at once
            // (keys too if they are distinct); elsewhere (one append point per key of a secondary
            // index) full-size arrays would sit half empty.
            long lastKey = leaf.keys[leaf.runs - 1];
            int lastRow = leaf.rows[n - 1];
            boolean atEnd = leaf.next == null;
            right = newLeaf(atEnd ? leafCapacity : minLeafAlloc,
                    atEnd && leaf.ends == null ? leafCapacity : minLeafAlloc);
            right.keys[0] = key;
            right.rows[0] = row;
            right.size = 1;
            right.runs = 1;
            if (lastRow != Integer.MAX_VALUE) {
                sepKey = lastKey;
                sepRow = lastRow + 1;
            } else {
                sepKey = lastKey + 1; // cannot overflow: (key,row) is larger still
                sepRow = Integer.MIN_VALUE;
            }
        } else if (pos == 0) {
            // Before the start: a descending sequence. The full arrays move unchanged to the
            // sibling and this leaf restarts with the new pair.
            right = new Leaf();
            right.keys = leaf.keys;
            right.rows = leaf.rows;
            right.ends = leaf.ends;
            right.runs = leaf.runs;
            right.size = n;
            boolean atStart = leaf.prev == null;
            leaf.rows = new int[atStart ? leafCapacity : minLeafAlloc];
            leaf.keys = new long[atStart && right.ends == null ? leafCapacity : minLeafAlloc];
            leaf.ends = null;
            leaf.keys[0] = key;
            leaf.rows[0] = row;
            leaf.size = 1;
            leaf.runs = 1;
            sepKey = right.keys[0];
            sepRow = right.rows[0];
        } else {
            // Middle: cut at the run boundary closest to the middle. In a secondary index fed in
            // row order each key's rows are appended at the end of its run; cutting between runs
            // puts that append point at a leaf's end, from where the key's later rows fill new
            // leaves completely (the case above). With unique keys this is an even split.
            int cut = chooseLeafSplit(leaf);
            right = slice(leaf, cut, n);
            Leaf left = slice(leaf, 0, cut);
            leaf.keys = left.keys;
            leaf.rows = left.rows;
            leaf.ends = left.ends;
            leaf.runs = left.runs;
            leaf.size = left.size;
            sepKey = right.keys[0];
            sepRow = right.rows[0];
        }
        memoryBytes += leafBytes(leaf) + leafBytes(right);
        if (pos != n && pos != 0) {
            // Both halves have room; leafInsert accounts for any array it adds.
            leafInsert(less(key, row, sepKey, sepRow) ? leaf : right, key, row);
        }

        right.prev = leaf;
        right.next = leaf.next;
        if (leaf.next != null) {
            leaf.next.prev = right;
        }
        leaf.next = right;
        insertIntoParent(sepKey, sepRow, right);
    }

    /**
     * Entries the left half keeps when a full leaf splits: the run boundary closest to the middle
     * leaving both halves at least minSplitPiece entries, or the middle if there is none.
     */
    private int chooseLeafSplit(Leaf l) {
        final int n = l.size;
        final int mid = n >>> 1;
        if (l.ends == null) {
            return mid;
        }
        final int lo = minSplitPiece;
        final int hi = n - minSplitPiece;
        // Boundaries are ends[0..runs-2]; find the first at or above mid.
        int a = 0;
        int b = l.runs - 1;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (l.ends[m] < mid) {
                a = m + 1;
            } else {
                b = m;
            }
        }
        int best = -1;
        if (a < l.runs - 1 && l.ends[a] <= hi) {
            best = l.ends[a];
        }
        if (a > 0 && l.ends[a - 1] >= lo && (best < 0 || mid - l.ends[a - 1] < best - mid)) {
            best = l.ends[a - 1];
        }
        return best < 0 ? mid : best;
    }

    /** A new leaf holding entries [from,to) of src, arrays fitted with a little room. */
    private Leaf slice(Leaf src, int from, int to) {
        int count = to - from;
        int r0 = src.runOf(from);
        int r1 = src.runOf(to - 1);
        int nr = r1 - r0 + 1;
        Leaf l = new Leaf();
        l.rows = new int[fittedLeafCapacity(count)];
        System.arraycopy(src.rows, from, l.rows, 0, count);
        l.size = count;
        l.keys = new long[nr == count ? l.rows.length : fittedRunCapacity(nr)];
        System.arraycopy(src.keys, r0, l.keys, 0, nr);
        l.runs = nr;
        if (nr != count) {
            int[] e = new int[l.keys.length];
            for (int j = 0; j < nr; j++) {
                e[j] = Math.min(src.ends[r0 + j], to) - from;
            }
            l.ends = e;
        }
        return l;
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
     * whose slot 0 holds the separator for the grandparent.
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

    // ------------------------------------------------------------------ tree: removal

    private boolean treeRemove(long key, int row) {
        Leaf leaf = descendRecordingPath(key, row);
        final int runs = leaf.runs;
        int r = lowerBoundKey(leaf.keys, runs, key);
        if (r == runs || leaf.keys[r] != key) {
            return false;
        }
        int s = leaf.start(r);
        int e = leaf.end(r);
        int pos = lowerBoundRow(leaf.rows, s, e, row);
        if (pos == e || leaf.rows[pos] != row) {
            return false;
        }
        final int n = leaf.size;
        int[] rs = leaf.rows;
        System.arraycopy(rs, pos + 1, rs, pos, n - pos - 1);
        leaf.size = n - 1;
        int[] ends = leaf.ends;
        if (e - s == 1) {
            // The run goes with its only entry.
            long[] ks = leaf.keys;
            System.arraycopy(ks, r + 1, ks, r, runs - r - 1);
            if (ends != null) {
                System.arraycopy(ends, r + 1, ends, r, runs - r - 1);
                for (int j = r; j < runs - 1; j++) {
                    ends[j]--;
                }
            }
            leaf.runs = runs - 1;
        } else {
            for (int j = r; j < runs; j++) {
                ends[j]--;
            }
        }
        if (ends != null && leaf.runs == leaf.size) {
            memoryBytes -= intArrayBytes(ends.length);
            leaf.ends = null; // every run is one entry again
        }
        size--;
        if (leaf.size == 0 && height > 0) {
            removeEmptyLeaf(leaf);
        }
        return true;
    }

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

    private static Leaf newLeaf(int rowCapacity, int keyCapacity) {
        Leaf leaf = new Leaf();
        leaf.rows = new int[rowCapacity];
        leaf.keys = new long[keyCapacity];
        return leaf;
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

    private int fittedRunCapacity(int runs) {
        return fittedLeafCapacity(runs);
    }

    private void ensurePathCapacity() {
        if (pathNodes.length < height) {
            int len = Math.max(height, pathNodes.length * 2);
            pathNodes = Arrays.copyOf(pathNodes, len);
            pathSlots = Arrays.copyOf(pathSlots, len);
        }
    }

    static long intArrayBytes(int length) {
        return align8(16 + 4L * length);
    }

    static long longArrayBytes(int length) {
        return 16 + 8L * length;
    }

    static long leafBytes(Leaf leaf) {
        return LEAF_OBJECT_BYTES + intArrayBytes(leaf.rows.length) + longArrayBytes(leaf.keys.length)
                + (leaf.ends == null ? 0 : intArrayBytes(leaf.ends.length));
    }

    long innerBytes() {
        return INNER_OBJECT_BYTES + longArrayBytes(innerCapacity) + 2 * intArrayBytes(innerCapacity);
    }

    private static long align8(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** Recomputes memoryBytes() by walking every node or page; for consistency checks. */
    long computeMemoryBytes() {
        return dense ? computeDenseBytes() : computeMemoryBytes(root, height);
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
