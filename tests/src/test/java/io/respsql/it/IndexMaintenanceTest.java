package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntPredicate;

import static io.respsql.it.Resp.EMPTY;
import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.integer;
import static io.respsql.it.Resp.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Secondary indexes stay right as rows change: reads through an index (EXPLAIN shows it is
 * used) give exactly what a full scan or the test's own bookkeeping gives.
 */
class IndexMaintenanceTest extends SqlTestBase {
    private void assertExplain(String where, String plan) {
        s.expectSql("EXPLAIN SELECT id FROM t WHERE " + where, rows(plan));
    }

    @Test
    void explainUsesTheIndexForEachOperator() {
        s.expectSql("CREATE TABLE t (id int primary key, k int, tag text, x float, plain int)", OK);
        s.expectSql("CREATE INDEX t:k:index ON t (k)", OK);
        s.expectSql("CREATE INDEX t:tag:index ON t (tag)", OK);
        s.expectSql("CREATE INDEX t:x:index ON t (x)", OK);
        assertExplain("k = 5", "index probe on t using t:k:index (k = 5)");
        assertExplain("k BETWEEN 1 AND 5", "index range on t using t:k:index (k BETWEEN 1 AND 5)");
        assertExplain("k < 5", "index range on t using t:k:index (k < 5)");
        assertExplain("k <= 5", "index range on t using t:k:index (k <= 5)");
        assertExplain("k > 5", "index range on t using t:k:index (k > 5)");
        assertExplain("k >= 5", "index range on t using t:k:index (k >= 5)");
        assertExplain("k IN (1,5,3)", "index probe on t using t:k:index (k IN (1,5,3))");
        assertExplain("k = 5 AND plain = 3", "index probe on t using t:k:index (k = 5); filter plain = 3");
        assertExplain("tag = abc", "index probe on t using t:tag:index (tag = abc); filter tag = 'abc'");
        assertExplain("tag BETWEEN a AND b", "index range on t using t:tag:index (tag BETWEEN a AND b); filter tag BETWEEN 'a' AND 'b'");
        assertExplain("tag IN (a,b)", "index probe on t using t:tag:index (tag IN (a,b)); filter tag IN ('a', 'b')");
        assertExplain("x = 1.5", "index probe on t using t:x:index (x = 1.5)");
        assertExplain("x < 0", "index range on t using t:x:index (x < 0)");
        assertExplain("id < 10", "primary key range on t using t:id:pk (id < 10)");
        assertExplain("id IN (1,2)", "primary key probe on t using t:id:pk (id IN (1,2))");
        assertExplain("id = 3 OR k = 4",
                "union of [primary key probe on t using t:id:pk (id = 3)] + [index probe on t using t:k:index (k = 4)]");
        // no index serves these
        assertExplain("plain = 3", "full scan of t; filter plain = 3");
        assertExplain("plain BETWEEN 1 AND 5", "full scan of t; filter plain BETWEEN 1 AND 5");
        assertExplain("k != 5", "full scan of t; filter k <> 5");
        assertExplain("k + 0 = 5", "full scan of t; filter (k + 0) = 5");
        assertExplain("k = 1 OR plain = 2", "full scan of t; filter (k = 1) OR (plain = 2)");
        s.expectSql("EXPLAIN UPDATE t SET plain=1 WHERE k IN (1,2,3)", rows("index probe on t using t:k:index (k IN (1,2,3))"));
        s.expectSql("EXPLAIN DELETE FROM t WHERE k < 3", rows("index range on t using t:k:index (k < 3)"));
    }

    @Test
    void explainShowsNumericInListsAsSql() {
        s.expectSql("CREATE TABLE t (id int primary key, plain int, f float)", OK);
        assertExplain("plain IN (3,1,2)", "full scan of t; filter plain IN (3, 1, 2)");
        assertExplain("f IN (2.5,1)", "full scan of t; filter f IN (2.5, 1)");
    }

