package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.exec.op.aggregate.AggregateSpec.Kind;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.sql.SqlException;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import static io.respsql.exec.op.TestSupport.collect;
import static io.respsql.exec.op.TestSupport.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The batch-at-a-time GROUP BY over a {@link TableScan} (key codes, pair tables, per-accumulator
 * loops) against the row-at-a-time path over the same rows: same groups, same first-seen order,
 * same values, with NULL keys and values, several batches, dense and sparse integer keys.
 */
class BatchAggregateTest {
    private static final String[] WORDS = {"shipped", "pending", "", "cancelled", "returned", "a", "Shipped"};

    /** 5,000 rows over several batches: k dense INT, big sparse BIGINT, t low-cardinality TEXT, d FLOAT, x BIGINT. */
    private static Table data(long seed) {
        Table t = TestSupport.table("s", "k:INT,big:BIGINT,t:TEXT,d:FLOAT,x:BIGINT").table;
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 5000; i++) {
            int row = t.allocateRow();
            if (r.nextInt(20) == 0) {
                t.column(0).setNull(row);
            } else {
                ((IntColumn) t.column(0)).set(row, 200_000 + r.nextInt(300));
            }
            // sparse after the first rows: the direct array gives way to the hash table mid-run
            long big = i < 1500 ? r.nextInt(50) : (r.nextLong() >> r.nextInt(64)) | 1;
            if (r.nextInt(25) == 0) {
                t.column(1).setNull(row);
            } else {
                ((LongColumn) t.column(1)).set(row, r.nextInt(3) == 0 ? big : r.nextInt(40));
            }
            if (r.nextInt(15) == 0) {
                t.column(2).setNull(row);
            } else {
                ((TextColumn) t.column(2)).set(row, WORDS[r.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8));
            }
            double[] ds = {0.0, -0.0, 1.5, Double.NaN, -2.25, 1e300};
            if (r.nextInt(10) == 0) {
                t.column(3).setNull(row);
            } else {
                ((DoubleColumn) t.column(3)).set(row, ds[r.nextInt(ds.length)]);
            }
            if (r.nextInt(8) == 0) {
                t.column(4).setNull(row);
            } else {
                ((LongColumn) t.column(4)).set(row, r.nextInt(1000) - 500);
            }
        }
        // some holes: the scan skips freed slots
        for (int row = 7; row < 5000; row += 97) {
            t.deleteRow(row);
        }
        return t;
    }

    /** The same scan hidden behind a plain operator: the aggregate then takes it a row at a time. */
    private static Operator rowAtATime(Operator in) {
        return new Operator() {
            @Override
            public boolean run(EvalContext ctx, TupleConsumer out) {
                return in.run(ctx, out);
            }

            @Override
            public long relations() {
                return in.relations();
            }

            @Override
            public void explain(List<String> lines, int depth) {
                in.explain(lines, depth);
            }
        };
    }

    private static Expression col(Table t, String name) {
        return Expressions.column(t.column(name), 0, name);
    }

    private static List<List<Object>> run(Operator input, Expression[] keys, AggregateSpec[] aggs, String outSpec) {
        Table out = TestSupport.work(outSpec);
        return collect(new HashAggregate(input, keys, aggs, out, 1), out, 1, 2);
    }

    private static void same(Table t, String[] keyNames, String keySpec) {
        Expression[] keys = new Expression[keyNames.length];
        for (int j = 0; j < keys.length; j++) {
            keys[j] = col(t, keyNames[j]);
        }
        Expression x = col(t, "x");
        AggregateSpec[] aggs = {
                new AggregateSpec(Kind.COUNT_STAR, null, false), new AggregateSpec(Kind.COUNT, x, false),
                new AggregateSpec(Kind.SUM, x, false), new AggregateSpec(Kind.SUM, col(t, "d"), false),
                new AggregateSpec(Kind.AVG, x, false), new AggregateSpec(Kind.MIN, col(t, "t"), false),
                new AggregateSpec(Kind.MAX, x, false), new AggregateSpec(Kind.COUNT, x, true),
                new AggregateSpec(Kind.COUNT, col(t, "big"), true), new AggregateSpec(Kind.COUNT, col(t, "d"), true),
                new AggregateSpec(Kind.SUM, x, true), new AggregateSpec(Kind.COUNT, col(t, "t"), true)};
        String spec = (keySpec.isEmpty() ? "" : keySpec + ",")
                + "cs:BIGINT,c:BIGINT,s:BIGINT,sd:FLOAT,a:FLOAT,mn:TEXT,mx:BIGINT,cdx:BIGINT,cdb:BIGINT,cdd:BIGINT,sdx:BIGINT,cdt:BIGINT";
        List<List<Object>> batch = run(new TableScan(t, 0, null, "s"), keys, aggs, spec);
        List<List<Object>> rows = run(rowAtATime(new TableScan(t, 0, null, "s")), keys, aggs, spec);
        assertEquals(rows, batch, String.join(",", keyNames));
        assertEquals(rows.size(), batch.size());
    }

    @Test
    void batchPathMatchesRowAtATimeForEveryKeyShape() {
        Table t = data(11);
        same(t, new String[] {}, "");
        same(t, new String[] {"k"}, "k:INT");
        same(t, new String[] {"big"}, "big:BIGINT");
        same(t, new String[] {"t"}, "t:TEXT");
        same(t, new String[] {"d"}, "d:FLOAT");
        same(t, new String[] {"t", "k"}, "t:TEXT,k:INT");
        same(t, new String[] {"k", "t", "d"}, "k:INT,t:TEXT,d:FLOAT");
        same(t, new String[] {"big", "x"}, "big:BIGINT,x:BIGINT");
    }

    @Test
    void nullAndEmptyTextKeysAreTwoGroups() {
        Table t = TestSupport.table("s", "t:TEXT,x:BIGINT").table;
        String[] vals = {"", null, "", null, "b"};
        for (int i = 0; i < vals.length; i++) {
            int row = t.allocateRow();
            if (vals[i] == null) {
                t.column(0).setNull(row);
            } else {
                ((TextColumn) t.column(0)).set(row, vals[i].getBytes(StandardCharsets.UTF_8));
            }
            ((LongColumn) t.column(1)).set(row, i);
        }
        List<List<Object>> got = run(new TableScan(t, 0, null, "s"), new Expression[] {col(t, "t")},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false), new AggregateSpec(Kind.SUM, col(t, "x"), false)},
                "t:TEXT,n:BIGINT,s:BIGINT");
        assertEquals(List.of(row("", 2L, 2L), row(null, 2L, 4L), row("b", 1L, 4L)), got);
    }

    @Test
    void emptyInput() {
        Table t = TestSupport.table("s", "k:INT,x:BIGINT").table;
        AggregateSpec[] aggs = {new AggregateSpec(Kind.COUNT_STAR, null, false), new AggregateSpec(Kind.SUM, col(t, "x"), false)};
        assertEquals(List.of(row(0L, null)), run(new TableScan(t, 0, null, "s"), new Expression[0], aggs, "n:BIGINT,s:BIGINT"));
        assertEquals(List.of(), run(new TableScan(t, 0, null, "s"), new Expression[] {col(t, "k")}, aggs, "k:INT,n:BIGINT,s:BIGINT"));
    }

    @Test
    void integerSumOverflowIsAnErrorInTheBatchLoop() {
        Table t = TestSupport.table("s", "k:INT,x:BIGINT").table;
        for (int i = 0; i < 3000; i++) {
            int row = t.allocateRow();
            ((IntColumn) t.column(0)).set(row, i % 2);
            ((LongColumn) t.column(1)).set(row, i == 2500 ? Long.MAX_VALUE : 1);
        }
        SqlException e = assertThrows(SqlException.class, () -> run(new TableScan(t, 0, null, "s"),
                new Expression[] {col(t, "k")}, new AggregateSpec[] {new AggregateSpec(Kind.SUM, col(t, "x"), false)}, "k:INT,s:BIGINT"));
        assertEquals("integer out of range", e.getMessage());
    }

    @Test
    void wideIntegerKeysSwitchToTheHashTableKeepingCodes() {
        Table t = TestSupport.table("s", "k:BIGINT").table;
        long[] keys = {5, 6, 5, Long.MIN_VALUE, 6, Long.MAX_VALUE, Long.MIN_VALUE, 7};
        for (long k : keys) {
            ((LongColumn) t.column(0)).set(t.allocateRow(), k);
        }
        List<List<Object>> got = run(new TableScan(t, 0, null, "s"), new Expression[] {col(t, "k")},
                new AggregateSpec[] {new AggregateSpec(Kind.COUNT_STAR, null, false)}, "k:BIGINT,n:BIGINT");
        assertEquals(List.of(row(5L, 2L), row(6L, 2L), row(Long.MIN_VALUE, 2L), row(Long.MAX_VALUE, 1L), row(7L, 1L)), got);
    }
}
