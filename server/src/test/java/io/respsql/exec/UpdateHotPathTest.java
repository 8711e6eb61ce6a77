package io.respsql.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The UPDATE fast paths (an index key's rows collected a leaf run at a time; SET v = v + 1
 * computed once per row and stored in a tight loop) answer exactly as the general path does.
 */
class UpdateHotPathTest {
    private final EngineHarness h = new EngineHarness();

    private void expect(String sql, String reply) {
        assertEquals(reply, h.run(sql), sql);
    }

    private void table(int rows, int groups) {
        expect("CREATE TABLE t (id int primary key, fk int, v int)", "+OK");
        expect("CREATE INDEX t:fk ON t (fk)", "+OK");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            values.append(i > 0 ? "," : "").append('(').append(i).append(',').append(i % groups).append(',').append(i).append(')');
        }
        expect("INSERT INTO t VALUES " + values, "+OK");
    }

    @Test
    void fkRangeUpdateTouchesEveryRowOfTheKeyOnce() {
        table(5000, 7); // each key's rows span many B+tree leaves
        expect("UPDATE t SET v = v + 1 WHERE fk = 3", ":714");
        expect("SELECT count(*) FROM t WHERE fk = 3 AND v = id + 1", ":714");
        expect("SELECT count(*) FROM t WHERE fk <> 3 AND v = id", ":4286");
        expect("UPDATE t SET v = 2 * v - id WHERE fk = 3", ":714");
        expect("SELECT count(*) FROM t WHERE v = id + 2", ":714");
        expect("UPDATE t SET v = v + 1 WHERE fk = 99", ":0");
        expect("UPDATE t SET v = v + 1 WHERE fk = 3 AND id < 20", ":3"); // a filter: the general collection
        expect("SELECT v FROM t WHERE id = 3", "*1 $1 6");
        expect("SELECT v FROM t WHERE id = 10", "*1 $2 13");
    }

    @Test
    void aNullValueAndAnOverflowAnswerAsBefore() {
        table(100, 4);
        expect("UPDATE t SET v = NULL WHERE id = 5", ":1");
        expect("UPDATE t SET v = v + 1 WHERE fk = 1", ":25"); // row 5's NULL + 1 stays NULL
        expect("SELECT v FROM t WHERE id = 5", "*1 $0");
        expect("SELECT v FROM t WHERE id = 9", "*1 $2 10");
        expect("UPDATE t SET v = 2147483647 WHERE id = 13", ":1");
        String err = h.run("UPDATE t SET v = v + 1 WHERE fk = 1");
        assertEquals(true, err.startsWith("-ERR"), err);
        expect("SELECT v FROM t WHERE id = 9", "*1 $2 10"); // a failed UPDATE changes nothing
    }

    /**
     * A probe of a unique index stops at its first match only where a key is one row: not a text
     * prefix (two texts share their first 8 bytes), not the first column of a two-column index.
     */
    @Test
    void uniqueProbesFindEveryRowTheKeysDoNotTellApart() {
        expect("CREATE TABLE u (id int primary key, s text, a int, b int, v int)", "+OK");
        expect("CREATE UNIQUE INDEX u:s ON u (s)", "+OK");
        expect("CREATE UNIQUE INDEX u:ab ON u (a, b)", "+OK");
        expect("INSERT INTO u VALUES (1,'abcdefgh1',7,1,0),(2,'abcdefgh2',7,2,0),(3,'abcdefgh3',7,3,0),(4,'x',8,1,0)", "+OK");
        expect("UPDATE u SET v = v + 1 WHERE s = 'abcdefgh3'", ":1");
        expect("SELECT id FROM u WHERE v = 1", "*1 $1 3");
        expect("UPDATE u SET v = v + 10 WHERE a = 7", ":3");
        expect("SELECT count(*) FROM u WHERE a = 7", ":3");
        expect("DELETE FROM u WHERE s = 'abcdefgh2'", ":1");
        expect("SELECT id FROM u WHERE s = 'abcdefgh1'", "*1 $1 1");
        expect("UPDATE u SET v = 5 WHERE id = 4", ":1");
        expect("UPDATE u SET v = v + 1 WHERE id IN (4, 1, 99, 3)", ":3");
        expect("SELECT v FROM u WHERE id = 4", "*1 $1 6");
        expect("DELETE FROM u WHERE id = 4", ":1");
        expect("DELETE FROM u WHERE id = 4", ":0");
        expect("SELECT count(*) FROM u", ":2");
    }
}
