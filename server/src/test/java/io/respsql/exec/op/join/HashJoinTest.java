package io.respsql.exec.op.join;

import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Build side relation 1, probe side relation 0; results as [probe slot, build slot]. */
class HashJoinTest {
    private static TestTable probe() {
        return TestSupport.table("p", "id:INT,k:INT,s:TEXT,d:FLOAT")
                .row(0, 1, "a", 1.0)
                .row(1, 2, "b", 2.5)
                .row(2, null, null, null)
                .row(3, 1, "a", 1.0)
                .row(4, 9, "z", 9.0);
    }

    private static TestTable build() {
        return TestSupport.table("b", "id:INT,k:INT,s:TEXT,v:INT")
                .row(0, 1, "a", 10)
                .row(1, 2, "b", 20)
                .row(2, 1, "a", 30)
                .row(3, null, null, 40)
                .row(4, 1, "c", 50);
    }

    private static HashJoin join(TestTable p, String pk, TestTable b, String bk, boolean outer, Expression residual) {
        return new HashJoin(b.scan(1), new int[] {1}, new Expression[] {b.col(bk, 1)}, p.scan(0), new Expression[] {p.col(pk, 0)},
                outer, residual);
    }

    private static List<List<Integer>> run(HashJoin j) {
        return TestSupport.slots(j, 2, 0, 1);
    }

    @Test
    void duplicatesOnBothSidesInBuildOrder() {
        assertEquals(List.of(List.of(0, 0), List.of(0, 2), List.of(0, 4), List.of(1, 1), List.of(3, 0), List.of(3, 2), List.of(3, 4)),
                run(join(probe(), "k", build(), "k", false, null)));
    }

    @Test
    void nullKeysNeverMatch() {
        TestTable p = TestSupport.table("p", "id:INT,k:INT").row(0, null).row(1, 5);
        TestTable b = TestSupport.table("b", "id:INT,k:INT").row(0, null).row(1, 5).row(2, null);
        assertEquals(List.of(List.of(1, 1)), run(join(p, "k", b, "k", false, null)));
        assertEquals(List.of(List.of(0, -1), List.of(1, 1)), run(join(p, "k", b, "k", true, null)));
    }

    @Test
    void leftOuterPushesUnmatchedProbeTuplesOnceWithTheNullRow() {
        assertEquals(List.of(List.of(0, 0), List.of(0, 2), List.of(0, 4), List.of(1, 1), List.of(2, -1), List.of(3, 0),
                List.of(3, 2), List.of(3, 4), List.of(4, -1)), run(join(probe(), "k", build(), "k", true, null)));
        TestTable empty = TestSupport.table("e", "id:INT,k:INT,s:TEXT,v:INT");
        assertEquals(List.of(List.of(0, -1), List.of(1, -1), List.of(2, -1), List.of(3, -1), List.of(4, -1)),
                run(join(probe(), "k", empty, "k", true, null)));
        assertEquals(List.of(), run(join(probe(), "k", empty, "k", false, null)));
    }

    @Test
    void residualFiltersMatchesAndOuterRowsWithNoSurvivor() {
        TestTable b = build();
        Expression v = b.col("v", 1);
        // v > 25
        Expression residual = new Expression(io.respsql.expr.SqlType.BOOLEAN) {
            @Override
            public long evalLong(EvalContext ctx) {
                long x = v.evalLong(ctx);
                return ctx.isNull ? 0 : x > 25 ? 1 : 0;
            }

            @Override
            public String describe() {
                return "v > 25";
            }
        };
        TestTable p = probe();
        assertEquals(List.of(List.of(0, 2), List.of(0, 4), List.of(3, 2), List.of(3, 4)), run(join(p, "k", b, "k", false, residual)));
        assertEquals(List.of(List.of(0, 2), List.of(0, 4), List.of(1, -1), List.of(2, -1), List.of(3, 2), List.of(3, 4), List.of(4, -1)),
                run(join(p, "k", b, "k", true, residual)));
    }

