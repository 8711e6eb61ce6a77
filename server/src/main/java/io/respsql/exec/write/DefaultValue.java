package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;

/**
 * A column's DEFAULT as the planner bound it: a constant converted once, or an expression
 * evaluated once per statement (every row of a multi-row INSERT gets the same value) and
 * converted to the column's type like any INSERT value.
 */
public final class DefaultValue {
    private final Column column;
    private final Cell constant;
    private final Expression expression;
    /** How the expression's value goes into the column (null for a constant): chosen when bound. */
    private final Conversion conversion;
    private final String text;
    private EvalContext ctx;

    private DefaultValue(Column column, Cell constant, Expression expression, String text) {
        this.column = column;
        this.constant = constant;
        this.expression = expression;
        this.conversion = expression == null ? null : Conversion.of(column, expression);
        this.text = text;
    }

    /** A DEFAULT already converted (a literal, NULL). */
    public static DefaultValue constant(Column c, Cell value) {
        return new DefaultValue(c, value, null, null);
    }

    /** A DEFAULT that is evaluated per statement; {@code text} is how it was declared (errors). */
    public static DefaultValue evaluated(Column c, Expression x, String text) {
        return new DefaultValue(c, null, x, text);
    }

    /**
     * Whether the DEFAULT is evaluated for each row (it calls a sequence function, PostgreSQL's
     * volatile {@code nextval}: every row its own value) rather than once per statement.
     */
    public boolean perRow() {
        return expression != null && !expression.isConstant() && expression.relations() == 0;
    }

    /** This statement's value into {@code out}. */
    public void value(Cell out) {
        if (constant != null) {
            out.copyFrom(constant);
            return;
        }
        if (ctx == null) {
            ctx = new EvalContext(1); // kept: a per-row DEFAULT allocates none per row (writes run on the event loop only)
        }
        conversion.convert(expression, ctx, text, out);
    }
}
