package io.respsql.exec.op.order;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class SortTest {
    /** Slots of relation 0 in push order. */
    private static List<Integer> order(Operator op) {
        List<Integer> out = new ArrayList<>();
        for (List<Integer> r : TestSupport.slots(op, 2, 0)) {
            out.add(r.get(0));
        }
        return out;
    }

    private static TestTable numbers() {
        // slots 0..6
        return TestSupport.table("n", "id:INT,x:INT,d:FLOAT,t:TEXT")
                .row(0, 3, 1.5, "b")
                .row(1, null, -2.0, "a")
                .row(2, 1, null, "B")
                .row(3, 3, 0.25, "é")
                .row(4, -5, 10.0, "ab")
                .row(5, null, 1.5, "")
                .row(6, 1, -0.5, "z");
    }

    private static Sort sort(TestTable t, long limit, long offset, SortKey... keys) {
        return new Sort(t.scan(0), new int[] {0}, keys, limit, offset);
    }

    @Test
    void ascendingNullsLastStable() {
        TestTable t = numbers();
        assertEquals(List.of(4, 2, 6, 0, 3, 1, 5), order(sort(t, -1, 0, SortKey.of(t.col("x", 0), false))));
    }

    @Test
    void descendingNullsFirstByDefaultAndExplicitPlacement() {
        TestTable t = numbers();
        assertEquals(List.of(1, 5, 0, 3, 2, 6, 4), order(sort(t, -1, 0, SortKey.of(t.col("x", 0), true))));
        assertEquals(List.of(0, 3, 2, 6, 4, 1, 5), order(sort(t, -1, 0, new SortKey(t.col("x", 0), true, false))));
        assertEquals(List.of(1, 5, 4, 2, 6, 0, 3), order(sort(t, -1, 0, new SortKey(t.col("x", 0), false, true))));
    }

    @Test
    void secondKeyBreaksTies() {
        TestTable t = numbers();
        assertEquals(List.of(4, 6, 2, 3, 0, 1, 5),
                order(sort(t, -1, 0, SortKey.of(t.col("x", 0), false), SortKey.of(t.col("d", 0), false))));
    }

    @Test
    void textIsBytewiseAndDoublesNumeric() {
        TestTable t = numbers();
        // "" < "B" < "a" < "ab" < "b" < "z" < "é" (UTF-8 bytes, unsigned)
        assertEquals(List.of(5, 2, 1, 4, 0, 6, 3), order(sort(t, -1, 0, SortKey.of(t.col("t", 0), false))));
        assertEquals(List.of(1, 6, 3, 0, 5, 4, 2), order(sort(t, -1, 0, SortKey.of(t.col("d", 0), false))));
    }

    @Test
    void limitAndOffsetFullAndTopN() {
        TestTable t = numbers();
        SortKey k = SortKey.of(t.col("x", 0), false);
        assertEquals(List.of(4, 2, 6), order(sort(t, 3, 0, k)));
        assertEquals(List.of(6, 0, 3), order(sort(t, 3, 2, k)));
        assertEquals(List.of(1, 5), order(sort(t, 10, 5, k)));
        assertEquals(List.of(), order(sort(t, 10, 7, k)));
        assertEquals(List.of(), order(sort(t, 0, 0, k)));
        assertEquals(List.of(3, 1, 5), order(sort(t, -1, 4, k)));
        assertEquals(List.of(4), order(sort(t, 1, 0, k)));
    }

    @Test
    void emptyInput() {
        TestTable t = TestSupport.table("e", "id:INT,x:INT");
        assertEquals(List.of(), order(sort(t, -1, 0, SortKey.of(t.col("x", 0), false))));
        assertEquals(List.of(), order(sort(t, 5, 0, SortKey.of(t.col("x", 0), false))));
    }

    @Test
    void carriesEveryRelationsSlots() {
        TestTable a = TestSupport.table("a", "id:INT,x:INT").row(0, 2).row(1, 1);
        TestTable b = TestSupport.table("b", "id:INT,y:INT").row(0, 20).row(1, 10).row(2, 30);
        Operator cross = cross(a.scan(0), b.scan(1));
        for (long limit : new long[] {-1, 4}) {
            Sort s = new Sort(cross, new int[] {0, 1}, new SortKey[] {SortKey.of(a.col("x", 0), false),
                    SortKey.of(b.col("y", 1), true)}, limit, 0);
            List<List<Integer>> got = TestSupport.slots(s, 2, 0, 1);
            List<List<Integer>> all = List.of(List.of(1, 2), List.of(1, 0), List.of(1, 1), List.of(0, 2), List.of(0, 0), List.of(0, 1));
            assertEquals(limit < 0 ? all : all.subList(0, 4), got);
        }
    }

    @Test
    void stopsWhenTheConsumerStops() {
        TestTable t = numbers();
        for (long limit : new long[] {-1, 5}) {
            int[] n = {0};
            boolean done = sort(t, limit, 0, SortKey.of(t.col("x", 0), false)).run(new EvalContext(1), c -> ++n[0] < 2);
            assertFalse(done);
            assertEquals(2, n[0]);
        }
    }

    @Test
    void topNMatchesTheFullSortOnRandomData() {
        Random rnd = new Random(42);
        TestTable t = TestSupport.table("r", "id:INT,x:INT,d:FLOAT,t:TEXT");
        String[] words = {"", "a", "ab", "b", "ba", "zz", "Z", "é", "aaaaaaaaaaaaaaaaaaaaaaaaaaa"};
        for (int i = 0; i < 3000; i++) {
            t.row(i, rnd.nextInt(8) == 0 ? null : rnd.nextInt(50), rnd.nextInt(10) == 0 ? null : rnd.nextInt(20) / 4.0,
                    rnd.nextInt(9) == 0 ? null : words[rnd.nextInt(words.length)]);
        }
        for (int trial = 0; trial < 40; trial++) {
            SortKey[] keys = new SortKey[1 + rnd.nextInt(3)];
            String[] cols = {"x", "d", "t"};
            for (int j = 0; j < keys.length; j++) {
                keys[j] = new SortKey(t.col(cols[rnd.nextInt(3)], 0), rnd.nextBoolean(), rnd.nextBoolean());
            }
            long limit = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : rnd.nextInt(400);
            long offset = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(200);
            List<Integer> full = order(sort(t, -1, 0, keys));
            List<Integer> expected = full.subList((int) Math.min(offset, full.size()), (int) Math.min(full.size(), offset + limit));
            assertEquals(expected, order(sort(t, limit, offset, keys)), "trial " + trial + " limit " + limit + " offset " + offset);
        }
    }

    @Test
    void topNOverManyRowsWithTextKeys() {
        // many replacements of text keys exercise the key store's text compaction
        Random rnd = new Random(7);
        TestTable t = TestSupport.table("r", "id:INT,t:TEXT");
        for (int i = 0; i < 60_000; i++) {
            t.row(i, "k" + (1_000_000 - i) + "-" + "x".repeat(rnd.nextInt(20)));
        }
        SortKey k = SortKey.of(t.col("t", 0), false);
        List<Integer> full = order(sort(t, -1, 0, k));
        assertEquals(full.subList(10, 110), order(sort(t, 100, 10, k)));
    }

    /** Every pair (a, b) of the two inputs, a outer. */
    static Operator cross(Operator a, Operator b) {
        return new Operator() {
            @Override
            public boolean run(EvalContext ctx, TupleConsumer out) {
                return a.run(ctx, c -> b.run(c, out));
            }

            @Override
            public long relations() {
                return a.relations() | b.relations();
            }

            @Override
            public void explain(List<String> lines, int depth) {
            }
        };
    }
}
