package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.aggregate.AggregateSpec.Kind;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

/**
 * Not a test (no Test suffix: surefire skips it); run by hand, {@code -Dtest=BatchAggregateTiming}:
 * this thread's CPU time for GROUP BY on a low-cardinality TEXT key and on a month-like INT key,
 * a LIKE 'prefix%' and a text = filter, and a bare COUNT(*), over 900,000 rows (bench/groupby/).
 */
class BatchAggregateTiming {
    @Test
    void time() {
        Table t = TestSupport.table("s", "k:INT,t:TEXT,x:BIGINT,e:TEXT").table;
        String[] st = {"shipped", "pending", "cancelled", "returned", "delivered", "paid"};
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        int n = 900_000;
        for (int i = 0; i < n; i++) {
            int row = t.allocateRow();
            ((IntColumn) t.column(0)).set(row, 202101 + r.nextInt(36));
            ((TextColumn) t.column(1)).set(row, st[r.nextInt(6)].getBytes(StandardCharsets.UTF_8));
            ((LongColumn) t.column(2)).set(row, r.nextInt(100000));
            ((TextColumn) t.column(3)).set(row, ("user" + i + "@mail" + (i % 10) + ".example").getBytes(StandardCharsets.UTF_8));
        }
        Expression k = Expressions.column(t.column(0), 0, "k");
        Expression tx = Expressions.column(t.column(1), 0, "t");
        Expression x = Expressions.column(t.column(2), 0, "x");
        Expression e = Expressions.column(t.column(3), 0, "e");
        Expression like = Expressions.like(e, Expressions.constText("user123%"), null, false);
        Expression eq = Expressions.binary(io.respsql.sql.tree.Expr.BinaryOp.EQ, e, Expressions.constText("user50000@mail0.example"));
        for (int round = 0; round < 8; round++) {
            long t0 = cpu();
            run(t, new TableScan(t, 0, null, "s"), new Expression[] {tx}, x, "t:TEXT,c:BIGINT,s:BIGINT");
            long t1 = cpu();
            run(t, new TableScan(t, 0, null, "s"), new Expression[] {k}, x, "k:INT,c:BIGINT,s:BIGINT");
            long t2 = cpu();
            run(t, new TableScan(t, 0, like, "s"), new Expression[] {}, x, "c:BIGINT,s:BIGINT");
            long t3 = cpu();
            run(t, new TableScan(t, 0, eq, "s"), new Expression[] {}, x, "c:BIGINT,s:BIGINT");
            long t4 = cpu();
            run(t, new TableScan(t, 0, null, "s"), new Expression[] {}, null, "c:BIGINT");
            long t5 = cpu();
            System.out.printf("text key %.2f ms, int key %.2f ms, like %.2f ms, eq %.2f ms, count %.2f ms%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t4 - t3) / 1e6, (t5 - t4) / 1e6);
        }
    }

    private static long cpu() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    private static void run(Table t, TableScan scan, Expression[] keys, Expression x, String spec) {
        Table out = TestSupport.work(spec);
        AggregateSpec[] aggs = x == null ? new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}
                : new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false), new AggregateSpec(Kind.SUM, x, false)};
        new HashAggregate(scan, keys, aggs, out, 1).run(new EvalContext(2), c -> true);
    }
}
