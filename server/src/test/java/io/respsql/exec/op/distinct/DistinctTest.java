package io.respsql.exec.op.distinct;

import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class DistinctTest {
    private static List<Integer> slots(Distinct d) {
        List<Integer> out = new ArrayList<>();
        for (List<Integer> r : TestSupport.slots(d, 1, 0)) {
            out.add(r.get(0));
        }
        return out;
    }

    private static TestTable t() {
        return TestSupport.table("t", "id:INT,x:INT,s:TEXT,d:FLOAT")
                .row(0, 1, "a", 0.0)
                .row(1, 1, "a", -0.0)
                .row(2, null, "a", 1.0)
                .row(3, null, null, 1.0)
                .row(4, 2, "b", null)
                .row(5, null, null, null)
                .row(6, 1, "b", 2.0)
                .row(7, null, "a", 1.0);
    }

    @Test
    void firstTupleOfEachKeyPassesNullEqualsNull() {
        TestTable t = t();
        assertEquals(List.of(0, 2, 4), slots(new Distinct(t.scan(0), new Expression[] {t.col("x", 0)})));
        assertEquals(List.of(0, 2, 3, 4, 6), slots(new Distinct(t.scan(0), new Expression[] {t.col("x", 0), t.col("s", 0)})));
        assertEquals(List.of(0, 2, 4, 6), slots(new Distinct(t.scan(0), new Expression[] {t.col("d", 0)})));
        assertEquals(List.of(0, 2, 3, 4, 5, 6), slots(new Distinct(t.scan(0), new Expression[] {t.col("s", 0), t.col("d", 0)})));
    }

    @Test
    void emptyInputAndRerun() {
        TestTable e = TestSupport.table("e", "id:INT,x:INT");
        assertEquals(List.of(), slots(new Distinct(e.scan(0), new Expression[] {e.col("x", 0)})));
        TestTable t = t();
        Distinct d = new Distinct(t.scan(0), new Expression[] {t.col("s", 0)});
        assertEquals(List.of(0, 3, 4), slots(d));
        assertEquals(List.of(0, 3, 4), slots(d));
    }

    @Test
    void stopsWhenTheConsumerStops() {
        TestTable t = t();
        int[] n = {0};
        assertFalse(new Distinct(t.scan(0), new Expression[] {t.col("x", 0)}).run(new EvalContext(1), c -> ++n[0] < 2));
        assertEquals(2, n[0]);
    }
}
