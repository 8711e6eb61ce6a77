package io.respsql.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.respsql.it.Resp.EMPTY;
import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.integer;
import static io.respsql.it.Resp.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A statement that fails changes nothing, however many rows it had already gone through: every
 * table's DUMP is compared before and after, and the indexes are probed afterwards.
 */
class AtomicityTest extends SqlTestBase {
    private static final int N = 1_000;

    /** t holds rows (n, n * 10, 'name' + n) for n = 1..1000, with indexes on v and name. */
    @BeforeEach
    void createTable() {
        s.expectSql("CREATE TABLE t (id int primary key, v int, name text)", OK);
        s.expectSql("CREATE INDEX t:v:index ON t (v)", OK);
        s.expectSql("CREATE INDEX t:name:index ON t (name)", OK);
        s.expectSql(SqlText.insert("t", 1, N, n -> n + "," + n * 10 + ",name" + n), OK);
    }

    /** Every row of t as {@code id,v,name}, in key order, checked through each index as well. */
    private void assertRows(List<String> expected) {
        s.expectSql("SELECT * FROM t ORDER BY id", rows(expected));
        s.expectSql("SELECT COUNT(*) FROM t", integer(expected.size()));
        for (String row : expected) {
            String[] f = row.split(",");
            assertEquals(rows(row), s.sql("SELECT * FROM t WHERE id = " + f[0]), "by key " + f[0]);
            assertTrue(SqlSession.Replies.bulks(s.sql("SELECT * FROM t WHERE v = " + f[1])).contains(row), "by v " + f[1]);
            assertTrue(SqlSession.Replies.bulks(s.sql("SELECT * FROM t WHERE name = '" + f[2] + "'")).contains(row),
                    "by name " + f[2]);
        }
    }

    private static List<String> initialRows() {
        List<String> rows = new ArrayList<>();
        for (int n = 1; n <= N; n++) {
            rows.add(n + "," + n * 10 + ",name" + n);
        }
        return rows;
    }

    @Test
    void insertWithADuplicateInsideTheBatchChangesNothing() {
        String batch = SqlText.insert("t", 2001, 2500, n -> n + ",1,new" + n) + ",(2250,2,again)";
        String reply = s.rejected("SQL", batch);
        assertEquals(Resp.error("ERR INSERT on Existing Data - use UPDATE (table 't' already has id=2250)"), reply);
        s.expectSql("SELECT COUNT(*) FROM t WHERE id BETWEEN 2001 AND 2500", integer(0));
        s.expectSql("SELECT id FROM t WHERE v = 1", EMPTY);
        s.expectSql("SELECT id FROM t WHERE name = new2001", EMPTY);
        assertRows(initialRows());
    }

    @Test
    void insertWithADuplicateOfAStoredRowChangesNothing() {
        // the clash is the batch's last row, after 500 new ones
        String batch = SqlText.insert("t", 2001, 2500, n -> n + ",1,new" + n) + ",(1000,2,again)";
        String reply = s.rejected("SQL", batch);
        assertTrue(reply.startsWith("-ERR INSERT on Existing Data - use UPDATE"), reply);
        s.expectSql("SELECT COUNT(*) FROM t WHERE id BETWEEN 2001 AND 2500", integer(0));
        s.expectSql("SELECT id FROM t WHERE v = 1", EMPTY);
        assertRows(initialRows());
        // and the same rows without the clash go in
        s.expectSql(SqlText.insert("t", 2001, 2500, n -> n + ",1,new" + n), OK);
        s.expectSql("SELECT COUNT(*) FROM t WHERE v = 1", integer(500));
    }

    @Test
    void insertWithABadValueInTheLastRowChangesNothing() {
        s.expectRejectedSql(SqlText.insert("t", 2001, 2500, n -> n + ",1,new" + n) + ",(2501,abc,x)",
                "ERR value abc is not a valid INT for column 'v'");
        s.expectRejectedSql(SqlText.insert("t", 2001, 2500, n -> n + ",1,new" + n) + ",(2501,2147483648,x)",
                "ERR value 2147483648 is out of range for INT column 'v'");
        s.expectSql("SELECT COUNT(*) FROM t", integer(N));
        s.expectSql("SELECT id FROM t WHERE v = 1", EMPTY);
    }

