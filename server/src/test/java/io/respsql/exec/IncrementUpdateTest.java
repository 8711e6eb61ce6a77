package io.respsql.exec;

import io.respsql.storage.ReadView;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code UPDATE t SET v = v ± k} into an unindexed INT column: the increment path (a chunk walk
 * without WHERE, a row-list loop with one) must answer and store exactly what the general path
 * does, which {@code SET v = v + k + 0} (not an increment) still takes: over several 64K chunks,
 * with deleted slots, NULLs, an overflow anywhere, a block rolled back and a capture outstanding.
 */
class IncrementUpdateTest extends UpdateTableTest { // t: see UpdateTableTest, without the fk indexes
    IncrementUpdateTest() {
        super(false);
    }

    @Test
    void wholeTableAndRangesMatchTheGeneralPath() {
        long live = table();
        long nulls = Long.parseLong(h.run("SELECT COUNT(*) FROM t WHERE v IS NULL").substring(1));
        assertTrue(nulls > 10, "some NULLs");
        String[][] pairs = {
            {"v = v + 7", "w = w + 7 + 0"},
            {"v = v - 3", "w = w - 3 + 0"},
            {"v = 2 + v", "w = 2 + w + 0"},
            {"v = v + -5", "w = w - 5 + 0"},
        };
        for (String[] p : pairs) {
            for (String where : new String[] {"", " WHERE id > 0", " WHERE id BETWEEN 70000 AND 140000",
                    " WHERE id IN (3, 70000, 65535, 65536, 7, 199999)"}) {
                String a = h.run("UPDATE t SET " + p[0] + where);
                String b = h.run("UPDATE t SET " + p[1] + where);
                assertEquals(b, a, p[0] + where);
                sameAsGeneralPath(live);
            }
        }
        expect("SELECT COUNT(*) FROM t WHERE v IS NULL", ":" + nulls); // NULL + 7 is NULL
        expect("SELECT v FROM t WHERE id = 5", "*1 $0"); // 5 % 9973 = 5: NULL
        expect("SELECT v FROM t WHERE id = 1234", "*1 $3 236"); // 234 + 2 * (7 - 3 + 2 - 5): no WHERE and id > 0
        // the same text again: a cached plan whose step is a parameter
        for (int k = 1; k <= 3; k++) {
            assertEquals(":" + live, h.run("UPDATE t SET v = v + " + k));
            assertEquals(":" + live, h.run("UPDATE t SET w = w + " + k + " + 0"));
        }
        sameAsGeneralPath(live);
    }

    @Test
    void anOverflowAnywhereChangesNothingAndReadsAsTheGeneralPath() {
        long live = table();
        expect("UPDATE t SET v = 2147483640, w = 2147483640 WHERE id = 150001", ":1");
        String before = h.run("DUMP t");
        String err = h.run("UPDATE t SET v = v + 8 + 0");
        assertEquals("-ERR value 2147483648 is out of range for INT column 'v'", err);
        assertEquals(err, h.run("UPDATE t SET v = v + 8"));
        assertEquals(err, h.run("UPDATE t SET v = v + 8 WHERE id > 0"));
        assertEquals(err, h.run("UPDATE t SET v = v + 8 WHERE id IN (1, 150001, 2)"));
        assertEquals(before, h.run("DUMP t"), "a failed UPDATE changes nothing");
        // below the range, and beyond 64 bits: the first non-NULL row in slot order is named
        expect("UPDATE t SET v = v - 2147483649", "-ERR value -2147483649 is out of range for INT column 'v'");
        expect("UPDATE t SET v = v + 9223372036854775807",
                "-ERR value 9223372036854775807 is out of range for INT column 'v'"); // row 0 holds 0
        expect("UPDATE t SET v = v + 9223372036854775807 WHERE id > 0", "-ERR integer overflow in 1 + 9223372036854775807");
        assertEquals(h.run("UPDATE t SET v = v + 9223372036854775807 + 0 WHERE id > 0"),
                h.run("UPDATE t SET v = v + 9223372036854775807 WHERE id > 0"));
        assertEquals(before, h.run("DUMP t"), "failed UPDATEs change nothing");
        expect("UPDATE t SET v = v + NULL WHERE id < 3", ":3"); // k NULL: every value NULL (the general path)
        expect("SELECT COUNT(*) FROM t WHERE v IS NULL AND id < 3", ":3");
        sameAsGeneralPathAfter(live);
    }

    private void sameAsGeneralPathAfter(long live) {
        expect("UPDATE t SET w = NULL WHERE id < 3", ":3");
        sameAsGeneralPath(live);
    }