    @Test
    void updatingIndexedColumnsMovesRowsInTheirIndexes() {
        s.expectSql("CREATE TABLE t (id int primary key, k int, tag text, x float)", OK);
        s.expectSql("CREATE INDEX t:k:index ON t (k)", OK);
        s.expectSql("CREATE INDEX t:tag:index ON t (tag)", OK);
        s.expectSql("CREATE INDEX t:x:index ON t (x)", OK);
        s.expectSql(SqlText.insert("t", 1, 100, n -> n + "," + n % 10 + ",tag" + n % 10 + "," + n % 10 + ".5"), OK);

        s.expectSql("UPDATE t SET k=77, tag=seventy-seven, x=77.25 WHERE k = 3", integer(10));
        for (String where : new String[] {"k = 3", "tag = tag3", "x = 3.5", "k BETWEEN 3 AND 3", "x BETWEEN 3.4 AND 3.6"}) {
            s.expectSql("SELECT id FROM t WHERE " + where, EMPTY);
        }
        List<String> moved = ids(3, 13, 23, 33, 43, 53, 63, 73, 83, 93);
        for (String where : new String[] {"k = 77", "tag = 'seventy-seven'", "x = 77.25", "k > 9", "tag < tag0", "x >= 10"}) {
            s.expectSql("SELECT id FROM t WHERE " + where + " ORDER BY id", rows(moved));
        }
        assertExplain("k = 77", "index probe on t using t:k:index (k = 77)");
        assertExplain("x = 77.25", "index probe on t using t:x:index (x = 77.25)");
        s.expectSql("SELECT COUNT(*) FROM t WHERE k < 77", integer(90));

        // an update that moves rows within the range it reads
        s.expectSql("UPDATE t SET k=k+1 WHERE k BETWEEN 0 AND 9", integer(90));
        s.expectSql("SELECT COUNT(*) FROM t WHERE k = 0", integer(0));
        s.expectSql("SELECT id FROM t WHERE k = 1 ORDER BY id", rows(ids(10, 20, 30, 40, 50, 60, 70, 80, 90, 100)));
        s.expectSql("SELECT COUNT(*) FROM t WHERE k = 10", integer(10));
        s.expectSql("SELECT COUNT(*) FROM t WHERE k BETWEEN 1 AND 10", integer(90));

        // primary key updates: found at the new key only, other indexes follow
        s.expectSql("UPDATE t SET id=id+1000 WHERE k = 77", integer(10));
        s.expectSql("SELECT id FROM t WHERE k = 77 ORDER BY id", rows(ids(1003, 1013, 1023, 1033, 1043, 1053, 1063, 1073, 1083, 1093)));
        s.expectSql("SELECT * FROM t WHERE id = 3", EMPTY);
        s.expectSql("SELECT * FROM t WHERE id = 1003", rows("1003,77,seventy-seven,77.25"));
        assertExplain("id = 1003", "primary key probe on t using t:id:pk (id = 1003)");
        s.expectSql("SELECT COUNT(*) FROM t WHERE id BETWEEN 1 AND 100", integer(90));
        s.expectSql("SELECT COUNT(*) FROM t WHERE id > 100", integer(10));
        s.expectSql("SELECT id FROM t WHERE tag = 'seventy-seven' AND id < 1050 ORDER BY id DESC", rows(ids(1043, 1033, 1023, 1013, 1003)));
    }

    @Test
    void deleteThenReinsertTheSameKey() {
        s.expectSql("CREATE TABLE t (id int primary key, k int, tag text)", OK);
        s.expectSql("CREATE INDEX t:k:index ON t (k)", OK);
        s.expectSql("CREATE INDEX t:tag:index ON t (tag)", OK);
        s.expectSql(SqlText.insert("t", 1, 50, n -> n + "," + n + ",tag" + n), OK);
        for (int round = 1; round <= 20; round++) {
            s.expectSql("DELETE FROM t WHERE id = 7", integer(1));
            s.expectSql("SELECT * FROM t WHERE id = 7", EMPTY);
            s.expectSql("SELECT id FROM t WHERE k = " + (round == 1 ? 7 : 1000 + round - 1), EMPTY);
            s.expectSql("INSERT INTO t VALUES (7," + (1000 + round) + ",again" + round + ")", OK);
            s.expectSql("SELECT * FROM t WHERE id = 7", rows("7," + (1000 + round) + ",again" + round));
            s.expectSql("SELECT id FROM t WHERE k = " + (1000 + round), rows("7"));
            s.expectSql("SELECT id FROM t WHERE tag = again" + round, rows("7"));
            s.expectSql("SELECT COUNT(*) FROM t WHERE tag BETWEEN again AND againz", integer(1));
        }
        s.expectSql("SELECT id FROM t WHERE tag = tag7", EMPTY);
        // a whole range out and back in
        s.expectSql("DELETE FROM t WHERE k BETWEEN 10 AND 29", integer(20));
        s.expectSql("SELECT COUNT(*) FROM t WHERE k BETWEEN 10 AND 29", integer(0));
        s.expectSql(SqlText.insert("t", 10, 29, n -> n + "," + (n + 100) + ",back" + n), OK);
        s.expectSql("SELECT COUNT(*) FROM t WHERE k BETWEEN 10 AND 29", integer(0));
        s.expectSql("SELECT COUNT(*) FROM t WHERE k BETWEEN 110 AND 129", integer(20));
        s.expectSql("SELECT id FROM t WHERE tag BETWEEN back AND backz ORDER BY tag LIMIT 3", rows("10", "11", "12"));
        s.expectSql("SELECT COUNT(*) FROM t", integer(50));
    }

