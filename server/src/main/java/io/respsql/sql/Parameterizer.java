package io.respsql.sql;

import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a parsed statement for the plan cache: each literal the cache's scan of the text found
 * ({@link Literals}: where each stands, and its kind) becomes a {@link Expr.Parameter} of its kind, but only where its value cannot change the plan's shape —
 * an operand of a comparison, arithmetic, AND/OR, BETWEEN, IN, LIKE or IS [NOT] DISTINCT in a WHERE
 * or ON condition, or an UPDATE's SET value. Anywhere else (a select-list item, whose text names
 * the column; ORDER BY 1; function arguments; CASE; CAST) the literal stays, the count of
 * parameters then falls short of the scan's, and the statement is not cached. A LIMIT or OFFSET
 * count is not a literal of the scan: it is part of the cache's key (engine.LiteralScan), so such
 * a statement is cached once per count. A rewrite of the syntax tree into the syntax tree: it sits
 * beside the parser, and the engine hands it the scan's literals as data (no call back up).
 * Statements: SELECT from tables, joins and derived SELECTs (no set operation), UPDATE, DELETE.
 */
public final class Parameterizer {
    /**
     * The literals a scan of the statement's text found, in text order: literal {@code i} stands at
     * {@code starts[i]..ends[i]} (offsets into the text) and is of kind {@code kinds[i]}; its
     * parameter is number {@code i}.
     */
    public record Literals(int count, int[] starts, int[] ends, Expr.LiteralKind[] kinds) {
        /** The parameter {@code l} becomes: the scan's literal at its place and of its kind, or -1. */
        public int indexOf(Expr.Literal l) {
            int lo = 0;
            int hi = count - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] < l.start()) {
                    lo = mid + 1;
                } else if (starts[mid] > l.start()) {
                    hi = mid - 1;
                } else {
                    return ends[mid] == l.end() && kinds[mid] == l.kind() ? mid : -1;
                }
            }
            return -1;
        }
    }

    private final Literals literals;
    private int made;

    private Parameterizer(Literals literals) {
        this.literals = literals;
    }

    /** The statement with every literal of {@code literals} as a parameter, or null when it cannot be cached. */
    public static Statement rewrite(Statement st, Literals literals) {
        Parameterizer p = new Parameterizer(literals);
        Statement out = p.statement(st);
        return out != null && p.made == literals.count() ? out : null;
    }

    private Statement statement(Statement st) {
        if (st instanceof Statement.QueryStatement q && q.query() instanceof Query.Select s) {
            Query.Select out = select(s);
            return out == null ? null : new Statement.QueryStatement(out);
        } else if (st instanceof Statement.Update u) {
            if (u.alias() != null || u.from() != null || u.returning() != null) {
                return null; // UPDATE ... FROM / RETURNING: planned per statement
            }
            List<Statement.Assignment> as = new ArrayList<>(u.assignments().size());
            for (Statement.Assignment a : u.assignments()) {
                as.add(new Statement.Assignment(a.column(), cond(a.value())));
            }
            return new Statement.Update(u.table(), as, cond(u.where()));
        } else if (st instanceof Statement.Delete d) {
            if (d.alias() != null || d.using() != null || d.returning() != null) {
                return null; // DELETE ... USING / RETURNING: planned per statement
            }
            return new Statement.Delete(d.table(), cond(d.where()));
        }
        return null;
    }

    /** A SELECT block with the literals of its WHERE and of its FROM (join conditions, derived tables) rewritten. */
    private Query.Select select(Query.Select s) {
        Query.FromItem from = from(s.from());
        if (s.from() != null && from == null) {
            return null;
        }
        return new Query.Select(s.distinct(), s.items(), from, cond(s.where()), s.groupBy(), s.having(), s.orderBy(),
                s.limit(), s.offset(), s.scan(), s.start(), s.end());
    }

    private Query.FromItem from(Query.FromItem f) {
        if (f instanceof Query.TableRef) {
            return f;
        }
        if (f instanceof Query.Derived d) {
            // A derived SELECT's WHERE literals are values as the outer block's are (its select list,
            // ORDER BY and the rest stay as written: a literal there leaves the statement uncached).
            // A set operation or VALUES is not rewritten.
            if (!(d.query() instanceof Query.Select s)) {
                return null;
            }
            Query.Select q = select(s);
            return q == null ? null : new Query.Derived(q, d.alias(), d.columns(), d.start(), d.end());
        }
        if (f instanceof Query.Join j) {
            Query.FromItem l = from(j.left());
            Query.FromItem r = from(j.right());
            return l == null || r == null ? null : new Query.Join(j.kind(), l, r, cond(j.on()), j.using(), j.natural());
        }
        return null;
    }

    /** {@code e} with its literals in value positions as parameters (null stays null). */
    private Expr cond(Expr e) {
        if (e == null) {
            return null;
        }
        if (e instanceof Expr.Literal l) {
            if (l.kind() != Expr.LiteralKind.INTEGER && l.kind() != Expr.LiteralKind.DECIMAL
                    && l.kind() != Expr.LiteralKind.STRING) {
                return e;
            }
            int i = literals.indexOf(l);
            if (i < 0) {
                return e;
            }
            made++;
            return new Expr.Parameter(i, l.kind(), l.start(), l.end());
        }
        if (e instanceof Expr.Binary b) {
            return new Expr.Binary(b.op(), cond(b.left()), cond(b.right()), b.start(), b.end());
        }
        if (e instanceof Expr.Unary u) {
            return new Expr.Unary(u.op(), cond(u.operand()), u.start(), u.end());
        }
        if (e instanceof Expr.IsNull n) {
            return new Expr.IsNull(cond(n.operand()), n.negated(), n.start(), n.end());
        }
        if (e instanceof Expr.IsDistinct d) {
            return new Expr.IsDistinct(cond(d.left()), cond(d.right()), d.negated(), d.start(), d.end());
        }
        if (e instanceof Expr.Between x) {
            return new Expr.Between(cond(x.operand()), cond(x.low()), cond(x.high()), x.negated(), x.start(), x.end());
        }
        if (e instanceof Expr.InList x) {
            List<Expr> vals = new ArrayList<>(x.values().size());
            for (Expr v : x.values()) {
                vals.add(cond(v));
            }
            return new Expr.InList(cond(x.operand()), vals, x.negated(), x.start(), x.end());
        }
        if (e instanceof Expr.Like x) {
            return new Expr.Like(cond(x.operand()), cond(x.pattern()), x.escape(), x.negated(), x.caseless(), x.start(), x.end());
        }
        return e; // names, subqueries, functions, CASE, CAST: as written
    }
}
