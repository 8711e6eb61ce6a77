package io.respsql.expr;

/**
 * Whether one expression tree may be evaluated by several threads at once, each with a context
 * of its own (parallel aggregation, exec.op.Morsels). A node keeps computed TEXT in a buffer of
 * its own and some keep run state (docs/expressions.md: not re-entrant), so only node kinds known
 * to keep no mutable state of their own are accepted: column references, literals, parameters,
 * integer/float arithmetic, comparisons and BETWEEN of numbers or text, AND/OR/NOT, IS [NOT] NULL,
 * IS [NOT] DISTINCT FROM, CASE of those, and LIKE of a TEXT operand with a constant pattern.
 * Anything else (functions, casts, ||, IN lists, ...) is refused: the statement runs serially.
 */
public final class Reentrant {
    private Reentrant() {
    }

    /** True when {@code e} (null: none) evaluates on several threads at once with separate contexts. */
    public static boolean check(Expression e) {
        if (e == null || e instanceof ColumnRef || e instanceof Literal || e instanceof Parameter) {
            return true;
        }
        if (e instanceof ArithmeticOp.LongOp || e instanceof ArithmeticOp.DoubleOp
                || e instanceof Logic.And || e instanceof Logic.Or) {
            BinaryNode b = (BinaryNode) e;
            return check(b.left) && check(b.right);
        }
        if (e instanceof ArithmeticOp.Negate || e instanceof Logic.Not || e instanceof NullTest.IsNull) {
            return check(((UnaryNode) e).arg);
        }
        if (e instanceof Comparison) {
            return check(((Comparison) e).cmp);
        }
        if (e instanceof NullTest.IsDistinct) {
            return check(((NullTest.IsDistinct) e).cmp);
        }
        if (e instanceof Between) {
            Between b = (Between) e;
            return check(b.low) && check(b.high);
        }
        if (e instanceof Case) {
            Case c = (Case) e;
            for (Expression x : c.conditions) {
                if (!check(x)) {
                    return false;
                }
            }
            for (Expression x : c.results) {
                if (!check(x)) {
                    return false;
                }
            }
            return check(c.otherwise);
        }
        if (e instanceof Like) {
            Like l = (Like) e;
            // a constant pattern is compiled once (read only after); a TEXT operand is read without a buffer
            return l.constantPatternCompiled() && l.operand.type() == SqlType.TEXT && check(l.operand);
        }
        return false;
    }

    private static boolean check(ValueCompare c) {
        return (c.kind == ValueCompare.LONG || c.kind == ValueCompare.DOUBLE || c.kind == ValueCompare.TEXT
                || c.kind == ValueCompare.NUMERIC) && check(c.left) && check(c.right);
    }
}
