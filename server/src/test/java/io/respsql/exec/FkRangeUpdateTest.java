package io.respsql.exec;

import io.respsql.storage.IntColumn;
import io.respsql.storage.ReadView;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FK-range UPDATE ({@code SET count = <k> WHERE fk = <k>}, {@code count = count + 1}): an
 * unindexed INT column written over one key of a non-unique index, or a constant over an index
 * range, walks the index a batch at a time into {@code IntColumn.setAll} / {@code addWithin}. Each
 * statement is checked against the general path (a value computed per row and stored by
 * {@code CellStore}, rows collected first), which a filter ({@code AND id > -1}) and an expression
 * ({@code w + 7 + 0}, {@code 42 + 0}) force on the twin column w: several 64K chunks, NULLs (a constant
 * makes them values, an increment keeps them NULL), deleted rows, an indexed target column (which
 * must not take the fast path: its index must follow), a block rolled back, a capture outstanding,
 * an overflow, cached plans with other keys.
 */
class FkRangeUpdateTest extends UpdateTableTest { // t: see UpdateTableTest; fk indexes on g and x
    FkRangeUpdateTest() {
        super(true);
    }

    private long count(String where) {
        return Long.parseLong(h.run("SELECT COUNT(*) FROM t WHERE " + where).substring(1));
    }

    @Test
    void constantAndIncrementOverOneKeyMatchTheGeneralPath() {
        long live = table();
        long nullsBefore = count("v IS NULL");
        assertTrue(nullsBefore > 10);
        // the NULL rows id = 5, 9978, 19951 (id % 9973 = 5) have g = 5, 84, 66
        for (int k : new int[] {5, 84, 66}) {
            assertTrue(count("g = " + k + " AND v IS NULL") > 0, "some NULLs in g = " + k);
        }
        for (int k : new int[] {5, 0, 96, 84, 41, 5, 66, 7, 0}) { // repeats: the cached plan with another key
            String g = " WHERE g = " + k;
            String a = h.run("UPDATE t SET v = v + 7" + g);
            assertEquals(h.run("UPDATE t SET w = w + 7 + 0" + g), a, g);
            assertEquals(":" + count("g = " + k), a, g);
            sameAsGeneralPath(live);
            a = h.run("UPDATE t SET v = " + (k * 3 + 100) + g);
            assertEquals(h.run("UPDATE t SET w = " + (k * 3 + 100) + " + 0" + g + " AND id > -1"), a, g); // computed per row
            assertEquals(":" + count("g = " + k), a, g);
            sameAsGeneralPath(live);
        }
        for (int k : new int[] {5, 84, 66}) {
            expect("SELECT COUNT(*) FROM t WHERE g = " + k + " AND v IS NULL", ":0"); // a constant stores a value over a NULL
        }
        expect("UPDATE t SET v = -3 WHERE g = 8", ":" + count("g = 8")); // a negative constant
        expect("UPDATE t SET w = -3 WHERE g = 8 AND id > -1", ":" + count("g = 8"));
        sameAsGeneralPath(live);
        assertTrue(count("v IS NULL") < nullsBefore);
        // keys with no rows, a NULL key, a key given as text
        expect("UPDATE t SET v = v + 1 WHERE g = 500", ":0");
        expect("UPDATE t SET v = 1 WHERE g = 500", ":0");
        expect("UPDATE t SET v = 1 WHERE g = NULL", ":0");
        expect("UPDATE t SET v = v + 1 WHERE g = NULL", ":0");
        expect("UPDATE t SET v = NULL WHERE g = 9", ":" + count("g = 9")); // NULL: the general path
        expect("UPDATE t SET w = NULL WHERE g = 9 AND id > -1", ":" + count("g = 9"));
        expect("UPDATE t SET v = v + 2 WHERE g = 9", ":" + count("g = 9")); // every row NULL: stays NULL
        sameAsGeneralPath(live);
        expect("SELECT COUNT(*) FROM t WHERE g = 9 AND v IS NULL", ":" + count("g = 9"));
        // a constant over index ranges: the fk index and the primary key
        for (String where : new String[] {" WHERE g BETWEEN 10 AND 20", " WHERE id BETWEEN 65530 AND 131080",
                " WHERE id >= 199990", " WHERE g > 500"}) {
            String a = h.run("UPDATE t SET v = 42" + where);
            assertEquals(h.run("UPDATE t SET w = 42 + 0" + where + " AND id > -1"), a, where);
            assertEquals(":" + count(where.substring(7)), a, where);
            sameAsGeneralPath(live);
        }
        // deleted rows were not written: a re-inserted id starts from its own values
        expect("INSERT INTO t VALUES (7, 1, 1, 7, 1)", "+OK");
        expect("SELECT v FROM t WHERE id = 7", "*1 $1 1");
    }

    /** SET x = ... over g = k with x indexed: x's index must follow (the general path), x = k finds exactly the rows. */
    @Test
    void anIndexedTargetColumnKeepsItsIndex() {
        table();
        long g3 = count("g = 3");
        expect("UPDATE t SET x = 5000 WHERE g = 3", ":" + g3);
        expect("SELECT COUNT(*) FROM t WHERE x = 5000", ":" + g3);
        expect("SELECT COUNT(*) FROM t WHERE x + 0 = 5000", ":" + g3);
        expect("UPDATE t SET x = x + 1 WHERE g = 3", ":" + g3);
        expect("SELECT COUNT(*) FROM t WHERE x = 5001", ":" + g3);
        expect("SELECT COUNT(*) FROM t WHERE x = 5000", ":0");
        expect("SELECT COUNT(*) FROM t WHERE x + 0 = 5001", ":" + g3);
        expect("UPDATE t SET x = 6000 WHERE g BETWEEN 4 AND 6", ":" + count("g BETWEEN 4 AND 6"));
        expect("SELECT COUNT(*) FROM t WHERE x = 6000", ":" + count("g BETWEEN 4 AND 6"));
    }

