import io.respsql.storage.Catalog;
import io.respsql.storage.ColumnType;
import io.respsql.storage.LongColumn;
import io.respsql.storage.ReadView;
import io.respsql.storage.Table;

import java.util.Arrays;
import java.util.List;

/**
 * What the event loop pays for copy-on-write while a read view is held (issue 11 §4): the time of
 * one point write (LongColumn.set) to a row of a 64K-row chunk (a) with no capture outstanding and
 * (b) as the first write after a capture (the 512 KB chunk is copied), plus taking and releasing the
 * view itself. Run: java -Xmx3g [GC flags] -cp server/target/respsql-server-*-all.jar CaptureCopyCost.java [rows]
 */
public class CaptureCopyCost {
    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        Catalog cat = new Catalog();
        Table t = new Table("customers", List.of("customer_id", "lifetime_value_cents"),
                List.of(ColumnType.BIGINT, ColumnType.BIGINT), 0);
        cat.add(t);
        LongColumn v = (LongColumn) t.column(1);
        LongColumn id = (LongColumn) t.column(0);
        for (int i = 0; i < rows; i++) {
            int r = t.allocateRow();
            id.set(r, i + 1);
            v.set(r, i);
        }
        int n = 3000;
        long[] plain = new long[n], first = new long[n], second = new long[n], take = new long[n], release = new long[n];
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(4);
        for (int round = 0; round < 2; round++) { // round 0 warms up the JIT
            for (int k = 0; k < n; k++) {
                int row = rnd.nextInt(rows);
                long t0 = System.nanoTime();
                v.set(row, k);
                long t1 = System.nanoTime();
                ReadView view = cat.readView(List.of(t));
                long t2 = System.nanoTime();
                v.set(row, k + 1); // first write to this chunk since the capture: copies it
                long t3 = System.nanoTime();
                v.set((row + 1) % rows, k); // same chunk (mostly), now private
                long t4 = System.nanoTime();
                view.release();
                long t5 = System.nanoTime();
                plain[k] = t1 - t0; take[k] = t2 - t1; first[k] = t3 - t2; second[k] = t4 - t3; release[k] = t5 - t4;
            }
        }
        System.out.printf("rows %d (%d chunks of %d), %d samples each, ns%n", rows, (rows + 65535) / 65536, 65536, n);
        print("write, no capture outstanding", plain);
        print("readView(customers) (event loop, per query)", take);
        print("first write after the capture (copies 512 KB)", first);
        print("next write, same chunk", second);
        print("view.release()", release);
    }

    static void print(String what, long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        System.out.printf("  %-48s p50 %9d  p90 %9d  p99 %9d  max %9d%n", what, s[s.length / 2], s[(int) (s.length * 0.9)],
                s[(int) Math.ceil(s.length * 0.99) - 1], s[s.length - 1]);
    }
}
