package io.respsql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The set in both representations (dense and tree, and the switch from one to the other) against
 * a TreeMap of TreeSets, over long random sequences of inserts, removes, lookups and cursor walks
 * in both directions, for the key patterns an index meets: dense ascending keys (a primary key,
 * a little out of order as concurrent clients deliver them), heavily repeated keys (a foreign key,
 * N/100 rows per key), random keys, deletes that empty keys, keys at Long.MIN/MAX.
 */
class LongIntBTreeDifferentialTest {

    /** The reference: key to its rows. */
    private final TreeMap<Long, TreeSet<Integer>> ref = new TreeMap<>();
    private long refSize;

    enum Pattern { DENSE, DENSE_JITTER, REPEATED, RANDOM, EMPTYING, EXTREME_LOW, EXTREME_HIGH, MIXED }

    @ParameterizedTest(name = "{0} leaf={1} inner={2} pageShift={3}")
    @CsvSource({
        "DENSE, 256, 128, 12", "DENSE, 4, 3, 4", "DENSE, 16, 4, 6",
        "DENSE_JITTER, 256, 128, 12", "DENSE_JITTER, 8, 3, 5",
        "REPEATED, 256, 128, 12", "REPEATED, 4, 3, 4", "REPEATED, 32, 5, 8",
        "RANDOM, 256, 128, 12", "RANDOM, 4, 3, 4",
        "EMPTYING, 256, 128, 12", "EMPTYING, 4, 3, 4", "EMPTYING, 16, 4, 6",
        "EXTREME_LOW, 256, 128, 12", "EXTREME_LOW, 4, 3, 4",
        "EXTREME_HIGH, 256, 128, 12", "EXTREME_HIGH, 4, 3, 4",
        "MIXED, 256, 128, 12", "MIXED, 8, 4, 4",
    })
    void randomOperationsMatchReference(Pattern pattern, int leafCap, int innerCap, int pageShift) {
        long seed = pattern.ordinal() * 1000L + leafCap * 7L + pageShift;
        SplittableRandom rnd = new SplittableRandom(seed);
        LongIntBTree tree = new LongIntBTree(leafCap, innerCap, true, pageShift);
        LongIntBTree.Cursor cursor = tree.cursor();
        final int ops = 200_000;
        long next = 0; // position in the ascending patterns
        for (int op = 0; op < ops; op++) {
            final int opNo = op;
            Supplier<String> ctx = () -> pattern + " seed=" + seed + " op=" + opNo + " dense=" + tree.dense;
            int phase = (op / 20_000) % 2; // alternate growing and shrinking phases
            int dice = rnd.nextInt(100);
            if (dice < (phase == 0 ? 60 : 25)) {
                long k;
                int row;
                switch (pattern) {
                    case DENSE -> { k = ++next; row = (int) k * 3; }
                    case DENSE_JITTER -> { k = ++next + rnd.nextInt(200) - 100; row = (int) k; }
                    case REPEATED -> { next++; k = next % 100; row = (int) next; }
                    case RANDOM -> { k = rnd.nextLong(); row = rnd.nextInt(); }
                    case EMPTYING -> { k = rnd.nextInt(2000); row = rnd.nextInt(3); }
                    case EXTREME_LOW -> { k = Long.MIN_VALUE + rnd.nextInt(3000); row = rnd.nextInt(2); }
                    case EXTREME_HIGH -> { k = Long.MAX_VALUE - rnd.nextInt(3000); row = rnd.nextInt(2); }
                    default -> {
                        int m = rnd.nextInt(4);
                        k = m == 0 ? ++next : m == 1 ? next % 50 : m == 2 ? rnd.nextLong() : Long.MAX_VALUE - rnd.nextInt(5);
                        row = rnd.nextInt(1000);
                    }
                }
                if (row == -1) {
                    row = 0; // -1 is firstRow's "absent"
                }
                final long kk = k;
                final int rr = row;
                assertEquals(refAdd(k, row), tree.insert(k, row), () -> ctx.get() + " insert " + kk + "," + rr);
            } else if (dice < 75) {
                long[] p = existingOrRandom(rnd, pattern == Pattern.RANDOM ? 1 : 8);
                assertEquals(refRemove(p[0], (int) p[1]), tree.remove(p[0], (int) p[1]),
                        () -> ctx.get() + " remove " + p[0] + "," + p[1]);
                if (pattern == Pattern.EMPTYING && rnd.nextInt(50) == 0) {
                    emptyKey(tree, rnd, ctx); // every row of one key
                }
            } else {
                query(tree, cursor, rnd, ctx);
            }
            assertEquals(refSize, tree.size(), ctx);
            if (op % 10_000 == 0) {
                LongIntBTreeTest.checkStructure(tree, ctx);
                assertSame(tree, ctx);
            }
        }
        Supplier<String> end = () -> pattern + " seed=" + seed + " at end";
        LongIntBTreeTest.checkStructure(tree, end);
        assertSame(tree, end);
        // Drain in random order: every remove answers, and the set ends empty.
        List<long[]> all = new ArrayList<>();
        for (Map.Entry<Long, TreeSet<Integer>> e : ref.entrySet()) {
            for (int r : e.getValue()) {
                all.add(new long[] {e.getKey(), r});
            }
        }
        for (int i = all.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long[] t = all.get(i);
            all.set(i, all.get(j));
            all.set(j, t);
        }
        for (int i = 0; i < all.size(); i++) {
            long[] p = all.get(i);
            assertTrue(tree.remove(p[0], (int) p[1]), () -> end.get() + " drain " + p[0] + "," + p[1]);
            refRemove(p[0], (int) p[1]);
            if (i % 5000 == 0) {
                assertSame(tree, end);
            }
        }
        assertEquals(0, tree.size());
        assertFalse(tree.cursor().first());
        assertFalse(tree.cursor().last());
        LongIntBTreeTest.checkStructure(tree, end);
    }

