package io.respsql.exec.op.window;

import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static io.respsql.exec.op.window.WindowTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-partition top-k cut ({@link WindowOperator.TopK}) and grouped input: on random rows
 * with NULL partition keys, NULL and tied order keys, every direction and NULL placement, the
 * rows pushed are exactly those whose ranking value passes the bound, each with the values the
 * plain operator computes over the whole input (ROW_NUMBER's choice among peers included).
 */
class WindowTopKTest {
    private static final WindowFunctionKind[] RANKING = {WindowFunctionKind.ROW_NUMBER, WindowFunctionKind.RANK,
            WindowFunctionKind.DENSE_RANK};

    private static Long[] randomLongs(Random rnd, int n, int distinct, double nulls) {
        Long[] v = new Long[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextDouble() < nulls ? null : (long) rnd.nextInt(distinct);
        }
        return v;
    }

    @Test
    void cutKeepsExactlyTheRowsThatPassWithTheirValues() {
        Random rnd = new Random(11);
        for (int round = 0; round < 40; round++) {
            int n = 1 + rnd.nextInt(round < 20 ? 60 : 2000);
            LongCol part = new LongCol("p", SqlType.BIGINT, randomLongs(rnd, n, 1 + rnd.nextInt(12), 0.1));
            LongCol a = new LongCol("a", SqlType.BIGINT, randomLongs(rnd, n, 1 + rnd.nextInt(6), 0.15));
            String[] texts = new String[n];
            for (int i = 0; i < n; i++) {
                texts[i] = rnd.nextInt(8) == 0 ? null : "t" + rnd.nextInt(4);
            }
            TextCol b = new TextCol(texts);
            WindowSortKey[] order = {new WindowSortKey(a, rnd.nextBoolean(), rnd.nextBoolean()),
                    new WindowSortKey(b, rnd.nextBoolean(), rnd.nextBoolean())};
            if (rnd.nextInt(4) == 0) {
                order = Arrays.copyOf(order, rnd.nextInt(2)); // one key, or none: all peers
            }
            Expression[] partition = rnd.nextInt(5) == 0 ? parts() : parts(part);
            WindowFunctionSpec[] fns = {fn(WindowFunctionKind.ROW_NUMBER), fn(WindowFunctionKind.RANK),
                    fn(WindowFunctionKind.DENSE_RANK), fn(WindowFunctionKind.LAG, a)};
            Result full = run(n, partition, order, fns);
            for (int f = 0; f < 3; f++) {
                for (long k : new long[] {0, 1, 2, 3, 5, n + 1}) {
                    for (boolean strict : new boolean[] {false, true}) {
                        WindowOperator.TopK topK = new WindowOperator.TopK(f, lit(k), strict);
                        Result cut = run(new Scan(n), n, topK, false, -1, partition, order, fns);
                        check(full, cut, f, strict ? k - 1 : k, n, "round " + round + " " + RANKING[f] + (strict ? " < " : " <= ") + k);
                    }
                }
            }
        }
    }

    @Test
    void cutDropsRowsWherePartitionsAreLarge() {
        int n = 3000;
        Random rnd = new Random(5);
        LongCol part = new LongCol("p", SqlType.BIGINT, randomLongs(rnd, n, 7, 0.1));
        LongCol a = new LongCol("a", SqlType.BIGINT, randomLongs(rnd, n, 20, 0.1));
        WindowFunctionSpec[] fns = {fn(WindowFunctionKind.ROW_NUMBER), fn(WindowFunctionKind.RANK), fn(WindowFunctionKind.DENSE_RANK)};
        Result full = run(n, parts(part), keys(desc(a)), fns);
        for (int f = 0; f < 3; f++) {
            Result cut = run(new Scan(n), n, new WindowOperator.TopK(f, lit(3), false), false, -1, parts(part), keys(desc(a)), fns);
            Set<Integer> want = new HashSet<>();
            for (int i = 0; i < n; i++) {
                if ((Long) full.values[i][f] <= 3) {
                    want.add(i);
                }
            }
            assertEquals(want, new HashSet<>(cut.order), RANKING[f] + " <= 3: exactly the rows that pass");
            assertTrue(want.size() < n / 4, "few rows pass: " + want.size());
        }
    }

    @Test
    void groupedInputComputesEachPartitionAsItEnds() {
        Random rnd = new Random(12);
        for (int round = 0; round < 30; round++) {
            int n = 1 + rnd.nextInt(500);
            Long[] p = randomLongs(rnd, n, 1 + rnd.nextInt(40), 0.05);
            LongCol part = new LongCol("p", SqlType.BIGINT, p);
            LongCol a = new LongCol("a", SqlType.BIGINT, randomLongs(rnd, n, 1 + rnd.nextInt(5), 0.1));
            WindowSortKey[] order = {new WindowSortKey(a, rnd.nextBoolean(), rnd.nextBoolean())};
            WindowFunctionSpec[] fns = {fn(WindowFunctionKind.ROW_NUMBER), fn(WindowFunctionKind.RANK),
                    fn(WindowFunctionKind.DENSE_RANK), fn(WindowFunctionKind.LAG, a)};
            // an index walk's order: grouped by partition (NULLs together), input order within
            Integer[] slots = new Integer[n];
            for (int i = 0; i < n; i++) {
                slots[i] = i;
            }
            Arrays.sort(slots, Comparator.comparing((Integer i) -> p[i], Comparator.nullsLast(Comparator.naturalOrder())));
            int[] walk = Arrays.stream(slots).mapToInt(Integer::intValue).toArray();
            Result full = run(n, parts(part), order, fns);
            Result grouped = run(new OrderedScan(walk), n, null, true, -1, parts(part), order, fns);
            check(full, grouped, 0, Long.MAX_VALUE, n, "round " + round + " grouped");
            for (int f = 0; f < 3; f++) {
                for (long k : new long[] {0, 1, 2, 4}) {
                    Result cut = run(new OrderedScan(walk), n, new WindowOperator.TopK(f, lit(k), false), true, -1, parts(part),
                            order, fns);
                    check(full, cut, f, k, n, "round " + round + " grouped " + RANKING[f] + " <= " + k);
                }
            }
        }
    }

    @Test
    void aStoppingConsumerStopsTheGroupedInput() {
        int n = 1000;
        Long[] p = new Long[n];
        Long[] a = new Long[n];
        for (int i = 0; i < n; i++) {
            p[i] = (long) (i / 10); // 100 partitions of 10, already grouped
            a[i] = (long) (i % 10);
        }
        int[] walk = new int[n];
        for (int i = 0; i < n; i++) {
            walk[i] = i;
        }
        OrderedScan scan = new OrderedScan(walk);
        Result r = run(scan, n, new WindowOperator.TopK(0, lit(1), false), true, 5, parts(new LongCol("p", SqlType.BIGINT, p)),
                keys(desc(new LongCol("a", SqlType.BIGINT, a))), fn(WindowFunctionKind.ROW_NUMBER));
        assertEquals(List.of(9, 19, 29, 39, 49), r.order, "the first row of each partition in order, a DESC");
        // the fifth partition ends when the sixth's first row arrives: nothing after it is read
        assertEquals(51, scan.pushed);
    }

    @Test
    void nullBoundPassesNothingAndOnlySafeFunctionsMayShareTheWindow() {
        int n = 20;
        LongCol a = new LongCol("a", SqlType.BIGINT, randomLongs(new Random(3), n, 5, 0));
        Result r = run(new Scan(n), n, new WindowOperator.TopK(0, new Expression(SqlType.BIGINT) {
            @Override
            public long evalLong(io.respsql.expr.EvalContext ctx) {
                ctx.isNull = true;
                return 0;
            }

            @Override
            public String describe() {
                return "NULL::bigint";
            }
        }, false), false, -1, parts(), keys(asc(a)), fn(WindowFunctionKind.ROW_NUMBER));
        assertTrue(r.order.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> run(new Scan(n), n, new WindowOperator.TopK(0, lit(1), false), false,
                -1, parts(), keys(asc(a)), fn(WindowFunctionKind.ROW_NUMBER), fn(WindowFunctionKind.SUM, a)));
        assertThrows(IllegalArgumentException.class, () -> run(new Scan(n), n, new WindowOperator.TopK(0, lit(1), false), false,
                -1, parts(), keys(asc(a)), fn(WindowFunctionKind.NTILE, lit(2))));
        assertFalse(WindowOperator.topKSafe(new WindowFunctionSpec[] {fn(WindowFunctionKind.LEAD, a)}));
    }

    /** {@code cut} pushed exactly the rows whose function {@code f} is at most {@code k} in {@code full}, with full's values. */
    private static void check(Result full, Result cut, int f, long k, int n, String what) {
        Set<Integer> want = new HashSet<>();
        for (int i = 0; i < n; i++) {
            if ((Long) full.values[i][f] <= k) {
                want.add(i);
            }
        }
        Set<Integer> pushed = new HashSet<>(cut.order);
        assertEquals(cut.order.size(), pushed.size(), what + ": each row once");
        assertTrue(pushed.containsAll(want), what + ": every row that passes is pushed");
        // the cut may leave rows in (it is skipped where k rows per partition are a third of the
        // rows or more); where it applies it is exact
        if ((long) partitions(full, n) * Math.max(0, k) * 3 <= n || what.contains("grouped")) {
            Set<Integer> extra = new HashSet<>(pushed);
            extra.removeAll(want);
            if (!what.contains("grouped")) {
                assertEquals(Set.of(), extra, what + ": rows pushed that cannot pass");
            }
        }
        List<Integer> fullOrder = new ArrayList<>(full.order);
        fullOrder.retainAll(pushed);
        for (int i : pushed) {
            assertEquals(Arrays.asList(full.values[i]), Arrays.asList(cut.values[i]), what + ": values of input row " + i);
        }
        if (!what.contains("grouped")) {
            assertEquals(fullOrder, cut.order, what + ": window order");
        }
    }

    /** Partitions of a full run: rows whose ROW_NUMBER (function 0) is 1. */
    private static int partitions(Result full, int n) {
        int p = 0;
        for (int i = 0; i < n; i++) {
            p += (Long) full.values[i][0] == 1 ? 1 : 0;
        }
        return p;
    }
}