    @Test
    void severalKeysTextKeysAndIntegerMeetsDouble() {
        TestTable p = probe();
        TestTable b = build();
        HashJoin two = new HashJoin(b.scan(1), new int[] {1}, new Expression[] {b.col("k", 1), b.col("s", 1)}, p.scan(0),
                new Expression[] {p.col("k", 0), p.col("s", 0)}, false, null);
        assertEquals(List.of(List.of(0, 0), List.of(0, 2), List.of(1, 1), List.of(3, 0), List.of(3, 2)), run(two));
        // a constant probe key: every probe tuple meets the one build row with s = 'c'
        assertEquals(List.of(List.of(0, 4), List.of(1, 4), List.of(2, 4), List.of(3, 4), List.of(4, 4)), run(new HashJoin(b.scan(1),
                new int[] {1}, new Expression[] {b.col("s", 1)}, p.scan(0), new Expression[] {TestSupport.constText("c")}, false, null)));
        // d = 1.0 meets k = 1; 2.5 meets nothing
        assertEquals(List.of(List.of(0, 0), List.of(0, 2), List.of(0, 4), List.of(3, 0), List.of(3, 2), List.of(3, 4)),
                run(join(p, "d", b, "k", false, null)));
    }

    @Test
    void stopsWhenTheConsumerStopsAndRunsAgain() {
        HashJoin j = join(probe(), "k", build(), "k", true, null);
        int[] n = {0};
        assertFalse(j.run(new EvalContext(2), c -> ++n[0] < 3));
        assertEquals(3, n[0]);
        assertEquals(9, run(j).size());
        assertEquals(9, run(j).size());
    }

    /**
     * Build sides past the table's first size (32,768 tuples): all keys distinct (a primary key),
     * many tuples per key, and NULLs, on the integer and the two-key (generic) paths, against the
     * matches listed by a nested loop (probe order, then build order).
     */
    @Test
    void bigBuildSidesMatchANestedLoop() {
        int n = 70_000;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        for (int keys : new int[] {n, 40_000, 300}) {
            TestTable b = TestSupport.table("b", "id:INT,k:INT,s:TEXT");
            Integer[] bk = new Integer[n];
            for (int i = 0; i < n; i++) {
                bk[i] = keys == n ? (Integer) ((i * 7919) % n) : i % 97 == 0 ? null : (Integer) rnd.nextInt(keys);
                b.row(i, bk[i], "t" + (bk[i] == null ? 0 : bk[i] % 3));
            }
            TestTable p = TestSupport.table("p", "id:INT,k:INT,s:TEXT");
            Integer[] pk = new Integer[500];
            for (int i = 0; i < pk.length; i++) {
                pk[i] = i % 50 == 0 ? null : (Integer) rnd.nextInt(keys + keys / 10);
                p.row(i, pk[i], "t" + (pk[i] == null ? 0 : pk[i] % 3));
            }
            java.util.Map<Integer, List<Integer>> byKey = new java.util.HashMap<>();
            for (int i = 0; i < n; i++) {
                if (bk[i] != null) {
                    byKey.computeIfAbsent(bk[i], x -> new java.util.ArrayList<>()).add(i);
                }
            }
            List<List<Integer>> inner = new java.util.ArrayList<>();
            List<List<Integer>> outer = new java.util.ArrayList<>();
            for (int i = 0; i < pk.length; i++) {
                List<Integer> m = pk[i] == null ? List.of() : byKey.getOrDefault(pk[i], List.of());
                for (int t : m) {
                    inner.add(List.of(i, t));
                    outer.add(List.of(i, t));
                }
                if (m.isEmpty()) {
                    outer.add(List.of(i, -1));
                }
            }
            assertTrue(inner.size() > 100, "keys " + keys + ": " + inner.size() + " matches");
            assertEquals(inner, run(join(p, "k", b, "k", false, null)), "keys " + keys);
            assertEquals(outer, run(join(p, "k", b, "k", true, null)), "keys " + keys);
            // k and s: s follows k, so the same matches through the generic key table
            HashJoin two = new HashJoin(b.scan(1), new int[] {1}, new Expression[] {b.col("k", 1), b.col("s", 1)}, p.scan(0),
                    new Expression[] {p.col("k", 0), p.col("s", 0)}, true, null);
            assertEquals(outer, run(two), "keys " + keys + ", two keys");
        }
    }

