package io.respsql.expr;

/** {@code x IS [NOT] NULL} and {@code x IS [NOT] DISTINCT FROM y}: never NULL themselves. */
final class NullTest {
    private NullTest() {
    }

    static final class IsNull extends UnaryNode {
        final boolean negated;

        IsNull(Expression arg, boolean negated) {
            super(SqlType.BOOLEAN, arg);
            this.negated = negated;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            Eval.any(arg, ctx);
            boolean isNull = ctx.isNull;
            ctx.isNull = false;
            return isNull != negated ? 1 : 0;
        }

        @Override
        public String describe() {
            return "(" + arg.describe() + (negated ? " IS NOT NULL)" : " IS NULL)");
        }
    }

    static final class IsDistinct extends Expression {
        final ValueCompare cmp;
        /** IS NOT DISTINCT FROM (equality with NULL = NULL). */
        final boolean negated;

        IsDistinct(Expression left, Expression right, boolean negated) {
            super(SqlType.BOOLEAN);
            this.cmp = new ValueCompare(left, right);
            this.negated = negated;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return cmp.distinct(ctx) != negated ? 1 : 0;
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
            return "(" + cmp.left.describe() + (negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ")
                    + cmp.right.describe() + ")";
        }
    }
}
