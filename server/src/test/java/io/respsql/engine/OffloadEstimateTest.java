package io.respsql.engine;

import io.respsql.expr.ParamValues;
import io.respsql.plan.PlannedQuery;
import io.respsql.result.Outcome;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the offload decision sees: a range's estimate follows the literals of each statement, on
 * the plain path and on the plan cache's (where they are parameters, filled before the check), and
 * a lone COUNT(*) of a whole table is never a candidate.
 */
class OffloadEstimateTest {
    private static final int ROWS = 5000;
    private final SqlEngine engine = new SqlEngine(new Catalog());
    /** The estimate of each check, in order (offered: the plain path; would: the cached path). */
    private final List<String> seen = new ArrayList<>();

    private final SqlEngine.Offload recorder = new SqlEngine.Offload() {
        @Override
        public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan) {
            seen.add("offer " + plan.estimatedRowsTouched());
            return false;
        }

        @Override
        public boolean wouldOffload(PlannedQuery plan, ParamValues params) {
            seen.add("would " + plan.estimatedRowsTouched(params));
            return false;
        }
    };

    private String run(String sql, SqlEngine.Offload offload) {
        CollectedRows rows = new CollectedRows();
        Outcome o = engine.execute(sql, rows, offload);
        return o.reply() == Outcome.Reply.ROWS ? "rows " + rows.rows : o.toString();
    }

    @BeforeEach
    void table() {
        run("CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP, v INT)", null);
        run("CREATE INDEX t_ts ON t (ts)", null);
        StringBuilder sb = new StringBuilder();
        java.time.LocalDateTime start = java.time.LocalDateTime.of(2024, 1, 1, 0, 0);
        for (int i = 1; i <= ROWS; i++) { // ts: one row a minute from 2024-01-01 00:00
            String ts = start.plusMinutes(i - 1).toString().replace('T', ' ') + ":00";
            sb.append(i == 1 ? "" : ", ").append('(').append(i).append(", TIMESTAMP '").append(ts).append("', ")
                    .append(i % 10).append(')');
        }
        String r = run("INSERT INTO t VALUES " + sb, null);
        assertEquals("ok, changed " + ROWS, r);
    }

    @Test
    void aCachedRangeIsEstimatedWithItsOwnLiterals() {
        run("SELECT COUNT(*) FROM t WHERE id BETWEEN 1 AND 100", recorder);
        run("SELECT COUNT(*) FROM t WHERE id BETWEEN 1 AND 4000", recorder);
        run("SELECT COUNT(*) FROM t WHERE id BETWEEN 4001 AND 4000", recorder);
        run("SELECT COUNT(*) FROM t WHERE id BETWEEN 10 AND 19", recorder);
        // each run goes the cache's way (planned into it by the first): checked with its own literals,
        // an empty range none; kept inline by the check, so never offered
        assertEquals(List.of("would 100", "would 4000", "would 0", "would 10"), seen);
        assertEquals(3, engine.planCacheHits());
    }

    @Test
    void aCachedTimestampRangeIsEstimatedWithItsOwnLiterals() {
        String q = "SELECT COUNT(*), SUM(v) FROM t WHERE ts BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND TIMESTAMP '%s'";
        run(String.format(q, "2024-01-01 00:59:59"), recorder); // 60 of 5000 minutes
        run(String.format(q, "2024-01-03 00:59:59"), recorder); // 49 hours: 2940 minutes
        run(String.format(q, "2023-12-31 23:59:59"), recorder); // before every key
        assertEquals(3, seen.size(), seen.toString());
        // interpolated over the keys' span (microseconds): within a row of the count
        assertEquals(60, estimate(seen.get(0)), 1, seen.toString());
        assertEquals(2940, estimate(seen.get(1)), 1, seen.toString());
        assertEquals(0, estimate(seen.get(2)), seen.toString());
    }

    private static long estimate(String seen) {
        return Long.parseLong(seen.substring(seen.indexOf(' ') + 1));
    }

    @Test
    void oddBoundsAnswerAsWithoutTheCheck() {
        for (String q : new String[] {"SELECT COUNT(*) FROM t WHERE id BETWEEN '1' AND 'x'",
                "SELECT COUNT(*) FROM t WHERE id BETWEEN '1' AND 'y'", "SELECT COUNT(*) FROM t WHERE id > 'z'",
                "SELECT COUNT(*) FROM t WHERE ts > 'not a time'", "SELECT COUNT(*) FROM t WHERE ts < 'neither'"}) {
            String inline = run(q, null);
            assertEquals(inline, run(q, recorder), q);
        }
    }

    @Test
    void aLoneCountStarIsNeverACandidate() {
        run("SELECT COUNT(*) FROM t", recorder);
        run("SELECT COUNT(*) FROM t", recorder);
        run("DELETE FROM t WHERE id > 10", null);
        assertEquals("rows [10]", run("SELECT COUNT(*) FROM t", recorder));
        for (String s : seen) {
            assertEquals(0, estimate(s), seen.toString());
        }
    }
}
