package io.respsql.expr;

/** {@code x [NOT] BETWEEN lo AND hi}: {@code x >= lo AND x <= hi} in three-valued logic. */
final class Between extends Expression {
    final ValueCompare low;
    final ValueCompare high;
    final boolean negated;
    private final ColumnRange range;

    /** {@code lowPair}/{@code highPair}: x with lo and x with hi, each made comparable. */
    Between(Expression[] lowPair, Expression[] highPair, boolean negated) {
        super(SqlType.BOOLEAN);
        this.low = new ValueCompare(lowPair[0], lowPair[1]);
        this.high = new ValueCompare(highPair[0], highPair[1]);
        this.negated = negated;
        this.range = lowPair[0] == highPair[0] ? ColumnRange.between(lowPair[0], lowPair[1], highPair[1], negated) : null;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        int c = low.compare(ctx);
        boolean lowNull = ctx.isNull;
        if (!lowNull && c < 0) {
            return negated ? 1 : 0;
        }
        c = high.compare(ctx);
        if (!ctx.isNull && c > 0) {
            return negated ? 1 : 0;
        }
        if (lowNull || ctx.isNull) {
            ctx.isNull = true;
            return 0;
        }
        return negated ? 0 : 1;
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
        return low.left.relations() | low.right.relations() | high.left.relations() | high.right.relations();
    }

    @Override
    public boolean isConstant() {
        return low.left.isConstant() && low.right.isConstant() && high.left.isConstant() && high.right.isConstant();
    }

    @Override
    public String describe() {
        return "(" + low.left.describe() + (negated ? " NOT BETWEEN " : " BETWEEN ") + low.right.describe() + " AND "
                + high.right.describe() + ")";
    }
}
