package io.respsql.expr;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;

import static io.respsql.expr.ExprFixture.i;
import static io.respsql.expr.ExprFixture.txt;
import static io.respsql.sql.tree.Expr.BinaryOp.*;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Evaluation allocates nothing per row: computed text goes into buffers the nodes own. */
class ExpressionAllocationTest {
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void textExpressionsAllocateNothingPerEvaluation() {
        ExprFixture f = new ExprFixture();
        int[] rows = {f.row(7, 2.5, "hello"), f.row(-12, 0.125, "déjà vu"), f.row(0, 1e-3, ""), f.row(99, -1.5e20, "x")};
        Expression text = Expressions.function("UPPER", List.of(Expressions.function("SUBSTR", List.of(
                Expressions.binary(CONCAT, Expressions.binary(CONCAT, f.s, txt("-")), Expressions.binary(CONCAT, f.a, f.b)),
                i(2), i(12)))));
        Expression cond = Expressions.binary(AND,
                Expressions.like(Expressions.function("TRIM", List.of(text)), txt("%E%"), null, false),
                Expressions.binary(OR, Expressions.inList(f.s, List.of(txt("hello"), txt("x")), false),
                        Expressions.between(Expressions.function("LENGTH", List.of(f.s)), i(1), i(20), false)));
        Expression number = Expressions.function("ROUND", List.of(Expressions.binary(DIV, Expressions.cast(
                Expressions.function("REPLACE", List.of(Expressions.cast(f.b, SqlType.TEXT), txt("."), txt(""))),
                SqlType.BIGINT), i(3)), i(1)));
        EvalContext ctx = f.ctx;
        long sink = 0;
        for (int k = 0; k < 20_000; k++) { // warm up: buffers reach their size
            ctx.slots[0] = rows[k & 3];
            text.evalText(ctx);
            sink += ctx.textLength + (cond.isTrue(ctx) ? 1 : 0) + (long) number.evalDouble(ctx);
        }
        long before = allocated();
        for (int k = 0; k < 100_000; k++) {
            ctx.slots[0] = rows[k & 3];
            text.evalText(ctx);
            sink += ctx.textLength + (cond.isTrue(ctx) ? 1 : 0) + (long) number.evalDouble(ctx);
        }
        long used = allocated() - before;
        assertTrue(used < 4096, "allocated " + used + " bytes over 100k evaluations (sink " + sink + ")");
    }
}
