package io.respsql.exec;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.respsql.exec.Replies.ok;
import static io.respsql.exec.Replies.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hash join tests per match only the ON/WHERE terms its keys do not decide: the other terms
 * of a join condition still filter (inner and LEFT), keys compared as doubles are still tested,
 * NULL keys match nothing.
 */
class HashJoinResidualTest {
    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void setUp() {
        StringBuilder a = new StringBuilder("INSERT INTO a VALUES (1, 1, x, 1.0), (2, 2, y, 2.5), (3, NULL, NULL, NULL), (4, 5, x, 5.0)");
        StringBuilder b = new StringBuilder("INSERT INTO b VALUES (10, 1, x, 5), (11, 1, x, 20), (12, 2, z, 30), (13, NULL, NULL, 40), (14, 7, y, 50)");
        // enough unindexed rows that the planner hashes rather than loops
        for (int i = 100; i < 400; i++) {
            a.append(", (").append(i).append(", ").append(1000 + i).append(", w").append(i).append(", 0.5)");
            b.append(", (").append(i).append(", ").append(5000 + i).append(", v").append(i).append(", 3)");
        }
        ok(h, "CREATE TABLE a (id int primary key, k int, t TEXT, d FLOAT)",
                "CREATE TABLE b (id int primary key, k int, t TEXT, v int)", a.toString(), b.toString());
    }

    private String explain(String sql) {
        return h.run("EXPLAIN " + sql);
    }

    @Test
    void otherTermsOfAnInnerJoinStillFilter() {
        String q = "SELECT a.id, b.id FROM a JOIN b ON b.k = a.k AND b.v > 10 WHERE a.id < 50 ORDER BY a.id, b.id";
        assertTrue(explain(q).contains("hash join"), explain(q));
        assertEquals(rows("1,11", "2,12"), h.run(q));
    }

    @Test
    void otherTermsOfALeftJoinStillFilter() {
        String q = "SELECT COUNT(*), COUNT(b.id) FROM a LEFT JOIN b ON b.t = a.t AND b.v > 10";
        assertTrue(explain(q).contains("hash join"), explain(q));
        // a1 (x): b11; a2 (y): b14; a3 (NULL): none; a4 (x): b11; the 300 others none
        assertEquals(rows("304,3"), h.run(q));
        String anti = "SELECT COUNT(*) FROM a LEFT JOIN b ON b.k = a.k WHERE b.id IS NULL";
        assertEquals(":302", h.run(anti)); // a3 (NULL key), a4 (5) and the 300 others; one number: an integer reply
    }

    @Test
    void keysMeetingAsDoublesAreStillCompared() {
        String q = "SELECT a.id, b.id FROM a JOIN b ON b.v = a.d WHERE a.id < 50 ORDER BY a.id, b.id";
        assertTrue(explain(q).contains("hash join"), explain(q));
        assertEquals(rows("4,10"), h.run(q));
    }
}
