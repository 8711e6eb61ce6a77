package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.materialize.Materialize;
import io.respsql.exec.op.scan.IndexRange;
import io.respsql.exec.op.window.WindowFunctionKind;
import io.respsql.exec.op.window.WindowFunctionSpec;
import io.respsql.exec.op.window.WindowOperator;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.storage.Column;

import java.util.List;

/**
 * The access path of a derived table or view: its query planned (once per variant) and
 * materialized. Two rewrites reach into the derived query from the outer block:
 * <ul>
 * <li>an outer {@code WHERE rn <= k} ({@code rn < k}, {@code rn = k}, {@code rn BETWEEN a AND k},
 *     {@code k >= rn}) on a ROW_NUMBER, RANK or DENSE_RANK column of the derived query's last window
 *     makes that window a per-partition top-k ({@link WindowOperator.TopK}): rows that cannot pass
 *     are dropped before its sort; the outer condition still filters;</li>
 * <li>an outer {@code ORDER BY} on the derived column that is the only partition key of its windows,
 *     with a LIMIT, over one base table with an index on the key: the derived query walks the
 *     index (its rows arrive grouped by partition), the window computes a partition at a time, and
 *     the derived rows stream to the outer block in key order (no materialization), so the LIMIT
 *     stops the walk after the partitions it needs.</li>
 * </ul>
 */
final class DerivedAccess {
    private DerivedAccess() {
    }

    /** What the derived query's plan is told: a top-k on one window function, an order to walk its input in. */
    record Hints(int step, WindowOperator.TopK topK, LogicalQuery.OrderKey grouping, boolean limited) {
        static final Hints NONE = new Hints(-1, null, null, false);
    }

    /** A plan of the source per (top-k conjunct, ordered) variant. */
    private record Variant(Conjunct topK, LogicalQuery.OrderKey grouping, boolean limited) {
    }

