package io.respsql.expr;

/** COALESCE/IFNULL (first non-NULL argument) and NULLIF (NULL when the two are equal). */
final class NullFunctions {
    private NullFunctions() {
    }

    static final class Coalesce extends NaryNode {
        /** {@code args} already brought to {@code type}. */
        Coalesce(String name, SqlType type, Expression[] args) {
            super(type, name, args);
        }

        @Override
        public long evalLong(EvalContext ctx) {
            for (Expression a : args) {
                long v = a.evalLong(ctx);
                if (!ctx.isNull) {
                    return v;
                }
            }
            return 0;
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            for (Expression a : args) {
                double v = a.evalDouble(ctx);
                if (!ctx.isNull) {
                    return v;
                }
            }
            return 0;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            for (Expression a : args) {
                byte[] v = a.evalText(ctx);
                if (!ctx.isNull) {
                    return v;
                }
            }
            return TextBuf.EMPTY;
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            for (Expression a : args) {
                long v = a.evalNumeric(ctx);
                if (!ctx.isNull) {
                    return v;
                }
            }
            return 0;
        }
    }

    static final class NullIf extends Expression {
        final Expression value;
        final Expression other;
        private final ValueCompare cmp;

        /** {@code pair}: value and other made comparable; the result is {@code value} itself. */
        NullIf(Expression value, Expression other, Expression[] pair) {
            super(value.type());
            this.value = value;
            this.other = other;
            this.cmp = new ValueCompare(pair[0], pair[1]);
        }

        /** True when the result is NULL because the two are equal (or value is NULL). */
        private boolean equal(EvalContext ctx) {
            int c = cmp.compare(ctx);
            return !ctx.isNull && c == 0;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            if (equal(ctx)) {
                ctx.isNull = true;
                return 0;
            }
            return value.evalLong(ctx);
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            if (equal(ctx)) {
                ctx.isNull = true;
                return 0;
            }
            return value.evalDouble(ctx);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            if (equal(ctx)) {
                ctx.isNull = true;
                return TextBuf.EMPTY;
            }
            return value.evalText(ctx);
        }

        @Override
        public long evalNumeric(EvalContext ctx) {
            if (equal(ctx)) {
                ctx.isNull = true;
                return 0;
            }
            return value.evalNumeric(ctx);
        }

        @Override
        public long relations() {
            return value.relations() | other.relations();
        }

        @Override
        public boolean isConstant() {
            return value.isConstant() && other.isConstant();
        }

        @Override
        public String describe() {
            return "NULLIF(" + value.describe() + ", " + other.describe() + ")";
        }
    }
}