    @Test
    void denseAscendingLoadStaysDenseAndSmall() {
        LongIntBTree tree = new LongIntBTree();
        int n = 1_000_000;
        for (int i = 1; i <= n; i++) {
            assertTrue(tree.insert(i, i - 1));
        }
        assertTrue(tree.dense);
        assertEquals(n, tree.size());
        assertEquals(tree.computeMemoryBytes(), tree.memoryBytes());
        double perEntry = (double) tree.memoryBytes() / n;
        assertTrue(perEntry < 4.1, "dense bytes/entry " + perEntry);
        assertEquals(499, tree.firstRow(500));
        assertEquals(-1, tree.firstRow(0));
        assertEquals(-1, tree.firstRow(n + 1));
        // A second row for a key turns the set into a tree, contents unchanged.
        assertTrue(tree.insert(7, 123));
        assertFalse(tree.dense);
        assertEquals(n + 1, tree.size());
        assertEquals(6, tree.firstRow(7));
        LongIntBTreeTest.checkStructure(tree, () -> "after conversion");
        LongIntBTree.Cursor c = tree.cursor();
        assertTrue(c.seek(7));
        assertEquals(6, c.row());
        assertTrue(c.next());
        assertEquals(7, c.key());
        assertEquals(123, c.row());
        assertTrue(c.next());
        assertEquals(8, c.key());
    }

    @Test
    void denseSetLeavesForPairsItCannotHold() {
        // A row equal to the dense "empty" marker.
        LongIntBTree a = new LongIntBTree();
        assertTrue(a.insert(1, 0));
        assertTrue(a.dense);
        assertTrue(a.insert(2, Integer.MIN_VALUE));
        assertFalse(a.dense);
        assertEquals(Integer.MIN_VALUE, a.firstRow(2));
        assertTrue(a.remove(2, Integer.MIN_VALUE));
        assertFalse(a.remove(2, Integer.MIN_VALUE));
        // A key far beyond the range.
        LongIntBTree b = new LongIntBTree();
        for (int i = 0; i < 5000; i++) {
            assertTrue(b.insert(i, i));
        }
        assertTrue(b.dense);
        assertTrue(b.insert(1L << 40, 7));
        assertFalse(b.dense);
        assertEquals(7, b.firstRow(1L << 40));
        assertEquals(4999, b.firstRow(4999));
        LongIntBTreeTest.checkStructure(b, () -> "far key");
        // The first keys of a load arriving out of order (many clients) keep the set dense.
        LongIntBTree c = new LongIntBTree();
        for (int k = 1000; k >= 1; k--) {
            assertTrue(c.insert(k, k));
        }
        for (int k = 1001; k <= 100_000; k++) {
            assertTrue(c.insert(k, k));
        }
        assertTrue(c.dense);
        LongIntBTreeTest.checkStructure(c, () -> "descending start");
        // Deletes that leave the pages sparse turn the set into a tree; emptying it restarts dense.
        for (int k = 1; k <= 100_000; k++) {
            if (k % 10 != 0) {
                assertTrue(c.remove(k, k));
            }
        }
        assertFalse(c.dense);
        assertEquals(10_000, c.size());
        LongIntBTreeTest.checkStructure(c, () -> "sparse after deletes");
        c.clear();
        assertTrue(c.dense);
    }

