package io.respsql.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

import static io.respsql.it.Resp.integer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over the wire, issue 13's statement paths: a whole-table {@code SET v = v + 7} (a chunk walk),
 * its overflow (the error, and nothing changed), NULLs kept NULL; and long IN lists (cached
 * plans, a sorted walk of the index) giving exactly the rows of the same range, with the list
 * unsorted, with duplicates, with NULL, on the primary key, a secondary index and no index.
 */
class IncrementAndInListTest extends SqlTestBase {
    private static final int ROWS = 150_000; // three 64K chunks
    private long live;

    @BeforeEach
    void table() {
        s.expectSql("CREATE TABLE t (id int primary key, fk int, v int)", Resp.OK);
        s.expectSql("CREATE INDEX t:fk ON t (fk)", Resp.OK);
        for (int from = 0; from < ROWS; from += 5_000) {
            StringJoiner j = new StringJoiner(",", "INSERT INTO t VALUES ", "");
            for (int i = from; i < from + 5_000; i++) {
                j.add("(" + i + "," + i / 3 + "," + (i % 7919 == 11 ? "NULL" : Integer.toString(i % 1000)) + ")");
            }
            s.expectSql(j.toString(), Resp.OK);
        }
        String deleted = s.sql("DELETE FROM t WHERE id % 4001 = 9");
        live = ROWS - Long.parseLong(deleted.substring(1).trim());
    }

    private long count(String where) {
        String r = s.sql("SELECT COUNT(*) FROM t WHERE " + where);
        return Long.parseLong(r.substring(1).trim());
    }

    @Test
    void wholeTableIncrementKeepsNullsAndAnOverflowChangesNothing() {
        long nulls = count("v IS NULL");
        assertTrue(nulls > 10);
        s.expectSql("UPDATE t SET v = v + 7", integer(live));
        s.expectSql("UPDATE t SET v = v + 7", integer(live)); // the cached plan: 7 is a parameter
        assertEquals(nulls, count("v IS NULL"), "NULL + 7 is NULL");
        assertEquals(live - nulls, count("v = id % 1000 + 14"));
        s.expectSql("SELECT v FROM t WHERE id = 11", Resp.rows(""));

        s.expectSql("UPDATE t SET v = 2147483641 WHERE id = 140001", integer(1));
        s.expectRejectedSql("UPDATE t SET v = v + 7", "ERR value 2147483648 is out of range for INT column 'v'");
        s.expectRejectedSql("UPDATE t SET v = v + 9223372036854775807 WHERE id > 0",
                "ERR integer overflow in 15 + 9223372036854775807");
        s.expectSql("UPDATE t SET v = v + 6", integer(live));
        s.expectSql("SELECT v FROM t WHERE id = 140001", Resp.rows("2147483647"));
        assertEquals(live - nulls - 1, count("v = id % 1000 + 20"));
    }

    /** Every row of {@code table}, in id order. */
    private List<String> all(String table) {
        return SqlSession.Replies.bulks(s.sql("SELECT id, fk, v FROM " + table + " ORDER BY id"));
    }

