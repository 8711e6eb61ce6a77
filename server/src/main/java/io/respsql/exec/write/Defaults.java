package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.plan.StatementPlanner;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Column;

/**
 * A column's DEFAULT: its source text (what storage keeps) parsed as the expression of
 * {@code SELECT <default>} and converted to the column's type like any INSERT value.
 * Evaluated once per statement (every row of a multi-row INSERT gets the same value).
 */
final class Defaults {
    private Defaults() {
    }

    /** The default of {@code c} into {@code out}: NULL when none is declared. */
    static void value(Column c, Cell out) {
        String text = c.defaultText();
        if (text == null) {
            out.setNull();
            return;
        }
        String sql = "SELECT " + text;
        Expr e = expression(sql, c.name());
        if (!ValueRules.literal(c, e, sql, false, out)) {
            ValueRules.evaluated(c, StatementPlanner.bindConstant(e, sql), new EvalContext(1), text, out);
        }
    }

    /** The DEFAULT expression of {@code SELECT <default>}; an error names the column. */
    static Expr expression(String sql, String column) {
        Statement st;
        try {
            st = SqlParser.parse(sql);
        } catch (SqlException e) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "DEFAULT of column '" + column + "' does not parse: " + e.getMessage());
        }
        if (st instanceof Statement.QueryStatement q && q.query() instanceof Query.Select s && s.items().size() == 1
                && s.from() == null && s.items().get(0) instanceof Query.Item item) {
            return item.expr();
        }
        throw new SqlException(SqlState.SYNTAX_ERROR, "DEFAULT of column '" + column + "' is not one expression: " + sql.substring(7));
    }
}