    @Test
    void updateFailingOnOneRowChangesNoRow() {
        s.expectSql("UPDATE t SET v=2147483647 WHERE id=1000", integer(1));
        List<String> expected = initialRows();
        expected.set(N - 1, "1000,2147483647,name1000");
        // every row but the last could take v+1
        s.expectRejectedSql("UPDATE t SET v=v+1", "ERR value 2147483648 is out of range for INT column 'v'");
        s.expectRejectedSql("UPDATE t SET v=v+1 WHERE id BETWEEN 990 AND 1000",
                "ERR value 2147483648 is out of range for INT column 'v'");
        s.expectRejectedSql("UPDATE t SET v=v+1 WHERE v >= 9000", "ERR value 2147483648 is out of range for INT column 'v'");
        // a text assignment listed before the failing one is not applied either
        s.expectRejectedSql("UPDATE t SET name=renamed, v=v+1", "ERR value 2147483648 is out of range for INT column 'v'");
        // only the last row's value does not fit (was a division by zero there, which SQL now defines as NULL)
        s.expectRejectedSql("UPDATE t SET v=2147482648+id WHERE id > 500", "ERR value 2147483648 is out of range for INT column 'v'");
        s.expectSql("SELECT id FROM t WHERE name = renamed", EMPTY);
        assertRows(expected);
        // without the row at the limit the same update goes through
        s.expectSql("UPDATE t SET name=renamed, v=v+1 WHERE id < 1000", integer(N - 1));
        s.expectSql("SELECT COUNT(*) FROM t WHERE name = renamed", integer(N - 1));
        s.expectSql("SELECT id FROM t WHERE v = 11", rows("1"));
        s.expectSql("SELECT id FROM t WHERE v = 10", EMPTY);
    }

    @Test
    void primaryKeyUpdateOntoAnExistingKeyChangesNothing() {
        s.expectRejectedSql("UPDATE t SET id=2 WHERE id=1", "ERR UPDATE would duplicate primary key id=2 in table 't'");
        // rows 1..999 would move onto free keys... except 999, whose new key 1000 is held by an unmatched row
        s.expectRejectedSql("UPDATE t SET id=id+1 WHERE id < 1000", "ERR UPDATE would duplicate primary key id=1000 in table 't'");
        // two matched rows would get the same key
        s.expectRejectedSql("UPDATE t SET id=5000 WHERE id BETWEEN 1 AND 2",
                "ERR UPDATE would duplicate primary key id=5000 in table 't'");
        s.expectRejectedSql("UPDATE t SET id=id/2 WHERE id > 900", "ERR UPDATE would duplicate primary key id=450 in table 't'");
        s.expectSql("SELECT * FROM t WHERE id = 5000", EMPTY);
        assertRows(initialRows());
    }

    @Test
    void primaryKeyShiftOverConsecutiveKeysSucceeds() {
        s.expectSql("UPDATE t SET id=id+1", integer(N));
        List<String> shifted = new ArrayList<>();
        for (int n = 1; n <= N; n++) {
            shifted.add((n + 1) + "," + n * 10 + ",name" + n);
        }
        s.expectSql("SELECT * FROM t WHERE id = 1", EMPTY);
        assertRows(shifted);

        // back down, over a range only
        s.expectSql("UPDATE t SET id=id-1 WHERE id BETWEEN 2 AND 501", integer(500));
        s.expectSql("SELECT id,v FROM t WHERE id BETWEEN 499 AND 503 ORDER BY id", rows("499,4990", "500,5000", "502,5010", "503,5020"));
        s.expectSql("SELECT * FROM t WHERE id = 501", EMPTY);

        // a permutation of the keys
        s.expectSql("UPDATE t SET id=1002-id", integer(N));
        s.expectSql("SELECT id,v FROM t WHERE id BETWEEN 1 AND 3 ORDER BY id", rows("1,10000", "2,9990", "3,9980"));
        s.expectSql("SELECT id FROM t WHERE v = 10", rows("1001"));
        s.expectSql("SELECT COUNT(*) FROM t", integer(N));
    }
}
