package io.respsql.plan;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.ColumnValue;
import io.respsql.expr.Predicate;
import io.respsql.expr.ValueType;
import io.respsql.sql.Expr;
import io.respsql.sql.SqlException;
import io.respsql.sql.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** Builds a {@link SelectPlan}: binds the select list and ORDER BY, picks access paths and join order. */
public final class SelectPlanner {
    private SelectPlanner() {
    }

    public static SelectPlan plan(Catalog catalog, Statement.Select s, String sql) {
        List<String> names = new ArrayList<>();
        for (Statement.TableRef r : s.from()) {
            names.add(r.table());
        }
        Scope scope = Scope.of(catalog, names);
        Binder binder = new Binder(scope, sql);

        List<BoundExpr> outputs = new ArrayList<>();
        List<Expr.AggregateFn> aggregates = new ArrayList<>();
        boolean plain = false;
        for (Statement.SelectItem item : s.items()) {
            if (item.expr() == null) {
                plain = true;
                for (int t = 0; t < scope.size(); t++) {
                    Table table = scope.table(t);
                    for (int c = 0; c < table.columnCount(); c++) {
                        Column col = table.column(c);
                        outputs.add(ColumnValue.of(col, t, col.name()));
                    }
                }
            } else if (item.expr() instanceof Expr.Aggregate a) {
                aggregates.add(a.fn());
                if (a.argument() == null) {
                    outputs.add(null);
                } else {
                    BoundExpr arg = binder.value(a.argument());
                    if (a.fn() != Expr.AggregateFn.COUNT && a.fn() != Expr.AggregateFn.MIN && a.fn() != Expr.AggregateFn.MAX
                            && arg.type() == ValueType.TEXT) {
                        throw new SqlException(a.fn() + " needs a numeric argument, " + arg.describe() + " is TEXT");
                    }
                    outputs.add(arg);
                }
            } else {
                plain = true;
                outputs.add(binder.value(item.expr()));
            }
        }
        if (plain && !aggregates.isEmpty()) {
            throw new SqlException("cannot mix aggregates and plain columns in one select list (GROUP BY is not supported)");
        }

        List<BoundExpr> orderBy = new ArrayList<>();
        boolean[] desc = new boolean[s.orderBy().size()];
        for (int i = 0; i < s.orderBy().size(); i++) {
            orderBy.add(binder.value(s.orderBy().get(i).expr()));
            desc[i] = s.orderBy().get(i).descending();
        }
        // The access path can deliver ORDER BY order when the first key is a column of the first table.
        Column orderColumn = null;
        int orderTable = -1;
        if (orderBy.size() == 1 && orderBy.get(0) instanceof ColumnValue cv) {
            orderColumn = cv.column();
            orderTable = cv.tableIndex;
        }

        List<Expr> terms = Planner.conjuncts(s.where());
        AccessPath path = null;
        List<JoinStep> join = null;
        boolean presorted;
        if (scope.size() == 1) {
            path = Planner.plan(binder, 0, terms, orderColumn, orderBy.isEmpty() ? false : desc[0]);
            presorted = orderBy.isEmpty() || path.ordered;
        } else {
            join = planJoin(binder, terms, orderColumn, orderTable, orderBy.isEmpty() ? false : desc[0]);
            presorted = orderBy.isEmpty() || (join.get(0).tableIndex == orderTable && join.get(0).path.ordered);
        }
        return new SelectPlan(scope, path, join, outputs, aggregates.isEmpty() ? null : aggregates, orderBy, desc, presorted,
                s.limit(), s.offset(), s.items(), sql);
    }

