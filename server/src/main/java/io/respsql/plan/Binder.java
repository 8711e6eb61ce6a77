package io.respsql.plan;

import io.respsql.expr.Arithmetic;
import io.respsql.expr.BoundExpr;
import io.respsql.expr.ColumnValue;
import io.respsql.expr.Constant;
import io.respsql.expr.Predicate;
import io.respsql.expr.ValueType;
import io.respsql.sql.Expr;
import io.respsql.sql.SqlException;

import java.util.List;

/**
 * Resolves names in expressions against a {@link Scope} and type-checks them.
 *
 * <p>The 2010 dialect allowed unquoted text values ({@code WHERE name = marieanne},
 * {@code hobby IN (yachting,painting)}): a name that is not a column is taken as text when it is
 * compared with a TEXT value. Anywhere else an unknown name is an error naming it.
 */
public final class Binder {
    private final Scope scope;
    private final String sql;

    public Binder(Scope scope, String sql) {
        this.scope = scope;
        this.sql = sql;
    }

    public Scope scope() {
        return scope;
    }

    /** A value expression; unknown names are errors. */
    public BoundExpr value(Expr e) {
        BoundExpr b = operand(e);
        if (b == null) {
            throw new SqlException(scope.unknownColumn(((Expr.Ident) e).name()));
        }
        return b;
    }

    /** Like {@link #value} but returns null for a bare name that is no column (maybe unquoted text). */
    private BoundExpr operand(Expr e) {
        if (e instanceof Expr.Num n) {
            return number(n);
        }
        if (e instanceof Expr.Str s) {
            return new Constant.Text(s.value());
        }
        if (e instanceof Expr.Raw r) {
            return new Constant.Text(r.text());
        }
        if (e instanceof Expr.Ident id) {
            Scope.Resolved r = scope.resolve(id.qualifier(), id.name());
            return r == null ? null : ColumnValue.of(r.column(), r.tableIndex(), r.label());
        }
        if (e instanceof Expr.Neg neg) {
            if (neg.operand() instanceof Expr.Num n && n.integral()) {
                return new Constant.LongValue(parseInteger("-" + n.text()));
            }
            BoundExpr v = value(neg.operand());
            requireNumeric(v, "-");
            return fold(Arithmetic.negate(v));
        }
        if (e instanceof Expr.Arith a) {
            BoundExpr l = value(a.left());
            BoundExpr r = value(a.right());
            requireNumeric(l, String.valueOf(a.op()));
            requireNumeric(r, String.valueOf(a.op()));
            return fold(Arithmetic.of(a.op(), l, r));
        }
        if (e instanceof Expr.Aggregate) {
            throw new SqlException("aggregate " + text(e) + " is only allowed in the select list");
        }
        throw new SqlException("syntax error: " + text(e) + " is a condition, not a value");
    }

    /** Converts a value to text when the other side of a comparison is TEXT (2010 unquoted values). */
    private BoundExpr asText(Expr e, BoundExpr bound) {
        if (bound == null || (bound.isConstant() && e instanceof Expr.Num)) {
            return new Constant.Text(text(e));
        }
        return bound;
    }

    public Predicate predicate(Expr e) {
        if (e == null) {
            return Predicate.TRUE;
        }
        if (e instanceof Expr.And a) {
            return new Predicate.And(predicate(a.left()), predicate(a.right()));
        }
        if (e instanceof Expr.Or o) {
            return new Predicate.Or(predicate(o.left()), predicate(o.right()));
        }
        if (e instanceof Expr.Not n) {
            return new Predicate.Not(predicate(n.operand()));
        }
        if (e instanceof Expr.Compare c) {
            BoundExpr[] lr = comparable(c.left(), c.right());
            return Predicate.compare(c.op(), lr[0], lr[1]);
        }
        if (e instanceof Expr.Between b) {
            BoundExpr[] lo = comparable(b.operand(), b.low());
            BoundExpr[] hi = comparable(b.operand(), b.high());
            Predicate p = new Predicate.And(Predicate.compare(Expr.CompareOp.GE, lo[0], lo[1]),
                    Predicate.compare(Expr.CompareOp.LE, hi[0], hi[1]));
            return b.negated() ? new Predicate.Not(p) : p;
        }
        if (e instanceof Expr.In in) {
            Predicate p = in(in);
            return in.negated() ? new Predicate.Not(p) : p;
        }
        throw new SqlException("syntax error: expected a condition, found " + text(e));
    }

