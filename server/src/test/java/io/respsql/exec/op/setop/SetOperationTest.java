package io.respsql.exec.op.setop;

import io.respsql.exec.op.TestSupport;
import io.respsql.exec.op.TestSupport.TestTable;
import io.respsql.exec.op.setop.SetOperation.Kind;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.storage.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.respsql.exec.op.TestSupport.collect;
import static io.respsql.exec.op.TestSupport.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class SetOperationTest {
    private static TestTable left() {
        return TestSupport.table("l", "id:INT,x:INT,s:TEXT").row(0, 1, "a").row(1, 2, "b").row(2, 1, "a").row(3, 3, "c").row(4, 2, "b");
    }

    private static TestTable right() {
        return TestSupport.table("r", "id:INT,y:FLOAT,s:TEXT").row(0, 2.0, "b").row(1, 4.0, "d").row(2, 2.0, "b").row(3, 1.5, "a");
    }

    private static List<List<Object>> run(Kind kind, String outSpec, TestTable l, String[] lc, TestTable r, String[] rc) {
        Table out = TestSupport.work(outSpec);
        Expression[] lo = new Expression[lc.length];
        Expression[] ro = new Expression[rc.length];
        for (int i = 0; i < lc.length; i++) {
            lo[i] = l.col(lc[i], 0);
            ro[i] = r.col(rc[i], 1);
        }
        return collect(new SetOperation(kind, l.scan(0), lo, r.scan(1), ro, out, 2), out, 2, 3);
    }

    private static final String[] LX = {"x", "s"};
    private static final String[] RY = {"y", "s"};

    @Test
    void unionRemovesDuplicatesInFirstSeenOrder() {
        assertEquals(List.of(row(1.0, "a"), row(2.0, "b"), row(3.0, "c"), row(4.0, "d"), row(1.5, "a")),
                run(Kind.UNION, "x:FLOAT,s:TEXT", left(), LX, right(), RY));
    }

    @Test
    void unionAllKeepsEverything() {
        assertEquals(List.of(row(1.0, "a"), row(2.0, "b"), row(1.0, "a"), row(3.0, "c"), row(2.0, "b"),
                        row(2.0, "b"), row(4.0, "d"), row(2.0, "b"), row(1.5, "a")),
                run(Kind.UNION_ALL, "x:FLOAT,s:TEXT", left(), LX, right(), RY));
    }

    @Test
    void intersectAndExceptAreDistinct() {
        assertEquals(List.of(row(2.0, "b")), run(Kind.INTERSECT, "x:FLOAT,s:TEXT", left(), LX, right(), RY));
        assertEquals(List.of(row(1.0, "a"), row(3.0, "c")), run(Kind.EXCEPT, "x:FLOAT,s:TEXT", left(), LX, right(), RY));
        assertEquals(List.of(row(4.0, "d"), row(1.5, "a")), run(Kind.EXCEPT, "x:FLOAT,s:TEXT", right(), RY, left(), LX));
    }

    @Test
    void doublesConvertIntoAnIntegerColumn() {
        // the caller chose an INT column: 1.5 reads as 1 and meets the left side's 1
        assertEquals(List.of(row(1L, "a"), row(2L, "b"), row(3L, "c"), row(4L, "d")),
                run(Kind.UNION, "x:INT,s:TEXT", left(), LX, right(), RY));
        assertEquals(List.of(row(1L, "a"), row(2L, "b")), run(Kind.INTERSECT, "x:BIGINT,s:TEXT", left(), LX, right(), RY));
    }

    @Test
    void emptySides() {
        TestTable empty = TestSupport.table("e", "id:INT,x:INT,s:TEXT");
        assertEquals(List.of(row(2.0, "b"), row(4.0, "d"), row(1.5, "a")), run(Kind.UNION, "x:FLOAT,s:TEXT", empty, LX, right(), RY));
        assertEquals(List.of(), run(Kind.INTERSECT, "x:FLOAT,s:TEXT", left(), LX, TestSupport.table("e", "id:INT,y:INT,s:TEXT"), RY));
        assertEquals(List.of(row(1L, "a"), row(2L, "b"), row(3L, "c")),
                run(Kind.EXCEPT, "x:INT,s:TEXT", left(), LX, TestSupport.table("e", "id:INT,y:INT,s:TEXT"), RY));
        assertEquals(List.of(), run(Kind.EXCEPT, "x:INT,s:TEXT", empty, LX, left(), LX));
    }

    @Test
    void textAndNumbersDoNotMix() {
        TestTable l = left();
        Table out = TestSupport.work("x:INT,s:INT");
        io.respsql.sql.SqlException e = org.junit.jupiter.api.Assertions.assertThrows(io.respsql.sql.SqlException.class,
                () -> new SetOperation(Kind.UNION, l.scan(0), new Expression[] {l.col("x", 0), l.col("s", 0)}, l.scan(1),
                        new Expression[] {l.col("x", 1), l.col("x", 1)}, out, 2));
        assertEquals("UNION column 2: s is TEXT but the result column is INT", e.getMessage());
    }

    @Test
    void nullsAreEqualForDuplicateRemoval() {
        assumeTrue(TestSupport.nullStorage(), "NULL output needs NULL storage");
        TestTable l = TestSupport.table("l", "id:INT,x:INT,s:TEXT").row(0, null, "a").row(1, null, "a").row(2, 1, null);
        TestTable r = TestSupport.table("r", "id:INT,y:INT,s:TEXT").row(0, 1, null).row(1, null, null);
        String[] rc = {"y", "s"};
        assertEquals(List.of(row(null, "a"), row(1L, null), row(null, null)), run(Kind.UNION, "x:INT,s:TEXT", l, LX, r, rc));
        assertEquals(List.of(row(1L, null)), run(Kind.INTERSECT, "x:INT,s:TEXT", l, LX, r, rc));
        assertEquals(List.of(row(null, "a")), run(Kind.EXCEPT, "x:INT,s:TEXT", l, LX, r, rc));
        // a bare NULL output column
        Table out = TestSupport.work("x:INT");
        SetOperation op = new SetOperation(Kind.UNION, l.scan(0), new Expression[] {TestSupport.constNull(SqlType.NULL)}, r.scan(1),
                new Expression[] {r.col("y", 1)}, out, 2);
        assertEquals(List.of(row((Object) null), row(1L)), collect(op, out, 2, 3));
    }
}