    // ---- an index built over rows already stored --------------------------------------------

    private static final int BIG = 100_000;

    private static int k(int n) {
        return n * 7919 % 1000; // every value 0..999 exactly 100 times
    }

    private static String tag(int n) {
        return "t" + n % 37;
    }

    private static double x(int n) {
        return (n % 101) / 4.0;
    }

    /** A query on big and which ids it must return. */
    private record Query(String where, String indexName, IntPredicate matches) {
    }

    private static List<Query> bigQueries() {
        return List.of(
                new Query("k = 0", "big:k:index", n -> k(n) == 0),
                new Query("k = 999", "big:k:index", n -> k(n) == 999),
                new Query("k = 1000", "big:k:index", n -> false),
                new Query("k BETWEEN 10 AND 20", "big:k:index", n -> k(n) >= 10 && k(n) <= 20),
                new Query("k BETWEEN -5 AND 2", "big:k:index", n -> k(n) <= 2),
                new Query("k < 5", "big:k:index", n -> k(n) < 5),
                new Query("k >= 995", "big:k:index", n -> k(n) >= 995),
                new Query("k IN (1,2,3,999)", "big:k:index", n -> k(n) == 1 || k(n) == 2 || k(n) == 3 || k(n) == 999),
                new Query("tag = t5", "big:tag:index", n -> tag(n).equals("t5")),
                new Query("tag BETWEEN t1 AND t2", "big:tag:index", n -> tag(n).compareTo("t1") >= 0 && tag(n).compareTo("t2") <= 0),
                new Query("tag IN (t0,t36)", "big:tag:index", n -> tag(n).equals("t0") || tag(n).equals("t36")),
                new Query("x = 2.5", "big:x:index", n -> x(n) == 2.5),
                new Query("x BETWEEN 1 AND 1.5", "big:x:index", n -> x(n) >= 1 && x(n) <= 1.5),
                new Query("x < 0.5", "big:x:index", n -> x(n) < 0.5));
    }

    private static List<String> expectedIds(IntPredicate matches) {
        List<String> ids = new ArrayList<>();
        for (int n = 1; n <= BIG; n++) {
            if (matches.test(n)) {
                ids.add(Integer.toString(n));
            }
        }
        return ids;
    }

    /** The one-line plan of {@code SELECT id FROM big WHERE <where>} starts with {@code prefix}. */
    private void assertPlan(String prefix, String where) {
        List<String> plan = SqlSession.Replies.bulks(s.sql("EXPLAIN SELECT id FROM big WHERE " + where));
        assertEquals(1, plan.size(), plan::toString);
        assertTrue(plan.get(0).startsWith(prefix), () -> where + ": " + plan.get(0));
    }

