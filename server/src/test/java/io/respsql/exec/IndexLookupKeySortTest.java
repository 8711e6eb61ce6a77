package io.respsql.exec;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An IN list on an indexed column is probed in key order, each key once (IndexLookup sorts and
 * deduplicates the keys: by a bitmap when they lie close together, else by a comparison sort).
 * Shuffled lists with repeats, dense and spread out, negative keys, keys with no row and NULL,
 * through the primary key and a non-unique index: the UPDATE's count and every row's value
 * against a model, and a SELECT's count.
 */
class IndexLookupKeySortTest {
    private static final int ROWS = 3000;
    private final EngineHarness h = new EngineHarness();

    @Test
    void inListsInAnyOrderHitEachRowOnce() {
        assertEquals("+OK", h.run("CREATE TABLE t (id int primary key, g int, v int)"));
        assertEquals("+OK", h.run("CREATE INDEX t_g ON t (g)"));
        StringJoiner rows = new StringJoiner(",", "INSERT INTO t VALUES ", "");
        for (int i = 0; i < ROWS; i++) {
            rows.add("(" + (i - 500) + "," + (i % 300 - 20) + ",0)"); // ids -500..2499, g -20..279
        }
        assertEquals("+OK", h.run(rows.toString()));
        int[] model = new int[ROWS];
        SplittableRandom rnd = new SplittableRandom(17);
        for (int trial = 0; trial < 120; trial++) {
            boolean byG = trial % 3 == 2;
            int n = rnd.nextInt(1, 400);
            int spread = switch (trial % 4) {
                case 0 -> n; // dense: the bitmap
                case 1 -> 8 * n - 1; // just inside the bitmap's span
                case 2 -> 8 * n + 1; // just outside: the comparison sort
                default -> 1_000_000; // far apart
            };
            int from = rnd.nextInt(-700, byG ? 300 : 2600);
            StringJoiner in = new StringJoiner(",");
            boolean[] listed = new boolean[ROWS];
            for (int k = 0; k < n; k++) {
                int key = from + rnd.nextInt(Math.max(1, spread));
                if (rnd.nextInt(5) == 0 && k > 0) {
                    key = from; // repeats
                }
                in.add(Integer.toString(key));
                for (int r = 0; r < ROWS; r++) {
                    if ((byG ? r % 300 - 20 : r - 500) == key) {
                        listed[r] = true;
                    }
                }
            }
            if (trial % 7 == 0) {
                in.add("NULL");
            }
            int hits = 0;
            for (int r = 0; r < ROWS; r++) {
                if (listed[r]) {
                    hits++;
                    model[r]++;
                }
            }
            String col = byG ? "g" : "id";
            assertEquals(":" + hits, h.run("UPDATE t SET v = v + 1 WHERE " + col + " IN (" + in + ")"), "trial " + trial);
            assertEquals(":" + hits, h.run("SELECT COUNT(*) FROM t WHERE " + col + " IN (" + in + ")"), "trial " + trial);
        }
        for (int r = 0; r < ROWS; r++) {
            assertEquals(":1", h.run("SELECT COUNT(*) FROM t WHERE id = " + (r - 500) + " AND v = " + model[r]),
                    "row " + (r - 500) + " holds " + model[r]);
        }
    }
}
