package io.respsql.exec.op.window;

import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr.BoundKind;
import io.respsql.sql.tree.Expr.FrameUnit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.respsql.exec.op.window.WindowFunctionKind.*;
import static io.respsql.exec.op.window.WindowTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Each function against PostgreSQL 15's answers, worked by hand, over this table (id = slot):
 *
 * <pre>
 *  id | dept | sal
 *   0 | a    | 100
 *   1 | a    | 200
 *   2 | a    | 200
 *   3 | a    | 300
 *   4 | b    |  50
 *   5 | b    | NULL
 *   6 | b    |  50
 *   7 | c    |  10
 * </pre>
 */
class WindowOperatorTest {
    static final int N = 8;
    final Expression id = new LongCol("id", SqlType.BIGINT, 0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
    final Expression dept = new TextCol("a", "a", "a", "a", "b", "b", "b", "c");
    final Expression sal = new LongCol("sal", SqlType.INT, 100L, 200L, 200L, 300L, 50L, null, 50L, 10L);

    static List<Object> longs(Long... v) {
        return Arrays.asList((Object[]) v);
    }

    @Test
    void rankingWithTiesAndPartitions() {
        Result r = run(N, parts(dept), keys(asc(sal)), fn(ROW_NUMBER), fn(RANK), fn(DENSE_RANK), fn(COUNT_STAR));
        // a: 100, 200, 200, 300 | b: 50, 50, NULL (NULLs last) | c: 10
        assertEquals(List.of(0, 1, 2, 3, 4, 6, 5, 7), r.order);
        assertEquals(longs(1L, 2L, 3L, 4L, 1L, 3L, 2L, 1L), r.column(0));
        assertEquals(longs(1L, 2L, 2L, 4L, 1L, 3L, 1L, 1L), r.column(1));
        assertEquals(longs(1L, 2L, 2L, 3L, 1L, 2L, 1L, 1L), r.column(2));
        // Default frame: up to the current row's last peer.
        assertEquals(longs(1L, 3L, 3L, 4L, 2L, 3L, 2L, 1L), r.column(3));
    }

    @Test
    void descendingPutsNullsFirst() {
        Result r = run(N, parts(), keys(desc(sal)), fn(ROW_NUMBER), fn(RANK), fn(DENSE_RANK));
        // NULL, 300, 200, 200, 100, 50, 50, 10
        assertEquals(List.of(5, 3, 1, 2, 0, 4, 6, 7), r.order);
        assertEquals(longs(5L, 3L, 4L, 2L, 6L, 1L, 7L, 8L), r.column(0));
        assertEquals(longs(5L, 3L, 3L, 2L, 6L, 1L, 6L, 8L), r.column(1));
        assertEquals(longs(4L, 3L, 3L, 2L, 5L, 1L, 5L, 6L), r.column(2));
    }

    @Test
    void numericPartitionThenTextOrder() {
        Result r = run(N, parts(sal), keys(desc(dept)), fn(ROW_NUMBER), fn(RANK), fn(COUNT_STAR));
        // partitions by sal: 10 {7}, 50 {4, 6}, 100 {0}, 200 {1, 2}, 300 {3}, NULL {5}; dept ties keep input order
        assertEquals(List.of(7, 4, 6, 0, 1, 2, 3, 5), r.order);
        assertEquals(longs(1L, 1L, 2L, 1L, 1L, 1L, 2L, 1L), r.column(0));
        assertEquals(longs(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), r.column(1));
        assertEquals(longs(1L, 2L, 2L, 1L, 2L, 1L, 2L, 1L), r.column(2));
    }

    @Test
    void explicitNullsOrder() {
        Result r = run(N, parts(), keys(new WindowSortKey(sal, false, true), asc(id)), fn(ROW_NUMBER));
        assertEquals(List.of(5, 7, 4, 6, 0, 1, 2, 3), r.order);
        r = run(N, parts(), keys(new WindowSortKey(sal, true, false), asc(id)), fn(ROW_NUMBER));
        assertEquals(List.of(3, 1, 2, 0, 4, 6, 7, 5), r.order);
    }

    @Test
    void defaultFrameAggregatesIncludePeers() {
        Result r = run(N, parts(dept), keys(asc(sal)), fn(SUM, sal), fn(COUNT, sal), fn(AVG, sal), fn(MIN, sal),
                fn(MAX, sal), fn(FIRST_VALUE, sal), fn(LAST_VALUE, sal));
        assertEquals(longs(100L, 500L, 500L, 800L, 100L, 100L, 100L, 10L), r.column(0));
        assertEquals(longs(1L, 3L, 3L, 4L, 2L, 2L, 2L, 1L), r.column(1));
        assertEquals(Arrays.asList(100.0, 500.0 / 3, 500.0 / 3, 200.0, 50.0, 50.0, 50.0, 10.0), r.column(2));
        assertEquals(longs(100L, 100L, 100L, 100L, 50L, 50L, 50L, 10L), r.column(3));
        assertEquals(longs(100L, 200L, 200L, 300L, 50L, 50L, 50L, 10L), r.column(4));
        assertEquals(longs(100L, 100L, 100L, 100L, 50L, 50L, 50L, 10L), r.column(5));
        // LAST_VALUE is the last peer; the NULL row's frame ends at itself.
        assertEquals(longs(100L, 200L, 200L, 300L, 50L, null, 50L, 10L), r.column(6));
    }

    @Test
    void withoutOrderByTheFrameIsThePartition() {
        Result r = run(N, parts(dept), keys(), fn(SUM, sal), fn(ROW_NUMBER), fn(RANK), fn(LAST_VALUE, sal));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), r.order);
        assertEquals(longs(800L, 800L, 800L, 800L, 100L, 100L, 100L, 10L), r.column(0));
        assertEquals(longs(1L, 2L, 3L, 4L, 1L, 2L, 3L, 1L), r.column(1));
        assertEquals(longs(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), r.column(2));
        assertEquals(longs(300L, 300L, 300L, 300L, 50L, 50L, 50L, 10L), r.column(3));
    }

    @Test
    void ntileDealsUnevenBuckets() {
        Result r = run(N, parts(), keys(asc(id)), fn(NTILE, lit(3)), fn(NTILE, lit(5)), fn(NTILE, lit(20)), fn(NTILE, lit(1)));
        assertEquals(longs(1L, 1L, 1L, 2L, 2L, 2L, 3L, 3L), r.column(0));
        assertEquals(longs(1L, 1L, 2L, 2L, 3L, 3L, 4L, 5L), r.column(1));
        assertEquals(longs(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), r.column(2));
        assertEquals(longs(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), r.column(3));
        r = run(N, parts(dept), keys(asc(id)), fn(NTILE, lit(2)), fn(NTILE, nul()));
        assertEquals(longs(1L, 1L, 2L, 2L, 1L, 1L, 2L, 1L), r.column(0));
        assertEquals(longs(null, null, null, null, null, null, null, null), r.column(1));
        SqlException e = assertThrows(SqlException.class, () -> run(N, parts(), keys(asc(id)), fn(NTILE, lit(0))));
        assertTrue(e.getMessage().contains("NTILE"), e.getMessage());
    }

    @Test
    void lagAndLeadWithOffsetsAndDefaults() {
        Result r = run(N, parts(), keys(asc(id)), fn(LAG, sal), fn(LAG, sal, lit(2), lit(-1)), fn(LEAD, sal),
                fn(LEAD, sal, lit(3)), fn(LAG, sal, lit(-1)), fn(LAG, sal, lit(0)), fn(LEAD, sal, lit(100), lit(7)));
        assertEquals(longs(null, 100L, 200L, 200L, 300L, 50L, null, 50L), r.column(0));
        assertEquals(longs(-1L, -1L, 100L, 200L, 200L, 300L, 50L, null), r.column(1));
        assertEquals(longs(200L, 200L, 300L, 50L, null, 50L, 10L, null), r.column(2));
        assertEquals(longs(300L, 50L, null, 50L, 10L, null, null, null), r.column(3));
        assertEquals(r.column(2), r.column(4));
        assertEquals(longs(100L, 200L, 200L, 300L, 50L, null, 50L, 10L), r.column(5));
        assertEquals(longs(7L, 7L, 7L, 7L, 7L, 7L, 7L, 7L), r.column(6));

        r = run(N, parts(dept), keys(asc(id)), fn(LEAD, sal, lit(1), lit(0)), fn(LAG, dept, lit(1), new TextCol("x", "x", "x", "x", "y", "y", "y", "z")));
        assertEquals(longs(200L, 200L, 300L, 0L, null, 50L, 0L, 0L), r.column(0));
        assertEquals(Arrays.asList("x", "a", "a", "a", "y", "b", "b", "z"), r.column(1));
    }

    @Test
    void lagOffsetPerRowAndNullOffset() {
        Expression off = new LongCol("off", SqlType.INT, 0L, 1L, null, 3L, 1L, 2L, -1L, 9L);
        Result r = run(N, parts(), keys(asc(id)), fn(LAG, id, off, lit(-5)));
        assertEquals(longs(0L, 0L, null, 0L, 3L, 3L, 7L, -5L), r.column(0));
    }

    @Test
    void lagOfIntegerWithDoubleDefaultIsDouble() {
        WindowFunctionSpec f = fn(LAG, sal, lit(1), new Const(0.5));
        assertEquals(SqlType.DOUBLE, f.resultType());
        Result r = run(N, parts(), keys(asc(id)), f);
        assertEquals(Arrays.asList(0.5, 100.0, 200.0, 200.0, 300.0, 50.0, null, 50.0), r.column(0));
    }

    @Test
    void rowsOnePrecedingOneFollowing() {
        WindowFrame w = frame(FrameUnit.ROWS, BoundKind.PRECEDING, 1L, BoundKind.FOLLOWING, 1L);
        Result r = run(N, parts(), keys(asc(id)), fn(SUM, w, sal), fn(AVG, w, sal), fn(MIN, w, sal), fn(MAX, w, sal),
                fn(COUNT, w, sal), fn(COUNT_STAR, w), fn(FIRST_VALUE, w, sal), fn(LAST_VALUE, w, sal));
        // sal by id: 100 200 200 300 50 NULL 50 10
        assertEquals(longs(300L, 500L, 700L, 550L, 350L, 100L, 60L, 60L), r.column(0));
        assertEquals(Arrays.asList(150.0, 500.0 / 3, 700.0 / 3, 550.0 / 3, 175.0, 50.0, 30.0, 30.0), r.column(1));
        assertEquals(longs(100L, 100L, 200L, 50L, 50L, 50L, 10L, 10L), r.column(2));
        assertEquals(longs(200L, 200L, 300L, 300L, 300L, 50L, 50L, 50L), r.column(3));
        assertEquals(longs(2L, 3L, 3L, 3L, 2L, 2L, 2L, 2L), r.column(4));
        assertEquals(longs(2L, 3L, 3L, 3L, 3L, 3L, 3L, 2L), r.column(5));
        assertEquals(longs(100L, 100L, 200L, 200L, 300L, 50L, null, 50L), r.column(6));
        assertEquals(longs(200L, 200L, 300L, 50L, null, 50L, 10L, 10L), r.column(7));
    }

    @Test
    void rowsFramesThatEmptyAtTheEdges() {
        WindowFrame ahead = frame(FrameUnit.ROWS, BoundKind.FOLLOWING, 2L, BoundKind.FOLLOWING, 3L);
        WindowFrame behind = frame(FrameUnit.ROWS, BoundKind.PRECEDING, 3L, BoundKind.PRECEDING, 2L);
        Result r = run(N, parts(dept), keys(asc(id)), fn(SUM, ahead, sal), fn(COUNT_STAR, ahead), fn(SUM, behind, id),
                fn(FIRST_VALUE, behind, id));
        // a: ids 0..3; b: 4..6; c: 7
        assertEquals(longs(500L, 300L, null, null, 50L, null, null, null), r.column(0));
        assertEquals(longs(2L, 1L, 0L, 0L, 1L, 0L, 0L, 0L), r.column(1));
        assertEquals(longs(null, null, 0L, 1L, null, null, 4L, null), r.column(2));
        assertEquals(longs(null, null, 0L, 0L, null, null, 4L, null), r.column(3));
    }

    @Test
    void rangePeersOnly() {
        WindowFrame peers = frame(FrameUnit.RANGE, BoundKind.CURRENT_ROW, null, BoundKind.CURRENT_ROW, null);
        WindowFrame rest = frame(FrameUnit.RANGE, BoundKind.CURRENT_ROW, null, BoundKind.UNBOUNDED_FOLLOWING, null);
        Result r = run(N, parts(), keys(asc(sal)), fn(SUM, peers, sal), fn(COUNT_STAR, peers), fn(SUM, rest, sal));
        // sorted: 10, 50, 50, 100, 200, 200, 300, NULL
        assertEquals(longs(100L, 400L, 400L, 300L, 100L, null, 100L, 10L), r.column(0));
        assertEquals(longs(1L, 2L, 2L, 1L, 2L, 1L, 2L, 1L), r.column(1));
        assertEquals(longs(800L, 700L, 700L, 300L, 900L, null, 900L, 910L), r.column(2));
    }

    @Test
    void rangeWithOffsetsAscendingAndDescending() {
        WindowFrame around = frame(FrameUnit.RANGE, BoundKind.PRECEDING, 50L, BoundKind.FOLLOWING, 50L);
        // sorted asc: 10, 50, 50, 100, 200, 200, 300, NULL; the NULL row's frame is its NULL peers.
        List<Object> sums = longs(200L, 400L, 400L, 300L, 210L, null, 210L, 110L);
        List<Object> counts = longs(3L, 2L, 2L, 1L, 4L, 1L, 4L, 3L);
        Result r = run(N, parts(), keys(asc(sal)), fn(SUM, around, sal), fn(COUNT_STAR, around));
        assertEquals(sums, r.column(0));
        assertEquals(counts, r.column(1));
        r = run(N, parts(), keys(desc(sal)), fn(SUM, around, sal), fn(COUNT_STAR, around));
        assertEquals(sums, r.column(0));
        assertEquals(counts, r.column(1));

        // 100 PRECEDING alone: up to the current row's peers. Descending, preceding keys are larger.
        WindowFrame back = WindowFrame.startingAt(FrameUnit.RANGE, BoundKind.PRECEDING, lit(100));
        r = run(N, parts(), keys(desc(sal)), fn(SUM, back, sal), fn(FIRST_VALUE, back, sal));
        // desc: NULL, 300, 200, 200, 100, 50, 50, 10; 100 takes 200 200 100, 10 takes 100 50 50 10.
        assertEquals(longs(500L, 700L, 700L, 300L, 200L, null, 200L, 210L), r.column(0));
        assertEquals(longs(200L, 300L, 300L, 300L, 100L, null, 100L, 100L), r.column(1));
    }

    @Test
    void rangeOffsetOverDoubles() {
        Expression d = new DoubleCol(1.0, 1.5, 2.5, null, 4.0, 4.25, -1.0, 2.0);
        assertThrows(IllegalArgumentException.class, () -> frame(FrameUnit.RANGE, BoundKind.CURRENT_ROW, null, BoundKind.FOLLOWING, null));
        WindowFrame w = new WindowFrame(FrameUnit.RANGE, BoundKind.CURRENT_ROW, null, BoundKind.FOLLOWING, new Const(1.0));
        Result r = run(N, parts(), keys(asc(d)), fn(SUM, w, d), fn(COUNT_STAR, w));
        // sorted: -1, 1, 1.5, 2, 2.5, 4, 4.25, NULL
        assertEquals(Arrays.asList(4.5, 6.0, 2.5, null, 8.25, 4.25, -1.0, 4.5), r.column(0));
        assertEquals(longs(3L, 3L, 1L, 1L, 2L, 1L, 1L, 2L), r.column(1));
    }

    @Test
    void doubleAndTextAggregates() {
        Expression d = new DoubleCol(1.5, null, 2.25, 1e300, -1e300, 3.0, 0.5, 2.0);
        Expression t = new TextCol("pear", "apple", null, "fig", "apple", "zz", "é", "b");
        WindowFrame w = frame(FrameUnit.ROWS, BoundKind.PRECEDING, 1L, BoundKind.CURRENT_ROW, null);
        Result r = run(N, parts(), keys(asc(id)), fn(SUM, w, d), fn(MIN, t), fn(MAX, t), fn(MAX, w, t), fn(SUM, d));
        assertEquals(Arrays.asList(1.5, 1.5, 2.25, 1e300, 0.0, -1e300, 3.5, 2.5), r.column(0));
        assertEquals(Arrays.asList("pear", "apple", "apple", "apple", "apple", "apple", "apple", "apple"), r.column(1));
        assertEquals(Arrays.asList("pear", "pear", "pear", "pear", "pear", "zz", "é", "é"), r.column(2));
        assertEquals(Arrays.asList("pear", "pear", "apple", "fig", "fig", "zz", "é", "é"), r.column(3));
        assertEquals(SqlType.DOUBLE, fn(SUM, d).resultType());
        assertEquals(SqlType.BIGINT, fn(SUM, sal).resultType());
        assertEquals(SqlType.INT, fn(MIN, sal).resultType());
    }

    @Test
    void emptyInputPushesNothing() {
        Result r = run(0, parts(dept), keys(asc(sal)), fn(ROW_NUMBER), fn(SUM, sal), fn(LAG, sal));
        assertTrue(r.order.isEmpty());
    }

    @Test
    void stopsWhenTheConsumerSaysSo() {
        List<String> names = List.of("f0");
        var out = new io.respsql.storage.Table("w", names, List.of(io.respsql.storage.ColumnType.BIGINT), 0);
        WindowOperator op = new WindowOperator(new Scan(N), new int[] {INPUT}, parts(), keys(asc(id)),
                new WindowFunctionSpec[] {fn(ROW_NUMBER)}, out, OUTPUT).withStubStorage((f, row) -> { });
        List<Integer> seen = new ArrayList<>();
        boolean finished = op.run(new io.respsql.expr.EvalContext(2), c -> {
            seen.add(c.slots[INPUT]);
            return seen.size() < 3;
        });
        assertFalse(finished);
        assertEquals(List.of(0, 1, 2), seen);
        List<String> lines = new ArrayList<>();
        op.explain(lines, 0);
        assertEquals("Window ORDER BY id: ROW_NUMBER()", lines.get(0));
        assertEquals("  TestScan 8", lines.get(1));
    }

    @Test
    void rejectsWhatPostgresRejects() {
        assertThrows(SqlException.class, () -> frame(FrameUnit.ROWS, BoundKind.UNBOUNDED_FOLLOWING, null, BoundKind.UNBOUNDED_FOLLOWING, null));
        assertThrows(SqlException.class, () -> frame(FrameUnit.ROWS, BoundKind.CURRENT_ROW, null, BoundKind.PRECEDING, 1L));
        assertThrows(SqlException.class, () -> frame(FrameUnit.ROWS, BoundKind.FOLLOWING, 1L, BoundKind.CURRENT_ROW, null));
        assertThrows(SqlException.class, () -> fn(SUM, dept));
        assertThrows(SqlException.class, () -> fn(ROW_NUMBER, sal));
        assertThrows(SqlException.class, () -> fn(LAG, sal, lit(1), dept));
        WindowFrame range = frame(FrameUnit.RANGE, BoundKind.PRECEDING, 1L, BoundKind.CURRENT_ROW, null);
        SqlException e = assertThrows(SqlException.class, () -> run(N, parts(), keys(asc(sal), asc(id)), fn(SUM, range, sal)));
        assertTrue(e.getMessage().contains("exactly one ORDER BY"), e.getMessage());
        assertThrows(SqlException.class, () -> run(N, parts(), keys(asc(dept)), fn(SUM, range, sal)));
        WindowFrame negative = frame(FrameUnit.ROWS, BoundKind.PRECEDING, -1L, BoundKind.CURRENT_ROW, null);
        e = assertThrows(SqlException.class, () -> run(N, parts(), keys(asc(id)), fn(SUM, negative, sal)));
        assertTrue(e.getMessage().contains("must not be negative"), e.getMessage());
        WindowFrame nullOffset = new WindowFrame(FrameUnit.ROWS, BoundKind.PRECEDING, nul(), BoundKind.CURRENT_ROW, null);
        e = assertThrows(SqlException.class, () -> run(N, parts(), keys(asc(id)), fn(SUM, nullOffset, sal)));
        assertTrue(e.getMessage().contains("must not be null"), e.getMessage());
    }

    @Test
    void bigintSumOverflowIsAnErrorButIntermediateOverflowIsNot() {
        Expression big = new LongCol("big", SqlType.BIGINT, Long.MAX_VALUE, Long.MAX_VALUE, -Long.MAX_VALUE, -Long.MAX_VALUE,
                5L, 6L, 7L, 8L);
        WindowFrame pair = frame(FrameUnit.ROWS, BoundKind.CURRENT_ROW, null, BoundKind.FOLLOWING, 1L);
        // Pairs: MAX+MAX overflows.
        assertThrows(SqlException.class, () -> run(N, parts(), keys(asc(id)), fn(SUM, pair, big)));
        WindowFrame all = frame(FrameUnit.ROWS, BoundKind.UNBOUNDED_PRECEDING, null, BoundKind.UNBOUNDED_FOLLOWING, null);
        Result r = run(N, parts(), keys(asc(id)), fn(SUM, all, big), fn(AVG, all, big));
        assertEquals(26L, r.values[0][0]);
        assertEquals(26.0 / 8, r.values[0][1]);
    }

    @Test
    void aPlanRunsAgainWithTheSameAnswers() {
        List<String> names = List.of("f0", "f1");
        var out = new io.respsql.storage.Table("w", names, List.of(io.respsql.storage.ColumnType.BIGINT,
                io.respsql.storage.ColumnType.BIGINT), 0);
        WindowOperator op = new WindowOperator(new Scan(N), new int[] {INPUT}, parts(dept), keys(desc(id)),
                new WindowFunctionSpec[] {fn(ROW_NUMBER), fn(SUM, id)}, out, OUTPUT).withStubStorage((f, row) -> { });
        for (int run = 0; run < 2; run++) {
            long[] rn = new long[N];
            long[] sums = new long[N];
            op.run(new io.respsql.expr.EvalContext(2), c -> {
                int in = c.slots[INPUT];
                rn[in] = ((io.respsql.storage.LongColumn) out.column(0)).get(c.slots[OUTPUT]);
                sums[in] = ((io.respsql.storage.LongColumn) out.column(1)).get(c.slots[OUTPUT]);
                return true;
            });
            assertArrayEquals(new long[] {4, 3, 2, 1, 3, 2, 1, 1}, rn, "run " + run);
            assertArrayEquals(new long[] {6, 6, 5, 3, 15, 11, 6, 7}, sums, "run " + run);
        }
    }

    @Test
    void slidingFramesOverManyRowsStayLinear() {
        int n = 300_000;
        Long[] key = new Long[n];
        Long[] part = new Long[n];
        Long[] val = new Long[n];
        for (int i = 0; i < n; i++) {
            key[i] = (long) (n - i);
            part[i] = (long) (i % 7);
            val[i] = (long) (i % 100);
        }
        WindowFrame w = frame(FrameUnit.ROWS, BoundKind.PRECEDING, 100L, BoundKind.CURRENT_ROW, null);
        WindowFrame range = frame(FrameUnit.RANGE, BoundKind.PRECEDING, 700L, BoundKind.FOLLOWING, 70L);
        Expression v = new LongCol("v", SqlType.INT, val);
        long t0 = System.nanoTime();
        Result r = run(n, parts(new LongCol("p", SqlType.BIGINT, part)), keys(asc(new LongCol("k", SqlType.BIGINT, key))),
                fn(SUM, w, v), fn(MAX, w, v), fn(COUNT_STAR, range), fn(ROW_NUMBER));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("window over " + n + " rows, 4 functions: " + ms + " ms");
        // Partition p holds slots p, p+7, ... in descending slot order (ascending key).
        for (int p = 0; p < 7; p++) {
            List<Integer> slots = new ArrayList<>();
            for (int i = n - 1 - ((n - 1 - p) % 7); i >= 0; i -= 7) {
                slots.add(i);
            }
            long sum = 0;
            for (int k = 0; k < slots.size(); k++) {
                int slot = slots.get(k);
                sum += val[slot];
                if (k > 100) {
                    sum -= val[slots.get(k - 101)];
                }
                assertEquals(sum, r.values[slot][0]);
                assertEquals((long) k + 1, r.values[slot][3]);
                // Keys step by 7: 700 back is 100 rows, 70 ahead is 10 rows.
                long inRange = Math.min(k, 100) + 1 + Math.min(slots.size() - 1 - k, 10);
                assertEquals(inRange, r.values[slot][2]);
            }
        }
    }
}