    @Test
    void indexCreatedOverExistingRowsAnswersLikeAFullScan() {
        s.expectSql("CREATE TABLE big (id int primary key, k int, tag text, x float)", OK);
        List<String[]> inserts = new ArrayList<>();
        for (int from = 1; from <= BIG; from += 1000) {
            inserts.add(new String[] {"SQL", SqlText.insert("big", from, from + 999, n -> n + "," + k(n) + "," + tag(n) + "," + x(n))});
        }
        for (Object reply : Pipeline.run(server.newLettuceConnection(), inserts)) {
            assertEquals("OK", reply);
        }
        s.expectSql("SELECT COUNT(*) FROM big", integer(BIG));

        // without indexes: full scans, checked against the test's own computation
        List<String> fullScan = new ArrayList<>();
        for (Query q : bigQueries()) {
            assertPlan("primary key range on big using big:id:pk (all keys), in key order; filter ", q.where() + " ORDER BY id");
            String reply = s.sql("SELECT id FROM big WHERE " + q.where() + " ORDER BY id");
            assertEquals(rows(expectedIds(q.matches())), reply, q.where());
            fullScan.add(reply);
        }

        s.expectSql("CREATE INDEX big:k:index ON big (k)", OK);
        s.expectSql("CREATE INDEX big:tag:index ON big (tag)", OK);
        s.expectSql("CREATE INDEX big:x:index ON big (x)", OK);
        List<Query> queries = bigQueries();
        for (int i = 0; i < queries.size(); i++) {
            Query q = queries.get(i);
            assertPlan((q.where().contains(" = ") || q.where().contains(" IN ") ? "index probe" : "index range")
                    + " on big using " + q.indexName() + " (" + q.where() + ")", q.where());
            assertEquals(fullScan.get(i), s.sql("SELECT id FROM big WHERE " + q.where() + " ORDER BY id"), q.where());
            s.expectSql("SELECT COUNT(*) FROM big WHERE " + q.where(), integer(expectedIds(q.matches()).size()));
        }
        s.expectSql("SELECT COUNT(*) FROM big WHERE k = 500", integer(100));

        // dropped: back to full scans, same answers
        s.expectSql("DROP INDEX big:k:index", OK);
        s.expectSql("DROP INDEX big:tag:index", OK);
        s.expectSql("DROP INDEX big:x:index", OK);
        for (int i = 0; i < queries.size(); i++) {
            Query q = queries.get(i);
            assertPlan("full scan of big; filter ", q.where());
            assertEquals(fullScan.get(i), s.sql("SELECT id FROM big WHERE " + q.where() + " ORDER BY id"), q.where());
        }
        s.expectSql("DROP TABLE big", integer(2));
    }

    @Test
    void indexBuiltOverExistingRowsFollowsLaterChanges() {
        s.expectSql("CREATE TABLE big (id int primary key, k int)", OK);
        List<String[]> inserts = new ArrayList<>();
        for (int from = 1; from <= BIG; from += 1000) {
            inserts.add(new String[] {"SQL", SqlText.insert("big", from, from + 999, n -> n + "," + k(n))});
        }
        Pipeline.run(server.newLettuceConnection(), inserts).forEach(r -> assertEquals("OK", r));
        s.expectSql("CREATE INDEX big:k:index ON big (k)", OK);
        int[] model = new int[BIG + 1];
        for (int n = 1; n <= BIG; n++) {
            model[n] = k(n);
        }
        s.expectSql("UPDATE big SET k=k+1000 WHERE id BETWEEN 1 AND 5000", integer(5000));
        for (int n = 1; n <= 5000; n++) {
            model[n] += 1000;
        }
        s.expectSql("DELETE FROM big WHERE k BETWEEN 0 AND 9", integer(950)); // 1000 rows minus those moved up
        for (int n = 1; n <= BIG; n++) {
            if (model[n] >= 0 && model[n] <= 9) {
                model[n] = -1;
            }
        }
        s.expectSql(SqlText.insert("big", BIG + 1, BIG + 500, n -> n + ",5"), OK);
        int[] grown = java.util.Arrays.copyOf(model, BIG + 501);
        for (int n = BIG + 1; n <= BIG + 500; n++) {
            grown[n] = 5;
        }
        for (int value : new int[] {0, 5, 9, 10, 500, 999, 1000, 1005, 1500, 1999}) {
            List<String> expected = new ArrayList<>();
            for (int n = 1; n < grown.length; n++) {
                if (grown[n] == value) {
                    expected.add(Integer.toString(n));
                }
            }
            assertEquals(rows(expected), s.sql("SELECT id FROM big WHERE k = " + value + " ORDER BY id"), "k = " + value);
        }
        s.expectSql("SELECT COUNT(*) FROM big WHERE k >= 1000", integer(5000));
        s.expectSql("SELECT COUNT(*) FROM big", integer(BIG - 950 + 500));
    }