    @Test
    void bulkLoadChoosesDenseForDenseDistinctKeysOnly() {
        int n = 100_000;
        long[] keys = new long[n];
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 1000 + i;
            rows[i] = i;
        }
        LongIntBTree d = LongIntBTree.bulkLoad(keys, rows, n);
        assertTrue(d.dense);
        assertEquals(d.computeMemoryBytes(), d.memoryBytes());
        for (int i = 0; i < n; i++) {
            keys[i] = i / 100;
        }
        LongIntBTree t = LongIntBTree.bulkLoad(keys, rows, n);
        assertFalse(t.dense);
        LongIntBTreeTest.checkStructure(t, () -> "repeated bulk");
        assertTrue((double) t.memoryBytes() / n < 4.8, "repeated keys bytes/entry " + (double) t.memoryBytes() / n);
        for (int i = 0; i < n; i++) {
            keys[i] = i * 10L;
        }
        LongIntBTree sparse = LongIntBTree.bulkLoad(keys, rows, n);
        assertFalse(sparse.dense);
        LongIntBTreeTest.checkStructure(sparse, () -> "sparse bulk");
    }

    // ------------------------------------------------------------------ reference helpers

    private boolean refAdd(long k, int r) {
        boolean added = ref.computeIfAbsent(k, x -> new TreeSet<>()).add(r);
        if (added) {
            refSize++;
        }
        return added;
    }

    private boolean refRemove(long k, int r) {
        TreeSet<Integer> rows = ref.get(k);
        if (rows == null || !rows.remove(r)) {
            return false;
        }
        if (rows.isEmpty()) {
            ref.remove(k);
        }
        refSize--;
        return true;
    }

    /** An existing pair most of the time (1 in `oneIn` random), else a random one near the keys. */
    private long[] existingOrRandom(SplittableRandom rnd, int oneIn) {
        if (!ref.isEmpty() && rnd.nextInt(oneIn) != 0) {
            long k = someKey(rnd);
            TreeSet<Integer> rows = ref.get(k);
            Integer r = rows.ceiling(rnd.nextInt());
            return new long[] {k, r != null ? r : rows.first()};
        }
        return new long[] {ref.isEmpty() ? rnd.nextLong() : someKey(rnd) + rnd.nextInt(5) - 2, rnd.nextInt(1000)};
    }

    private long someKey(SplittableRandom rnd) {
        long lo = ref.firstKey();
        long hi = ref.lastKey();
        long probe = lo + (long) (rnd.nextDouble() * ((double) hi - (double) lo));
        if (probe < lo || probe > hi) {
            probe = lo;
        }
        Long k = ref.ceilingKey(probe);
        return k != null ? k : hi;
    }

    private void emptyKey(LongIntBTree tree, SplittableRandom rnd, Supplier<String> ctx) {
        if (ref.isEmpty()) {
            return;
        }
        long k = someKey(rnd);
        for (int r : new ArrayList<>(ref.get(k))) {
            assertTrue(tree.remove(k, r), () -> ctx.get() + " empty key " + k);
            refRemove(k, r);
        }
        assertFalse(tree.containsKey(k), ctx);
        assertEquals(-1, tree.firstRow(k), ctx);
    }

    private void query(LongIntBTree tree, LongIntBTree.Cursor c, SplittableRandom rnd, Supplier<String> ctx) {
        long k = ref.isEmpty() || rnd.nextInt(4) == 0 ? rnd.nextLong() : someKey(rnd) + rnd.nextInt(3) - 1;
        switch (rnd.nextInt(6)) {
            case 0 -> {
                TreeSet<Integer> rows = ref.get(k);
                int expected = rows == null ? -1 : rows.first();
                assertEquals(expected, tree.firstRow(k), () -> ctx.get() + " firstRow " + k);
            }
            case 1 -> assertEquals(ref.containsKey(k), tree.containsKey(k), () -> ctx.get() + " containsKey " + k);
            case 2 -> {
                Map.Entry<Long, TreeSet<Integer>> e = ref.ceilingEntry(k);
                assertEquals(e != null, c.seek(k), () -> ctx.get() + " seek " + k);
                if (e != null) {
                    walk(c, e.getKey(), e.getValue().first(), rnd, ctx);
                }
            }
            case 3 -> {
                Map.Entry<Long, TreeSet<Integer>> e = ref.floorEntry(k);
                assertEquals(e != null, c.seekLast(k), () -> ctx.get() + " seekLast " + k);
                if (e != null) {
                    walk(c, e.getKey(), e.getValue().last(), rnd, ctx);
                }
            }
            case 4 -> {
                assertEquals(!ref.isEmpty(), c.first(), ctx);
                if (!ref.isEmpty()) {
                    walk(c, ref.firstKey(), ref.firstEntry().getValue().first(), rnd, ctx);
                }
            }
            default -> {
                assertEquals(!ref.isEmpty(), c.last(), ctx);
                if (!ref.isEmpty()) {
                    walk(c, ref.lastKey(), ref.lastEntry().getValue().last(), rnd, ctx);
                }
            }
        }
    }

    /** Steps the cursor from (k,r) in random directions, checking each position against the reference. */
    private void walk(LongIntBTree.Cursor c, long k, int r, SplittableRandom rnd, Supplier<String> ctx) {
        assertAt(c, k, r, ctx);
        int steps = rnd.nextInt(600);
        boolean forward = rnd.nextBoolean();
        for (int i = 0; i < steps; i++) {
            if (rnd.nextInt(40) == 0) {
                forward = !forward;
            }
            long[] n = forward ? after(k, r) : before(k, r);
            boolean moved = forward ? c.next() : c.prev();
            final long fk = k;
            final int fr = r;
            final boolean fw = forward;
            assertEquals(n != null, moved, () -> ctx.get() + (fw ? " next" : " prev") + " from " + fk + "," + fr);
            if (n == null) {
                return;
            }
            k = n[0];
            r = (int) n[1];
            assertAt(c, k, r, ctx);
        }
    }

    private void assertAt(LongIntBTree.Cursor c, long k, int r, Supplier<String> ctx) {
        assertTrue(c.valid(), ctx);
        if (c.key() != k || c.row() != r) {
            fail(ctx.get() + " cursor at " + c.key() + "," + c.row() + ", expected " + k + "," + r);
        }
    }

    private long[] after(long k, int r) {
        Integer nr = ref.get(k).higher(r);
        if (nr != null) {
            return new long[] {k, nr};
        }
        Map.Entry<Long, TreeSet<Integer>> e = ref.higherEntry(k);
        return e == null ? null : new long[] {e.getKey(), e.getValue().first()};
    }

    private long[] before(long k, int r) {
        Integer pr = ref.get(k).lower(r);
        if (pr != null) {
            return new long[] {k, pr};
        }
        Map.Entry<Long, TreeSet<Integer>> e = ref.lowerEntry(k);
        return e == null ? null : new long[] {e.getKey(), e.getValue().last()};
    }

    /** Whole contents equal, forward and backward. */
    private void assertSame(LongIntBTree tree, Supplier<String> ctx) {
        LongIntBTree.Cursor c = tree.cursor();
        boolean v = c.first();
        for (Map.Entry<Long, TreeSet<Integer>> e : ref.entrySet()) {
            for (int r : e.getValue()) {
                assertTrue(v, () -> ctx.get() + " forward ended early");
                assertAt(c, e.getKey(), r, ctx);
                v = c.next();
            }
        }
        assertFalse(v, () -> ctx.get() + " forward has extra pairs");
        v = c.last();
        NavigableMap<Long, TreeSet<Integer>> desc = ref.descendingMap();
        for (Map.Entry<Long, TreeSet<Integer>> e : desc.entrySet()) {
            Iterator<Integer> it = e.getValue().descendingIterator();
            while (it.hasNext()) {
                int r = it.next();
                assertTrue(v, () -> ctx.get() + " backward ended early");
                assertAt(c, e.getKey(), r, ctx);
                v = c.prev();
            }
        }
        assertFalse(v, () -> ctx.get() + " backward has extra pairs");
    }
}
