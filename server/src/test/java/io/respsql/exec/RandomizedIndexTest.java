package io.respsql.exec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static io.respsql.exec.Replies.bulks;
import static io.respsql.exec.Replies.error;
import static io.respsql.exec.Replies.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random INSERT/UPDATE/DELETE against {@code t (id INT PRIMARY KEY, fk INT, v BIGINT, s TEXT)} with an
 * index on fk, every result compared with a TreeMap model. Reads go through the fk index (equality,
 * ranges, OR unions) and the primary key, so a missed or stale index entry shows up as a wrong answer.
 */
class RandomizedIndexTest {
    private static final long SEED = 0x2010_0527L;
    private static final int STEPS = 4000;
    private static final int IDS = 300;
    private static final int FKS = 30;
    private static final String[] WORDS = {"a", "b", "it's", "x,y", "two words", "abcdefgh1", "abcdefgh2", "zoë", ""};

    private record Row(int id, int fk, long v, String s) {
        String reply() {
            return id + "," + fk + "," + v + "," + s;
        }
    }

    /** A WHERE condition as SQL and as a test on a model row. */
    private record Cond(String sql, Predicate<Row> test) {
    }

    /**
     * One SET assignment as SQL and as a function (old row, row being built) to the row being built with
     * this assignment's column set: every assignment reads the old row, as in SQL.
     */
    private record Assign(String sql, BinaryOperator<Row> apply) {
    }

    private final Random rnd = new Random(SEED);
    private final EngineHarness h = new EngineHarness();
    private final TreeMap<Integer, Row> model = new TreeMap<>();
    private int step;
    private int rejectedInserts;
    private int rejectedUpdates;
    private String statement;

    @Test
    void indexAnswersMatchTheModel() {
        run("CREATE TABLE t (id INT PRIMARY KEY, fk INT, v BIGINT, s TEXT)", Replies.OK);
        run("CREATE INDEX t:fk:index ON t (fk)", Replies.OK);
        assertEquals(List.of("index probe on t using t:fk:index (fk = 3)"), bulks(h, "EXPLAIN SELECT * FROM t WHERE fk = 3"));
        assertEquals(List.of("index range on t using t:fk:index (fk BETWEEN 1 AND 4)"),
                bulks(h, "EXPLAIN SELECT * FROM t WHERE fk BETWEEN 1 AND 4"));

        for (step = 1; step <= STEPS; step++) {
            int op = rnd.nextInt(100);
            if (op < 45) {
                insert();
            } else if (op < 88) {
                update();
            } else {
                delete();
            }
            query();
            if (step % 250 == 0) {
                checkEverything();
            }
            if (step == STEPS / 2) {
                run("DROP INDEX t:fk:index", Replies.OK);
                run("CREATE INDEX t:fk:index ON t (fk)", Replies.OK); // rebuilt over the rows present
                checkEverything();
            }
        }
        checkEverything();
        assertTrue(model.size() > 50, "the run should end with a populated table, has " + model.size());
        assertTrue(rejectedUpdates > 50 && rejectedInserts > 50, "duplicate keys should be exercised: " + rejectedUpdates + " " + rejectedInserts);
    }

    // ---- writes -------------------------------------------------------------------------------

    private void insert() {
        int n = rnd.nextInt(4) == 0 ? 2 + rnd.nextInt(3) : 1;
        List<Row> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(new Row(rnd.nextInt(IDS), rnd.nextInt(FKS), rnd.nextLong() % 1_000_000_000_000L, word()));
        }
        boolean columnList = rnd.nextBoolean();
        String values = batch.stream()
                .map(r -> columnList ? "(" + quote(r.s) + "," + r.v + "," + r.id + "," + r.fk + ")"
                        : "(" + r.id + "," + r.fk + "," + r.v + "," + quote(r.s) + ")")
                .collect(Collectors.joining(","));
        String sql = "INSERT INTO t " + (columnList ? "(s, v, id, fk) " : "") + "VALUES " + values;

