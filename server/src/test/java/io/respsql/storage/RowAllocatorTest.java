package io.respsql.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RowAllocatorTest {
    private final RowAllocator rows = new RowAllocator();

    private void allocate(int n) {
        for (int i = 0; i < n; i++) {
            rows.allocate();
        }
    }

    /** Every live row, walking with nextLive as scans do. */
    private List<Integer> walk() {
        List<Integer> out = new ArrayList<>();
        for (int r = rows.nextLive(0); r >= 0; r = rows.nextLive(r + 1)) {
            out.add(r);
        }
        return out;
    }

    @Test
    void freshAllocatorIsEmpty() {
        assertEquals(0, rows.liveCount());
        assertEquals(0, rows.highWater());
        assertEquals(-1, rows.nextLive(0));
        assertFalse(rows.isLive(0));
        assertFalse(rows.isLive(-1));
    }

    @Test
    void allocatesConsecutiveSlots() {
        for (int i = 0; i < 5; i++) {
            assertEquals(i, rows.allocate());
        }
        assertEquals(5, rows.liveCount());
        assertEquals(5, rows.highWater());
        assertEquals(List.of(0, 1, 2, 3, 4), walk());
        assertTrue(rows.isLive(4));
        assertFalse(rows.isLive(5));
    }

    @Test
    void releasedSlotsAreReusedMostRecentFirst() {
        allocate(10);
        rows.release(3);
        rows.release(7);
        assertEquals(8, rows.liveCount());
        assertFalse(rows.isLive(3));
        assertFalse(rows.isLive(7));
        assertEquals(List.of(0, 1, 2, 4, 5, 6, 8, 9), walk());

        assertEquals(7, rows.peekNext(0));
        assertEquals(3, rows.peekNext(1));
        assertEquals(10, rows.peekNext(2), "past the free list come fresh slots");
        assertEquals(11, rows.peekNext(3));

        assertEquals(7, rows.allocate());
        assertEquals(3, rows.allocate());
        assertEquals(10, rows.allocate());
        assertEquals(11, rows.liveCount());
        assertEquals(11, rows.highWater(), "reuse does not raise the high water mark");
    }

    @Test
    void peekDoesNotTakeTheSlot() {
        allocate(2);
        rows.release(0);
        assertEquals(0, rows.peekNext(0));
        assertEquals(0, rows.peekNext(0));
        assertEquals(1, rows.liveCount());
        assertEquals(0, rows.allocate());
    }

    @Test
    void churnDoesNotGrowTheTable() {
        allocate(100);
        for (int round = 0; round < 1000; round++) {
            rows.release(round % 100);
            assertEquals(round % 100, rows.allocate());
        }
        assertEquals(100, rows.highWater());
        assertEquals(100, rows.liveCount());
    }

    @Test
    void nextLiveBatchListsWhatNextLiveWalks() {
        allocate(Chunks.SIZE + 5000);
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        for (int row = 0; row < Chunks.SIZE + 5000; row++) {
            // runs of released slots, whole words and a whole chunk boundary among them
            if (r.nextInt(4) == 0 || (row >= 640 && row < 900) || (row >= Chunks.SIZE - 70 && row < Chunks.SIZE + 3)) {
                rows.release(row);
            }
        }
        java.util.List<Integer> walked = new java.util.ArrayList<>();
        for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
            walked.add(row);
        }
        for (int cap : new int[] {1, 7, 64, 1024}) {
            java.util.List<Integer> batched = new java.util.ArrayList<>();
            int[] dst = new int[cap];
            int from = 0;
            int n;
            while ((n = rows.nextLiveBatch(from, dst, cap)) > 0) {
                for (int i = 0; i < n; i++) {
                    batched.add(dst[i]);
                }
                from = dst[n - 1] + 1;
            }
            assertEquals(walked, batched, "cap " + cap);
        }
        assertEquals(0, rows.nextLiveBatch(Chunks.SIZE + 5000, new int[4], 4));
        assertEquals(0, rows.nextLiveBatch(-1, new int[4], 4));
    }

    @Test
    void nextLiveSkipsDeletedRowsInsideAWord() {
        allocate(64 * 3);
        for (int r = 1; r < 64 * 3 - 1; r++) {
            rows.release(r);
        }
        assertEquals(0, rows.nextLive(0));
        assertEquals(191, rows.nextLive(1), "skips whole empty words");
        assertEquals(List.of(0, 191), walk());
        assertEquals(-1, rows.nextLive(192));
        assertEquals(-1, rows.nextLive(-5));
    }

    @Test
    void nextLiveCrossesChunkBoundaries() {
        int n = Chunks.SIZE * 2 + 500; // three bitmap chunks
        allocate(n);
        assertEquals(3, rows.chunkCount());
        assertEquals(n, rows.liveCount());
        assertEquals(Chunks.SIZE - 1, rows.nextLive(Chunks.SIZE - 1));
        assertEquals(Chunks.SIZE, rows.nextLive(Chunks.SIZE));

        // Empty the end of chunk 0, all of chunk 1 and the start of chunk 2.
        int from = Chunks.SIZE - 10;
        int to = Chunks.SIZE * 2 + 10;
        for (int r = from; r < to; r++) {
            rows.release(r);
        }
        assertEquals(n - (to - from), rows.liveCount());
        assertEquals(from - 1, rows.nextLive(from - 1));
        assertEquals(to, rows.nextLive(from), "the walk jumps over an empty chunk");
        assertEquals(to, rows.nextLive(Chunks.SIZE + 5));
        assertFalse(rows.isLive(Chunks.SIZE));
        assertTrue(rows.isLive(to));

        List<Integer> live = walk();
        assertEquals(n - (to - from), live.size());
        assertEquals(from - 1, (int) live.get(from - 1));
        assertEquals(to, (int) live.get(from));
        assertEquals(n - 1, (int) live.get(live.size() - 1));
    }

    @Test
    void nextLiveStopsAtTheHighWaterMark() {
        allocate(Chunks.SIZE + 1);
        rows.release(Chunks.SIZE);
        assertEquals(-1, rows.nextLive(Chunks.SIZE), "the last chunk holds no live row");
        assertEquals(Chunks.SIZE - 1, rows.nextLive(Chunks.SIZE - 1));
    }

    @Test
    void randomReleasesMatchASetModel() {
        java.util.Random rnd = new java.util.Random(7);
        TreeSet<Integer> model = new TreeSet<>();
        for (int i = 0; i < 70_000; i++) {
            model.add(rows.allocate());
        }
        for (int i = 0; i < 50_000; i++) {
            int r = rnd.nextInt(70_000);
            if (model.remove(r)) {
                rows.release(r);
            }
        }
        for (int i = 0; i < 5_000; i++) {
            assertTrue(model.add(rows.allocate()), "a reused slot must have been free");
        }
        assertEquals(model.size(), rows.liveCount());
        assertEquals(new ArrayList<>(model), walk());
        for (int i = 0; i < 1000; i++) {
            int from = rnd.nextInt(rows.highWater() + 10);
            Integer expected = model.ceiling(from);
            assertEquals(expected == null ? -1 : expected, rows.nextLive(from), "nextLive(" + from + ")");
        }
    }

    @Test
    void clearForgetsEverything() {
        allocate(Chunks.SIZE + 3);
        rows.release(5);
        rows.clear();
        assertEquals(0, rows.liveCount());
        assertEquals(0, rows.highWater());
        assertEquals(0, rows.chunkCount());
        assertEquals(-1, rows.nextLive(0));
        assertEquals(0, rows.allocate(), "the free list is gone too");
    }

    @Test
    void bitmapMemoryIsPerChunk() {
        allocate(1);
        long one = rows.memoryBytes();
        allocate(Chunks.SIZE - 1);
        assertEquals(one, rows.memoryBytes(), "a chunk's bitmap is allocated once");
        allocate(1);
        assertTrue(rows.memoryBytes() > one);
    }
}