    @Test
    void anOverflowOverOneKeyChangesNothing() {
        table();
        expect("UPDATE t SET v = 2147483000, w = 2147483000 WHERE id = 194040", ":1"); // g = 40, near the key's end
        expect("SELECT g FROM t WHERE id = 194040", "*1 $2 40");
        String before = h.run("DUMP t");
        String err = h.run("UPDATE t SET v = v + 1000 + 0 WHERE g = 40");
        assertEquals("-ERR value 2147484000 is out of range for INT column 'v'", err);
        assertEquals(err, h.run("UPDATE t SET v = v + 1000 WHERE g = 40"));
        expect("UPDATE t SET v = 2147483648 WHERE g = 40", "-ERR value 2147483648 is out of range for INT column 'v'");
        assertEquals(before, h.run("DUMP t"), "a failed UPDATE changes nothing");
    }

    @Test
    void aRolledBackBlockAndAnOutstandingCaptureKeepTheOldValues() {
        long live = table();
        String before = h.run("DUMP t");
        h.engine.beginBlock();
        expect("UPDATE t SET v = 77 WHERE g = 12", ":" + count("g = 12"));
        expect("UPDATE t SET v = v + 3 WHERE g = 12", ":" + count("g = 12"));
        expect("UPDATE t SET v = 11 WHERE g BETWEEN 30 AND 40", ":" + count("g BETWEEN 30 AND 40"));
        h.engine.rollbackBlock();
        assertEquals(before, h.run("DUMP t"), "the block's writes are taken back");

        ReadView view = h.engine.catalog().readView();
        try {
            int row = 12 + 97 * 1000; // g = 12
            expect("UPDATE t SET v = 77 WHERE g = 12", ":" + count("g = 12"));
            expect("UPDATE t SET v = v + 3 WHERE g = 12", ":" + count("g = 12"));
            expect("UPDATE t SET w = 80 WHERE g = 12 AND id > -1", ":" + count("g = 12"));
            sameAsGeneralPath(live);
            IntColumn v = (IntColumn) view.table("t").column("v");
            assertEquals(row % 1000, v.get(row), "the capture still holds the value before the UPDATEs");
            expect("SELECT v FROM t WHERE id = " + row, "*1 $2 80");
        } finally {
            view.release();
        }
    }

    /**
     * A primary-key range covering every row ({@code id > -1000}) increments over the live rows
     * like the no-WHERE form; one that misses a row does not; an overflow names the first misfit
     * in key order as the general path does, even when slot order differs (ids inserted
     * descending), and writes nothing; in a block it is taken back.
     */
    @Test
    void aCoveringPrimaryKeyRangeIsTheWholeTable() {
        expect("CREATE TABLE d (id int primary key, v int, w int)", "+OK");
        StringBuilder b = new StringBuilder("INSERT INTO d VALUES ");
        for (int id = 150_000; id >= 1; id--) { // slot order is descending key order
            String v = id % 7001 == 3 ? "NULL" : Integer.toString(id % 1000);
            b.append(id < 150_000 ? "," : "").append('(').append(id).append(',').append(v).append(',').append(v).append(')');
        }
        expect(b.toString(), "+OK");
        expect("DELETE FROM d WHERE id % 4999 = 1", ":31");
        long live = 150_000 - 31;
        for (String where : new String[] {" WHERE id > -1000", " WHERE id BETWEEN 1 AND 150000", " WHERE id >= 2",
                " WHERE id < 150000", " WHERE id > 0 AND id < 200000"}) {
            String a = h.run("UPDATE d SET v = v + 5" + where);
            assertEquals(h.run("UPDATE d SET w = w + 5 + 0" + where), a, where);
            assertEquals(h.run("SELECT COUNT(*) FROM d" + where), a, where);
            expect("SELECT COUNT(*) FROM d WHERE v IS NOT DISTINCT FROM w", ":" + live);
        }
        expect("SELECT v FROM d WHERE id = 2", "*1 $2 27"); // 2 + 5 in each of the 5 ranges
        // two misfits: id 20 (slot near the end) and id 140000 (slot near the start); key order names id 20's value
        expect("UPDATE d SET v = 2147483000, w = 2147483000 WHERE id = 140000", ":1");
        expect("UPDATE d SET v = 2147482990, w = 2147482990 WHERE id = 20", ":1");
        String before = h.run("DUMP d");
        String err = h.run("UPDATE d SET v = v + 1000 + 0 WHERE id > -1000");
        assertEquals("-ERR value 2147483990 is out of range for INT column 'v'", err);
        assertEquals(err, h.run("UPDATE d SET v = v + 1000 WHERE id > -1000"));
        assertEquals(before, h.run("DUMP d"), "a failed UPDATE changes nothing");
        h.engine.beginBlock();
        expect("UPDATE d SET v = v - 7 WHERE id > -1000", ":" + live);
        expect("DELETE FROM d WHERE id = 77", ":1");
        expect("UPDATE d SET v = v + 2 WHERE id >= 1", ":" + (live - 1));
        h.engine.rollbackBlock();
        assertEquals(before, h.run("DUMP d"), "the block's increments are taken back");
    }
}