        Set<Integer> seen = new HashSet<>();
        for (Row r : batch) {
            if (model.containsKey(r.id) || !seen.add(r.id)) {
                run(sql, error("INSERT on Existing Data - use UPDATE (table 't' already has id=" + r.id + ")"));
                rejectedInserts++;
                return;
            }
        }
        run(sql, Replies.OK);
        batch.forEach(r -> model.put(r.id, r));
    }

    private void update() {
        List<Assign> sets = assignments();
        Cond where = condition();
        String sql = "UPDATE t SET " + sets.stream().map(Assign::sql).collect(Collectors.joining(", ")) + " WHERE " + where.sql;

        List<Row> matched = matching(where.test);
        Map<Integer, Row> changed = new HashMap<>();
        Set<Integer> newIds = new HashSet<>();
        boolean duplicate = false;
        for (Row old : matched) {
            Row r = old;
            for (Assign a : sets) {
                r = a.apply.apply(old, r);
            }
            changed.put(old.id, r);
            duplicate |= !newIds.add(r.id);
        }
        Set<Integer> vacated = matched.stream().map(Row::id).collect(Collectors.toSet());
        for (int id : newIds) {
            duplicate |= model.containsKey(id) && !vacated.contains(id);
        }
        if (duplicate) {
            String reply = run(sql, null);
            assertTrue(reply.startsWith("-ERR UPDATE would duplicate primary key id="), context(reply));
            rejectedUpdates++;
            return;
        }
        run(sql, ":" + matched.size());
        vacated.forEach(model::remove);
        changed.values().forEach(r -> model.put(r.id, r));
    }

    private void delete() {
        int id = rnd.nextInt(IDS);
        Cond where = rnd.nextInt(5) < 3 ? new Cond("id BETWEEN " + id + " AND " + (id + 3), r -> r.id >= id && r.id <= id + 3)
                : condition();
        List<Row> matched = matching(where.test);
        run("DELETE FROM t WHERE " + where.sql, ":" + matched.size());
        matched.forEach(r -> model.remove(r.id));
    }

    // ---- reads --------------------------------------------------------------------------------

    private void query() {
        Cond where = condition();
        List<Row> expected = matching(where.test);
        switch (rnd.nextInt(4)) {
            case 0 -> run("SELECT * FROM t WHERE " + where.sql + " ORDER BY id", rows(replies(expected)));
            case 1 -> run("SELECT COUNT(*) FROM t WHERE " + where.sql, ":" + expected.size());
            case 2 -> run("SELECT id FROM t WHERE " + where.sql + " ORDER BY fk DESC, id",
                    rows(expected.stream().sorted((a, b) -> a.fk != b.fk ? Integer.compare(b.fk, a.fk) : Integer.compare(a.id, b.id))
                            .map(r -> String.valueOf(r.id)).toList()));
            default -> assertEquals(sorted(replies(expected)), sorted(select("SELECT * FROM t WHERE " + where.sql)),
                    context("rows in index order"));
        }
    }

    /** Every fk through the index, the whole table through the primary key, and the count. */
    private void checkEverything() {
        statement = "full check";
        for (int fk = -5; fk < FKS + 5; fk++) {
            int k = fk;
            assertEquals(sorted(replies(matching(r -> r.fk == k))), sorted(select("SELECT * FROM t WHERE fk = " + fk)),
                    context("fk = " + fk));
        }
        run("SELECT * FROM t ORDER BY id", rows(replies(new ArrayList<>(model.values()))));
        run("SELECT COUNT(*) FROM t", ":" + model.size());
        run("SELECT COUNT(*) FROM t WHERE fk BETWEEN -1000 AND 1000", ":" + model.size());
    }

    // ---- random statement parts ------------------------------------------------------------------

    private Cond condition() {
        int a = rnd.nextInt(FKS + 4) - 2;
        int b = a + rnd.nextInt(6);
        int id = rnd.nextInt(IDS);
        switch (rnd.nextInt(9)) {
            case 0:
            case 1:
                return new Cond("fk = " + a, r -> r.fk == a);
            case 2:
                return new Cond("fk BETWEEN " + a + " AND " + b, r -> r.fk >= a && r.fk <= b);
            case 3:
                return new Cond("fk >= " + b, r -> r.fk >= b);
            case 4:
                return new Cond("fk < " + a + " AND fk > " + (a - 4), r -> r.fk < a && r.fk > a - 4);
            case 5:
                return new Cond("id = " + id, r -> r.id == id);
            case 6:
                return new Cond("id BETWEEN " + id + " AND " + (id + 20), r -> r.id >= id && r.id <= id + 20);
            case 7:
                return new Cond("fk = " + a + " OR id = " + id, r -> r.fk == a || r.id == id);
            default:
                return new Cond("fk IN (" + a + ", " + b + ") AND v >= 0", r -> (r.fk == a || r.fk == b) && r.v >= 0);
        }
    }

    private List<Assign> assignments() {
        List<Assign> out = new ArrayList<>();
        Set<String> columns = new LinkedHashSet<>();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            Assign a = assignment();
            if (columns.add(a.sql.substring(0, a.sql.indexOf(' ')))) {
                out.add(a);
            }
        }
        return out;
    }

    private Assign assignment() {
        int d = rnd.nextInt(5) - 2;
        int k = rnd.nextInt(FKS);
        switch (rnd.nextInt(8)) {
            case 0:
                return new Assign("fk = " + k, (o, r) -> new Row(r.id, k, r.v, r.s));
            case 1:
            case 2:
                return new Assign("fk = fk + " + d, (o, r) -> new Row(r.id, o.fk + d, r.v, r.s));
            case 3:
                return new Assign("v = v + " + d, (o, r) -> new Row(r.id, r.fk, o.v + d, r.s));
            case 4: {
                String w = word();
                return new Assign("s = " + quote(w), (o, r) -> new Row(r.id, r.fk, r.v, w));
            }
            case 5:
                return new Assign("id = id + " + d, (o, r) -> new Row(o.id + d, r.fk, r.v, r.s));
            case 6: {
                int id = rnd.nextInt(IDS);
                return new Assign("id = " + id, (o, r) -> new Row(id, r.fk, r.v, r.s));
            }
            default:
                return new Assign("fk = id % 7", (o, r) -> new Row(r.id, o.id % 7, r.v, r.s));
        }
    }

    private String word() {
        return WORDS[rnd.nextInt(WORDS.length)] + (rnd.nextBoolean() ? "" : String.valueOf(rnd.nextInt(10)));
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private List<Row> matching(Predicate<Row> test) {
        return model.values().stream().filter(test).collect(Collectors.toList());
    }

    private static List<String> replies(List<Row> rows) {
        return rows.stream().map(Row::reply).collect(Collectors.toList());
    }

    private static List<String> sorted(List<String> l) {
        List<String> c = new ArrayList<>(l);
        c.sort(null);
        return c;
    }

    private List<String> select(String sql) {
        statement = sql;
        return bulks(h, sql);
    }

    /** Runs a statement; checks its reply unless {@code expected} is null. */
    private String run(String sql, String expected) {
        statement = sql;
        String reply = h.run(sql);
        if (expected != null) {
            assertEquals(expected, reply, context("reply"));
        }
        return reply;
    }

    private String context(String what) {
        return "seed " + SEED + ", step " + step + ", " + what + " of: " + statement;
    }
}
