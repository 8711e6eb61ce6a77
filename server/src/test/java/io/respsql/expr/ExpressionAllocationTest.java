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

    /** PostgreSQL's text and math functions (issue 25) reuse their buffers too. */
    @Test
    void postgresqlFunctionsAllocateNothingPerEvaluation() {
        ExprFixture f = new ExprFixture();
        int[] rows = {f.row(7, 2.5, "hello world"), f.row(-12, 0.125, "déjà,vu"), f.row(0, 1e-3, ""), f.row(99, -1.5e20, "a,b,,c")};
        List<Expression> texts = List.of(
                Expressions.function("CONCAT", List.of(f.s, f.a)),
                Expressions.function("SPLIT_PART", List.of(f.s, txt(","), i(2))),
                Expressions.function("LPAD", List.of(f.s, i(14), txt("xy"))),
                Expressions.function("RPAD", List.of(f.s, i(3))),
                Expressions.function("LEFT", List.of(f.s, i(-2))),
                Expressions.function("RIGHT", List.of(f.s, i(4))),
                Expressions.function("REPEAT", List.of(f.s, i(3))),
                Expressions.function("REVERSE", List.of(f.s)),
                Expressions.function("INITCAP", List.of(f.s)),
                Expressions.function("TRANSLATE", List.of(f.s, txt("lo,"), txt("01"))),
                Expressions.function("MD5", List.of(f.s)),
                Expressions.function("CHR", List.of(Expressions.binary(ADD, f.a, i(100)))),
                Expressions.function("GREATEST", List.of(f.s, txt("m"))),
                Expressions.function("CHR", List.of(Expressions.binary(ADD, Expressions.function("ASCII", List.of(f.s)), i(1)))),
                Expressions.function("CONCAT_WS", List.of(txt("-"), f.s, f.a, f.b)));
        List<Expression> numbers = List.of(
                Expressions.function("STRPOS", List.of(f.s, txt("o"))),
                Expressions.function("STARTS_WITH", List.of(f.s, txt("he"))),
                Expressions.function("POWER", List.of(f.b, i(2))),
                Expressions.function("SQRT", List.of(Expressions.function("ABS", List.of(f.b)))),
                Expressions.function("TRUNC", List.of(f.b, i(2))),
                Expressions.function("FLOOR", List.of(f.b)),
                Expressions.function("LEAST", List.of(f.a, i(3), i(-1))),
                Expressions.function("MOD", List.of(f.a, i(5))));
        Expression[] textArray = texts.toArray(new Expression[0]); // indexed loops: an iterator per row would allocate
        Expression[] numberArray = numbers.toArray(new Expression[0]);
        EvalContext ctx = f.ctx;
        long sink = 0;
        for (int round = 0; round < 3; round++) {
            long before = allocated();
            for (int k = 0; k < 20_000; k++) {
                ctx.slots[0] = rows[k & 3];
                for (int j = 0; j < textArray.length; j++) {
                    textArray[j].evalText(ctx);
                    sink += ctx.textLength;
                }
                for (int j = 0; j < numberArray.length; j++) {
                    sink += (long) numberArray[j].evalDouble(ctx);
                }
            }
            long used = allocated() - before;
            if (round == 2) { // the first rounds grow the buffers and warm the code up
                assertTrue(used < 4096, "allocated " + used + " bytes over 20k rows (sink " + sink + ")");
            }
        }
    }
}
