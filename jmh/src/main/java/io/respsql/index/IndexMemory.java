package io.respsql.index;

import io.respsql.storage.ColumnType;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Memory of message_list (id int primary key, fk int, count INT) with an index on fk, as the
 * large-update test builds it: rows (n, n % MOD, 4) for n = 1..N, arriving in order or shuffled
 * within windows of W rows (200 concurrent clients deliver ids a little out of order; the row slot
 * follows arrival). Reports the accounting (memoryBytes) and, to check it, the heap growth measured
 * by MemoryMXBean after full collections before and after the build.
 *
 * <pre>
 * java -Xms3g -Xmx3g -cp jmh/target/respsql-jmh.jar io.respsql.index.IndexMemory table N MOD W
 * java ... io.respsql.index.IndexMemory trees new|roaring N MOD W
 * </pre>
 * "table" builds the real Table (current LongIntBTree) and reports data and index bytes per row;
 * "trees" builds only the two indexes with the current class, or the fk index as RoaringBitmaps.
 * (The "old" option, the pre-issue-13 class, was measured and removed: bench/index-memory/README.md.)
 */
public final class IndexMemory {
    private IndexMemory() {
    }

    public static void main(String[] args) {
        String what = args[0];
        int a = 1;
        String impl = what.equals("trees") ? args[a++] : "new";
        int n = Integer.parseInt(args[a++]);
        int mod = Integer.parseInt(args[a++]);
        int window = Integer.parseInt(args[a]);
        int[] ids = arrivalOrder(n, window);

        long before = usedAfterGc();
        Object keep;
        long accounted;
        String detail;
        if (what.equals("table")) {
            Table t = new Table("message_list", List.of("id", "fk", "count"),
                    List.of(ColumnType.INT, ColumnType.INT, ColumnType.INT), 0);
            t.createIndex("message_list:fk:index", t.column("fk"));
            IntColumn id = (IntColumn) t.column(0);
            IntColumn fk = (IntColumn) t.column(1);
            IntColumn count = (IntColumn) t.column(2);
            for (int i = 0; i < n; i++) {
                int row = t.allocateRow();
                id.set(row, ids[i]);
                fk.set(row, ids[i] % mod);
                count.set(row, 4);
                t.indexRow(row);
            }
            keep = t;
            accounted = t.dataBytes() + t.indexBytes();
            detail = String.format("data_bytes_per_row=%.2f index_bytes_per_row=%.2f pk=%.2f fk=%.2f",
                    (double) t.dataBytes() / n, (double) t.indexBytes() / n,
                    (double) t.primaryIndex().tree().memoryBytes() / n,
                    (double) t.indexes().get(1).tree().memoryBytes() / n);
        } else if (impl.equals("roaring")) {
            // The posting-list option: the fk index as one RoaringBitmap of rows per key (the
            // keys themselves, 100 to 100,000 of them, in a plain array here: a lower bound).
            org.roaringbitmap.RoaringBitmap[] fk = new org.roaringbitmap.RoaringBitmap[mod];
            for (int i = 0; i < mod; i++) {
                fk[i] = new org.roaringbitmap.RoaringBitmap();
            }
            for (int i = 0; i < n; i++) {
                fk[ids[i] % mod].add(i);
            }
            long bytes = 0;
            for (org.roaringbitmap.RoaringBitmap b : fk) {
                b.runOptimize();
                bytes += b.getSizeInBytes();
            }
            // A rough timing of the FK walk (not JMH): iterate the rows of key 1, 20 times.
            long t0 = System.nanoTime();
            long sum = 0;
            for (int r = 0; r < 20; r++) {
                org.roaringbitmap.IntIterator it = fk[1 + r % (mod - 1)].getIntIterator();
                while (it.hasNext()) {
                    sum += it.next();
                }
            }
            long walkNs = (System.nanoTime() - t0) / 20;
            keep = fk;
            accounted = bytes;
            detail = String.format("fk_serialized=%.2f walk_ns_per_key=%d (%d rows/key) sum=%d",
                    (double) bytes / n, walkNs, n / mod, sum);
        } else if (impl.equals("new")) {
            LongIntBTree pk = new LongIntBTree();
            LongIntBTree fk = new LongIntBTree();
            for (int i = 0; i < n; i++) {
                pk.insert(ids[i], i);
                fk.insert(ids[i] % mod, i);
            }
            keep = new Object[] {pk, fk};
            accounted = pk.memoryBytes() + fk.memoryBytes();
            detail = String.format("pk=%.2f fk=%.2f", (double) pk.memoryBytes() / n, (double) fk.memoryBytes() / n);
        } else {
            throw new IllegalArgumentException("trees new|roaring, not " + impl);
        }
        long after = usedAfterGc(); // ids stays reachable: it was counted in "before" too
        System.out.printf("%s impl=%s rows=%d mod=%d window=%d accounted_bytes_per_row=%.2f heap_bytes_per_row=%.2f %s%n",
                what, impl, n, mod, window, (double) accounted / n, (double) (after - before) / n, detail);
        if (keep.hashCode() == 42 && ids.length == 42) {
            System.out.print(""); // keeps the structures reachable until the second measurement
        }
    }

    /** Ids 1..n, each window of w shuffled (w <= 1: in order). Built before the first measurement. */
    private static int[] arrivalOrder(int n, int w) {
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i + 1;
        }
        SplittableRandom rnd = new SplittableRandom(13);
        for (int from = 0; w > 1 && from < n; from += w) {
            int to = Math.min(n, from + w);
            for (int i = to - 1; i > from; i--) {
                int j = from + rnd.nextInt(i - from + 1);
                int t = ids[i];
                ids[i] = ids[j];
                ids[j] = t;
            }
        }
        return ids;
    }

    private static long usedAfterGc() {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, m.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
