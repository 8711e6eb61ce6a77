package io.respsql.exec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Index ranges over a table large enough that a wide range is read by a scan checking the key
 * bounds (IndexRange.mayScan) and a narrow one by the index walk: every answer, row at a time and
 * batch at a time (GROUP BY, COUNT, SUM), is the same as the one over a full scan with the same
 * condition on an expression no index serves ({@code col + 0}). Keys: random, unordered in the
 * slots; INT, BIGINT and TIMESTAMP; with and without NULLs; inclusive, exclusive, one-sided and
 * empty bounds; after deletes.
 */
class WideRangeTest {
    private static final int ROWS = 30_000;
    /** BIGINT keys: multiples of this beyond 32 bits. */
    private static final long B = 10_000_000_000L;

    private static List<String> conditions(String col, long lo, long hi) {
        List<String> out = new ArrayList<>();
        out.add(col + " BETWEEN " + lo + " AND " + hi);
        out.add(col + " >= " + lo + " AND " + col + " <= " + hi);
        out.add(col + " > " + lo + " AND " + col + " < " + hi);
        out.add(col + " > " + lo);
        out.add(col + " <= " + hi);
        out.add(col + " BETWEEN " + hi + " AND " + lo); // empty
        out.add(col + " > " + hi + " AND " + col + " < " + lo); // empty
        out.add(col + " BETWEEN " + lo + " AND " + lo); // one key
        return out;
    }

    private static String unindexed(String cond, String col) {
        return cond.replace(col + " ", "(" + col + " + 0) ");
    }

    /** The indexed table r, and its copy u without indexes (a scan's batch filter on the column, ColumnRange). */
    private static void same(EngineHarness h, String query, String cond, String col) {
        String indexed = h.run(query.replace("COND", cond));
        String scanned = h.run(query.replace("COND", unindexed(cond, col)));
        String filtered = h.run(query.replace("COND", cond).replace(" FROM r ", " FROM u "));
        assertTrue(!indexed.startsWith("-"), query + " " + cond + ": " + indexed);
        assertEquals(scanned, indexed, query.replace("COND", cond));
        assertEquals(scanned, filtered, query.replace("COND", cond) + " (no index)");
    }

    @Test
    void wideAndNarrowRangesAnswerAsAFullScan() {
        wideAndNarrow(true);
    }

    /** Without the plan cache the bounds stay literals: the scan's filter is the tight ColumnRange loop. */
    @Test
    void wideAndNarrowRangesAnswerAsAFullScanUncached() {
        wideAndNarrow(false);
    }

