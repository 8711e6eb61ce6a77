package io.respsql.expr;

import java.util.List;

/**
 * CASE: the first TRUE condition's result, else ELSE's (NULL without one). A simple CASE's
 * conditions are the comparisons {@code operand = when} built by the factory. Results are
 * already brought to the common type. TEXT results pass the chosen branch's bytes through.
 */
final class Case extends Expression {
    final Expression[] conditions;
    final Expression[] results;
    /** ELSE, never null (a NULL literal when absent). */
    final Expression otherwise;
    final String shown;

    Case(SqlType type, List<Expression> conditions, List<Expression> results, Expression otherwise, String shown) {
        super(type);
        this.conditions = conditions.toArray(new Expression[0]);
        this.results = results.toArray(new Expression[0]);
        this.otherwise = otherwise;
        this.shown = shown;
    }

    private Expression pick(EvalContext ctx) {
        for (int i = 0; i < conditions.length; i++) {
            if (conditions[i].isTrue(ctx)) {
                return results[i];
            }
        }
        return otherwise;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        return pick(ctx).evalLong(ctx);
    }

    @Override
    public double evalDouble(EvalContext ctx) {
        return pick(ctx).evalDouble(ctx);
    }

    @Override
    public byte[] evalText(EvalContext ctx) {
        return pick(ctx).evalText(ctx);
    }

    @Override
    public long evalNumeric(EvalContext ctx) {
        return pick(ctx).evalNumeric(ctx);
    }

    @Override
    public long relations() {
        return Eval.relations(conditions) | Eval.relations(results) | otherwise.relations();
    }

    @Override
    public boolean isConstant() {
        return Eval.allConstant(conditions) && Eval.allConstant(results) && otherwise.isConstant();
    }

    @Override
    public String describe() {
        return shown;
    }
}
