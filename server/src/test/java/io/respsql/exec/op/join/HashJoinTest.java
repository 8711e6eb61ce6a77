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
