package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.exec.op.aggregate.AggregateSpec.Kind;
import io.respsql.exec.op.join.HashJoin;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.Expression;
import io.respsql.storage.Table;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GROUP BY over a join with keys resolved once per row slot ({@link SlotKeyCoder}) against the
 * tuple-at-a-time grouping and a model (a map over the join's tuples): TEXT and integer keys of
 * the dimension and of the fact side, NULL and empty values, the NULL row of a LEFT JOIN, missing
 * and duplicate dimension keys, several keys. Relations: fact 0, dimension 1, output 2.
 */
class JoinGroupingTest {
    private static final String[] TIERS = {"gold", "silver", "", "platinum", "bronze"};

    private static TestTable dim(Random rnd, int n, boolean duplicates) {
        TestTable d = TestSupport.table("d", "id:INT,tier:TEXT,n:INT");
        for (int i = 0; i < n; i++) {
            int id = duplicates ? 1 + rnd.nextInt(Math.max(1, n / 2)) : i + 1;
            d.row(id, rnd.nextInt(8) == 0 ? null : TIERS[rnd.nextInt(TIERS.length)], rnd.nextInt(6) == 0 ? null : rnd.nextInt(4));
        }
        return d;
    }

    private static TestTable fact(Random rnd, int n, int dimRows) {
        TestTable f = TestSupport.table("f", "id:INT,dk:INT,v:BIGINT,s:TEXT");
        for (int i = 0; i < n; i++) {
            Integer dk = rnd.nextInt(15) == 0 ? null : 1 + rnd.nextInt(dimRows + 3); // some with no dimension row
            f.row(i, dk, rnd.nextInt(9) == 0 ? null : (long) rnd.nextInt(1000) - 100, rnd.nextBoolean() ? "x" : rnd.nextBoolean() ? "y" : null);
        }
        return f;
    }

    /** keys[j] is "rel.column". */
    private static Expression key(String k, TestTable f, TestTable d) {
        if (k.equals("const")) {
            return TestSupport.constText("k"); // not a column: a unit without a memo
        }
        String[] rc = k.split("\\.");
        return rc[0].equals("f") ? f.col(rc[1], 0) : d.col(rc[1], 1);
    }

    @Test
    void slotCodedGroupingMatchesTheTupleGroupingAndTheModel() {
        Random rnd = new Random(3);
        String[][] keySets = {{"d.tier"}, {"d.tier", "f.s"}, {"f.s", "d.n"}, {"d.tier", "d.n"}, {"d.n", "d.tier", "f.s"}, {"d.tier", "const", "f.s", "d.n"}, {"const", "d.n"}};
        for (int round = 0; round < 300; round++) {
            int dimRows = new int[] {0, 1, 5, 40}[rnd.nextInt(4)];
            TestTable d = dim(rnd, dimRows, rnd.nextInt(3) == 0);
            TestTable f = fact(rnd, 1 + rnd.nextInt(300), dimRows);
            boolean outer = rnd.nextBoolean();
            boolean realScans = rnd.nextBoolean();
            String[] ks = keySets[rnd.nextInt(keySets.length)];
            List<List<Object>> expected = model(f, d, ks, outer);
            for (boolean memo : new boolean[] {true, false}) {
                StringBuilder spec = new StringBuilder();
                Expression[] keys = new Expression[ks.length];
                for (int j = 0; j < ks.length; j++) {
                    keys[j] = key(ks[j], f, d);
                    String col = ks[j].equals("const") ? "const" : ks[j].split("\\.")[1];
                    spec.append("k").append(j).append(col.equals("n") ? ":INT," : ":TEXT,");
                }
                Table out = TestSupport.work(spec + "c:BIGINT,sum:BIGINT");
                // real table scans: the dimension's keys are resolved ahead, in row order (the fact has 4x its rows)
                Operator dScan = realScans ? new TableScan(d.table, 1, null, "d") : d.scan(1);
                Operator fScan = realScans ? new TableScan(f.table, 0, null, "f") : f.scan(0);
                Operator join = new HashJoin(dScan, new int[] {1}, new Expression[] {d.col("id", 1)}, fScan,
                        new Expression[] {f.col("dk", 0)}, outer, null);
                HashAggregate agg = new HashAggregate(join, keys, new AggregateSpec[] {
                        new AggregateSpec(Kind.COUNT_STAR, null, false), new AggregateSpec(Kind.SUM, f.col("v", 0), false)}, out, 2);
                agg.memoLiveColumns = memo;
                List<List<Object>> got = TestSupport.collect(agg, out, 2, 3);
                assertEquals(expected, got, "round " + round + " keys " + String.join(",", ks) + " outer " + outer + " memo " + memo + " scans " + realScans);
            }
        }
    }

    /**
     * The shape of seed 004's Q11: order lines joined to themselves on the order, a.p &lt; b.p,
     * grouped by (a.p, b.p) with COUNT(*): each key a one-integer unit coded from its value. Keys
     * of a small span (a direct array) and of a wide one (past its span: hashed, codes kept),
     * NULL product ids (no pair: the residual is never TRUE) and NULL orders (no match), duplicate
     * lines, empty input; against the model and the tuple-at-a-time grouping.
     */
    @Test
    void selfJoinPairsMatchTheModel() {
        Random rnd = new Random(11);
        for (int round = 0; round < 200; round++) {
            int lines = round % 10 == 0 ? 0 : 1 + rnd.nextInt(400);
            int orders = 1 + rnd.nextInt(Math.max(1, lines / 2));
            boolean wide = rnd.nextBoolean();
            TestTable oi = TestSupport.table("oi", "o:INT,p:BIGINT");
            for (int i = 0; i < lines; i++) {
                Integer o = rnd.nextInt(30) == 0 ? null : 1 + rnd.nextInt(orders);
                long p = 1 + rnd.nextInt(12);
                if (wide && rnd.nextInt(4) == 0) {
                    p = rnd.nextBoolean() ? (rnd.nextLong() >> rnd.nextInt(64)) : rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                }
                oi.row(o, rnd.nextInt(12) == 0 ? null : p);
            }
            List<List<Object>> expected = new ArrayList<>();
            Map<List<Object>, long[]> groups = new LinkedHashMap<>();
            for (int a = 0; a < lines; a++) {
                Object oa = TestSupport.readNullable(oi, a, 0);
                Object pa = TestSupport.readNullable(oi, a, 1);
                for (int b = 0; b < lines; b++) {
                    Object pb = TestSupport.readNullable(oi, b, 1);
                    if (oa != null && oa.equals(TestSupport.readNullable(oi, b, 0)) && pa != null && pb != null && (Long) pa < (Long) pb) {
                        groups.computeIfAbsent(java.util.Arrays.asList(pa, pb), x -> new long[1])[0]++;
                    }
                }
            }
            for (Map.Entry<List<Object>, long[]> e : groups.entrySet()) {
                List<Object> r = new ArrayList<>(e.getKey());
                r.add(e.getValue()[0]);
                expected.add(r);
            }
            for (boolean memo : new boolean[] {true, false}) {
                Table out = TestSupport.work("p1:BIGINT,p2:BIGINT,c:BIGINT");
                Expression less = io.respsql.expr.Expressions.binary(io.respsql.sql.tree.Expr.BinaryOp.LT, oi.col("p", 0), oi.col("p", 1));
                Operator join = new HashJoin(new TableScan(oi.table, 1, null, "b"), new int[] {1}, new Expression[] {oi.col("o", 1)},
                        new TableScan(oi.table, 0, null, "a"), new Expression[] {oi.col("o", 0)}, false, less);
                HashAggregate agg = new HashAggregate(join, new Expression[] {oi.col("p", 0), oi.col("p", 1)},
                        new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 2);
                agg.memoLiveColumns = memo;
                assertEquals(expected, TestSupport.collect(agg, out, 2, 3), "round " + round + " lines " + lines + " wide " + wide + " memo " + memo);
            }
        }
    }

    /** The join as a nested loop, grouped in first-seen order; SUM over no non-NULL value is NULL. */
    private static List<List<Object>> model(TestTable f, TestTable d, String[] ks, boolean outer) {
        Map<List<Object>, long[]> groups = new LinkedHashMap<>();
        int fRows = (int) f.table.rowCount();
        int dRows = (int) d.table.rowCount();
        for (int fr = 0; fr < fRows; fr++) {
            Object dk = TestSupport.readNullable(f, fr, 1);
            List<Integer> matches = new ArrayList<>();
            for (int dr = 0; dr < dRows; dr++) {
                if (dk != null && dk.equals(TestSupport.readNullable(d, dr, 0))) {
                    matches.add(dr);
                }
            }
            if (matches.isEmpty() && outer) {
                matches.add(-1);
            }
            for (int dr : matches) {
                List<Object> key = new ArrayList<>();
                for (String k : ks) {
                    if (k.equals("const")) {
                        key.add("k");
                        continue;
                    }
                    String[] rc = k.split("\\.");
                    int col = rc[1].equals("tier") ? 1 : rc[1].equals("n") ? 2 : 3;
                    key.add(rc[0].equals("f") ? TestSupport.readNullable(f, fr, col) : dr < 0 ? null : TestSupport.readNullable(d, dr, col));
                }
                long[] acc = groups.computeIfAbsent(key, x -> new long[3]);
                acc[0]++;
                Object v = TestSupport.readNullable(f, fr, 2);
                if (v != null) {
                    acc[1] += (Long) v;
                    acc[2]++;
                }
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Map.Entry<List<Object>, long[]> e : groups.entrySet()) {
            List<Object> r = new ArrayList<>(e.getKey());
            r.add(e.getValue()[0]);
            r.add(e.getValue()[2] == 0 ? null : e.getValue()[1]);
            rows.add(r);
        }
        return rows;
    }
}
