package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.materialize.Materialize;
import io.respsql.exec.op.scan.EmptyScan;
import io.respsql.exec.op.scan.IndexLookup;
import io.respsql.exec.op.scan.IndexRange;
import io.respsql.exec.op.scan.KeyBounds;
import io.respsql.exec.op.scan.KeyProbe;
import io.respsql.exec.op.scan.RowUnion;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;

import java.util.ArrayList;
import java.util.List;

/**
 * The access path of one relation from the conditions on it alone, best first: primary-key
 * equality or IN, secondary-index equality or IN, a range (several bounds on one column narrow
 * one range; BETWEEN), else a full scan. Conditions an exact (integer) index key decides are not
 * re-checked; the rest go into the path's batch filter. A single ORDER BY column with an exact,
 * NULL-free index is served by walking that index (no sort).
 */
final class AccessPlanner {
    private AccessPlanner() {
    }

    /**
     * The chosen path. {@code rows} says what a write statement may know of its rows without
     * running {@code op} (SQLite's where.c hands update.c its strategy the same way): {@link
     * Rows#ALL} every live row (a scan without filter), {@link Rows#KEYS} exactly the pairs of
     * {@code index} with keys within {@code keys}, ascending (a range or a one-key probe of a
     * non-unique index, no filter), {@link Rows#POINT} at most one row by a unique key, {@link
     * Rows#OTHER} only what running {@code op} gives.
     */
    record Access(Operator op, double cost, String description, boolean ordered, Rows rows, TableIndex index,
                  KeyBounds keys) {
        Access(Operator op, double cost, String description, boolean ordered) {
            this(op, cost, description, ordered, Rows.OTHER, null, null);
        }
    }

    enum Rows { ALL, KEYS, POINT, OTHER }

    /** The index whose (first) column is {@code c}: the primary key first; none while indexes are off ({@link IndexUse}). */
    static TableIndex indexOn(Table t, Column c) {
        if (IndexUse.off()) {
            return null;
        }
        for (TableIndex ix : t.indexes()) {
            if (ix.column() == c) {
                return ix;
            }
        }
        return null;
    }

    static Access choose(Relation r, List<Conjunct> conds, LogicalQuery.OrderKey hint) {
        return choose(r, conds, hint, false);
    }