    /** Binds both sides of a comparison, applying the unquoted-text rule, and checks the types meet. */
    public BoundExpr[] comparable(Expr left, Expr right) {
        BoundExpr l = operand(left);
        BoundExpr r = operand(right);
        if (l == null && r == null) {
            throw new SqlException(scope.unknownColumn(((Expr.Ident) left).name()));
        }
        if (l != null && l.type() == ValueType.TEXT) {
            r = asText(right, r);
        } else if (r != null && r.type() == ValueType.TEXT) {
            l = asText(left, l);
        }
        if (l == null) {
            throw new SqlException(scope.unknownColumn(((Expr.Ident) left).name()));
        }
        if (r == null) {
            throw new SqlException(scope.unknownColumn(((Expr.Ident) right).name()));
        }
        if ((l.type() == ValueType.TEXT) != (r.type() == ValueType.TEXT)) {
            BoundExpr text = l.type() == ValueType.TEXT ? l : r;
            BoundExpr num = text == l ? r : l;
            throw new SqlException("cannot compare TEXT " + text.describe() + " with number " + num.describe());
        }
        return new BoundExpr[] {l, r};
    }

    private Predicate in(Expr.In in) {
        BoundExpr operand = value(in.operand());
        List<Expr> list = in.values();
        if (operand.type() == ValueType.TEXT) {
            if (!(operand instanceof ColumnValue.TextValue)) {
                throw new SqlException("IN needs a column on its left, found " + operand.describe());
            }
            byte[][] values = new byte[list.size()][];
            StringBuilder shown = new StringBuilder("(");
            for (int i = 0; i < list.size(); i++) {
                Constant.Text t = textConstant(list.get(i));
                values[i] = t.bytes;
                shown.append(i == 0 ? "" : ",").append(t.describe());
            }
            return new Predicate.InTexts((ColumnValue.TextValue) operand, values, shown.append(')').toString());
        }
        boolean integral = operand.type() == ValueType.LONG;
        long[] longs = new long[list.size()];
        double[] doubles = new double[list.size()];
        int n = 0;
        for (Expr v : list) {
            BoundExpr c = constant(v);
            if (c.type() == ValueType.TEXT) {
                throw new SqlException("cannot compare number " + operand.describe() + " with TEXT " + c.describe());
            }
            if (c.type() == ValueType.DOUBLE) {
                double d = c.evalDouble(null);
                if (integral && d != Math.rint(d)) {
                    continue; // an integer column never equals a fraction
                }
                doubles[n] = d;
                longs[n] = (long) d;
            } else {
                longs[n] = c.evalLong(null);
                doubles[n] = longs[n];
            }
            n++;
        }
        return integral ? new Predicate.InLongs(operand, java.util.Arrays.copyOf(longs, n))
                : new Predicate.InDoubles(operand, java.util.Arrays.copyOf(doubles, n));
    }

    /** A constant value (literal or constant arithmetic); names become text. */
    public BoundExpr constant(Expr e) {
        BoundExpr b = operand(e);
        if (b == null) {
            return new Constant.Text(text(e));
        }
        if (!b.isConstant()) {
            throw new SqlException("expected a constant value, found " + text(e));
        }
        return b;
    }

    private Constant.Text textConstant(Expr e) {
        BoundExpr b = operand(e);
        if (b == null || b.isConstant() && e instanceof Expr.Num) {
            return new Constant.Text(text(e));
        }
        if (b instanceof Constant.Text t) {
            return t;
        }
        throw new SqlException("expected a text value in IN list, found " + text(e));
    }

    public String text(Expr e) {
        return sql.substring(e.start(), e.end());
    }

    private static void requireNumeric(BoundExpr e, String op) {
        if (e.type() == ValueType.TEXT) {
            throw new SqlException("cannot apply '" + op + "' to TEXT " + e.describe());
        }
    }

    /** Evaluates constant arithmetic once, at bind time. */
    private static BoundExpr fold(BoundExpr e) {
        if (!e.isConstant()) {
            return e;
        }
        return e.type() == ValueType.LONG ? new Constant.LongValue(e.evalLong(null)) : new Constant.DoubleValue(e.evalDouble(null));
    }

    /** Decimal integer text (leading zeros allowed, {@code -} sign optional) as a 64-bit value. */
    public static long parseInteger(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new SqlException("integer " + text + " is out of range (64-bit)");
        }
    }

    private static BoundExpr number(Expr.Num n) {
        if (n.integral()) {
            return new Constant.LongValue(parseInteger(n.text()));
        }
        double d = Double.parseDouble(n.text());
        if (Double.isInfinite(d)) {
            throw new SqlException("number " + n.text() + " is out of range");
        }
        return new Constant.DoubleValue(d);
    }
}