    static AccessPlanner.Access choose(Relation r, List<Conjunct> conds, LogicalQuery.OrderKey hint, boolean limited) {
        Conjunct topKConj = null;
        Hints h = Hints.NONE;
        if (r.source instanceof LogicalQuery.Block sb) {
            for (Conjunct c : conds) {
                Hints t = topK(r, sb, c);
                if (t != null) {
                    topKConj = c;
                    h = t;
                    break;
                }
            }
            LogicalQuery.OrderKey g = hint != null && limited ? grouping(r, sb, hint) : null;
            if (g != null) {
                h = new Hints(h.step(), h.topK(), g, limited);
            }
        }
        Variant v = new Variant(topKConj, h.grouping(), h.limited());
        QueryPlanner.Planned sub;
        boolean[] grouped = {false};
        if (topKConj == null && h.grouping() == null) {
            if (r.sourcePlan == null) {
                r.sourcePlan = QueryPlanner.plan(r.source);
            }
            sub = r.sourcePlan;
        } else {
            if (r.variants == null) {
                r.variants = new java.util.HashMap<>();
            }
            final Hints hh = h;
            sub = r.variants.computeIfAbsent(v, x -> QueryPlanner.plan(r.source, hh));
            grouped[0] = h.grouping() != null && groupedUnder(sub.root());
        }
        Expression filter = QueryPlanner.and(conds);
        boolean ordered = grouped[0];
        // a recursive CTE streams its rows as it makes them: an outer LIMIT stops the recursion (PostgreSQL)
        Materialize m = new Materialize(sub.root(), sub.outputs().toArray(new Expression[0]), r.table, r.number, filter,
                r.displayName(), ordered || r.source instanceof LogicalQuery.Recursive
                || r.source instanceof LogicalQuery.Series);
        String how = !r.explain ? "" : (ordered ? "stream " + r.displayName() + " in " + hint.expr().describe()
                + (hint.descending() ? " DESC" : "") + " order" : "materialize " + r.displayName())
                + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter));
        return new AccessPlanner.Access(m, 1000, how, ordered);
    }

    /** The derived plan's window runs over grouped input (the walk was possible). */
    private static boolean groupedUnder(Operator root) {
        Operator op = root;
        while (op != null) {
            if (op instanceof WindowOperator w) {
                return w.grouped();
            }
            Operator[] first = {null};
            op.inputs(in -> {
                if (first[0] == null) {
                    first[0] = in;
                }
            });
            op = first[0];
        }
        return false;
    }

    /**
     * The top-k hint conjunct {@code c} gives: {@code c} bounds from above, by a value known before
     * the run (a constant or parameter), a derived column that is a ranking function of the source
     * block's last window, all of whose functions a cut keeps right; the block has no DISTINCT,
     * LIMIT or OFFSET (which would see the dropped rows). Null otherwise.
     */
    private static Hints topK(Relation r, LogicalQuery.Block sb, Conjunct c) {
        if (sb.windows.isEmpty() || sb.distinct || sb.limit >= 0 || sb.offset > 0) {
            return null;
        }
        int last = sb.windows.size() - 1;
        LogicalQuery.WindowStep w = sb.windows.get(last);
        if (!WindowOperator.topKSafe(w.functions())) {
            return null;
        }
        for (Conjunct.Sarg sa : c.sargs) {
            if (sa.relation != r) {
                continue;
            }
            Expression bound;
            boolean strict = false;
            switch (sa.op) {
                case EQ:
                case LE:
                    bound = sa.values[0];
                    break;
                case LT:
                    bound = sa.values[0];
                    strict = true;
                    break;
                case BETWEEN:
                    bound = sa.values[1];
                    break;
                default:
                    continue;
            }
            if (bound.relations() != 0 || !bound.type().isInteger()
                    || !(bound.isConstant() || bound instanceof io.respsql.expr.Parameter)) {
                continue;
            }
            int i = columnIndex(r, sa.column);
            if (i < 0) {
                continue;
            }
            Expression out = sb.outputs.get(i);
            Column oc = Expressions.referencedColumn(out);
            if (oc == null || out.relations() != w.output().bit()) {
                continue;
            }
            int f = columnIndex(w.output(), oc);
            if (f < 0 || f >= w.functions().length) {
                continue;
            }
            WindowFunctionKind k = w.functions()[f].kind();
            if (k != WindowFunctionKind.ROW_NUMBER && k != WindowFunctionKind.RANK && k != WindowFunctionKind.DENSE_RANK) {
                continue;
            }
            return new Hints(last, new WindowOperator.TopK(f, bound, strict, rowsPerPartition(sb, w)), null, false);
        }
        return null;
    }

    /**
     * The order the source block's one base table should be walked in so that its one window's
     * rows arrive grouped by partition, when the outer {@code ORDER BY} key is the derived column
     * that is that window's only partition key (a plain column of the table); null otherwise.
     */
    private static LogicalQuery.OrderKey grouping(Relation r, LogicalQuery.Block sb, LogicalQuery.OrderKey hint) {
        if (sb.windows.isEmpty() || sb.aggregate || sb.distinct || sb.relations.size() != 1 || !sb.order.isEmpty()
                || sb.limit >= 0 || sb.offset > 0 || hint.relation() != r) {
            return null;
        }
        Relation base = sb.relations.get(0);
        if (base.kind != Relation.Kind.TABLE || base.outerJoined) {
            return null;
        }
        int i = columnIndex(r, hint.column());
        if (i < 0) {
            return null;
        }
        Expression out = sb.outputs.get(i);
        Column c = Expressions.referencedColumn(out);
        if (c == null || out.relations() != base.bit()) {
            return null;
        }
        for (LogicalQuery.WindowStep w : sb.windows) { // stacked windows over the same key pass whole partitions on in order
            Expression[] parts = w.partitionKeys();
            if (parts.length != 1 || Expressions.referencedColumn(parts[0]) != c || parts[0].relations() != base.bit()) {
                return null;
            }
        }
        return new LogicalQuery.OrderKey(out, hint.descending(), hint.nullsFirst(), base, c);
    }

    /**
     * Rows per partition the window's input is expected to have: over one base table, its rows
     * over the partition column's distinct values (an index's sample); 0 unknown.
     */
    private static double rowsPerPartition(LogicalQuery.Block sb, LogicalQuery.WindowStep w) {
        if (sb.relations.size() != 1 || sb.aggregate || sb.relations.get(0).kind != Relation.Kind.TABLE) {
            return 0;
        }
        Relation base = sb.relations.get(0);
        Cardinality card = new Cardinality();
        double rows = card.tableRows(base);
        Expression[] parts = w.partitionKeys();
        if (parts.length == 0) {
            return Math.max(1, rows);
        }
        Column c = parts.length == 1 ? Expressions.referencedColumn(parts[0]) : null;
        if (c == null || parts[0].relations() != base.bit() || AccessPlanner.indexOn(base.table, c) == null) {
            return 0; // without an index the distinct values are a guess (as in the background, on a capture): try the cut
        }
        return Math.max(1, rows / Math.max(1, card.distinct(base, c)));
    }

    private static int columnIndex(Relation r, Column c) {
        for (int i = 0; i < r.table.columnCount(); i++) {
            if (r.table.column(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** Marks the whole-index walk feeding a grouped window as one a LIMIT stops (the background-query estimate). */
    static void stoppedByLimit(Operator windowInput) {
        Operator op = windowInput;
        while (op != null) {
            if (op instanceof IndexRange walk) {
                walk.stoppedByLimit();
                return;
            }
            Operator[] first = {null};
            op.inputs(in -> {
                if (first[0] == null) {
                    first[0] = in;
                }
            });
            op = first[0];
        }
    }
}