    // ---- text rewritten until its storage is compacted ------------------------------------------

    private static String longText(int id) {
        return ("text-" + id + "-").repeat(8); // about 100 bytes, unique per row
    }

    /**
     * Deleting and rewriting megabytes of text makes the server reclaim text storage; afterwards
     * every value reads back the same, by key and through the text index.
     */
    @Test
    void textSurvivesStorageCompaction() {
        int rows = 30_000;
        s.expectSql("CREATE TABLE c (id int primary key, k int, s text)", OK);
        s.expectSql("CREATE INDEX c:s:index ON c (s)", OK);
        List<String[]> inserts = new ArrayList<>();
        for (int from = 1; from <= rows; from += 1000) {
            inserts.add(new String[] {"SQL", SqlText.insert("c", from, from + 999, n -> n + "," + n % 3 + ",'" + longText(n) + "'")});
        }
        Pipeline.run(server.newLettuceConnection(), inserts).forEach(r -> assertEquals("OK", r));

        long before = s.info("c").dataBytes();
        s.expectSql("DELETE FROM c WHERE k IN (1,2)", integer(2 * rows / 3));
        long after = s.info("c").dataBytes();
        assertTrue(after < before, "text storage was not reclaimed: " + before + " -> " + after + " bytes");
        s.expectSql("UPDATE c SET s='rewritten' WHERE id < 3000", integer(999));
        s.expectSql("UPDATE c SET s='" + longText(-1) + "' WHERE id BETWEEN 3000 AND 6000", integer(1001));
        s.expectSql(SqlText.insert("c", rows + 1, rows + 1000, n -> n + ",1,'" + longText(n) + "'"), OK);

        List<String> expected = new ArrayList<>();
        for (int n = 1; n <= rows + 1000; n++) {
            if (n > rows) {
                expected.add(n + "," + longText(n));
            } else if (n % 3 == 0) {
                expected.add(n + "," + (n < 3000 ? "rewritten" : n <= 6000 ? longText(-1) : longText(n)));
            }
        }
        assertEquals(rows(expected), s.sql("SELECT id,s FROM c WHERE id BETWEEN 1 AND " + (rows + 1000) + " ORDER BY id"));
        for (int n : new int[] {6003, 6006, 15000, 29997, 30000, 30001, 30999, 31000}) {
            s.expectSql("SELECT id FROM c WHERE s = '" + longText(n) + "'", rows(Integer.toString(n)));
        }
        s.expectSql("SELECT id FROM c WHERE s = '" + longText(1) + "'", Resp.EMPTY);
        s.expectSql("SELECT COUNT(*) FROM c WHERE s = rewritten", integer(999));
        s.expectSql("SELECT COUNT(*) FROM c WHERE s = '" + longText(-1) + "'", integer(1001));
        s.expectSql("SELECT COUNT(*) FROM c WHERE s BETWEEN 'text-3' AND 'text-4'", integer(
                (int) expected.stream().map(r -> r.substring(r.indexOf(',') + 1))
                        .filter(t -> t.compareTo("text-3") >= 0 && t.compareTo("text-4") <= 0).count()));
    }

    // ---- random changes against a model -------------------------------------------------------

