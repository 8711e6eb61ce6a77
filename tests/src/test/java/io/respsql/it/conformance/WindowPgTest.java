package io.respsql.it.conformance;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Window functions (issue 25) over the PostgreSQL protocol against PostgreSQL 15 itself: the same
 * statements through pgjdbc to both, every value compared as its text with its column's type,
 * errors by SQLSTATE. Named windows and their refinement rules; ROWS, RANGE and GROUPS frames with
 * every EXCLUDE over data with ties, NULL keys and NULL values, in both directions; PERCENT_RANK,
 * CUME_DIST, NTH_VALUE; PostgreSQL's errors for bad frames and arguments. Every query orders its
 * rows totally, and values that depend on the order of peers read a column equal among peers.
 */
class WindowPgTest {
    private static JdbcPair pair;
    private static TestServer server;
    private static Connection theirs;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        pair = JdbcPair.start();
        server = pair.server();
        theirs = pair.theirs();
        ours = pair.ours();
        both("CREATE TABLE wt (id INT PRIMARY KEY, p INT, k INT, v INT, s TEXT)");
        StringBuilder insert = new StringBuilder("INSERT INTO wt VALUES ");
        // k: ties (groups of 1..4 rows) and NULLs; v: NULLs and repeats; p: three partitions and a NULL one.
        int[] ks = {1, 1, 2, 4, 4, 4, 5, 7, 7, 8, 10, 10, 10, 10, 11, 13, 14, 14, 16, 17};
        for (int i = 0; i < 26; i++) {
            String k = i < ks.length ? Integer.toString(ks[i]) : (i % 2 == 0 ? "NULL" : Integer.toString(ks[i % ks.length]));
            String v = i % 7 == 3 ? "NULL" : Integer.toString((i * 37) % 23 - 6);
            String p = i % 9 == 8 ? "NULL" : Integer.toString(i % 3);
            insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(p).append(", ").append(k).append(", ")
                    .append(v).append(", 's").append((char) ('a' + i % 5)).append("')");
        }
        both(insert.toString());
    }

    @AfterAll
    static void stop() throws Exception {
        if (pair != null) {
            pair.close();
        }
    }

    private static List<String> same(String sql) throws SQLException {
        return pair.same(sql);
    }

    private static void fails(String state, String sql) throws SQLException {
        pair.fails(state, sql);
    }

    private static void both(String sql) throws SQLException {
        pair.both(sql);
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        return JdbcPair.rows(c, sql);
    }

    @Test
    void namedWindowsAndTheirRefinement() throws SQLException {
        String[] queries = {
            "SELECT id, sum(v) OVER w, count(*) OVER w, rank() OVER w FROM wt WINDOW w AS (PARTITION BY p ORDER BY k) ORDER BY id",
            "SELECT id, sum(v) OVER w FROM wt WINDOW w AS (PARTITION BY p) ORDER BY id",
            "SELECT id, sum(v) OVER (w ORDER BY k), min(v) OVER (w ORDER BY k DESC, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) "
                    + "FROM wt WINDOW w AS (PARTITION BY p) ORDER BY id",
            "SELECT id, sum(v) OVER w1, count(v) OVER w2, max(v) OVER w3 FROM wt "
                    + "WINDOW w1 AS (ORDER BY k), w2 AS (w1 RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING), w3 AS (PARTITION BY p) ORDER BY id",
            "SELECT id, sum(v) OVER (w GROUPS 1 PRECEDING EXCLUDE CURRENT ROW) FROM wt WINDOW w AS (ORDER BY k) ORDER BY id",
            "SELECT id, rank() OVER w FROM wt WINDOW w AS (ORDER BY k DESC NULLS LAST) ORDER BY rank() OVER w, id",
            "SELECT count(*) OVER w FROM wt WHERE id < 5 WINDOW w AS ()",
            "SELECT k FROM wt WHERE false WINDOW w AS (PARTITION BY p)",
            "SELECT p, max(sum(v)) OVER w, rank() OVER w FROM wt GROUP BY p WINDOW w AS (ORDER BY p) ORDER BY p",
            "SELECT id, (SELECT count(*) OVER w FROM wt x WHERE x.id = wt.id WINDOW w AS ()) FROM wt WINDOW w AS (ORDER BY k) ORDER BY id",
        };
        for (String q : queries) {
            assertTrue(same(q).size() > 0, q);
        }
        fails("42704", "SELECT sum(v) OVER nosuch FROM wt");
        fails("42704", "SELECT sum(v) OVER (nosuch ORDER BY k) FROM wt");
        fails("42P20", "SELECT sum(v) OVER w FROM wt WINDOW w AS (ORDER BY k), w AS (ORDER BY v)");
        fails("42P20", "SELECT sum(v) OVER (w PARTITION BY k) FROM wt WINDOW w AS (PARTITION BY p)");
        fails("42P20", "SELECT sum(v) OVER (w ORDER BY v) FROM wt WINDOW w AS (ORDER BY k)");
        fails("42P20", "SELECT sum(v) OVER (w) FROM wt WINDOW w AS (ORDER BY k ROWS 1 PRECEDING)");
        fails("42P20", "SELECT sum(v) OVER w2 FROM wt WINDOW w AS (ORDER BY k ROWS 1 PRECEDING), w2 AS (w)");
    }

    private static final String[][] BOUNDS = {
        {"UNBOUNDED PRECEDING", "CURRENT ROW"},
        {"UNBOUNDED PRECEDING", "UNBOUNDED FOLLOWING"},
        {"CURRENT ROW", "UNBOUNDED FOLLOWING"},
        {"1 PRECEDING", "1 FOLLOWING"},
        {"2 PRECEDING", "1 PRECEDING"},
        {"1 FOLLOWING", "3 FOLLOWING"},
        {"0 PRECEDING", "0 FOLLOWING"},
        {"UNBOUNDED PRECEDING", "2 FOLLOWING"},
        {"3 PRECEDING", "UNBOUNDED FOLLOWING"},
    };
    private static final String[] EXCLUDES = {"", " EXCLUDE NO OTHERS", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"};

    /**
     * GROUPS and RANGE over a key with ties and NULLs (sum, count, min, max are the same whatever
     * the order of peers, and first/last/nth_value read the key, equal among peers), ROWS over a
     * unique order, each with every bound pair, every EXCLUDE and both directions, partitioned
     * and not.
     */
    @Test
    void everyFrameModeAndExclusionAsPostgresql() throws SQLException {
        int queries = 0;
        for (String unit : new String[] {"ROWS", "RANGE", "GROUPS"}) {
            for (String[] b : BOUNDS) {
                for (String ex : EXCLUDES) {
                    for (String dir : new String[] {"", " DESC"}) {
                        String order = unit.equals("ROWS") ? "k" + dir + ", id" + dir : "k" + dir;
                        String partition = queries % 2 == 0 ? "PARTITION BY p " : "";
                        String w = "(" + partition + "ORDER BY " + order + " " + unit + " BETWEEN " + b[0] + " AND " + b[1] + ex + ")";
                        String value = unit.equals("ROWS") ? "v" : "k";
                        same("SELECT id, sum(v) OVER " + w + ", count(v) OVER " + w + ", count(*) OVER " + w + ", min(v) OVER " + w
                                + ", max(v) OVER " + w + ", first_value(" + value + ") OVER " + w + ", last_value(" + value + ") OVER " + w
                                + ", nth_value(" + value + ", 2) OVER " + w + ", max(s) OVER " + w + " FROM wt ORDER BY id");
                        queries++;
                    }
                }
            }
        }
        assertEquals(3 * BOUNDS.length * EXCLUDES.length * 2, queries);
    }

    @Test
    void rankingDistributionAndValueFunctions() throws SQLException {
        String[] queries = {
            "SELECT id, percent_rank() OVER (PARTITION BY p ORDER BY k), cume_dist() OVER (PARTITION BY p ORDER BY k), "
                    + "percent_rank() OVER (ORDER BY k DESC NULLS LAST), cume_dist() OVER () FROM wt ORDER BY id",
            "SELECT id, nth_value(k, 3) OVER (PARTITION BY p ORDER BY k), nth_value(s, 1) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), "
                    + "nth_value(k, 100) OVER () FROM wt ORDER BY id",
            "SELECT id, nth_value(k, NULL::int) OVER (ORDER BY id) FROM wt ORDER BY id",
            "SELECT id, ntile(4) OVER (ORDER BY k, id), percent_rank() OVER w, cume_dist() OVER w FROM wt WINDOW w AS (PARTITION BY k % 3 ORDER BY k) ORDER BY id",
        };
        for (String q : queries) {
            assertTrue(same(q).size() > 1, q);
        }
    }

    @Test
    void badFramesAndArgumentsFailAsInPostgresql() throws SQLException {
        fails("22013", "SELECT sum(v) OVER (ORDER BY k ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM wt");
        fails("22013", "SELECT sum(v) OVER (ORDER BY k GROUPS BETWEEN CURRENT ROW AND -2 FOLLOWING) FROM wt");
        fails("22013", "SELECT sum(v) OVER (ORDER BY k RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM wt");
        fails("22004", "SELECT sum(v) OVER (ORDER BY k GROUPS BETWEEN NULL::int PRECEDING AND CURRENT ROW) FROM wt");
        fails("42P20", "SELECT sum(v) OVER (GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wt");
        fails("42P20", "SELECT sum(v) OVER (ORDER BY k, id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wt");
        fails("42P20", "SELECT sum(v) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM wt");
        fails("42P20", "SELECT sum(v) OVER (ORDER BY k GROUPS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM wt");
        fails("22016", "SELECT nth_value(v, 0) OVER (ORDER BY k) FROM wt");
        fails("22014", "SELECT ntile(0) OVER (ORDER BY k) FROM wt");
    }

    /**
     * NUMERIC in windows, exact as PostgreSQL prints it: SUM/AVG/MIN/MAX over sliding and excluding
     * frames of values of mixed scales (the sum's scale is the largest in the frame), NaN, NULLs;
     * AVG of integers is NUMERIC; LAG/LEAD with a NUMERIC default; value functions keep the scale.
     */
    @Test
    void numericWindowsAreExact() throws SQLException {
        both("CREATE TABLE wn (id INT PRIMARY KEY, g INT, p NUMERIC(10,2), q NUMERIC, f FLOAT8)");
        both("INSERT INTO wn VALUES (1, 1, 1.10, 1.5, 1.5), (2, 1, 2.25, 2.25, 2.25), (3, 1, NULL, NULL, NULL), (4, 1, -0.05, 10, 10),"
                + " (5, 2, 99999999.99, 0.001, 0.001), (6, 2, 0.01, 123456789012345678901234.5, 12345.5), (7, 2, 0.01, -3, -3),"
                + " (8, 2, 5, 'NaN', 'NaN'), (9, 3, 7.77, 7.770, 7.77), (10, 3, 7.77, 0.1, 0.1), (11, 3, 1, 0.2, 0.2), (12, 3, 2, 0.30, 0.3)");
        String[] frames = {
            "", "ORDER BY id", "ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
            "ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", "ORDER BY p GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP",
            "PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW",
            "ORDER BY p RANGE BETWEEN 1 PRECEDING AND 2.5 FOLLOWING", "ORDER BY p DESC RANGE BETWEEN 0.5 PRECEDING AND CURRENT ROW EXCLUDE TIES",
        };
        for (String w : frames) {
            String over = " OVER (" + w + ")";
            same("SELECT id, sum(p)" + over + ", avg(p)" + over + ", min(p)" + over + ", max(p)" + over + ", sum(q)" + over
                    + ", avg(q)" + over + ", min(q)" + over + ", avg(g)" + over + ", first_value(p)" + over + ", count(q)" + over
                    + " FROM wn ORDER BY id");
        }
        String[] queries = {
            "SELECT id, lag(g, 1, 0.7) OVER (ORDER BY id), lead(g * 2, 2, -1.40) OVER (ORDER BY id), lag(p) OVER (ORDER BY id),"
                    + " lead(q, 1, 0) OVER (ORDER BY id), lag(f, 1, 0.5) OVER (ORDER BY id) FROM wn ORDER BY id",
            "SELECT id, nth_value(q, 2) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), last_value(p) OVER (PARTITION BY g ORDER BY id) "
                    + "FROM wn ORDER BY id",
            "SELECT id, rank() OVER (ORDER BY q), dense_rank() OVER (PARTITION BY p ORDER BY q DESC) FROM wn ORDER BY id",
            "SELECT id, sum(q) OVER (ORDER BY q RANGE BETWEEN 2 PRECEDING AND 1.5 FOLLOWING), count(*) OVER (ORDER BY q DESC RANGE "
                    + "BETWEEN 1 PRECEDING AND 0.05 FOLLOWING) FROM wn ORDER BY id",
            "SELECT id, count(*) OVER (ORDER BY f RANGE BETWEEN 'inf' PRECEDING AND 1 FOLLOWING), count(*) OVER (ORDER BY f RANGE BETWEEN "
                    + "1.5 PRECEDING AND 'inf' FOLLOWING), count(*) OVER (ORDER BY f DESC RANGE BETWEEN 'inf' FOLLOWING AND 'inf' FOLLOWING) FROM wn ORDER BY id",
        };
        for (String q : queries) {
            assertTrue(same(q).size() > 1, q);
        }
        fails("22013", "SELECT sum(q) OVER (ORDER BY q RANGE BETWEEN -0.5 PRECEDING AND CURRENT ROW) FROM wn");
        fails("22013", "SELECT sum(q) OVER (ORDER BY f RANGE BETWEEN 'NaN' PRECEDING AND CURRENT ROW) FROM wn");
        same("SELECT sum(q) OVER (ORDER BY f RANGE BETWEEN 1.1 PRECEDING AND 'NaN' FOLLOWING) FROM wn WHERE id < 0"); // compares no rows
        fails("22004", "SELECT sum(q) OVER (ORDER BY id ROWS BETWEEN NULL::int PRECEDING AND CURRENT ROW) FROM wn WHERE id < 0");
        same("SELECT id, sum(q) OVER (ORDER BY id ROWS BETWEEN 1.5 PRECEDING AND CURRENT ROW), count(*) OVER (ORDER BY id GROUPS 0.4 PRECEDING) FROM wn ORDER BY id");
        fails("42804", "SELECT sum(q) OVER (ORDER BY q ROWS BETWEEN '1 day'::interval PRECEDING AND CURRENT ROW) FROM wn");
    }

    /** RANGE over DATE and TIMESTAMP keys with INTERVAL offsets (months clamp to the month's end), both directions. */
    @Test
    void rangeOverDatesAndTimestampsWithIntervals() throws SQLException {
        both("CREATE TABLE wd (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, v INT)");
        both("INSERT INTO wd VALUES (1, '2020-01-31', '2020-01-31 10:00', 1), (2, '2020-02-29', '2020-02-29 23:59:59', 2),"
                + " (3, '2020-02-29', '2020-03-01 00:00', 3), (4, '2020-03-31', '2020-03-31 12:00', 4), (5, NULL, NULL, 5),"
                + " (6, '2021-02-28', '2021-02-28 00:00', 6), (7, '2019-12-31', '2019-12-31 23:00', 7), (8, '2020-04-30', '2020-04-30 00:00:01', 8)");
        String[] ranges = {
            "'1 month'::interval PRECEDING AND CURRENT ROW", "'1 year' PRECEDING AND '1 year' FOLLOWING",
            "CURRENT ROW AND '1 month 1 day' FOLLOWING", "'2 days'::interval FOLLOWING AND '3 months' FOLLOWING",
            "UNBOUNDED PRECEDING AND '1 hour'::interval PRECEDING",
        };
        for (String r : ranges) {
            for (String col : new String[] {"d", "ts"}) {
                for (String dir : new String[] {"", " DESC"}) {
                    String over = " OVER (ORDER BY " + col + dir + " RANGE BETWEEN " + r + ")";
                    same("SELECT id, sum(v)" + over + ", count(*)" + over + ", first_value(" + col + ")" + over + " FROM wd ORDER BY id");
                }
            }
        }
        fails("22013", "SELECT sum(v) OVER (ORDER BY d RANGE BETWEEN '-1 day'::interval PRECEDING AND CURRENT ROW) FROM wd");
        fails("0A000", "SELECT sum(v) OVER (ORDER BY d RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wd");
    }

    /**
     * VAR_POP, VAR_SAMP, VARIANCE, STDDEV_POP, STDDEV_SAMP, STDDEV as window functions: numeric
     * results of integers and NUMERIC (exact, PostgreSQL's scale), float8 of float8, over running,
     * moving and excluding frames; a 300-row partition for frames past the recompute size.
     */
    @Test
    void statisticalWindowsAsPostgresql() throws SQLException {
        both("CREATE TABLE wv (i INT PRIMARY KEY, g INT, n INT, b BIGINT, q NUMERIC, f FLOAT8)");
        StringBuilder ins = new StringBuilder("INSERT INTO wv VALUES ");
        for (int i = 0; i < 300; i++) {
            String n = i % 11 == 5 ? "NULL" : Integer.toString((i * 7919) % 1000 - 400);
            String q = i % 13 == 7 ? "NULL" : ((i * 31) % 97) + "." + (i % 3 == 0 ? "5" : "25");
            ins.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i < 20 ? 0 : 1).append(", ").append(n).append(", ")
                    .append(n.equals("NULL") ? "NULL" : Long.parseLong(n) * 3_000_000_000L).append(", ").append(q).append(", ")
                    .append(i % 5 == 0 ? "NULL" : Double.toString(i * 0.25)).append(')');
        }
        both(ins.toString());
        String[] frames = {
            "PARTITION BY g ORDER BY i", "ORDER BY i ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
            "PARTITION BY g ORDER BY i ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW",
            "ORDER BY i ROWS BETWEEN 100 PRECEDING AND 100 FOLLOWING", "ORDER BY n GROUPS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES",
        };
        for (String w : frames) {
            String over = " OVER (" + w + ")";
            same("SELECT i, var_pop(n)" + over + ", var_samp(b)" + over + ", variance(q)" + over + ", stddev_pop(q)" + over
                    + ", stddev_samp(n)" + over + ", stddev(b)" + over + " FROM wv ORDER BY i");
            if (!w.contains("100") && !w.contains("UNBOUNDED")) {
                // float8 over a moving frame of more than 64 rows slides: within the last bits, not the same text
                same("SELECT i, var_pop(f)" + over + ", var_samp(f)" + over + ", stddev_pop(f)" + over + ", stddev(f)" + over
                        + " FROM wv ORDER BY i");
            }
        }
        same("SELECT i, var_pop(n::bigint) OVER w, var_samp(n::numeric) OVER w, stddev_pop(n::smallint) OVER w FROM wv "
                + "WHERE i < 8 WINDOW w AS (ORDER BY i ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) ORDER BY i");
    }
}