    /** Build tuples of two relations (the build side a join itself) keep both slots through the regrouping. */
    @Test
    void aBuildSideOfTwoRelationsRestoresBoth() {
        TestTable a = TestSupport.table("a", "id:INT,k:INT");
        TestTable c = TestSupport.table("c", "id:INT");
        for (int i = 0; i < 6; i++) {
            a.row(i, i % 2);
        }
        c.row(0).row(1);
        // build = a x c (relations 1 and 2), keyed by a.k; probe relation 0
        io.respsql.exec.op.Operator cross = new NestedLoopJoin(a.scan(1), c.scan(2), new int[] {2}, null, false);
        TestTable p = TestSupport.table("p", "id:INT,k:INT").row(0, 1).row(1, 5);
        HashJoin j = new HashJoin(cross, new int[] {1, 2}, new Expression[] {a.col("k", 1)}, p.scan(0),
                new Expression[] {p.col("k", 0)}, true, null);
        assertEquals(List.of(List.of(0, 1, 0), List.of(0, 1, 1), List.of(0, 3, 0), List.of(0, 3, 1), List.of(0, 5, 0),
                List.of(0, 5, 1), List.of(1, -1, -1)), TestSupport.slots(j, 3, 0, 1, 2));
        // distinct keys over two relations: a.id x the one row of c1
        TestTable c1 = TestSupport.table("c1", "id:INT").row(7);
        TestTable q = TestSupport.table("q", "id:INT,k:INT").row(0, 4).row(1, 9).row(2, 0);
        HashJoin d = new HashJoin(new NestedLoopJoin(a.scan(1), c1.scan(2), new int[] {2}, null, false), new int[] {1, 2},
                new Expression[] {a.col("id", 1)}, q.scan(0), new Expression[] {q.col("k", 0)}, true, null);
        assertEquals(List.of(List.of(0, 4, 0), List.of(1, -1, -1), List.of(2, 0, 0)), TestSupport.slots(d, 3, 0, 1, 2));
    }

    @Test
    void probingAllocatesNothingPerRow() {
        int n = 100_000;
        TestTable b = TestSupport.table("b", "id:INT,k:INT");
        for (int i = 0; i < 1000; i++) {
            b.row(i, i % 700);
        }
        TestTable small = TestSupport.table("p", "id:INT,k:INT");
        TestTable large = TestSupport.table("p2", "id:INT,k:INT");
        for (int i = 0; i < 2 * n; i++) {
            if (i < n) {
                small.row(i, i % 1000);
            }
            large.row(i, i % 1000);
        }
        long s = Long.MAX_VALUE;
        long l = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            s = Math.min(s, allocatedBy(join(small, "k", b, "k", true, null)));
            l = Math.min(l, allocatedBy(join(large, "k", b, "k", true, null)));
        }
        assertTrue(l - s < n / 100, "the second " + n + " probe rows allocated " + (l - s) + " bytes");
    }

    private static long allocatedBy(HashJoin j) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        EvalContext ctx = new EvalContext(2);
        long[] count = {0};
        io.respsql.exec.op.TupleConsumer counter = c -> {
            count[0]++;
            return true;
        };
        long before = bean.getThreadAllocatedBytes(tid);
        j.run(ctx, counter);
        long used = bean.getThreadAllocatedBytes(tid) - before;
        assertTrue(count[0] > 0);
        return used;
    }
}
