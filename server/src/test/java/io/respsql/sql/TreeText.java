package io.respsql.sql;

import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.TypeName;

import java.util.List;
import java.util.stream.Collectors;

/** Renders {@link io.respsql.sql.tree} nodes in a compact prefix form without source positions, for assertions. */
final class TreeText {
    private TreeText() {
    }

    static String of(Expr e) {
        if (e == null) {
            return "null";
        }
        if (e instanceof Expr.Literal l) {
            switch (l.kind()) {
                case INTEGER:
                    return l.text();
                case DECIMAL:
                    return l.text() + "f";
                case STRING:
                    return "'" + l.text().replace("'", "''") + "'";
                default:
                    return l.kind().name();
            }
        }
        if (e instanceof Expr.TypedLiteral t) {
            return type(t.type()) + "'" + t.text() + "'";
        }
        if (e instanceof Expr.Column c) {
            return c.qualifier() == null ? c.name() : c.qualifier() + "." + c.name();
        }
        if (e instanceof Expr.Raw r) {
            return "{" + r.text() + "}";
        }
        if (e instanceof Expr.Unary u) {
            String op = u.op() == Expr.UnaryOp.MINUS ? "neg" : u.op() == Expr.UnaryOp.PLUS ? "pos" : "not";
            return "(" + op + " " + of(u.operand()) + ")";
        }
        if (e instanceof Expr.Binary b) {
            String op = b.op() == Expr.BinaryOp.AND ? "and" : b.op() == Expr.BinaryOp.OR ? "or" : b.op().symbol;
            return "(" + op + " " + of(b.left()) + " " + of(b.right()) + ")";
        }
        if (e instanceof Expr.IsNull n) {
            return "(" + (n.negated() ? "notnull " : "isnull ") + of(n.operand()) + ")";
        }
        if (e instanceof Expr.IsDistinct d) {
            return "(" + (d.negated() ? "not-distinct " : "distinct ") + of(d.left()) + " " + of(d.right()) + ")";
        }
        if (e instanceof Expr.Between b) {
            return "(" + (b.negated() ? "not-between " : "between ") + of(b.operand()) + " " + of(b.low()) + " "
                    + of(b.high()) + ")";
        }
        if (e instanceof Expr.InList in) {
            return "(" + (in.negated() ? "not-in " : "in ") + of(in.operand()) + " [" + list(in.values()) + "])";
        }
        if (e instanceof Expr.InQuery in) {
            return "(" + (in.negated() ? "not-in " : "in ") + of(in.operand()) + " " + of(in.query()) + ")";
        }
        if (e instanceof Expr.Exists x) {
            return "(" + (x.negated() ? "not-exists " : "exists ") + of(x.query()) + ")";
        }
        if (e instanceof Expr.ScalarQuery s) {
            return of(s.query());
        }
        if (e instanceof Expr.Like l) {
            return "(" + (l.negated() ? "not-like " : "like ") + of(l.operand()) + " " + of(l.pattern())
                    + (l.escape() == null ? "" : " escape " + of(l.escape())) + ")";
        }
        if (e instanceof Expr.Case c) {
            StringBuilder sb = new StringBuilder("(case");
            if (c.operand() != null) {
                sb.append(' ').append(of(c.operand()));
            }
            for (Expr.When w : c.whens()) {
                sb.append(" (when ").append(of(w.condition())).append(' ').append(of(w.result())).append(')');
            }
            if (c.otherwise() != null) {
                sb.append(" (else ").append(of(c.otherwise())).append(')');
            }
            return sb.append(')').toString();
        }
        if (e instanceof Expr.Cast c) {
            return "(cast " + of(c.operand()) + " " + type(c.type()) + ")";
        }
        Expr.Function f = (Expr.Function) e;
        String call = f.name() + "(" + (f.star() ? "*" : (f.distinct() ? "distinct " : "") + list(f.args())) + ")";
        if (f.over() != null) {
            Expr.Window w = f.over();
            call += " over(" + (w.partitionBy().isEmpty() ? "" : "partition " + list(w.partitionBy()))
                    + (w.orderBy().isEmpty() ? "" : " order " + orderBy(w.orderBy()))
                    + (w.frame() == null ? "" : " " + frame(w.frame())) + ")";
        }
        return call;
    }