    @Test
    void aRolledBackBlockAndAnOutstandingCaptureKeepTheOldValues() {
        long live = table();
        String before = h.run("DUMP t");
        h.engine.beginBlock();
        assertEquals(":" + live, h.run("UPDATE t SET v = v + 7"));
        assertEquals(":" + (live - 1), h.run("UPDATE t SET v = v + 1 WHERE id > 0"));
        h.engine.rollbackBlock();
        assertEquals(before, h.run("DUMP t"), "the block's increments are taken back");

        ReadView view = h.engine.catalog().readView();
        try {
            assertEquals(":" + live, h.run("UPDATE t SET v = v + 7"));
            assertEquals(":" + live, h.run("UPDATE t SET w = w + 7 + 0"));
            sameAsGeneralPath(live);
            io.respsql.storage.Table old = view.table("t");
            io.respsql.storage.IntColumn v = (io.respsql.storage.IntColumn) old.column("v");
            assertEquals(1234 % 1000, v.get(1234), "the capture still holds the value before the UPDATE");
        } finally {
            view.release();
        }
        expect("SELECT v FROM t WHERE id = 1234", "*1 $3 241");
    }

    /**
     * An index range without filter is walked through the cursor a batch at a time (no row list):
     * over a non-unique secondary index (a tree with runs of a key across leaves) and over the
     * primary key, it matches the general path; an overflow found many batches into the walk
     * takes back every earlier batch (DUMP unchanged, the general path's error); a block takes
     * back the range increments and keeps a statement that failed inside it out; a capture taken
     * before the UPDATE keeps the old values.
     */
    @Test
    void anIndexRangeIsWalkedInBatchesLikeTheGeneralPath() {
        long live = table();
        expect("CREATE INDEX t_g ON t (g)", "+OK");
        for (String where : new String[] {" WHERE g BETWEEN 10 AND 60", " WHERE g > 90", " WHERE g = 3",
                " WHERE id BETWEEN 65530 AND 131080", " WHERE id >= 199990", " WHERE g > 500"}) {
            String a = h.run("UPDATE t SET v = v + 11" + where);
            assertEquals(h.run("UPDATE t SET w = w + 11 + 0" + where), a, where);
            assertEquals(h.run("SELECT COUNT(*) FROM t" + where), a, where);
            sameAsGeneralPath(live);
        }
        // an overflow late in the walk: g = 40 at id 194,040 (some 60,000 rows, 15 batches, into g BETWEEN 10 AND 60)
        expect("UPDATE t SET v = 2147483000, w = 2147483000 WHERE id = 194040", ":1");
        expect("SELECT g FROM t WHERE id = 194040", "*1 $2 40");
        String before = h.run("DUMP t");
        String err = h.run("UPDATE t SET v = v + 1000 + 0 WHERE g BETWEEN 10 AND 60");
        assertEquals("-ERR value 2147484000 is out of range for INT column 'v'", err);
        assertEquals(err, h.run("UPDATE t SET v = v + 1000 WHERE g BETWEEN 10 AND 60"));
        assertEquals(err, h.run("UPDATE t SET v = v + 1000 WHERE id BETWEEN 1 AND 199999"));
        assertEquals(before, h.run("DUMP t"), "a failed range increment changes nothing");

        h.engine.beginBlock();
        assertEquals(h.run("SELECT COUNT(*) FROM t WHERE g BETWEEN 10 AND 60"), h.run("UPDATE t SET v = v + 5 WHERE g BETWEEN 10 AND 60"));
        assertEquals(err.replace("2147484000", "2147484005"), h.run("UPDATE t SET v = v + 1000 WHERE g BETWEEN 10 AND 60"));
        assertEquals(h.run("SELECT COUNT(*) FROM t WHERE id BETWEEN 100 AND 150000"), h.run("UPDATE t SET v = v - 9 WHERE id BETWEEN 100 AND 150000"));
        expect("DELETE FROM t WHERE id BETWEEN 120 AND 130", ":11");
        expect("UPDATE t SET v = v + 2 WHERE id > 0", ":" + (live - 1 - 11));
        h.engine.rollbackBlock();
        assertEquals(before, h.run("DUMP t"), "the block's range increments are taken back");

        ReadView view = h.engine.catalog().readView();
        try {
            String a = h.run("UPDATE t SET v = v + 7 WHERE g BETWEEN 0 AND 48");
            assertEquals(h.run("UPDATE t SET w = w + 7 + 0 WHERE g BETWEEN 0 AND 48"), a);
            sameAsGeneralPath(live);
            io.respsql.storage.IntColumn v = (io.respsql.storage.IntColumn) view.table("t").column("v");
            assertEquals(1234 % 1000, v.get(1234), "the capture still holds the value before the UPDATE");
        } finally {
            view.release();
        }
        expect("SELECT v FROM t WHERE id = 1234", "*1 $3 " + (1234 % 1000 + (1234 % 97 <= 48 ? 7 : 0)
                + (1234 % 97 >= 10 && 1234 % 97 <= 60 ? 11 : 0) + (1234 % 97 > 90 ? 11 : 0) + (1234 % 97 == 3 ? 11 : 0)));
    }
}