    /** {@code limited}: a LIMIT stops the block early (a derived table may then stream in the hinted order). */
    static Access choose(Relation r, List<Conjunct> conds, LogicalQuery.OrderKey hint, boolean limited) {
        if (r.kind != Relation.Kind.TABLE) {
            if (r.kind == Relation.Kind.DERIVED) {
                return DerivedAccess.choose(r, conds, hint, limited);
            }
            if (r.sourcePlan == null) {
                r.sourcePlan = QueryPlanner.plan(r.source);
            }
            QueryPlanner.Planned sub = r.sourcePlan;
            Expression filter = QueryPlanner.and(conds);
            Materialize m = new Materialize(sub.root(), sub.outputs().toArray(new Expression[0]), r.table, r.number, filter,
                    r.displayName());
            return new Access(m, 1000, !r.explain ? "" : "materialize " + r.displayName()
                    + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter)), false);
        }
        Table t = r.table;
        double n = t.rowCount() + 1;
        Candidate best = null;
        for (TableIndex ix : IndexUse.off() ? List.<TableIndex>of() : t.indexes()) {
            Column col = ix.column();
            List<Conjunct.Sarg> ranges = new ArrayList<>();
            for (Conjunct c : conds) {
                for (Conjunct.Sarg sa : c.sargs) {
                    if (sa.relation != r || sa.column != col || !usable(sa)) {
                        continue;
                    }
                    if (sa.op == Conjunct.Op.EQ || sa.op == Conjunct.Op.IN) {
                        double cost = ix.isPrimary() ? sa.values.length : Math.min(n, 10.0 * sa.values.length);
                        if (best == null || cost < best.cost) {
                            best = new Candidate(ix, List.of(sa), false, cost);
                        }
                    } else {
                        ranges.add(sa);
                    }
                }
            }
            if (!ranges.isEmpty()) {
                boolean low = false;
                boolean high = false;
                for (Conjunct.Sarg sa : ranges) {
                    low |= sa.op == Conjunct.Op.GT || sa.op == Conjunct.Op.GE || sa.op == Conjunct.Op.BETWEEN;
                    high |= sa.op == Conjunct.Op.LT || sa.op == Conjunct.Op.LE || sa.op == Conjunct.Op.BETWEEN;
                }
                double cost = n / (low && high ? 8 : 4) + 2;
                if (best == null || cost < best.cost) {
                    best = new Candidate(ix, ranges, true, cost);
                }
            }
        }
        boolean ordered = false;
        boolean descending = false;
        if (hint != null && !hint.column().mayHaveNulls() && hint.column().type().storedAs() != ColumnType.TEXT) {
            TableIndex ix = indexOn(t, hint.column());
            if (ix != null && (best == null || (best.index == ix && (best.range || best.sargs.get(0).values.length == 1)))) {
                if (best == null) {
                    best = new Candidate(ix, List.of(), true, n);
                }
                ordered = true;
                descending = hint.descending();
            }
        }
        if (best == null) {
            Access union = union(r, conds);
            if (union != null) {
                return union;
            }
            Expression filter = QueryPlanner.and(conds);
            TableScan scan = new TableScan(t, r.number, filter, t.name());
            return new Access(scan, n, r.explain ? scan.describe() : "", false, filter == null ? Rows.ALL : Rows.OTHER,
                    null, null);
        }
        return best.build(r, conds, ordered, descending);
    }

    /**
     * An OR each of whose branches an index serves: the union of the branches' paths (branches
     * that cannot match drop out), the other conditions as its filter. Null when some branch
     * would need a scan.
     */
    private static Access union(Relation r, List<Conjunct> conds) {
        for (Conjunct or : conds) {
            if (or.orBranches == null) {
                continue;
            }
            List<Operator> parts = new ArrayList<>();
            StringBuilder desc = new StringBuilder("union of ");
            double cost = 0;
            boolean ok = true;
            for (List<Conjunct> branch : or.orBranches) {
                Access a = choose(r, branch, null);
                if (a.op() instanceof TableScan || a.op() instanceof RowUnion) {
                    ok = false;
                    break;
                }
                if (a.op() instanceof EmptyScan) {
                    continue;
                }
                if (r.explain) {
                    desc.append(parts.isEmpty() ? "" : " + ").append('[').append(a.description()).append(']');
                }
                parts.add(a.op());
                cost += a.cost();
            }
            if (!ok) {
                continue;
            }
            List<Conjunct> rest = new ArrayList<>(conds);
            rest.remove(or);
            Expression filter = QueryPlanner.and(rest);
            if (parts.isEmpty()) {
                return new Access(new EmptyScan(r.bit(), or.text), 0, r.explain ? "no rows can match (" + or.text + ")" : "", true);
            }
            String d = !r.explain ? "" : desc + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter));
            return new Access(new RowUnion(parts.toArray(new Operator[0]), r.number, filter, d), cost, d, false);
        }
        return null;
    }

    private static boolean usable(Conjunct.Sarg sa) {
        for (Expression v : sa.values) {
            if (!KeyProbe.usable(sa.column.type(), v.type())) {
                return false;
            }
        }
        return true;
    }

    /** An index and the conditions on its column it is searched by. */
    private static final class Candidate {
        final TableIndex index;
        final List<Conjunct.Sarg> sargs;
        final boolean range;
        final double cost;

        Candidate(TableIndex index, List<Conjunct.Sarg> sargs, boolean range, double cost) {
            this.index = index;
            this.sargs = sargs;
            this.range = range;
            this.cost = cost;
        }

        Access build(Relation r, List<Conjunct> conds, boolean ordered, boolean descending) {
            ColumnType ct = index.column().type();
            List<Conjunct> decided = new ArrayList<>();
            StringBuilder what = new StringBuilder();
            boolean constant = true;
            for (Conjunct.Sarg sa : sargs) {
                boolean exact = true;
                for (Expression v : sa.values) {
                    exact &= KeyProbe.exact(ct, v.type());
                    constant &= v.isConstant();
                }
                if (exact && !sa.partial) {
                    decided.add(sa.owner);
                }
                if (r.explain) {
                    if (what.length() > 0) {
                        what.append(" AND ");
                    }
                    what.append(sa.owner.text);
                }
            }
            List<Conjunct> rest = new ArrayList<>();
            for (Conjunct c : conds) {
                if (!decided.contains(c)) {
                    rest.add(c);
                }
            }
            Expression filter = QueryPlanner.and(rest);
            String kind = index.isPrimary() ? (range ? "primary key range" : "primary key probe")
                    : (range ? "index range" : "index probe");
            String desc = !r.explain ? "" : kind + " on " + r.table.name() + " using " + index.name() + " ("
                    + (sargs.isEmpty() ? "all keys" : what) + ")"
                    + (ordered ? (descending ? ", in descending key order" : ", in key order") : "");
            Operator op;
            Rows rows = Rows.OTHER;
            KeyBounds keys = null;
            if (range) {
                List<KeyProbe> lows = new ArrayList<>();
                List<KeyProbe> highs = new ArrayList<>();
                for (Conjunct.Sarg sa : sargs) {
                    switch (sa.op) {
                        case GT:
                            lows.add(new KeyProbe(sa.values[0], ct, KeyProbe.Bound.GT));
                            break;
                        case GE:
                            lows.add(new KeyProbe(sa.values[0], ct, KeyProbe.Bound.GE));
                            break;
                        case LT:
                            highs.add(new KeyProbe(sa.values[0], ct, KeyProbe.Bound.LT));
                            break;
                        case LE:
                            highs.add(new KeyProbe(sa.values[0], ct, KeyProbe.Bound.LE));
                            break;
                        default:
                            lows.add(new KeyProbe(sa.values[0], ct, KeyProbe.Bound.GE));
                            highs.add(new KeyProbe(sa.values[1], ct, KeyProbe.Bound.LE));
                    }
                }
                KeyProbe[] lo = lows.toArray(new KeyProbe[0]);
                KeyProbe[] hi = highs.toArray(new KeyProbe[0]);
                // Constant bounds that cannot all hold (id > 5 AND id < 3, id > 2.5 on nothing): no rows.
                KeyBounds bounds = KeyBounds.range(lo, hi);
                if (constant && !sargs.isEmpty() && (lo.length + hi.length > 1 || mayMatchNothing(sargs))
                        && emptyRange(bounds)) {
                    return empty(r, what);
                }
                IndexRange range = new IndexRange(index, r.number, bounds, descending, filter, desc);
                if (filter == null && !descending) {
                    keys = bounds;
                    rows = Rows.KEYS;
                }
                int known = boundsKnownBeforeRun(sargs);
                if (known > 0) {
                    range.boundsKnownBeforeRun(known == 2);
                }
                if (!ordered) {
                    range.mayScan(r.table); // no ORDER BY relies on key order: a wide range may scan
                }
                op = range;
            } else {
                Expression[] values = sargs.get(0).values;
                KeyProbe[] probes = new KeyProbe[values.length];
                for (int i = 0; i < probes.length; i++) {
                    probes[i] = new KeyProbe(values[i], ct, KeyProbe.Bound.EQ);
                }
                if (constant && mayMatchNothing(sargs) && noKey(probes)) {
                    return empty(r, what);
                }
                op = new IndexLookup(index, r.number, probes, filter, desc);
                if (filter == null && probes.length == 1) {
                    if (index.unique() && index.columnCount() == 1) {
                        rows = Rows.POINT; // a unique (a, b) probed by a alone may give many rows
                    } else {
                        rows = Rows.KEYS; // fk = 7: the index range [7, 7]
                        keys = KeyBounds.single(probes[0]);
                    }
                }
            }
            return new Access(op, cost, !r.explain ? "" : desc + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter)),
                    ordered, rows, index, keys);
        }

        /**
         * 1 when every bound is a constant, 2 when statement parameters are among them (a cached
         * plan's literals), 0 when some bound reads rows or runs a subquery (known only in the run).
         */
        private static int boundsKnownBeforeRun(List<Conjunct.Sarg> sargs) {
            int kind = 1;
            for (Conjunct.Sarg sa : sargs) {
                for (Expression v : sa.values) {
                    if (v instanceof io.respsql.expr.Parameter) {
                        kind = 2;
                    } else if (!v.isConstant()) {
                        return 0;
                    }
                }
            }
            return kind;
        }

        private static Access empty(Relation r, CharSequence what) {
            EmptyScan e = new EmptyScan(r.bit(), what.toString());
            return new Access(e, 0, r.explain ? "no rows can match (" + what + ")" : "", true);
        }

        /** Constant values that may give no key: NULL, a fraction for an integer column (else no need to look). */
        private static boolean mayMatchNothing(List<Conjunct.Sarg> sargs) {
            for (Conjunct.Sarg sa : sargs) {
                for (Expression v : sa.values) {
                    if (v.type() == io.respsql.expr.SqlType.DOUBLE || v.type() == io.respsql.expr.SqlType.NULL
                            || sa.column.type() != ColumnType.TEXT && v.type() == io.respsql.expr.SqlType.TEXT) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static boolean noKey(KeyProbe[] keys) {
            EvalContext ctx = new EvalContext(QueryBinder.MAX_RELATIONS);
            for (KeyProbe k : keys) {
                k.key(ctx);
                if (!KeyProbe.none(ctx)) {
                    return false;
                }
            }
            return true;
        }

        private static boolean emptyRange(KeyBounds bounds) {
            return !bounds.eval(new EvalContext(QueryBinder.MAX_RELATIONS), new long[2]);
        }
    }
}
