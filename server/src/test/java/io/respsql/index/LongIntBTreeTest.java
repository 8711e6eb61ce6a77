package io.respsql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LongIntBTreeTest {

    /** Reference model: the same ordered set as plain objects. */
    record Pair(long key, int row) implements Comparable<Pair> {
        @Override
        public int compareTo(Pair o) {
            int c = Long.compare(key, o.key);
            return c != 0 ? c : Integer.compare(row, o.row);
        }
    }

    private static final long[] SPECIAL_KEYS = {
        Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE
    };
    // -1 is left out: firstRow uses it to report a missing key.
    private static final int[] SPECIAL_ROWS = {
        Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -2, 0, Integer.MAX_VALUE - 1, Integer.MAX_VALUE
    };

    // ------------------------------------------------------------------ randomized differential

    @ParameterizedTest(name = "leaf={0} inner={1} seed={2}")
    @CsvSource({
        "2, 3, 11",
        "4, 3, 12",
        "8, 4, 13",
        "16, 5, 14",
        "64, 8, 15",
        "256, 128, 16",
    })
    void randomOperationsMatchTreeSet(int leafCap, int innerCap, long seed) {
        LongIntBTree tree = new LongIntBTree(leafCap, innerCap);
        TreeSet<Pair> ref = new TreeSet<>();
        SplittableRandom rnd = new SplittableRandom(seed);
        LongIntBTree.Cursor cursor = tree.cursor();
        final int ops = 300_000;
        boolean growing = true;
        for (int op = 0; op < ops; op++) {
            final int opNo = op;
            Supplier<String> ctx = () -> "seed=" + seed + " leaf=" + leafCap + " inner=" + innerCap + " op=" + opNo;
            if (op % 25_000 == 0) {
                growing = !growing;
            }
            int dice = rnd.nextInt(1000);
            if (dice < 2) {
                runBurst(tree, ref, rnd, ctx);
            } else if (dice < (growing ? 550 : 200)) {
                Pair p = rnd.nextInt(8) == 0 ? existingNear(ref, randomPair(rnd)) : randomPair(rnd);
                Pair q = p != null ? p : randomPair(rnd);
                boolean expected = ref.add(q);
                assertEquals(expected, tree.insert(q.key, q.row), () -> ctx.get() + " insert " + q);
            } else if (dice < (growing ? 750 : 800)) {
                Pair p = rnd.nextInt(5) == 0 ? randomPair(rnd) : existingNear(ref, randomPair(rnd));
                Pair q = p != null ? p : randomPair(rnd);
                boolean expected = ref.remove(q);
                assertEquals(expected, tree.remove(q.key, q.row), () -> ctx.get() + " remove " + q);
            } else {
                query(tree, ref, cursor, rnd, ctx);
            }
            assertEquals(ref.size(), tree.size(), ctx);
            if (op % 5_000 == 0) {
                checkStructure(tree, ctx);
            }
        }
        checkStructure(tree, () -> "seed=" + seed + " at end");
        assertSameForward(ref, tree, () -> "seed=" + seed + " at end");
        assertSameBackward(ref, tree, () -> "seed=" + seed + " at end");
    }

    /** Sequential insert patterns that exercise the split fast paths. */
    private static void runBurst(LongIntBTree tree, TreeSet<Pair> ref, SplittableRandom rnd, Supplier<String> ctx) {
        long base = randomKey(rnd);
        int row = rnd.nextInt(1000);
        int len = 50 + rnd.nextInt(400);
        int kind = rnd.nextInt(4);
        for (int i = 0; i < len; i++) {
            Pair p;
            switch (kind) {
                case 0 -> p = new Pair(base + i, row);          // ascending keys (may wrap at MAX)
                case 1 -> p = new Pair(base - i, row);          // descending keys
                case 2 -> p = new Pair(base, row + i);          // one key, rows ascending
                default -> p = new Pair(base + i % 7, row + i); // interleaved ascending runs
            }
            boolean expected = ref.add(p);
            assertEquals(expected, tree.insert(p.key, p.row), () -> ctx.get() + " burst insert " + p);
        }
    }

    private static void query(LongIntBTree tree, TreeSet<Pair> ref, LongIntBTree.Cursor c,
                              SplittableRandom rnd, Supplier<String> ctx) {
        long k = rnd.nextBoolean() ? randomKey(rnd) : nearKey(ref, rnd);
        switch (rnd.nextInt(6)) {
            case 0 -> {
                Pair first = ref.ceiling(new Pair(k, Integer.MIN_VALUE));
                int expected = first != null && first.key == k ? first.row : -1;
                assertEquals(expected, tree.firstRow(k), () -> ctx.get() + " firstRow " + k);
            }
            case 1 -> {
                Pair first = ref.ceiling(new Pair(k, Integer.MIN_VALUE));
                boolean expected = first != null && first.key == k;
                assertEquals(expected, tree.containsKey(k), () -> ctx.get() + " containsKey " + k);
            }
            case 2 -> {
                Pair at = ref.ceiling(new Pair(k, Integer.MIN_VALUE));
                assertEquals(at != null, c.seek(k), () -> ctx.get() + " seek " + k);
                walk(ref, c, at, rnd, () -> ctx.get() + " after seek " + k);
            }
            case 3 -> {
                Pair at = ref.floor(new Pair(k, Integer.MAX_VALUE));
                assertEquals(at != null, c.seekLast(k), () -> ctx.get() + " seekLast " + k);
                walk(ref, c, at, rnd, () -> ctx.get() + " after seekLast " + k);
            }
            case 4 -> {
                Pair at = ref.isEmpty() ? null : ref.first();
                assertEquals(at != null, c.first(), () -> ctx.get() + " first");
                walk(ref, c, at, rnd, () -> ctx.get() + " after first");
            }
            default -> {
                Pair at = ref.isEmpty() ? null : ref.last();
                assertEquals(at != null, c.last(), () -> ctx.get() + " last");
                walk(ref, c, at, rnd, () -> ctx.get() + " after last");
            }
        }
    }

    /** Checks the cursor is at `at`, then moves it back and forth, comparing every step. */
    private static void walk(TreeSet<Pair> ref, LongIntBTree.Cursor c, Pair at, SplittableRandom rnd,
                             Supplier<String> ctx) {
        Pair expected = at;
        int steps = rnd.nextInt(40);
        for (int s = 0; s <= steps; s++) {
            assertAt(expected, c, ctx);
            if (expected == null) {
                return; // past either end the cursor stays invalid
            }
            boolean forward = rnd.nextInt(3) != 0;
            expected = forward ? ref.higher(expected) : ref.lower(expected);
            boolean moved = forward ? c.next() : c.prev();
            Pair e = expected;
            assertEquals(e != null, moved, () -> ctx.get() + " step to " + e);
        }
    }

    private static void assertAt(Pair expected, LongIntBTree.Cursor c, Supplier<String> ctx) {
        assertEquals(expected != null, c.valid(), () -> ctx.get() + " valid, expected " + expected);
        if (expected != null) {
            assertEquals(expected, new Pair(c.key(), c.row()), ctx);
        }
    }

    private static long randomKey(SplittableRandom rnd) {
        int c = rnd.nextInt(100);
        if (c < 5) {
            return SPECIAL_KEYS[rnd.nextInt(SPECIAL_KEYS.length)];
        }
        if (c < 60) {
            return rnd.nextInt(41) - 20; // few distinct keys: long runs of rows
        }
        return rnd.nextLong(-1_000_000, 1_000_000);
    }

    private static Pair randomPair(SplittableRandom rnd) {
        int row = rnd.nextInt(50) == 0 ? SPECIAL_ROWS[rnd.nextInt(SPECIAL_ROWS.length)] : rnd.nextInt(3000);
        return new Pair(randomKey(rnd), row);
    }

    /** A stored pair next to p, or null if the set is empty. */
    private static Pair existingNear(TreeSet<Pair> ref, Pair p) {
        Pair q = ref.ceiling(p);
        return q != null ? q : ref.floor(p);
    }

    /** A key at or next to a stored one, to probe exact hits and the gaps around them. */
    private static long nearKey(TreeSet<Pair> ref, SplittableRandom rnd) {
        Pair p = existingNear(ref, new Pair(randomKey(rnd), 0));
        if (p == null) {
            return randomKey(rnd);
        }
        return p.key + (rnd.nextInt(3) - 1); // wraps at the extremes, which is fine
    }

    // ------------------------------------------------------------------ deletes and iteration

    @ParameterizedTest(name = "leaf={0} inner={1}")
    @CsvSource({"2, 3", "5, 4", "32, 6", "256, 128"})
    void iterationMatchesAfterHeavyDeletesAndReinsert(int leafCap, int innerCap) {
        long seed = 42 + leafCap;
        SplittableRandom rnd = new SplittableRandom(seed);
        LongIntBTree tree = new LongIntBTree(leafCap, innerCap);
        TreeSet<Pair> ref = new TreeSet<>();
        for (int i = 0; i < 60_000; i++) {
            Pair p = randomPair(rnd);
            assertEquals(ref.add(p), tree.insert(p.key, p.row));
        }
        Supplier<String> ctx = () -> "seed=" + seed + " leaf=" + leafCap;
        checkStructure(tree, ctx);
        long fullBytes = tree.memoryBytes();

        // Remove 95% in random order.
        List<Pair> all = new ArrayList<>(ref);
        shuffle(all, rnd);
        for (int i = 0; i < all.size() * 95 / 100; i++) {
            Pair p = all.get(i);
            assertTrue(tree.remove(p.key, p.row), () -> ctx.get() + " remove " + p);
            ref.remove(p);
        }
        checkStructure(tree, ctx);
        assertSameForward(ref, tree, ctx);
        assertSameBackward(ref, tree, ctx);
        assertTrue(tree.memoryBytes() < fullBytes, ctx);

        // Remove everything else, in key order this time, then make sure the tree is empty.
        for (Pair p : new ArrayList<>(ref)) {
            assertTrue(tree.remove(p.key, p.row), () -> ctx.get() + " remove " + p);
            assertFalse(tree.remove(p.key, p.row), () -> ctx.get() + " remove again " + p);
        }
        ref.clear();
        checkStructure(tree, ctx);
        assertEquals(0, tree.size());
        assertEquals(0, tree.height, ctx);
        LongIntBTree.Cursor c = tree.cursor();
        assertFalse(c.first());
        assertFalse(c.last());
        assertFalse(c.seek(Long.MIN_VALUE));
        assertFalse(c.seekLast(Long.MAX_VALUE));
        assertFalse(c.next());
        assertFalse(c.prev());
        assertEquals(-1, tree.firstRow(0));
        assertFalse(tree.containsKey(Long.MIN_VALUE));

        // Reinsert a fresh batch, including everything that was just removed.
        shuffle(all, rnd);
        for (Pair p : all) {
            assertTrue(tree.insert(p.key, p.row), () -> ctx.get() + " reinsert " + p);
            ref.add(p);
        }
        for (int i = 0; i < 20_000; i++) {
            Pair p = randomPair(rnd);
            assertEquals(ref.add(p), tree.insert(p.key, p.row));
        }
        checkStructure(tree, ctx);
        assertSameForward(ref, tree, ctx);
        assertSameBackward(ref, tree, ctx);
    }

    @Test
    void copyRunHandsTheSameRowsAsStepping() {
        // Small leaves so a key's rows span several leaves and share leaves with other keys.
        LongIntBTree tree = new LongIntBTree(4, 3);
        java.util.Random rnd = new java.util.Random(7);
        for (int i = 0; i < 3000; i++) {
            tree.insert(rnd.nextInt(40), rnd.nextInt(100_000));
        }
        for (long key = -1; key <= 41; key++) {
            java.util.List<Integer> stepped = new java.util.ArrayList<>();
            LongIntBTree.Cursor c = tree.cursor();
            for (boolean ok = c.seek(key); ok && c.key() == key; ok = c.next()) {
                stepped.add(c.row());
            }
            int[] runs = new int[stepped.size() + 1];
            int n = 0;
            LongIntBTree.Cursor d = tree.cursor();
            for (boolean ok = d.seek(key); ok && d.key() == key; ok = d.next()) {
                int want = d.runRemaining();
                assertTrue(want >= 1 && n + want <= stepped.size(), "run of key " + key);
                assertEquals(want, d.copyRun(runs, n));
                assertEquals(key, d.key());
                n += want;
                assertEquals(stepped.get(n - 1), d.row(), "positioned on the run's last pair");
            }
            assertEquals(stepped.size(), n, "key " + key);
            for (int i = 0; i < n; i++) {
                assertEquals(stepped.get(i), runs[i], "key " + key + " at " + i);
            }
        }
    }

    @Test
    void seekAheadLandsWhereSeekDoes() {
        // Sorted probes (an IN list) walked forward with seekAhead, from where the previous probe's
        // rows ended, must reach exactly the pairs a fresh seek finds: keys present and absent,
        // repeated, inside the current leaf and beyond it, past the last key.
        for (int leafCap : new int[] {4, 64}) {
            LongIntBTree tree = new LongIntBTree(leafCap, 3);
            java.util.Random rnd = new java.util.Random(leafCap);
            for (int i = 0; i < 5000; i++) {
                tree.insert(rnd.nextInt(3000) * 2L, rnd.nextInt(1_000_000)); // even keys only
            }
            long[] probes = new long[400];
            for (int i = 0; i < probes.length; i++) {
                probes[i] = rnd.nextInt(6100) - 20;
            }
            java.util.Arrays.sort(probes);
            LongIntBTree.Cursor walk = tree.cursor();
            for (int i = 0; i < probes.length; i++) {
                if (i > 0 && probes[i] == probes[i - 1]) {
                    continue;
                }
                long key = probes[i];
                java.util.List<Integer> want = new java.util.ArrayList<>();
                LongIntBTree.Cursor fresh = tree.cursor();
                for (boolean ok = fresh.seek(key); ok && fresh.key() == key; ok = fresh.next()) {
                    want.add(fresh.row());
                }
                java.util.List<Integer> got = new java.util.ArrayList<>();
                boolean ok = i == 0 ? walk.seek(key) : walk.seekAhead(key);
                LongIntBTree.Cursor check = tree.cursor();
                boolean any = check.seek(key);
                assertEquals(any, ok, "valid after seekAhead(" + key + ")");
                if (ok) {
                    assertEquals(check.key(), walk.key(), "key after seekAhead(" + key + ")");
                    assertEquals(check.row(), walk.row(), "row after seekAhead(" + key + ")");
                }
                for (; ok && walk.key() == key; ok = walk.next()) {
                    got.add(walk.row());
                }
                assertEquals(want, got, "rows of key " + key + ", leaves of " + leafCap);
                if (!ok) {
                    break; // past the last pair: an IN walk stops there too
                }
            }
        }
    }

    @Test
    void clearResetsTheTree() {
        LongIntBTree tree = new LongIntBTree(4, 3);
        LongIntBTree empty = new LongIntBTree(4, 3);
        for (int i = 0; i < 1000; i++) {
            tree.insert(i, i);
        }
        tree.clear();
        assertEquals(0, tree.size());
        assertEquals(empty.memoryBytes(), tree.memoryBytes());
        assertFalse(tree.cursor().first());
        assertTrue(tree.insert(5, 1));
        assertEquals(1, tree.firstRow(5));
        checkStructure(tree, () -> "after clear");
    }

    @Test
    void extremeKeysAndRows() {
        LongIntBTree tree = new LongIntBTree(4, 3);
        TreeSet<Pair> ref = new TreeSet<>();
        for (long k : SPECIAL_KEYS) {
            for (int r : SPECIAL_ROWS) {
                assertTrue(tree.insert(k, r));
                assertFalse(tree.insert(k, r));
                ref.add(new Pair(k, r));
            }
        }
        checkStructure(tree, () -> "extremes");
        assertSameForward(ref, tree, () -> "extremes");
        assertSameBackward(ref, tree, () -> "extremes");
        assertEquals(Integer.MIN_VALUE, tree.firstRow(Long.MIN_VALUE));
        assertEquals(Integer.MIN_VALUE, tree.firstRow(Long.MAX_VALUE));
        assertEquals(-1, tree.firstRow(2));

        LongIntBTree.Cursor c = tree.cursor();
        assertTrue(c.seek(Long.MIN_VALUE));
        assertEquals(new Pair(Long.MIN_VALUE, Integer.MIN_VALUE), new Pair(c.key(), c.row()));
        assertFalse(c.prev());
        assertTrue(c.seekLast(Long.MAX_VALUE));
        assertEquals(new Pair(Long.MAX_VALUE, Integer.MAX_VALUE), new Pair(c.key(), c.row()));
        assertFalse(c.next());
        assertTrue(c.seek(Long.MAX_VALUE));
        assertEquals(new Pair(Long.MAX_VALUE, Integer.MIN_VALUE), new Pair(c.key(), c.row()));
        assertTrue(c.seekLast(Long.MIN_VALUE));
        assertEquals(new Pair(Long.MIN_VALUE, Integer.MAX_VALUE), new Pair(c.key(), c.row()));
        assertTrue(c.seek(2));
        assertEquals(Long.MAX_VALUE - 1, c.key());
        assertTrue(c.seekLast(-2));
        assertEquals(new Pair(Long.MIN_VALUE + 1, Integer.MAX_VALUE), new Pair(c.key(), c.row()));

        // Separators just above a leaf's last pair must not overflow at the extremes.
        LongIntBTree asc = new LongIntBTree(2, 3);
        assertTrue(asc.insert(Long.MAX_VALUE - 1, Integer.MAX_VALUE - 1));
        assertTrue(asc.insert(Long.MAX_VALUE - 1, Integer.MAX_VALUE));
        assertTrue(asc.insert(Long.MAX_VALUE, Integer.MIN_VALUE));
        assertTrue(asc.insert(Long.MAX_VALUE, Integer.MAX_VALUE));
        assertTrue(asc.insert(Long.MAX_VALUE, 0));
        checkStructure(asc, () -> "max separators");
        assertEquals(Integer.MIN_VALUE, asc.firstRow(Long.MAX_VALUE));
    }

    // ------------------------------------------------------------------ bulk load

    @ParameterizedTest(name = "n={0} leaf={1} inner={2}")
    @CsvSource({
        "0, 256, 128", "1, 256, 128", "255, 256, 128", "256, 256, 128", "257, 256, 128",
        "100000, 256, 128", "1000, 2, 3", "999, 4, 3", "5000, 16, 4",
    })
    void bulkLoadEqualsIncrementalInsertion(int n, int leafCap, int innerCap) {
        long seed = 7 + n;
        SplittableRandom rnd = new SplittableRandom(seed);
        TreeSet<Pair> ref = new TreeSet<>();
        while (ref.size() < n) {
            ref.add(randomPair(rnd));
        }
        long[] keys = new long[n + 3]; // longer than n on purpose
        int[] rows = new int[n + 3];
        int i = 0;
        for (Pair p : ref) {
            keys[i] = p.key;
            rows[i] = p.row;
            i++;
        }
        LongIntBTree bulk = LongIntBTree.bulkLoad(keys, rows, n, leafCap, innerCap);
        LongIntBTree incremental = new LongIntBTree(leafCap, innerCap);
        List<Pair> shuffled = new ArrayList<>(ref);
        shuffle(shuffled, rnd);
        for (Pair p : shuffled) {
            assertTrue(incremental.insert(p.key, p.row));
        }
        Supplier<String> ctx = () -> "seed=" + seed + " n=" + n;
        checkStructure(bulk, ctx);
        assertEquals(incremental.size(), bulk.size(), ctx);
        assertEquals(contents(incremental), contents(bulk), ctx);
        assertSameForward(ref, bulk, ctx);
        assertSameBackward(ref, bulk, ctx);
        // Full leaves: as few as the capacity allows.
        assertEquals((n + leafCap - 1) / leafCap, leafCount(bulk), ctx);
        assertTrue(bulk.memoryBytes() <= incremental.memoryBytes(), ctx);

        // The loaded tree keeps working as an ordinary one.
        for (int j = 0; j < 2 * n; j++) {
            Pair p = rnd.nextBoolean() ? randomPair(rnd) : existingNear(ref, randomPair(rnd));
            if (p == null) {
                continue;
            }
            if (rnd.nextBoolean()) {
                assertEquals(ref.add(p), bulk.insert(p.key, p.row), ctx);
            } else {
                assertEquals(ref.remove(p), bulk.remove(p.key, p.row), ctx);
            }
        }
        checkStructure(bulk, ctx);
        assertSameForward(ref, bulk, ctx);
    }

    @Test
    void bulkLoadRejectsUnsortedOrDuplicateInput() {
        assertThrows(IllegalArgumentException.class,
            () -> LongIntBTree.bulkLoad(new long[] {1, 1}, new int[] {2, 2}, 2));
        assertThrows(IllegalArgumentException.class,
            () -> LongIntBTree.bulkLoad(new long[] {2, 1}, new int[] {0, 0}, 2));
        assertThrows(IllegalArgumentException.class,
            () -> LongIntBTree.bulkLoad(new long[] {1, 1}, new int[] {3, 2}, 2));
        assertThrows(IllegalArgumentException.class,
            () -> LongIntBTree.bulkLoad(new long[] {1}, new int[] {0}, 2));
        // Only the first n pairs count.
        LongIntBTree t = LongIntBTree.bulkLoad(new long[] {1, 2, 0}, new int[] {0, 0, 0}, 2);
        assertEquals(2, t.size());
    }

    // ------------------------------------------------------------------ memory

    @Test
    void ascendingKeysFillEveryLeaf() {
        LongIntBTree tree = new LongIntBTree(LongIntBTree.DEFAULT_LEAF_CAPACITY, LongIntBTree.DEFAULT_INNER_CAPACITY);
        int n = 100_000;
        for (int i = 1; i <= n; i++) {
            assertTrue(tree.insert(i, i - 1));
        }
        checkStructure(tree, () -> "ascending");
        int cap = LongIntBTree.DEFAULT_LEAF_CAPACITY;
        assertEquals((n + cap - 1) / cap, leafCount(tree));
    }

    @Test
    void memoryPerEntryAscendingKeys() {
        int n = 2_000_000;
        LongIntBTree tree = new LongIntBTree();
        for (int i = 1; i <= n; i++) {
            tree.insert(i, i - 1);
        }
        assertTrue(tree.dense, "ascending distinct keys stay dense");
        assertMemoryPerEntry(tree, n, "ascending keys", 4.1);
    }

    @ParameterizedTest(name = "M={0}")
    @CsvSource({"100", "1000", "10000", "30000", "100000"})
    void memoryPerEntryManyAscendingRuns(int m) {
        int n = 2_000_000;
        LongIntBTree tree = new LongIntBTree();
        for (int i = 1; i <= n; i++) {
            tree.insert(i % m, i);
        }
        assertFalse(tree.dense, "repeated keys make a tree");
        assertMemoryPerEntry(tree, n, "ascending runs, M=" + m, 6.5);
    }

    /** Random distinct keys keep the plain layout's cost: no run ends, 12 bytes plus leaf overhead. */
    @Test
    void memoryPerEntryRandomKeys() {
        int n = 1_000_000;
        LongIntBTree tree = new LongIntBTree();
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < n; i++) {
            tree.insert(rnd.nextLong(), i);
        }
        assertFalse(tree.dense);
        assertMemoryPerEntry(tree, n, "random keys", 19.0);
    }

    private static void assertMemoryPerEntry(LongIntBTree tree, int n, String pattern, double limit) {
        assertEquals(n, tree.size());
        assertEquals(tree.computeMemoryBytes(), tree.memoryBytes(), pattern);
        double perEntry = (double) tree.memoryBytes() / tree.size();
        System.out.printf("LongIntBTree %s: %d entries, %.2f bytes/entry%n", pattern, n, perEntry);
        assertTrue(perEntry <= limit, pattern + ": " + perEntry + " bytes/entry");
    }

    // ------------------------------------------------------------------ helpers

    private static void shuffle(List<Pair> list, SplittableRandom rnd) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            Pair t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }

    private static List<Pair> contents(LongIntBTree tree) {
        List<Pair> out = new ArrayList<>();
        LongIntBTree.Cursor c = tree.cursor();
        for (boolean v = c.first(); v; v = c.next()) {
            out.add(new Pair(c.key(), c.row()));
        }
        return out;
    }

    private static void assertSameForward(TreeSet<Pair> ref, LongIntBTree tree, Supplier<String> ctx) {
        LongIntBTree.Cursor c = tree.cursor();
        boolean valid = c.first();
        Iterator<Pair> it = ref.iterator();
        while (it.hasNext()) {
            Pair p = it.next();
            assertTrue(valid, () -> ctx.get() + " forward iteration ended before " + p);
            assertEquals(p, new Pair(c.key(), c.row()), ctx);
            valid = c.next();
        }
        assertFalse(valid, () -> ctx.get() + " forward iteration has extra pairs");
    }

    private static void assertSameBackward(TreeSet<Pair> ref, LongIntBTree tree, Supplier<String> ctx) {
        LongIntBTree.Cursor c = tree.cursor();
        boolean valid = c.last();
        Iterator<Pair> it = ref.descendingIterator();
        while (it.hasNext()) {
            Pair p = it.next();
            assertTrue(valid, () -> ctx.get() + " backward iteration ended before " + p);
            assertEquals(p, new Pair(c.key(), c.row()), ctx);
            valid = c.prev();
        }
        assertFalse(valid, () -> ctx.get() + " backward iteration has extra pairs");
    }

    private static int leafCount(LongIntBTree tree) {
        assertFalse(tree.dense, "leafCount on a dense set");
        int count = 0;
        LongIntBTree.Node node = tree.root;
        for (int d = tree.height; d > 0; d--) {
            node = ((LongIntBTree.Inner) node).children[0];
        }
        for (LongIntBTree.Leaf l = (LongIntBTree.Leaf) node; l != null; l = l.next) {
            if (l.size > 0) {
                count++;
            }
        }
        return count;
    }

    /**
     * Verifies the set's structure. Dense: every page within its bounds and the byte counter
     * matching a recount. Tree: pairs sorted inside the bounds their separators give, leaf runs
     * well formed (distinct ascending keys, ascending ends, no run-end array when every run is one
     * entry), every leaf at the same depth, no empty nodes except an empty root leaf, a root with
     * two or more children, a leaf chain matching the tree order, and the byte counter matching a
     * recount.
     */
    static void checkStructure(LongIntBTree tree, Supplier<String> ctx) {
        assertEquals(tree.computeMemoryBytes(), tree.memoryBytes(), () -> ctx.get() + " memory counter");
        if (tree.dense) {
            long live = 0;
            for (int[] pg : tree.pages) {
                if (pg == null) {
                    continue;
                }
                assertTrue(pg.length <= 1 << tree.pageShift, ctx);
                for (int r : pg) {
                    if (r != LongIntBTree.EMPTY) {
                        live++;
                    }
                }
            }
            assertEquals(tree.size(), live, () -> ctx.get() + " dense size");
            return;
        }
        List<LongIntBTree.Leaf> leaves = new ArrayList<>();
        long count = checkNode(tree, tree.root, tree.height, true, null, null, leaves, ctx);
        assertEquals(tree.size(), count, () -> ctx.get() + " size");
        for (int i = 0; i < leaves.size(); i++) {
            LongIntBTree.Leaf l = leaves.get(i);
            LongIntBTree.Leaf expectedPrev = i > 0 ? leaves.get(i - 1) : null;
            LongIntBTree.Leaf expectedNext = i + 1 < leaves.size() ? leaves.get(i + 1) : null;
            if (l.prev != expectedPrev || l.next != expectedNext) {
                fail(ctx.get() + " leaf chain broken at leaf " + i);
            }
        }
    }

    /** Returns the number of pairs below node; lo is inclusive, hi exclusive, null meaning unbounded. */
    private static long checkNode(LongIntBTree tree, LongIntBTree.Node node, int depth, boolean isRoot,
                                  Pair lo, Pair hi, List<LongIntBTree.Leaf> leaves, Supplier<String> ctx) {
        if (depth == 0) {
            if (!(node instanceof LongIntBTree.Leaf leaf)) {
                fail(ctx.get() + " inner node at leaf depth");
                return 0;
            }
            assertTrue(leaf.size <= leaf.rows.length, ctx);
            assertTrue(leaf.rows.length <= tree.leafCapacity, () -> ctx.get() + " leaf rows above capacity");
            assertTrue(leaf.runs <= leaf.keys.length && leaf.keys.length <= tree.leafCapacity, ctx);
            assertTrue(leaf.size > 0 || isRoot, () -> ctx.get() + " empty non-root leaf");
            if (leaf.ends == null) {
                assertEquals(leaf.size, leaf.runs, () -> ctx.get() + " runs without ends");
            } else {
                assertEquals(leaf.keys.length, leaf.ends.length, ctx);
                assertTrue(leaf.runs < leaf.size, () -> ctx.get() + " run ends kept for single-entry runs");
                for (int r = 0; r < leaf.runs; r++) {
                    assertTrue(leaf.ends[r] > leaf.start(r), () -> ctx.get() + " empty run");
                }
                assertEquals(leaf.size, leaf.runs == 0 ? 0 : leaf.ends[leaf.runs - 1], () -> ctx.get() + " last run end");
            }
            for (int r = 1; r < leaf.runs; r++) {
                assertTrue(leaf.keys[r - 1] < leaf.keys[r], () -> ctx.get() + " run keys not ascending");
            }
            Pair prev = null;
            for (int i = 0; i < leaf.size; i++) {
                Pair p = new Pair(leaf.keyAt(i), leaf.rows[i]);
                checkWithin(p, prev, lo, hi, ctx);
                prev = p;
            }
            leaves.add(leaf);
            return leaf.size;
        }
        if (!(node instanceof LongIntBTree.Inner in)) {
            fail(ctx.get() + " leaf above leaf depth");
            return 0;
        }
        assertTrue(in.keys.length <= tree.innerCapacity, () -> ctx.get() + " inner arrays above capacity");
        assertTrue(in.size >= (isRoot ? 2 : 1), () -> ctx.get() + " inner node with " + in.size + " children");
        for (int i = in.size; i < in.children.length; i++) {
            assertEquals(null, in.children[i], () -> ctx.get() + " stale child reference");
        }
        long count = 0;
        for (int i = 0; i < in.size; i++) {
            Pair childLo = i == 0 ? lo : new Pair(in.keys[i], in.rows[i]);
            Pair childHi = i + 1 < in.size ? new Pair(in.keys[i + 1], in.rows[i + 1]) : hi;
            if (i > 0) {
                checkWithin(childLo, null, lo, hi, ctx);
            }
            count += checkNode(tree, in.children[i], depth - 1, false, childLo, childHi, leaves, ctx);
        }
        return count;
    }

    private static void checkWithin(Pair p, Pair prev, Pair lo, Pair hi, Supplier<String> ctx) {
        if (prev != null && prev.compareTo(p) >= 0) {
            fail(ctx.get() + " pairs out of order: " + prev + " then " + p);
        }
        if (lo != null && p.compareTo(lo) < 0) {
            fail(ctx.get() + " " + p + " below its lower bound " + lo);
        }
        if (hi != null && p.compareTo(hi) >= 0) {
            fail(ctx.get() + " " + p + " not below its upper bound " + hi);
        }
    }

    // ------------------------------------------------------------------ Cursor.fill

    /**
     * fill hands out, batch by batch, exactly the rows a seek/next walk visits up to hi, in the
     * same order: dense sets (with holes, several pages) and trees (distinct keys, runs of a key
     * across leaves), bounds inside and outside the keys, batch sizes 1, 3 and larger than a leaf.
     */
    @ParameterizedTest(name = "dense={0} runs={1}")
    @CsvSource({"true,1", "false,1", "false,7", "true,3"})
    void fillHandsOutTheRowsOfAWalk(boolean dense, int runs) {
        LongIntBTree tree = dense ? new LongIntBTree(8, 4, true, 4) : new LongIntBTree(8, 4, false, 4);
        SplittableRandom rnd = new SplittableRandom(runs * 31L + (dense ? 1 : 0));
        int row = 0;
        for (long k = 100; k < 400; k++) {
            if (rnd.nextInt(5) == 0) {
                continue; // a hole
            }
            for (int j = 0; j < runs; j++) {
                tree.insert(k, row++);
            }
        }
        assertEquals(dense && runs == 1, tree.dense, "the layout under test");
        long[][] ranges = {{0, 1000}, {100, 100}, {150, 260}, {399, 5000}, {401, 900}, {Long.MIN_VALUE, Long.MAX_VALUE}, {120, 119}};
        for (long[] r : ranges) {
            List<Integer> expected = new ArrayList<>();
            LongIntBTree.Cursor w = tree.cursor();
            for (boolean ok = w.seek(r[0]); ok && w.key() <= r[1]; ok = w.next()) {
                expected.add(w.row());
            }
            for (int cap : new int[] {1, 3, 37, 5000}) {
                List<Integer> got = new ArrayList<>();
                LongIntBTree.Cursor c = tree.cursor();
                int[] batch = new int[cap + 2];
                if (c.seek(r[0])) {
                    int n;
                    while ((n = c.fill(r[1], batch, cap)) > 0) {
                        assertTrue(n <= cap, "at most cap rows");
                        for (int i = 0; i < n; i++) {
                            got.add(batch[i]);
                        }
                    }
                }
                assertEquals(expected, got, "range " + r[0] + ".." + r[1] + " cap " + cap);
            }
        }
    }
}