    /**
     * Random inserts, updates of indexed columns and of the key, and deletes, each checked for
     * its reply; every 100 steps every index value is read back and compared with the model.
     */
    @Test
    void randomChangesKeepIndexesExact() {
        s.expectSql("CREATE TABLE t (id int primary key, k int, tag text)", OK);
        s.expectSql("CREATE INDEX t:k:index ON t (k)", OK);
        s.expectSql("CREATE INDEX t:tag:index ON t (tag)", OK);
        // long shared prefixes, so index keys built from the first bytes collide
        String[] tags = new String[12];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = "a-rather-long-shared-prefix-" + (char) ('a' + i) + (i % 3 == 0 ? "" : "-suffix" + i);
        }
        TreeMap<Integer, int[]> model = new TreeMap<>(); // id -> {k, tag index}
        Random random = new Random(20240611);
        for (int step = 1; step <= 3000; step++) {
            int op = random.nextInt(10);
            int id = 1 + random.nextInt(300);
            int k = random.nextInt(40);
            int tag = random.nextInt(tags.length);
            if (op < 4) {
                if (model.containsKey(id)) {
                    String reply = s.sql("INSERT INTO t VALUES (" + id + "," + k + ",'" + tags[tag] + "')");
                    assertTrue(reply.startsWith("-ERR INSERT on Existing Data"), reply);
                } else {
                    s.expectSql("INSERT INTO t VALUES (" + id + "," + k + ",'" + tags[tag] + "')", OK);
                    model.put(id, new int[] {k, tag});
                }
            } else if (op == 4) {
                int from = random.nextInt(40);
                int n = 0;
                for (int[] row : model.values()) {
                    if (row[0] == from) {
                        row[0] = k;
                        n++;
                    }
                }
                s.expectSql("UPDATE t SET k=" + k + " WHERE k = " + from, integer(n));
            } else if (op == 5) {
                int n = 0;
                for (int[] row : model.values()) {
                    if (row[0] == k) {
                        row[1] = tag;
                        n++;
                    }
                }
                s.expectSql("UPDATE t SET tag='" + tags[tag] + "' WHERE k = " + k, integer(n));
            } else if (op == 6) {
                int n = 0;
                for (int[] row : model.values()) {
                    if (row[1] == tag) {
                        row[0] = row[0] + 100;
                        n++;
                    }
                }
                s.expectSql("UPDATE t SET k=k+100 WHERE tag = '" + tags[tag] + "'", integer(n));
                for (int[] row : model.values()) {
                    row[0] %= 100; // keep values small: a second statement folds them back
                }
                s.expectSql("UPDATE t SET k=k-100 WHERE k >= 100", integer(n));
            } else if (op == 7) {
                int to = 1 + random.nextInt(300);
                String update = "UPDATE t SET id=" + to + " WHERE id = " + id;
                if (!model.containsKey(id)) {
                    s.expectSql(update, integer(0));
                } else if (to == id) {
                    s.expectSql(update, integer(1));
                } else if (!model.containsKey(to)) {
                    s.expectSql(update, integer(1));
                    model.put(to, model.remove(id));
                } else {
                    assertEquals(Resp.error("ERR UPDATE would duplicate primary key id=" + to + " in table 't'"), s.sql(update));
                }
            } else if (op == 8) {
                s.expectSql("DELETE FROM t WHERE id = " + id, integer(model.remove(id) == null ? 0 : 1));
            } else {
                int n = 0;
                for (var it = model.values().iterator(); it.hasNext(); ) {
                    if (it.next()[0] == k) {
                        it.remove();
                        n++;
                    }
                }
                s.expectSql("DELETE FROM t WHERE k = " + k, integer(n));
            }
            if (step % 100 == 0) {
                assertMatchesModel(model, tags, step);
            }
        }
    }

    private void assertMatchesModel(TreeMap<Integer, int[]> model, String[] tags, int step) {
        s.expectSql("SELECT COUNT(*) FROM t", integer(model.size()));
        for (int k = 0; k < 40; k++) {
            List<String> expected = new ArrayList<>();
            for (var e : model.entrySet()) {
                if (e.getValue()[0] == k) {
                    expected.add(e.getKey() + "," + k + "," + tags[e.getValue()[1]]);
                }
            }
            assertEquals(rows(expected), s.sql("SELECT * FROM t WHERE k = " + k + " ORDER BY id"), "step " + step + ", k = " + k);
        }
        for (int i = 0; i < tags.length; i++) {
            List<String> expected = new ArrayList<>();
            for (var e : model.entrySet()) {
                if (e.getValue()[1] == i) {
                    expected.add(Integer.toString(e.getKey()));
                }
            }
            assertEquals(rows(expected), s.sql("SELECT id FROM t WHERE tag = '" + tags[i] + "' ORDER BY id"),
                    "step " + step + ", tag " + tags[i]);
        }
        List<String> all = new ArrayList<>();
        model.forEach((id, row) -> all.add(id + "," + row[0] + "," + tags[row[1]]));
        assertEquals(rows(all), s.sql("SELECT * FROM t WHERE id BETWEEN 1 AND 300 ORDER BY id"), "step " + step + ", by key");
    }

    private static List<String> ids(int... ids) {
        List<String> out = new ArrayList<>();
        for (int id : ids) {
            out.add(Integer.toString(id));
        }
        return out;
    }
}
