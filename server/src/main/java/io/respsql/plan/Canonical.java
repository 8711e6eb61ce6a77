package io.respsql.plan;

import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr;

import java.util.Locale;

/**
 * A structural key of an expression, spans ignored and column names replaced by the column
 * they resolve to: {@code GROUP BY t.a + 1} matches {@code SELECT a + 1}, and two calls of
 * {@code SUM(x)} are one aggregate. Subqueries never match anything but themselves.
 */
final class Canonical {
    private Canonical() {
    }

    static String key(Expr e, BlockScope scope) {
        StringBuilder b = new StringBuilder();
        append(e, scope, b);
        return b.toString();
    }

    private static void append(Expr e, BlockScope s, StringBuilder b) {
        if (e == null) {
            b.append('~');
        } else if (e instanceof Expr.Literal l) {
            b.append("L").append(l.kind()).append(':');
            if (l.kind() == Expr.LiteralKind.INTEGER) {
                b.append(l.text().replaceFirst("^0+(?=.)", ""));
            } else {
                b.append(l.text());
            }
        } else if (e instanceof Expr.TypedLiteral t) {
            b.append("T").append(t.type().base()).append(':').append(t.text());
        } else if (e instanceof Expr.Column c) {
            BlockScope.Resolved r;
            try {
                r = s.resolve(c.qualifier(), c.name());
            } catch (SqlException ex) {
                r = null;
            }
            if (r != null) {
                b.append('#').append(r.relation().number).append('.').append(r.column().position());
            } else {
                b.append("N:").append(c.name().toLowerCase(Locale.ROOT));
            }
        } else if (e instanceof Expr.Raw r) {
            b.append("R:").append(r.text());
        } else if (e instanceof Expr.Unary u) {
            b.append(u.op()).append('(');
            append(u.operand(), s, b);
            b.append(')');
        } else if (e instanceof Expr.Binary x) {
            b.append('(');
            append(x.left(), s, b);
            b.append(' ').append(x.op().symbol).append(' ');
            append(x.right(), s, b);
            b.append(')');
        } else if (e instanceof Expr.IsNull n) {
            b.append(n.negated() ? "NOTNULL(" : "ISNULL(");
            append(n.operand(), s, b);
            b.append(')');
        } else if (e instanceof Expr.IsDistinct d) {
            b.append(d.negated() ? "ISNOTDISTINCT(" : "ISDISTINCT(");
            append(d.left(), s, b);
            b.append(',');
            append(d.right(), s, b);
            b.append(')');
        } else if (e instanceof Expr.Between x) {
            b.append(x.negated() ? "NOTBETWEEN(" : "BETWEEN(");
            append(x.operand(), s, b);
            b.append(',');
            append(x.low(), s, b);
            b.append(',');
            append(x.high(), s, b);
            b.append(')');
        } else if (e instanceof Expr.InList x) {
            b.append(x.negated() ? "NOTIN(" : "IN(");
            append(x.operand(), s, b);
            for (Expr v : x.values()) {
                b.append(',');
                append(v, s, b);
            }
            b.append(')');
        } else if (e instanceof Expr.Like x) {
            b.append(x.negated() ? "NOTLIKE(" : "LIKE(");
            append(x.operand(), s, b);
            b.append(',');
            append(x.pattern(), s, b);
            b.append(',');
            append(x.escape(), s, b);
            b.append(')');
        } else if (e instanceof Expr.Case x) {
            b.append("CASE(");
            append(x.operand(), s, b);
            for (Expr.When w : x.whens()) {
                b.append(";W");
                append(w.condition(), s, b);
                b.append(";T");
                append(w.result(), s, b);
            }
            b.append(";E");
            append(x.otherwise(), s, b);
            b.append(')');
        } else if (e instanceof Expr.Cast x) {
            b.append("CAST(");
            append(x.operand(), s, b);
            b.append(" AS ").append(x.type().base()).append(')');
        } else if (e instanceof Expr.Function f) {
            b.append(f.name()).append('(');
            if (f.distinct()) {
                b.append("DISTINCT ");
            }
            if (f.star()) {
                b.append('*');
            }
            for (int i = 0; i < f.args().size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                append(f.args().get(i), s, b);
            }
            b.append(')');
            if (f.extras() != null) { // agg: ORDER BY / WITHIN GROUP and FILTER are part of the call
                b.append(f.withinGroup() ? "WITHIN(" : "ORDER(");
                for (io.respsql.sql.tree.Query.OrderItem o : f.argOrder()) {
                    append(o.expr(), s, b);
                    b.append(o.descending() ? " DESC " : " ASC ").append(o.nulls()).append(',');
                }
                b.append(")FILTER(");
                append(f.filter(), s, b);
                b.append(')');
            }
            if (f.over() != null) {
                b.append("OVER@").append(System.identityHashCode(f));
            }
        } else {
            b.append("Q@").append(System.identityHashCode(e)); // subqueries: only themselves
        }
    }
}
