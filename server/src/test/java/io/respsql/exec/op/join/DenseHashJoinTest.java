package io.respsql.exec.op.join;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.expr.Expression;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dense (perfect-hash) form of a one-integer-key build against the hashed form and a nested
 * loop model, on random keys: unique and duplicate keys, NULLs, probe keys missing or outside the
 * build's span, spans too wide for the dense form, keys near the ends of BIGINT, empty builds,
 * LEFT JOIN, a build of two relations. Relations: probe 0, build 1 (and 2).
 */
class DenseHashJoinTest {
    private static final long[] BASES = {1, -37, 0, Long.MAX_VALUE - 500, Long.MIN_VALUE + 3};

    /** Build keys: 0 unique dense, 1 dense with duplicates, 2 sparse (the hashed form), 3 a few distinct. */
    private static TestTable keys(String name, Random rnd, int n, long base, int mode, double nullShare) {
        TestTable t = TestSupport.table(name, "id:INT,k:BIGINT");
        List<Long> perm = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            perm.add(base + i);
        }
        java.util.Collections.shuffle(perm, rnd);
        for (int i = 0; i < n; i++) {
            Long k;
            switch (mode) {
                case 0: k = perm.get(i); break;
                case 1: k = base + rnd.nextInt(Math.max(1, n / 2)); break;
                case 2: k = base + (rnd.nextLong() & 0xFFFFFFFFFFL) % 1_000_000_000L; break;
                default: k = base + rnd.nextInt(3) * 7L;
            }
            if (rnd.nextDouble() < nullShare) {
                k = null;
            }
            t.row(i, k);
        }
        return t;
    }

    private static TestTable probeKeys(Random rnd, int n, long base, int span) {
        TestTable t = TestSupport.table("p", "id:INT,k:BIGINT");
        for (int i = 0; i < n; i++) {
            int r = rnd.nextInt(10);
            Long k = r == 0 ? null : r == 1 ? base - 1 - rnd.nextInt(3) : r == 2 ? base + span + rnd.nextInt(3)
                    : base + rnd.nextInt(Math.max(1, span));
            if (r == 3) {
                k = rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            t.row(i, k);
        }
        return t;
    }

    private static List<List<Integer>> tuples(Operator op, int... relations) {
        return TestSupport.slots(op, 3, relations);
    }

    /** Nested loop over the build's and probe's tuples in order: the join's contract, order included. */
    private static List<List<Integer>> model(List<List<Integer>> probe, List<Long> probeKey, List<List<Integer>> build,
                                             List<Long> buildKey, boolean outer, int buildWidth) {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < probe.size(); i++) {
            boolean matched = false;
            for (int j = 0; j < build.size(); j++) {
                if (probeKey.get(i) != null && Objects.equals(probeKey.get(i), buildKey.get(j))) {
                    List<Integer> r = new ArrayList<>(probe.get(i));
                    r.addAll(build.get(j));
                    out.add(r);
                    matched = true;
                }
            }
            if (!matched && outer) {
                List<Integer> r = new ArrayList<>(probe.get(i));
                for (int w = 0; w < buildWidth; w++) {
                    r.add(-1);
                }
                out.add(r);
            }
        }
        return out;
    }

    private static Long key(TestTable t, int row) {
        return (Long) TestSupport.readNullable(t, row, 1);
    }

    @Test
    void denseMatchesHashedAndTheModel() {
        Random rnd = new Random(11);
        int dense = 0;
        for (int round = 0; round < 400; round++) {
            int n = new int[] {0, 1, 2, 7, 60, 300}[rnd.nextInt(6)];
            long base = BASES[rnd.nextInt(BASES.length)];
            int mode = rnd.nextInt(4);
            TestTable b = keys("b", rnd, n, base, mode, rnd.nextBoolean() ? 0 : 0.2);
            TestTable p = probeKeys(rnd, 1 + rnd.nextInt(200), base, Math.max(n, 1));
            boolean outer = rnd.nextBoolean();
            HashJoin d = new HashJoin(b.scan(1), new int[] {1}, new Expression[] {b.col("k", 1)}, p.scan(0),
                    new Expression[] {p.col("k", 0)}, outer, null);
            HashJoin h = new HashJoin(b.scan(1), new int[] {1}, new Expression[] {b.col("k", 1)}, p.scan(0),
                    new Expression[] {p.col("k", 0)}, outer, null);
            h.denseAllowed = false;
            List<List<Integer>> bt = tuples(b.scan(1), 1);
            List<List<Integer>> pt = tuples(p.scan(0), 0);
            List<Long> bk = new ArrayList<>();
            for (List<Integer> t : bt) {
                bk.add(key(b, t.get(0)));
            }
            List<Long> pk = new ArrayList<>();
            for (List<Integer> t : pt) {
                pk.add(key(p, t.get(0)));
            }
            List<List<Integer>> expected = model(pt, pk, bt, bk, outer, 1);
            String what = "round " + round + " n " + n + " base " + base + " mode " + mode + " outer " + outer;
            assertEquals(expected, tuples(d, 0, 1), what + " (dense)");
            assertEquals(expected, tuples(h, 0, 1), what + " (hashed)");
            dense += mode != 2 && n > 0 ? 1 : 0;
        }
        assertTrue(dense > 100, "the dense form was exercised");
    }

    @Test
    void twoRelationBuildWithDuplicateKeys() {
        Random rnd = new Random(5);
        for (int round = 0; round < 60; round++) {
            TestTable b = keys("b", rnd, 40, 1, rnd.nextInt(2), 0.1);
            TestTable c = keys("c", rnd, 30, 1, 1, 0.1);
            // build = b JOIN c ON c.k = b.k (relations 1 and 2), keyed by b.k: duplicates in the build
            Operator inner = new HashJoin(c.scan(2), new int[] {2}, new Expression[] {c.col("k", 2)}, b.scan(1),
                    new Expression[] {b.col("k", 1)}, false, null);
            TestTable p = probeKeys(rnd, 80, 1, 40);
            boolean outer = rnd.nextBoolean();
            List<List<Integer>> bt = tuples(inner, 1, 2);
            List<Long> bk = new ArrayList<>();
            for (List<Integer> t : bt) {
                bk.add(key(b, t.get(0)));
            }
            List<List<Integer>> pt = tuples(p.scan(0), 0);
            List<Long> pk = new ArrayList<>();
            for (List<Integer> t : pt) {
                pk.add(key(p, t.get(0)));
            }
            List<List<Integer>> expected = model(pt, pk, bt, bk, outer, 2);
            for (boolean allowDense : new boolean[] {true, false}) {
                HashJoin j = new HashJoin(inner, new int[] {1, 2}, new Expression[] {b.col("k", 1)}, p.scan(0),
                        new Expression[] {p.col("k", 0)}, outer, null);
                j.denseAllowed = allowDense;
                assertEquals(expected, tuples(j, 0, 1, 2), "round " + round + " dense " + allowDense);
            }
        }
    }
}
