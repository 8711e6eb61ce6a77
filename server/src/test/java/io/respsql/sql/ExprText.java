package io.respsql.sql;

import java.util.stream.Collectors;

/** Renders a parsed expression as a compact prefix form without source positions, for assertions. */
final class ExprText {
    private ExprText() {
    }

    static String of(Expr e) {
        if (e == null) {
            return "null";
        }
        if (e instanceof Expr.Num n) {
            return n.text() + (n.integral() ? "" : "f");
        }
        if (e instanceof Expr.Str s) {
            return "'" + s.value().replace("'", "''") + "'";
        }
        if (e instanceof Expr.Ident id) {
            return id.qualifier() == null ? id.name() : id.qualifier() + "." + id.name();
        }
        if (e instanceof Expr.Raw r) {
            return "{" + r.text() + "}";
        }
        if (e instanceof Expr.Neg n) {
            return "(neg " + of(n.operand()) + ")";
        }
        if (e instanceof Expr.Arith a) {
            return "(" + a.op() + " " + of(a.left()) + " " + of(a.right()) + ")";
        }
        if (e instanceof Expr.Compare c) {
            return "(" + c.op().symbol + " " + of(c.left()) + " " + of(c.right()) + ")";
        }
        if (e instanceof Expr.Between b) {
            return "(" + (b.negated() ? "not-between " : "between ") + of(b.operand()) + " " + of(b.low()) + " " + of(b.high()) + ")";
        }
        if (e instanceof Expr.In in) {
            return "(" + (in.negated() ? "not-in " : "in ") + of(in.operand()) + " ["
                    + in.values().stream().map(ExprText::of).collect(Collectors.joining(" ")) + "])";
        }
        if (e instanceof Expr.And a) {
            return "(and " + of(a.left()) + " " + of(a.right()) + ")";
        }
        if (e instanceof Expr.Or o) {
            return "(or " + of(o.left()) + " " + of(o.right()) + ")";
        }
        if (e instanceof Expr.Not n) {
            return "(not " + of(n.operand()) + ")";
        }
        Expr.Aggregate a = (Expr.Aggregate) e;
        return a.fn() + "(" + (a.argument() == null ? "*" : of(a.argument())) + ")";
    }

    /** A statement's record text with every source span removed, so differently spaced statements compare equal. */
    static String withoutSpans(Statement s) {
        return s.toString().replaceAll(", start=\\d+, end=\\d+", "");
    }
}