    /**
     * Greedy join order: start from the table whose own conditions give the best access path,
     * then repeatedly add a table reachable through an equality with bound tables, preferring one
     * whose join column is indexed, so each outer row costs one index probe.
     */
    private static List<JoinStep> planJoin(Binder binder, List<Expr> terms, Column orderColumn, int orderTable, boolean desc) {
        Scope scope = binder.scope();
        int n = scope.size();
        List<BitSet> refs = new ArrayList<>();
        for (Expr t : terms) {
            BitSet b = new BitSet();
            references(binder, t, b);
            refs.add(b);
        }
        AccessPath[] own = new AccessPath[n];
        for (int t = 0; t < n; t++) {
            own[t] = Planner.plan(binder, t, termsOnly(terms, refs, t), t == orderTable ? orderColumn : null, desc);
        }
        int first = 0;
        for (int t = 1; t < n; t++) {
            if (rank(own[t]) < rank(own[first])) {
                first = t;
            }
        }
        List<JoinStep> steps = new ArrayList<>();
        BitSet bound = new BitSet();
        bound.set(first);
        BitSet used = new BitSet(); // terms already applied
        for (int i = 0; i < terms.size(); i++) {
            if (refs.get(i).cardinality() == 1 && refs.get(i).get(first)) {
                used.set(i); // decided by own[first], including its residual
            }
        }
        steps.add(new JoinStep(first, own[first], null, null, filterFor(binder, terms, refs, used, bound)));
        while (bound.cardinality() < n) {
            int bestTable = -1;
            TableIndex bestIndex = null;
            BoundExpr bestKey = null;
            int bestRank = Integer.MAX_VALUE;
            for (int t = 0; t < n; t++) {
                if (bound.get(t)) {
                    continue;
                }
                int r = 100 + rank(own[t]);
                TableIndex ix = null;
                BoundExpr key = null;
                for (int i = 0; i < terms.size(); i++) {
                    if (terms.get(i) instanceof Expr.Compare c && c.op() == Expr.CompareOp.EQ && refs.get(i).get(t)
                            && refs.get(i).cardinality() == 2) {
                        BoundExpr[] lr = binder.comparable(c.left(), c.right());
                        for (int side = 0; side < 2; side++) {
                            BoundExpr mine = lr[side];
                            BoundExpr other = lr[1 - side];
                            if (mine instanceof ColumnValue cv && cv.tableIndex == t && other instanceof ColumnValue ov
                                    && bound.get(ov.tableIndex) && mine.type() == other.type()) {
                                TableIndex candidate = scope.table(t).indexOn(cv.column());
                                if (candidate != null) {
                                    int cr = candidate.isPrimary() ? 0 : 1;
                                    if (cr < r) {
                                        r = cr;
                                        ix = candidate;
                                        key = other;
                                    }
                                } else if (r > 50) {
                                    r = 50;
                                }
                            }
                        }
                    }
                }
                if (r < bestRank) {
                    bestRank = r;
                    bestTable = t;
                    bestIndex = ix;
                    bestKey = key;
                }
            }
            bound.set(bestTable);
            AccessPath path = own[bestTable];
            if (bestIndex != null) {
                // The probe replaces the table's own path, so its own conditions become filters.
                path = AccessPath.scan(scope.table(bestTable), Predicate.TRUE);
            } else {
                for (int i = 0; i < terms.size(); i++) {
                    if (refs.get(i).cardinality() == 1 && refs.get(i).get(bestTable)) {
                        used.set(i);
                    }
                }
            }
            steps.add(new JoinStep(bestTable, path, bestIndex, bestKey, filterFor(binder, terms, refs, used, bound)));
        }
        return steps;
    }

    private static int rank(AccessPath p) {
        switch (p.kind) {
            case EMPTY:
                return 0;
            case KEY_PROBE:
                return p.index.isPrimary() ? 1 : 2;
            case KEY_RANGE:
                return p.lo == Long.MIN_VALUE && p.hi == Long.MAX_VALUE ? 10 : (p.index.isPrimary() ? 3 : 4);
            case UNION:
                return 5;
            default:
                return 10;
        }
    }

    private static List<Expr> termsOnly(List<Expr> terms, List<BitSet> refs, int table) {
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            if (refs.get(i).cardinality() <= 1 && (refs.get(i).isEmpty() ? table == 0 : refs.get(i).get(table))) {
                out.add(terms.get(i));
            }
        }
        return out;
    }

    /** Conditions that become checkable now that {@code bound} tables have rows; marks them used. */
    private static Predicate filterFor(Binder binder, List<Expr> terms, List<BitSet> refs, BitSet used, BitSet bound) {
        Predicate p = null;
        for (int i = 0; i < terms.size(); i++) {
            if (used.get(i)) {
                continue;
            }
            BitSet r = (BitSet) refs.get(i).clone();
            r.andNot(bound);
            if (r.isEmpty()) {
                used.set(i);
                Predicate q = binder.predicate(terms.get(i));
                p = p == null ? q : new Predicate.And(p, q);
            }
        }
        return p == null ? Predicate.TRUE : p;
    }

    /** Which tables of the scope a condition mentions. */
    private static void references(Binder binder, Expr e, BitSet out) {
        if (e instanceof Expr.Ident id) {
            Scope.Resolved r = binder.scope().resolve(id.qualifier(), id.name());
            if (r != null) {
                out.set(r.tableIndex());
            }
        } else if (e instanceof Expr.Compare c) {
            references(binder, c.left(), out);
            references(binder, c.right(), out);
        } else if (e instanceof Expr.Between b) {
            references(binder, b.operand(), out);
            references(binder, b.low(), out);
            references(binder, b.high(), out);
        } else if (e instanceof Expr.In in) {
            references(binder, in.operand(), out);
        } else if (e instanceof Expr.And a) {
            references(binder, a.left(), out);
            references(binder, a.right(), out);
        } else if (e instanceof Expr.Or o) {
            references(binder, o.left(), out);
            references(binder, o.right(), out);
        } else if (e instanceof Expr.Not n) {
            references(binder, n.operand(), out);
        } else if (e instanceof Expr.Arith a) {
            references(binder, a.left(), out);
            references(binder, a.right(), out);
        } else if (e instanceof Expr.Neg n) {
            references(binder, n.operand(), out);
        }
    }
}
