package io.respsql.expr;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.respsql.expr.ExprFixture.d;
import static io.respsql.expr.ExprFixture.i;
import static io.respsql.expr.ExprFixture.nul;
import static io.respsql.expr.ExprFixture.txt;
import static io.respsql.sql.tree.Expr.BinaryOp.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Expression#filter} on a selection vector keeps exactly the rows where the condition is TRUE. */
class ExpressionFilterTest {
    @Test
    void filterEqualsRowByRow() {
        ExprFixture f = new ExprFixture();
        Random rnd = new Random(7);
        String[] words = {"", "a", "ab", "b", "hello", "Hello", "zz", "é"};
        int[] all = new int[300];
        for (int k = 0; k < all.length; k++) {
            all[k] = f.row(k == 0 ? Integer.MIN_VALUE : k == 1 ? Integer.MAX_VALUE : rnd.nextInt(21) - 10,
                    (rnd.nextInt(41) - 20) / 4.0, words[rnd.nextInt(words.length)]);
        }
        List<Expression> conditions = new ArrayList<>();
        for (var op : List.of(EQ, NE, LT, LE, GT, GE)) {
            conditions.add(Expressions.binary(op, f.a, i(3)));
            conditions.add(Expressions.binary(op, i(3), f.a));
            conditions.add(Expressions.binary(op, f.a, i(Long.MIN_VALUE)));
            conditions.add(Expressions.binary(op, f.a, i(Long.MAX_VALUE)));
            conditions.add(Expressions.binary(op, f.a, d(2.5)));
            conditions.add(Expressions.binary(op, f.b, d(1.25)));
            conditions.add(Expressions.binary(op, f.b, i(-2)));
            conditions.add(Expressions.binary(op, f.s, txt("ab")));
            conditions.add(Expressions.binary(op, f.s, txt("")));
            conditions.add(Expressions.binary(op, f.a, nul()));
        }
        for (boolean neg : new boolean[] {false, true}) {
            conditions.add(Expressions.between(f.a, i(-3), i(4), neg));
            conditions.add(Expressions.between(f.a, i(4), i(-3), neg));
            conditions.add(Expressions.between(f.b, d(-1.5), i(2), neg));
            conditions.add(Expressions.between(f.s, txt("a"), txt("b"), neg));
            conditions.add(Expressions.between(f.a, i(0), nul(), neg));
            conditions.add(Expressions.inList(f.a, List.of(i(1), i(-4), i(9)), neg));
            conditions.add(Expressions.inList(f.a, List.of(i(1), nul()), neg));
            conditions.add(Expressions.inList(f.b, List.of(d(0.25), i(2)), neg));
            conditions.add(Expressions.inList(f.s, List.of(txt(""), txt("hello")), neg));
            conditions.add(Expressions.inList(f.s, List.of(txt("zz"), nul()), neg));
            conditions.add(Expressions.like(f.s, txt("h%"), null, neg));
            // literal prefix then one %: the in-place prefix loop (ASCII case folded, UTF-8 bytes)
            for (String p : new String[] {"%", "HE%", "hello%", "hellos%", "é%", "ab%", "%%", "a_%", "a%b"}) {
                conditions.add(Expressions.like(f.s, txt(p), null, neg));
            }
        }
        conditions.add(Expressions.binary(AND, Expressions.binary(GT, f.a, i(0)), Expressions.binary(LT, f.b, d(2))));
        conditions.add(Expressions.binary(OR, Expressions.binary(GT, f.a, i(5)), Expressions.binary(EQ, f.s, txt("a"))));
        conditions.add(Expressions.not(Expressions.binary(GT, f.a, i(0))));
        for (Expression c : conditions) {
            int[] expected = new int[all.length];
            int n = 0;
            for (int r : all) {
                f.at(r);
                if (c.isTrue(f.ctx)) {
                    expected[n++] = r;
                }
            }
            int[] sel = all.clone();
            int kept = c.filter(f.ctx, 0, sel, sel.length);
            assertArrayEquals(Arrays.copyOf(expected, n), Arrays.copyOf(sel, kept), c.describe());
        }
        // sanity: the fixture is varied enough that the checks are not vacuous
        int[] sel = all.clone();
        int kept = Expressions.binary(GT, f.a, i(3)).filter(f.ctx, 0, sel, sel.length);
        assertTrue(kept > 10 && kept < 290, "kept " + kept);
    }
}