    private static String frame(Expr.Frame f) {
        return f.unit() + " " + bound(f.start()) + (f.end() == null ? "" : " " + bound(f.end()));
    }

    private static String bound(Expr.FrameBound b) {
        return b.offset() == null ? b.kind().name() : of(b.offset()) + ":" + b.kind();
    }

    static String type(TypeName t) {
        return t.base() + (t.length() < 0 ? "" : "(" + t.length() + (t.scale() < 0 ? "" : "," + t.scale()) + ")");
    }

    static String list(List<Expr> es) {
        return es.stream().map(TreeText::of).collect(Collectors.joining(" "));
    }

    static String orderBy(List<Query.OrderItem> items) {
        return items.stream().map(o -> of(o.expr()) + (o.descending() ? ":desc" : "")
                + (o.nulls() == Query.NullsOrder.DEFAULT ? "" : ":nulls-" + o.nulls().name().toLowerCase()))
                .collect(Collectors.joining(" "));
    }

    static String of(Query q) {
        if (q instanceof Query.Values v) {
            return "[values " + v.rows().stream().map(r -> "(" + list(r) + ")").collect(Collectors.joining(" ")) + "]";
        }
        if (q instanceof Query.SetOp s) {
            return "[" + s.kind().name().toLowerCase() + " " + of(s.left()) + " " + of(s.right()) + tail(s.orderBy(),
                    s.limit(), s.offset()) + "]";
        }
        Query.Select s = (Query.Select) q;
        StringBuilder sb = new StringBuilder(s.scan() ? "[scanselect " : "[select ");
        if (s.distinct()) {
            sb.append("distinct ");
        }
        sb.append(s.items().stream().map(TreeText::item).collect(Collectors.joining(", ")));
        if (s.from() != null) {
            sb.append(" from ").append(from(s.from()));
        }
        if (s.where() != null) {
            sb.append(" where ").append(of(s.where()));
        }
        if (!s.groupBy().isEmpty()) {
            sb.append(" group ").append(list(s.groupBy()));
        }
        if (s.having() != null) {
            sb.append(" having ").append(of(s.having()));
        }
        return sb.append(tail(s.orderBy(), s.limit(), s.offset())).append(']').toString();
    }

    private static String tail(List<Query.OrderItem> orderBy, Expr limit, Expr offset) {
        return (orderBy.isEmpty() ? "" : " order " + orderBy(orderBy)) + (limit == null ? "" : " limit " + of(limit))
                + (offset == null ? "" : " offset " + of(offset));
    }

    static String item(Query.SelectItem i) {
        if (i instanceof Query.Star s) {
            return s.qualifier() == null ? "*" : s.qualifier() + ".*";
        }
        Query.Item it = (Query.Item) i;
        return of(it.expr()) + (it.alias() == null ? "" : " as " + it.alias());
    }

    static String from(Query.FromItem f) {
        if (f instanceof Query.TableRef t) {
            return t.alias() == null ? t.name() : t.name() + " " + t.alias();
        }
        if (f instanceof Query.Derived d) {
            return of(d.query()) + (d.alias() == null ? "" : " " + d.alias());
        }
        Query.Join j = (Query.Join) f;
        return "(" + (j.natural() ? "natural-" : "") + j.kind().name().toLowerCase() + " " + from(j.left()) + " "
                + from(j.right()) + (j.on() == null ? "" : " on " + of(j.on()))
                + (j.using().isEmpty() ? "" : " using " + j.using()) + ")";
    }
}
