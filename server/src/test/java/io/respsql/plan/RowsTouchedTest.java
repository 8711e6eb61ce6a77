package io.respsql.plan;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PlannedQuery#estimatedRowsTouched()}: the rows of every base table a plan's access paths
 * read whole (full scans, whole-index walks), in its subqueries too; a range with bounds known
 * before the run its estimated entries; probes and ranges bounded by other rows count nothing; a
 * lone COUNT(*) of a whole table nothing (its row count). Each case is checked against the plan's EXPLAIN, so the figure follows the
 * access path actually chosen.
 */
class RowsTouchedTest {
    private static final int BIG = 3000;
    private static final int SMALL = 40;
    private final Catalog catalog = new Catalog();
    private final SqlEngine engine = new SqlEngine(catalog);

    private void sql(String statement) {
        ByteBuf buf = Unpooled.buffer();
        EngineReplies.run(engine, statement, new RespWriter().target(buf));
        String reply = buf.toString(StandardCharsets.UTF_8);
        buf.release();
        assertTrue(!reply.startsWith("-"), statement + " -> " + reply);
    }

    private static String values(int from, int to, boolean withFk) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i <= to; i++) {
            sb.append(sb.length() == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 7);
            sb.append(withFk ? ", " + (i % SMALL + 1) : "").append(')');
        }
        return sb.toString();
    }

    @BeforeEach
    void tables() {
        sql("CREATE TABLE big (id INT PRIMARY KEY, v INT, fk INT)");
        sql("CREATE INDEX big_v ON big (v)");
        sql("INSERT INTO big VALUES " + values(1, BIG, true));
        sql("CREATE TABLE small (id INT PRIMARY KEY, v INT)");
        sql("INSERT INTO small VALUES " + values(1, SMALL, false));
        sql("CREATE VIEW big_odd AS SELECT id, v FROM big WHERE v = 1");
        sql("CREATE VIEW big_fk AS SELECT id, v FROM big WHERE fk = 1");
    }

    private PlannedQuery plan(String query) {
        return StatementPlanner.plan(catalog, ((Statement.QueryStatement) SqlParser.parse(query)).query(), query);
    }

    private String explain(String query) {
        return String.join("\n", plan(query).explain());
    }

    private void expect(long rows, String query, String inExplain) {
        PlannedQuery p = plan(query);
        assertEquals(rows, p.estimatedRowsTouched(), query + "\n" + explain(query));
        assertTrue(explain(query).contains(inExplain), "the path the figure assumes: " + inExplain + "\n" + explain(query));
    }

    @Test
    void fullScansCountTheirTablesRowsJoinProbesTheirReachProbesAndRangesNothing() {
        expect(0, "SELECT v FROM big WHERE id = 5", "primary key probe on big");
        expect(0, "SELECT v FROM big WHERE v = 3", "index probe on big using big_v");
        // a range with constant bounds counts the entries it covers (ids 1..BIG spread evenly: exact)
        expect(46, "SELECT v FROM big WHERE id BETWEEN 5 AND 50", "primary key range on big");
        expect(BIG, "SELECT COUNT(*) FROM big WHERE fk = 3", "full scan of big");
        expect(BIG, "SELECT id FROM big ORDER BY id", "(all keys)"); // a whole-index walk for ORDER BY
        // a nested loop join visits every pair of its inputs' rows (issue 22: estimated by adding them,
        // a cross join of two 3,000-row tables stayed on the event loop)
        expect((long) BIG * SMALL + BIG + SMALL, "SELECT b.id FROM big b, small s WHERE b.fk + 0 = s.v + 0",
                "nested loop join");
        expect((long) BIG * SMALL + BIG + SMALL, "SELECT COUNT(*) FROM big b, small s", "nested loop join");
        // three inputs: the triples, plus the inner join's pairs and the scans (in whichever order it joins)
        long triples = (long) BIG * SMALL * SMALL;
        long three = plan("SELECT COUNT(*) FROM big b, small s, small t").estimatedRowsTouched();
        assertTrue(three > triples && three < 2 * triples, three + " for " + triples + " triples");
        // probes driven by a table read whole: a primary key one row per driving row, another index its whole table
        expect(2 * SMALL, "SELECT s.v, b.v FROM small s JOIN big b ON b.id = s.id", "full scan of small");
        // big.v repeats: index probes into big_v or a hash join over a scan of big, either reaches all of big
        expect(SMALL + BIG, "SELECT s.v, b.v FROM small s JOIN big b ON b.v = s.v", "full scan of small");
        expect(0, "SELECT s.v, b.v FROM small s JOIN big b ON b.v = s.v WHERE s.id = 2", "index probe on big using big_v");
        expect(SMALL, "SELECT v FROM big WHERE id = 3 AND fk IN (SELECT v FROM small)", "full scan of small");
        expect(BIG + SMALL, "SELECT v FROM small WHERE v = (SELECT MAX(fk) FROM big)", "full scan of big");
        expect(BIG + SMALL, "SELECT id FROM small WHERE EXISTS (SELECT 1 FROM big WHERE big.fk = small.id + 0)",
                "full scan of big");
        // a view's rows come from its own plan (EXPLAIN shows only "materialize"): an index probe, then a scan
        expect(0, "SELECT * FROM big_odd", "materialize big_odd");
        expect(BIG, "SELECT * FROM big_fk", "materialize big_fk");
        expect(BIG, "SELECT d.v FROM (SELECT v FROM big WHERE fk > 0) d", "materialize d");
        expect(SMALL, "SELECT v FROM small UNION SELECT v FROM big WHERE id = 1", "full scan of small");
    }

    @Test
    void aLoneCountStarOfATableReadsItsRowCountAndCountsNothing() {
        expect(0, "SELECT COUNT(*) FROM big", "full scan of big");
        expect(BIG, "SELECT COUNT(*) FROM big WHERE fk = 3", "full scan of big"); // a filter: the rows are read
        expect(BIG, "SELECT COUNT(v) FROM big", "full scan of big"); // NULLs of v are not counted: the rows are read
        sql("DELETE FROM big WHERE id > 100");
        expect(0, "SELECT COUNT(*) FROM big", "full scan of big");
    }

    @Test
    void aRangeCountsTheEntriesItsBoundsCover() {
        // inclusive and exclusive bounds, one-sided, two conditions narrowing one range
        expect(50, "SELECT v FROM big WHERE id <= 50", "primary key range on big");
        expect(49, "SELECT v FROM big WHERE id < 50", "primary key range on big");
        expect(BIG - 2000, "SELECT v FROM big WHERE id > 2000", "primary key range on big");
        expect(11, "SELECT v FROM big WHERE id >= 10 AND id <= 20", "primary key range on big");
        // bounds beyond the keys: clipped to them; a range past every key or empty: nothing
        expect(BIG, "SELECT v FROM big WHERE id BETWEEN -100 AND 100000", "primary key range on big");
        expect(0, "SELECT v FROM big WHERE id > 100000", "primary key range on big");
        expect(0, "SELECT v FROM big WHERE id BETWEEN 50 AND 5", "no rows can match");
        // a secondary index with repeated keys (v = id % 7, keys 0..6): 2 of 7 keys' share of the entries
        long rows = plan("SELECT id FROM big WHERE v BETWEEN 2 AND 3").estimatedRowsTouched();
        assertEquals(Math.ceil(2.0 / 7 * BIG), rows, 1, explain("SELECT id FROM big WHERE v BETWEEN 2 AND 3"));
        // a bound a subquery computes is not known before the run: nothing counted for the range (small's scan only)
        expect(SMALL, "SELECT v FROM big WHERE id > (SELECT MAX(v) FROM small)", "primary key range on big");
    }

    @Test
    void aRangeOfANullableColumnCountsItsNonNullKeysShare() {
        sql("CREATE TABLE n (id INT PRIMARY KEY, k INT)");
        sql("CREATE INDEX n_k ON n (k)");
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            sb.append(i == 1 ? "" : ", ").append('(').append(i).append(", ").append(i % 2 == 0 ? "NULL" : String.valueOf(i)).append(')');
        }
        sql("INSERT INTO n VALUES " + sb);
        long rows = plan("SELECT id FROM n WHERE k BETWEEN 1 AND 99").estimatedRowsTouched();
        assertTrue(rows >= 40 && rows <= 60, rows + "\n" + explain("SELECT id FROM n WHERE k BETWEEN 1 AND 99"));
    }

    @Test
    void aJoinProbeCountsItsDrivingRowsTimesTheRowsAProbeFinds() {
        sql("CREATE TABLE many (id INT PRIMARY KEY, k INT)");
        sql("CREATE INDEX many_k ON many (k)");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < BIG; i++) {
            sb.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i / 3).append(')'); // 3 rows a key
        }
        sql("INSERT INTO many VALUES " + sb);
        String q = "SELECT s.v, m.id FROM small s JOIN many m ON m.k = s.id";
        assertTrue(explain(q).contains("index probe on many using many_k (k = s.id)"), explain(q));
        long rows = plan(q).estimatedRowsTouched();
        // the scan's 40 rows, and 40 probes of about 3 rows each (the distinct keys are sampled)
        assertTrue(rows >= SMALL + 2 * SMALL && rows <= SMALL + 4 * SMALL, rows + "\n" + explain(q));
    }

    @Test
    void aPlanKeptAcrossStatementsFollowsItsTablesSize() {
        PlannedQuery p = plan("SELECT COUNT(*) FROM small WHERE v > 2");
        assertEquals(SMALL, p.estimatedRowsTouched());
        sql("INSERT INTO small VALUES " + values(SMALL + 1, SMALL + 100, false));
        assertEquals(SMALL + 100, p.estimatedRowsTouched());
        sql("DELETE FROM small WHERE id > 10");
        assertEquals(10, p.estimatedRowsTouched());
    }
}
