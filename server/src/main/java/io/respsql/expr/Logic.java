package io.respsql.expr;

/**
 * AND, OR, NOT in three-valued logic: FALSE wins an AND over NULL, TRUE wins an OR over NULL,
 * NOT NULL is NULL. Operands are BOOLEAN ({@link Coercion#condition}); the right operand is
 * not evaluated when the left decides.
 */
final class Logic {
    private Logic() {
    }

    static final class And extends BinaryNode {
        And(Expression left, Expression right) {
            super(SqlType.BOOLEAN, left, right);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long l = left.evalLong(ctx);
            boolean ln = ctx.isNull;
            if (!ln && l == 0) {
                return 0;
            }
            long r = right.evalLong(ctx);
            if (!ctx.isNull && r == 0) {
                return 0;
            }
            if (ln || ctx.isNull) {
                ctx.isNull = true;
                return 0;
            }
            return 1;
        }

        /** Only TRUE AND TRUE is TRUE: narrow by the left, then the survivors by the right. */
        @Override
        public int filter(EvalContext ctx, int relation, int[] sel, int n) {
            int k = left.filter(ctx, relation, sel, n);
            return k == 0 ? 0 : right.filter(ctx, relation, sel, k);
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " AND " + right.describe() + ")";
        }
    }

    static final class Or extends BinaryNode {
        Or(Expression left, Expression right) {
            super(SqlType.BOOLEAN, left, right);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long l = left.evalLong(ctx);
            boolean ln = ctx.isNull;
            if (!ln && l != 0) {
                return 1;
            }
            long r = right.evalLong(ctx);
            if (!ctx.isNull && r != 0) {
                return 1;
            }
            if (ln || ctx.isNull) {
                ctx.isNull = true;
                return 0;
            }
            return 0;
        }

        @Override
        public String describe() {
            return "(" + left.describe() + " OR " + right.describe() + ")";
        }
    }

    static final class Not extends UnaryNode {
        Not(Expression arg) {
            super(SqlType.BOOLEAN, arg);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            long v = arg.evalLong(ctx);
            return ctx.isNull ? 0 : v == 0 ? 1 : 0;
        }

        @Override
        public String describe() {
            return "(NOT " + arg.describe() + ")";
        }
    }
}