    private void wideAndNarrow(boolean cached) {
        EngineHarness h = new EngineHarness();
        if (!cached) {
            h.engine.planCacheLimits(0, 0);
        }
        h.run("CREATE TABLE r (id INT PRIMARY KEY, k INT, kn INT, b BIGINT, v INT, g TEXT)");
        h.run("CREATE INDEX r_k ON r (k)");
        h.run("CREATE INDEX r_kn ON r (kn)");
        h.run("CREATE INDEX r_b ON r (b)");
        h.run("CREATE TABLE u (id INT PRIMARY KEY, k INT, kn INT, b BIGINT, v INT, g TEXT)");
        Random rnd = new Random(11);
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= ROWS; i++) {
            sb.append(sb.length() == 0 ? "" : ", ").append('(').append(i).append(", ").append(rnd.nextInt(1000))
                    .append(", ").append(i % 5 == 0 ? "NULL" : Integer.toString(rnd.nextInt(1000)))
                    .append(", ").append(rnd.nextInt(1000) * B).append(", ").append(rnd.nextInt(100))
                    .append(", '").append((char) ('a' + rnd.nextInt(5))).append("')");
            if (i % 1000 == 0) {
                assertEquals("+OK", h.run("INSERT INTO r VALUES " + sb));
                assertEquals("+OK", h.run("INSERT INTO u VALUES " + sb));
                sb.setLength(0);
            }
        }
        String[] queries = {
            "SELECT COUNT(*) FROM r WHERE COND",
            "SELECT COUNT(*), SUM(v), MIN(id), MAX(id) FROM r WHERE COND",
            "SELECT g, COUNT(*), SUM(v) FROM r WHERE COND GROUP BY g ORDER BY g",
            "SELECT v, COUNT(*) FROM r WHERE COND GROUP BY v ORDER BY v",
            "SELECT id FROM r WHERE COND AND v = 7 ORDER BY id",
        };
        for (int round = 0; round < 2; round++) {
            for (String q : queries) {
                // wide (a scan with the key check), narrow (the index walk), and everything
                for (String c : conditions("k", 100, 700)) {
                    same(h, q, c, "k");
                }
                for (String c : conditions("k", 400, 430)) {
                    same(h, q, c, "k");
                }
                // mid-size: below a scan's share, several batches of the walk
                for (String c : conditions("k", 400, 480)) {
                    same(h, q, c, "k");
                }
                for (String c : conditions("kn", 400, 480)) {
                    same(h, q, c, "kn");
                }
                for (String c : conditions("b", 400 * B, 480 * B)) {
                    same(h, q, c, "b");
                }
                for (String c : conditions("kn", 0, 999)) {
                    same(h, q, c, "kn");
                }
                for (String c : conditions("kn", 250, 750)) {
                    same(h, q, c, "kn");
                }
                for (String c : conditions("b", 100 * B, 700 * B)) {
                    same(h, q, c, "b");
                }
                for (String c : conditions("b", 400 * B, 430 * B)) {
                    same(h, q, c, "b");
                }
            }
            h.run("DELETE FROM r WHERE id % 3 = 0 OR k BETWEEN 300 AND 350");
            h.run("DELETE FROM u WHERE id % 3 = 0 OR k BETWEEN 300 AND 350");
        }
    }

    @Test
    void aWideTimestampRangeAnswersAsAFullScan() {
        EngineHarness h = new EngineHarness();
        h.run("CREATE TABLE o (id INT PRIMARY KEY, ts TIMESTAMP, v INT)");
        h.run("CREATE INDEX o_ts ON o (ts)");
        Random rnd = new Random(5);
        java.time.LocalDateTime start = java.time.LocalDateTime.of(2022, 1, 1, 0, 0);
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 20_000; i++) {
            String ts = start.plusSeconds(rnd.nextInt(3 * 365 * 86400)).toString().replace('T', ' ');
            ts = ts.length() == 16 ? ts + ":00" : ts;
            sb.append(sb.length() == 0 ? "" : ", ").append('(').append(i).append(", TIMESTAMP '").append(ts)
                    .append("', ").append(rnd.nextInt(50)).append(')');
            if (i % 1000 == 0) {
                assertEquals("+OK", h.run("INSERT INTO o VALUES " + sb));
                sb.setLength(0);
            }
        }
        String[][] ranges = {
            {"TIMESTAMP '2024-01-01 00:00:00'", "TIMESTAMP '2024-12-31 23:59:59'"}, // a third: the scan
            {"TIMESTAMP '2024-06-01 00:00:00'", "TIMESTAMP '2024-06-30 23:59:59'"}, // a month: the walk
            {"TIMESTAMP '2025-06-01 00:00:00'", "TIMESTAMP '2026-06-30 23:59:59'"}, // past every key
        };
        for (String[] r : ranges) {
            for (String q : new String[] {
                "SELECT COUNT(*), SUM(v) FROM o WHERE ts BETWEEN " + r[0] + " AND " + r[1],
                "SELECT v, COUNT(*) FROM o WHERE ts >= " + r[0] + " AND ts < " + r[1] + " GROUP BY v ORDER BY v",
            }) {
                String indexed = h.run(q);
                // the same bounds on an expression no index serves
                String scanned = h.run(q.replace("ts ", "(CASE WHEN id > 0 THEN ts ELSE ts END) "));
                assertTrue(!indexed.startsWith("-") && !scanned.startsWith("-"), q + ": " + indexed + " / " + scanned);
                assertEquals(scanned, indexed, q);
            }
        }
    }
}
