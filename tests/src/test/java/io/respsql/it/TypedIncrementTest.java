package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.StringJoiner;

import static io.respsql.it.Resp.integer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over the wire, BIGINT and FLOAT columns take the UPDATE kernels INT has ({@code SET v = v + k}
 * over the whole table, a key range, one key of an fk index, a filtered row list;
 * {@code SET v = const} over an fk key or range) and give exactly what the general path gives on
 * a copy of the table ({@code v + k + 0} is not an increment; {@code AND id >= 0} is not a plain
 * key range): NULLs stay NULL, NaN and Infinity stay what they are, a BIGINT overflow is the
 * general path's error and changes nothing, and a failing MULTI block takes every increment back
 * to the exact old values (a FLOAT's {@code + 7 - 7} would not: 0.1 + 7 - 7 is not 0.1).
 */
class TypedIncrementTest extends SqlTestBase {
    private static final int ROWS = 70_000; // two 64K chunks

    private void fill(String type, boolean floats) {
        for (String t : new String[] {"a", "b"}) {
            s.expectSql("CREATE TABLE " + t + " (id int primary key, fk int, v " + type + ")", Resp.OK);
            s.expectSql("CREATE INDEX " + t + ":fk ON " + t + " (fk)", Resp.OK);
        }
        for (int from = 0; from < ROWS; from += 5_000) {
            StringJoiner j = new StringJoiner(",", "INSERT INTO a VALUES ", "");
            for (int i = from; i < from + 5_000; i++) {
                String v;
                if (i % 5003 == 17) {
                    v = "NULL";
                } else if (floats) {
                    v = switch (i % 9001) {
                        case 1 -> "'NaN'";
                        case 2 -> "'Infinity'";
                        case 3 -> "'-Infinity'";
                        case 4 -> "1.7976931348623157E308";
                        case 5 -> "-0.0";
                        default -> (i % 1000) + ".1";
                    };
                } else {
                    v = Long.toString((i % 1000 - 500) * 1_000_000_007L);
                }
                j.add("(" + i + "," + i % 1000 + "," + v + ")");
            }
            s.expectSql(j.toString(), Resp.OK);
        }
        s.expectSql("DELETE FROM a WHERE id % 4001 = 9", integer(18));
        s.expectSql("INSERT INTO b SELECT id, fk, v FROM a", Resp.OK);
    }

    private List<String> all(String table) {
        return SqlSession.Replies.bulks(s.sql("SELECT id, v FROM " + table + " ORDER BY id"));
    }

    /**
     * The rows whose values in a and b are equal, compared as numbers (the reply's text of a
     * FLOAT may round away a last bit): every non-NULL row when a and b agree.
     */
    private long sameValues() {
        String r = s.sql("SELECT COUNT(*) FROM a, b WHERE a.id = b.id AND a.v = b.v");
        return Long.parseLong(r.substring(1).trim());
    }

    private long count(String table, String where) {
        String r = s.sql("SELECT COUNT(*) FROM " + table + " WHERE " + where);
        return Long.parseLong(r.substring(1).trim());
    }

    /** Increments and constant SETs on a (the kernels) and b (the general path) agree on every row. */
    private void kernelsMatchTheGeneralPath() {
        long nulls = count("a", "v IS NULL");
        assertTrue(nulls > 5);
        String[] wheres = {"", " WHERE id > 0", " WHERE id BETWEEN 20000 AND 60000", " WHERE fk = 777",
                " WHERE fk BETWEEN 100 AND 300", " WHERE id % 3 = 1", " WHERE id BETWEEN 5 AND 4"};
        for (String where : wheres) {
            for (int k : new int[] {7, -3}) {
                String got = s.sql("UPDATE a SET v = v + " + k + where);
                assertEquals(s.sql("UPDATE b SET v = v + " + k + " + 0" + where), got, where);
                assertEquals(s.sql("UPDATE a SET v = " + k + " + v" + where), s.sql("UPDATE b SET v = v + " + k + " + 0" + where), where);
                assertEquals(s.sql("UPDATE a SET v = v - " + k + where), s.sql("UPDATE b SET v = v - " + k + " + 0" + where), where);
            }
        }
        assertEquals(all("b"), all("a"), "the increments and the general path agree on every row");
        assertEquals(ROWS - 18 - nulls, sameValues(), "... to the last bit");
        assertEquals(nulls, count("a", "v IS NULL"), "NULL + k is NULL");
        for (String where : new String[] {"fk = 13", "fk BETWEEN 400 AND 420"}) {
            String got = s.sql("UPDATE a SET v = 5 WHERE " + where);
            assertEquals(s.sql("UPDATE b SET v = 5 WHERE " + where + " AND id >= 0"), got, where);
            assertEquals(count("a", where), count("a", where + " AND v = 5"), "NULLs too become 5: " + where);
        }
        assertEquals(all("b"), all("a"), "the constant SETs and the general path agree on every row");
        assertEquals(ROWS - 18 - count("a", "v IS NULL"), sameValues(), "... to the last bit");
    }

    /** A failing block takes every increment back, to the exact old values. */
    private void aFailingBlockTakesTheIncrementsBack() {
        List<String> before = all("a");
        long same = sameValues();
        assertEquals(Resp.OK, s.send("MULTI"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE a SET v = v + 7 WHERE id > 0"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE a SET v = v - 2 WHERE id BETWEEN 1000 AND 50000"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE a SET v = v + 3 WHERE fk = 777"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE a SET v = v + 1"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "UPDATE a SET v = v + 1 WHERE id % 7 = 2"));
        assertEquals("+QUEUED\r\n", s.send("SQL", "INSERT INTO a VALUES (1, 1, 1)"));
        String exec = s.send("EXEC");
        assertTrue(exec.startsWith("-ERR EXEC aborted: statement 6 of 6 failed: "), exec);
        assertEquals(before, all("a"), "the block's increments are taken back");
        assertEquals(same, sameValues(), "... exactly");
    }

    @Test
    void bigintIncrementsMatchTheGeneralPathAndOverflowChangesNothing() {
        fill("bigint", false);
        aFailingBlockTakesTheIncrementsBack(); // first: fresh values (a FLOAT's + 7 - 7 rounds on them)
        kernelsMatchTheGeneralPath();

        // an overflow deep in each walk: the general path's error, nothing written
        s.expectSql("UPDATE a SET v = 9223372036854775800 WHERE id = 50003", integer(1));
        for (String where : new String[] {"", " WHERE id > 0", " WHERE id BETWEEN 1 AND 69999", " WHERE fk = 3",
                " WHERE fk BETWEEN 0 AND 900", " WHERE id % 2 = 1"}) {
            s.expectRejectedSql("UPDATE a SET v = v + 100" + where, "ERR integer overflow in 9223372036854775800 + 100");
        }
        s.expectSql("UPDATE a SET v = -9223372036854775800 WHERE id = 50003", integer(1));
        s.expectRejectedSql("UPDATE a SET v = v - 100 WHERE id > 0", "ERR integer overflow in -9223372036854775800 - 100");
        s.expectRejectedSql("UPDATE a SET v = v + -100 WHERE fk = 3", "ERR integer overflow in -9223372036854775800 + -100");
        s.expectSql("UPDATE a SET v = v + 100 WHERE fk = 3", integer(count("a", "fk = 3")));
        s.expectSql("SELECT v FROM a WHERE id = 50003", Resp.rows("-9223372036854775700"));
    }

    @Test
    void floatIncrementsMatchTheGeneralPath() {
        fill("float", true);
        aFailingBlockTakesTheIncrementsBack(); // first: fresh values (a FLOAT's + 7 - 7 rounds on them)
        kernelsMatchTheGeneralPath();
        assertEquals(2 * count("a", "id % 9001 = 1"), count("a", "v = 'NaN'") + count("a", "id % 9001 = 1"), "NaN + k is NaN");
    }
}