    /**
     * Increments over an index range (walked through the cursor a batch at a time, no row list)
     * give what the general path gives ({@code v + k + 0} is not an increment) on a copy of the
     * table: primary key {@code > 0} and BETWEEN, the fk index's BETWEEN; NULLs stay NULL; an
     * overflow late in the range is the general path's error and changes nothing; inside MULTI,
     * a later failing statement takes every increment of the block back.
     */
    @Test
    void indexRangeIncrementsMatchTheGeneralPath() {
        s.expectSql("CREATE TABLE u (id int primary key, fk int, v int)", Resp.OK);
        s.expectSql("CREATE INDEX u:fk ON u (fk)", Resp.OK);
        s.expectSql("INSERT INTO u SELECT id, fk, v FROM t", Resp.OK);
        assertEquals(integer(live), s.sql("SELECT COUNT(*) FROM u"));
        long nulls = count("v IS NULL");
        String[] wheres = {"id > 0", "id BETWEEN 60000 AND 140000", "fk BETWEEN 100 AND 45000", "id BETWEEN 5 AND 4"};
        for (String where : wheres) {
            for (int k : new int[] {7, -3}) {
                String a = s.sql("UPDATE t SET v = v + " + k + " WHERE " + where);
                assertEquals(s.sql("UPDATE u SET v = v + " + k + " + 0 WHERE " + where), a, where);
                assertEquals(integer(count(where)), a, where);
            }
        }
        assertEquals(all("u"), all("t"), "the increment path and the general path agree on every row");
        assertEquals(nulls, count("v IS NULL"), "NULL + k is NULL");
        assertEquals(Resp.rows(""), s.sql("SELECT v FROM t WHERE id = 11"));

        // an overflow 100,000 rows into the walk: the general path's error, nothing written
        s.expectSql("UPDATE t SET v = 2147483600 WHERE id = 100003", integer(1));
        s.expectSql("UPDATE u SET v = 2147483600 WHERE id = 100003", integer(1));
        String err = s.sql("UPDATE u SET v = v + 100 + 0 WHERE id > 0");
        assertEquals(Resp.error("ERR value 2147483700 is out of range for INT column 'v'"), err);
        for (String where : new String[] {"id > 0", "id BETWEEN 1 AND 149999", "fk BETWEEN 0 AND 40000"}) {
            s.expectRejectedSql("UPDATE t SET v = v + 100 WHERE " + where, "ERR value 2147483700 is out of range for INT column 'v'");
        }
        assertEquals(all("u"), all("t"), "failed increments change nothing");

        // MULTI: increments over ranges and the whole table, then a failing statement: all taken back
        List<String> before = all("t");
        assertEquals(Resp.OK, s.send("MULTI"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE t SET v = v + 7 WHERE id > 0"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE t SET v = v - 2 WHERE id BETWEEN 1000 AND 90000"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "DELETE FROM t WHERE id BETWEEN 50000 AND 50010"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE t SET v = v + 1 WHERE fk BETWEEN 10000 AND 20000"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE t SET v = v + 1"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "INSERT INTO t VALUES (1, 1, 1)"));
        String exec = s.send("EXEC");
        assertTrue(exec.startsWith("-ERR EXEC aborted: statement 6 of 6 failed: "), exec);
        assertEquals(before, all("t"), "the block's increments are taken back");
    }

    private List<String> rows(String where) {
        return SqlSession.Replies.bulks(s.sql("SELECT id, fk, v FROM t WHERE " + where + " ORDER BY id"));
    }

    @Test
    void longInListsAreTheirRanges() {
        Random rnd = new Random(13);
        long hitsBefore = planCacheHits();
        for (int round = 0; round < 4; round++) {
            int base = rnd.nextInt(ROWS - 2_000);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                ids.add(Integer.toString(base + i));
            }
            Collections.shuffle(ids, rnd);
            List<String> withRepeats = new ArrayList<>(ids);
            withRepeats.addAll(ids.subList(0, 100));
            String list = String.join(",", withRepeats);
            List<String> range = rows("id BETWEEN " + base + " AND " + (base + 999));
            assertTrue(range.size() > 990, "the range has rows");
            assertEquals(range, rows("id IN (" + list + ")"), "primary key, round " + round);
            assertEquals(range, rows("id IN (" + list + ", NULL)"), "a NULL in the list matches nothing");
            assertEquals(range, rows("id + 0 IN (" + list + ") AND id BETWEEN 0 AND " + ROWS), "no index: a hash set per run");
            assertEquals(0, rows("id NOT IN (" + list + ", NULL)").size(), "NOT IN with a NULL is never TRUE");
            assertEquals(live - range.size(), count("id NOT IN (" + list + ")"), "NOT IN is the rest");
            // fk = id / 3: the rows of fk values base/3 .. (base+999)/3 through the secondary index
            List<String> fks = new ArrayList<>();
            for (int f = base / 3; f <= (base + 999) / 3; f++) {
                fks.add(Integer.toString(f));
            }
            Collections.shuffle(fks, rnd);
            fks.add(fks.get(0));
            assertEquals(rows("fk BETWEEN " + base / 3 + " AND " + (base + 999) / 3),
                    rows("fk IN (" + String.join(",", fks) + ")"), "secondary index, round " + round);
            // the UPDATE form changes exactly the range's rows
            String changed = s.sql("UPDATE t SET v = v + 1 WHERE id IN (" + list + ")");
            assertEquals(integer(range.size()), changed);
            s.expectSql("UPDATE t SET v = v - 1 WHERE id BETWEEN " + base + " AND " + (base + 999), integer(range.size()));
            assertEquals(range, rows("id BETWEEN " + base + " AND " + (base + 999)), "the two UPDATEs cancel out");
        }
        assertTrue(planCacheHits() - hitsBefore >= 12, "long IN lists are served from the plan cache");
    }

    private long planCacheHits() {
        for (String line : s.send("INFO", "stats").split("\r\n")) {
            if (line.startsWith("plan_cache_hits:")) {
                return Long.parseLong(line.substring("plan_cache_hits:".length()));
            }
        }
        throw new AssertionError("no plan_cache_hits in INFO");
    }
}
