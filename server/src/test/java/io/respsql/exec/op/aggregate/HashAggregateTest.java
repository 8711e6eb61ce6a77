package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.exec.op.aggregate.AggregateSpec.Kind;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.storage.Table;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;

import static io.respsql.exec.op.TestSupport.collect;
import static io.respsql.exec.op.TestSupport.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HashAggregateTest {
    private static AggregateSpec agg(Kind k, Expression arg) {
        return new AggregateSpec(k, arg, false);
    }

    private static AggregateSpec distinct(Kind k, Expression arg) {
        return new AggregateSpec(k, arg, true);
    }

    private static TestTable sales() {
        return TestSupport.table("s", "id:INT,g:INT,x:BIGINT,d:FLOAT,t:TEXT")
                .row(1, 10, 5, 1.5, "b")
                .row(2, 20, 7, 2.0, "a")
                .row(3, 10, null, 0.5, "c")
                .row(4, 30, -3, null, null)
                .row(5, 10, 5, 4.0, "a")
                .row(6, 20, 1, 1.0, "zz");
    }

    @Test
    void groupsInFirstSeenOrderWithEveryNumericAggregate() {
        TestTable s = sales();
        Table out = TestSupport.work("g:INT,cs:BIGINT,c:BIGINT,sum:BIGINT,avg:FLOAT,min:BIGINT,max:BIGINT,tot:FLOAT");
        Expression x = s.col("x", 0);
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("g", 0)}, new AggregateSpec[] {
                new AggregateSpec(Kind.COUNT_STAR, null, false), agg(Kind.COUNT, x), agg(Kind.SUM, x), agg(Kind.AVG, x),
                agg(Kind.MIN, x), agg(Kind.MAX, x), agg(Kind.TOTAL, x)}, out, 1);
        assertEquals(List.of(
                row(10L, 3L, 2L, 10L, 5.0, 5L, 5L, 10.0),
                row(20L, 2L, 2L, 8L, 4.0, 1L, 7L, 8.0),
                row(30L, 1L, 1L, -3L, -3.0, -3L, -3L, -3.0)), collect(op, out, 1, 2));
    }

    @Test
    void doubleAndTextAggregates() {
        TestTable s = TestSupport.table("s", "id:INT,g:INT,x:BIGINT,d:FLOAT,t:TEXT")
                .row(1, 10, 5, 1.5, "b")
                .row(2, 20, 7, 2.0, "a")
                .row(3, 10, null, 0.5, "c")
                .row(4, 30, -3, -1.0, "q")
                .row(5, 10, 5, 4.0, "a")
                .row(6, 20, 1, 1.0, "zz");
        Table out = TestSupport.work("g:INT,sum:FLOAT,min:TEXT,max:TEXT,gc:TEXT,gc2:TEXT,dmax:FLOAT");
        Expression t = s.col("t", 0);
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("g", 0)}, new AggregateSpec[] {
                agg(Kind.SUM, s.col("d", 0)), agg(Kind.MIN, t), agg(Kind.MAX, t), agg(Kind.GROUP_CONCAT, t),
                new AggregateSpec(Kind.GROUP_CONCAT, s.col("x", 0), false, TestSupport.constText(" | ")),
                agg(Kind.MAX, s.col("d", 0))}, out, 1);
        List<List<Object>> rows = collect(op, out, 1, 2);
        assertEquals(row(10L, 6.0, "a", "c", "b,c,a", "5 | 5", 4.0), rows.get(0));
        assertEquals(row(20L, 3.0, "a", "zz", "a,zz", "7 | 1", 2.0), rows.get(1));
        assertEquals(row(30L, -1.0, "q", "q", "q", "-3", -1.0), rows.get(2));
        assertEquals(3, rows.size());
        assertEquals(SqlType.TEXT, agg(Kind.MIN, t).resultType());
        assertEquals(SqlType.DOUBLE, agg(Kind.SUM, s.col("d", 0)).resultType());
        assertEquals(SqlType.BIGINT, agg(Kind.SUM, s.col("g", 0)).resultType());
        assertEquals(SqlType.DOUBLE, agg(Kind.AVG, s.col("g", 0)).resultType());
        assertEquals(SqlType.BIGINT, agg(Kind.COUNT, t).resultType());
        assertThrows(SqlException.class, () -> agg(Kind.SUM, t));
    }

    @Test
    void textKeysAndSeveralKeys() {
        TestTable s = sales();
        Table out = TestSupport.work("t:TEXT,g:INT,c:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("t", 0), s.col("g", 0)},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 1);
        assumeTrue(TestSupport.nullStorage(), "NULL key output needs NULL storage");
        assertEquals(List.of(row("b", 10L, 1L), row("a", 20L, 1L), row("c", 10L, 1L), row(null, 30L, 1L),
                row("a", 10L, 1L), row("zz", 20L, 1L)), collect(op, out, 1, 2));
    }

    @Test
    void textKeysGroupBytewise() {
        TestTable s = TestSupport.table("s", "id:INT,t:TEXT").row(1, "x").row(2, "xy").row(3, "x").row(4, "").row(5, "").row(6, "xy");
        Table out = TestSupport.work("t:TEXT,c:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("t", 0)},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 1);
        assertEquals(List.of(row("x", 2L), row("xy", 2L), row("", 2L)), collect(op, out, 1, 2));
        // the empty string is a value: MIN finds it, GROUP_CONCAT joins it, DISTINCT counts it once
        Table all = TestSupport.work("min:TEXT,max:TEXT,gc:TEXT,cd:BIGINT");
        Expression t = s.col("t", 0);
        HashAggregate op2 = new HashAggregate(s.scan(0), new Expression[0], new AggregateSpec[] {agg(Kind.MIN, t), agg(Kind.MAX, t),
                agg(Kind.GROUP_CONCAT, t), distinct(Kind.COUNT, t)}, all, 1);
        assertEquals(List.of(row("", "xy", "x,xy,x,,,xy", 3L)), collect(op2, all, 1, 2));
    }

    @Test
    void nullKeysFormOneGroup() {
        assumeTrue(TestSupport.nullStorage(), "NULL key output needs NULL storage");
        TestTable s = TestSupport.table("s", "id:INT,k:INT").row(1, null).row(2, 1).row(3, null).row(4, 1).row(5, null);
        Table out = TestSupport.work("k:INT,c:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("k", 0)},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 1);
        assertEquals(List.of(row(null, 3L), row(1L, 2L)), collect(op, out, 1, 2));
    }

    @Test
    void aggregatesSkipNulls() {
        TestTable s = TestSupport.table("s", "id:INT,x:INT").row(1, null).row(2, 4).row(3, null).row(4, 6);
        Table out = TestSupport.work("c:BIGINT,cs:BIGINT,sum:BIGINT,avg:FLOAT,min:INT,gc:TEXT");
        Expression x = s.col("x", 0);
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[0], new AggregateSpec[] {agg(Kind.COUNT, x),
                new AggregateSpec(Kind.COUNT_STAR, null, false), agg(Kind.SUM, x), agg(Kind.AVG, x), agg(Kind.MIN, x),
                agg(Kind.GROUP_CONCAT, x)}, out, 1);
        assertEquals(List.of(row(2L, 4L, 10L, 5.0, 4L, "4,6")), collect(op, out, 1, 2));
    }

    @Test
    void noKeysNoRowsGivesOneRowOfCountZero() {
        TestTable s = TestSupport.table("s", "id:INT,x:INT");
        Table out = TestSupport.work("c:BIGINT,cs:BIGINT,tot:FLOAT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[0], new AggregateSpec[] {agg(Kind.COUNT, s.col("x", 0)),
                new AggregateSpec(Kind.COUNT_STAR, null, false), agg(Kind.TOTAL, s.col("x", 0))}, out, 1);
        assertEquals(List.of(row(0L, 0L, 0.0)), collect(op, out, 1, 2));
    }

    @Test
    void noKeysNoRowsGivesNullForTheOthers() {
        assumeTrue(TestSupport.nullStorage(), "NULL output needs NULL storage");
        TestTable s = TestSupport.table("s", "id:INT,x:INT,t:TEXT");
        Table out = TestSupport.work("c:BIGINT,sum:BIGINT,avg:FLOAT,min:INT,max:TEXT,gc:TEXT");
        Expression x = s.col("x", 0);
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[0], new AggregateSpec[] {
                new AggregateSpec(Kind.COUNT_STAR, null, false), agg(Kind.SUM, x), agg(Kind.AVG, x), agg(Kind.MIN, x),
                agg(Kind.MAX, s.col("t", 0)), agg(Kind.GROUP_CONCAT, s.col("t", 0))}, out, 1);
        assertEquals(List.of(row(0L, null, null, null, null, null)), collect(op, out, 1, 2));
    }

    @Test
    void keysButNoRowsGivesNoRow() {
        TestTable s = TestSupport.table("s", "id:INT,x:INT");
        Table out = TestSupport.work("x:INT,c:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("x", 0)},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 1);
        assertEquals(List.of(), collect(op, out, 1, 2));
    }

    @Test
    void distinctAggregatesDedupePerGroup() {
        TestTable s = TestSupport.table("s", "id:INT,g:INT,x:INT,d:FLOAT,t:TEXT")
                .row(1, 1, 5, 1.0, "a").row(2, 1, 5, 1.0, "a").row(3, 1, 6, -0.0, "b").row(4, 2, 5, 0.0, "a")
                .row(5, 2, 5, 2.0, "a").row(6, 1, null, 0.0, null).row(7, 2, 7, 2.0, "c");
        Table out = TestSupport.work("g:INT,c:BIGINT,sum:BIGINT,avg:FLOAT,cd:BIGINT,gc:TEXT,tot:FLOAT,all:BIGINT");
        Expression x = s.col("x", 0);
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("g", 0)}, new AggregateSpec[] {
                distinct(Kind.COUNT, x), distinct(Kind.SUM, x), distinct(Kind.AVG, x), distinct(Kind.COUNT, s.col("d", 0)),
                distinct(Kind.GROUP_CONCAT, s.col("t", 0)), distinct(Kind.TOTAL, x), agg(Kind.COUNT, x)}, out, 1);
        assertEquals(List.of(
                row(1L, 2L, 11L, 5.5, 2L, "a,b", 11.0, 3L),
                row(2L, 2L, 12L, 6.0, 2L, "a,c", 12.0, 3L)), collect(op, out, 1, 2));
    }

    @Test
    void textMinMaxSurviveArenaCompaction() {
        // ever longer values never fit their group's old bytes: garbage piles up and is compacted
        TestTable s = TestSupport.table("s", "id:INT,g:INT,t:TEXT");
        int n = 3000;
        for (int i = 0; i < n; i++) {
            s.row(i, i % 3, "m".repeat(i) + "x");
        }
        s.row(n, 0, "a");
        Table out = TestSupport.work("g:INT,max:TEXT,min:TEXT");
        Expression t = s.col("t", 0);
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("g", 0)},
                new AggregateSpec[] {agg(Kind.MAX, t), agg(Kind.MIN, t)}, out, 1);
        List<List<Object>> rows = collect(op, out, 1, 2);
        // "m...mx" grows with i; "x" > "m..." so the shortest is the max, "a" the min of group 0
        assertEquals(row(0L, "x", "a"), rows.get(0));
        assertEquals(row(1L, "mx", "m".repeat(n - 2) + "x"), rows.get(1));
        assertEquals(row(2L, "mmx", "m".repeat(n - 1) + "x"), rows.get(2));
    }

    @Test
    void integerSumOverflowIsAnError() {
        TestTable s = TestSupport.table("s", "id:INT,x:BIGINT").row(1, Long.MAX_VALUE).row(2, 1);
        Table out = TestSupport.work("sum:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[0], new AggregateSpec[] {agg(Kind.SUM, s.col("x", 0))}, out, 1);
        SqlException e = assertThrows(SqlException.class, () -> collect(op, out, 1, 2));
        assertEquals("integer out of range", e.getMessage());
        // AVG of the same values does not overflow: it falls back to a double sum
        Table out2 = TestSupport.work("avg:FLOAT");
        HashAggregate avg = new HashAggregate(s.scan(0), new Expression[0], new AggregateSpec[] {agg(Kind.AVG, s.col("x", 0))}, out2, 1);
        assertEquals(List.of(row(Long.MAX_VALUE / 2.0)), collect(avg, out2, 1, 2));
    }

    @Test
    void stopsWhenTheConsumerStops() {
        TestTable s = sales();
        Table out = TestSupport.work("g:INT,c:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("g", 0)},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 1);
        int[] seen = {0};
        boolean done = op.run(new EvalContext(2), c -> ++seen[0] < 2);
        assertEquals(2, seen[0]);
        assertTrue(!done);
    }

    @Test
    void runsAgainOverATruncatedWorkTable() {
        assumeTrue(TestSupport.truncatable(), "re-running needs Table.truncate");
        TestTable s = sales();
        Table out = TestSupport.work("g:INT,c:BIGINT");
        HashAggregate op = new HashAggregate(s.scan(0), new Expression[] {s.col("g", 0)},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, out, 1);
        List<List<Object>> first = collect(op, out, 1, 2);
        assertEquals(first, collect(op, out, 1, 2));
        assertEquals(3, out.rowCount());
    }

    @Test
    void integerKeyGroupingAllocatesNothingPerRow() {
        int n = 100_000;
        TestTable s = TestSupport.table("s", "id:INT,k:INT,x:BIGINT");
        for (int i = 0; i < 2 * n; i++) {
            s.row(i, i % 500, i);
        }
        Expression[] keys = {s.col("k", 0)};
        AggregateSpec[] aggs = {new AggregateSpec(Kind.COUNT_STAR, null, false), agg(Kind.SUM, s.col("x", 0)),
                agg(Kind.MIN, s.col("x", 0)), agg(Kind.AVG, s.col("x", 0)), agg(Kind.MAX, s.col("x", 0))};
        // the same run over n and over 2n rows: what the extra n rows cost is the per-row allocation
        long small = Long.MAX_VALUE;
        long large = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            small = Math.min(small, allocatedBy(first(s.scan(0), n), keys, aggs));
            large = Math.min(large, allocatedBy(first(s.scan(0), 2 * n), keys, aggs));
        }
        assertTrue(large - small < n / 100, "the second " + n + " rows allocated " + (large - small) + " bytes (" + small + " for the first)");
        // and a run's fixed cost is the key table, the accumulators and 500 output rows: far below a byte per row
        assertTrue(small < 2 * n, "a run over " + n + " rows allocated " + small + " bytes");
    }

    /** The first {@code n} tuples of {@code input}. */
    private static Operator first(Operator input, int n) {
        return new Operator() {
            @Override
            public boolean run(EvalContext ctx, io.respsql.exec.op.TupleConsumer out) {
                int[] left = {n};
                input.run(ctx, c -> left[0]-- > 0 && out.accept(c));
                return true;
            }

            @Override
            public long relations() {
                return input.relations();
            }

            @Override
            public void explain(List<String> lines, int depth) {
            }
        };
    }

    private static long allocatedBy(Operator scan, Expression[] keys, AggregateSpec[] aggs) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        Table out = TestSupport.work("k:INT,c:BIGINT,s:BIGINT,m:BIGINT,a:FLOAT,mx:BIGINT");
        HashAggregate op = new HashAggregate(scan, keys, aggs, out, 1);
        EvalContext ctx = new EvalContext(2);
        TupleConsumerCounter counter = new TupleConsumerCounter();
        long before = bean.getThreadAllocatedBytes(tid);
        op.run(ctx, counter);
        long used = bean.getThreadAllocatedBytes(tid) - before;
        assertEquals(500, counter.n);
        return used;
    }

    private static final class TupleConsumerCounter implements io.respsql.exec.op.TupleConsumer {
        int n;

        @Override
        public boolean accept(EvalContext ctx) {
            n++;
            return true;
        }
    }
}
