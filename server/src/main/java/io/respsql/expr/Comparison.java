package io.respsql.expr;

import io.respsql.sql.tree.Expr.BinaryOp;

/** {@code = <> < <= > >=}: BOOLEAN, NULL when either side is NULL. */
final class Comparison extends Expression {
    final BinaryOp op;
    final ValueCompare cmp;
    /** The tight loop for "column op constant", or null. */
    private final ColumnRange range;

    /** Operands already made comparable ({@link Coercion#forComparison}). */
    Comparison(BinaryOp op, Expression left, Expression right) {
        super(SqlType.BOOLEAN);
        this.op = op;
        this.cmp = new ValueCompare(left, right);
        this.range = ColumnRange.compare(left, op, right);
    }

    static boolean test(BinaryOp op, int c) {
        switch (op) {
            case EQ:
                return c == 0;
            case NE:
                return c != 0;
            case LT:
                return c < 0;
            case LE:
                return c <= 0;
            case GT:
                return c > 0;
            default:
                return c >= 0;
        }
    }

    @Override
    public long evalLong(EvalContext ctx) {
        int c = cmp.compare(ctx);
        if (ctx.isNull) {
            return 0;
        }
        return test(op, c) ? 1 : 0;
    }

    @Override
    public int filter(EvalContext ctx, int relation, int[] sel, int n) {
        if (range != null && range.col.relation == relation) {
            return range.filter(sel, n);
        }
        return super.filter(ctx, relation, sel, n);
    }

    @Override
    public long relations() {
        return cmp.left.relations() | cmp.right.relations();
    }

    @Override
    public boolean isConstant() {
        return cmp.left.isConstant() && cmp.right.isConstant();
    }

    @Override
    public String describe() {
        return "(" + cmp.left.describe() + " " + op.symbol + " " + cmp.right.describe() + ")";
    }
}
