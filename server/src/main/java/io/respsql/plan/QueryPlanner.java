package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.filter.Filter;
import io.respsql.exec.op.join.IndexJoin;
import io.respsql.exec.op.join.NestedLoopJoin;
import io.respsql.exec.op.limit.Limit;
import io.respsql.exec.op.scan.OneRow;
import io.respsql.exec.op.scan.ValuesScan;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.expr.SqlType;
import io.respsql.sql.tree.Expr;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a {@link LogicalQuery} into a tree of operators. Per SELECT block: an access path per
 * relation from the conditions on it alone ({@link AccessPlanner}), a greedy left-deep join
 * order (the most selective access first; then a relation reachable by an index probe on an
 * equi-join column, else by a hash join on one, else by nested loops), the conditions applied
 * as soon as their relations are joined, then aggregation, HAVING, DISTINCT, ORDER BY (a sort,
 * top-N with a LIMIT, unless an index walk already gives the order) and LIMIT/OFFSET.
 */
public final class QueryPlanner {
    private QueryPlanner() {
    }

    /**
     * A planned query: its root, the output expressions evaluated per tuple, and what the result
     * writer needs. {@code carried}: the relations whose slots make a result tuple.
     * {@code countInput}: for a lone COUNT(*), the plan of the rows to count (no aggregate).
     */
    record Planned(Operator root, List<Expression> outputs, List<String> names, int[] carried,
                   long outerRefs, List<String> explain, boolean countStarOnly, Operator countInput, Table countTable) {
    }

    static Planned plan(LogicalQuery q) {
        if (q instanceof LogicalQuery.Block b) {
            return planBlock(b);
        } else if (q instanceof LogicalQuery.SetOp s) {
            return planSetOp(s);
        }
        LogicalQuery.ValuesList v = (LogicalQuery.ValuesList) q;
        Expression[][] rows = new Expression[v.rows.size()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = v.rows.get(i).toArray(new Expression[0]);
        }
        List<String> lines = lines(v);
        if (v.explain) {
            lines.add("values (" + rows.length + " row(s))");
        }
        Operator op = new ValuesScan(v.output.table, v.output.number, rows, null);
        int[] carried = {v.output.number};
        op = orderAndLimit(op, v, carried, false, lines);
        return new Planned(op, v.outputs, v.names, carried, v.outerRefs, lines, false, null, null);
    }

    private static Planned planSetOp(LogicalQuery.SetOp s) {
        Planned l = plan(s.left);
        Planned r = plan(s.right);
        List<String> lines = lines(s);
        if (s.explain) {
            lines.add(s.kind.name().replace('_', ' ').toLowerCase(java.util.Locale.ROOT) + " of:");
        }
        if (s.explain) {
            for (String x : l.explain()) {
                lines.add("  " + x);
            }
            lines.add("and:");
            for (String x : r.explain()) {
                lines.add("  " + x);
            }
        }
        Operator op = Blocking.setOperation(s.kind, l.root(), s.left.outputs, r.root(), s.right.outputs, s.output.table,
                s.output.number);
        int[] carried = {s.output.number};
        op = orderAndLimit(op, s, carried, false, lines);
        return new Planned(op, s.outputs, s.names, carried, s.outerRefs, lines, false, null, null);
    }

    private static Planned planBlock(LogicalQuery.Block b) {
        List<String> lines = lines(b);
        boolean[] presorted = {false};
        Operator op;
        Table countTable = null;
        if (b.relations.isEmpty()) {
            op = new OneRow();
            Expression where = and(b.where);
            if (where != null) {
                op = new Filter(op, where);
                if (b.explain) {
                    lines.add("one row; filter " + io.respsql.exec.op.Describe.condition(where));
                }
            } else {
                lines.add("one row (no FROM)");
            }
        } else {
            op = new JoinPlanner(b, lines, presorted).plan();
            if (b.countStarOnly && b.relations.size() == 1 && b.where.isEmpty()
                    && b.relations.get(0).kind == Relation.Kind.TABLE) {
                countTable = b.relations.get(0).table;
            }
        }
        int[] carried;
        Operator countInput = null;
        if (b.aggregate) {
            countInput = b.countStarOnly ? op : null;
            op = Blocking.hashAggregate(op, b.groupKeys, b.aggregates, b.group.table, b.group.number);
            if (!b.countStarOnly && b.explain) { // a lone COUNT(*) counts the rows above: the 2010 EXPLAIN shows only their path
                lines.add("hash aggregate: " + b.groupKeys.size() + " group key(s), " + b.aggregates.size() + " aggregate(s)");
            }
            if (b.having != null) {
                op = new Filter(op, b.having);
                if (b.explain) {
                    lines.add("having " + io.respsql.exec.op.Describe.condition(b.having));
                }
            }
            carried = new int[]{b.group.number};
        } else {
            carried = new int[b.relations.size()];
            for (int i = 0; i < carried.length; i++) {
                carried[i] = b.relations.get(i).number;
            }
        }
        for (LogicalQuery.WindowStep w : b.windows) {
            op = new io.respsql.exec.op.window.WindowOperator(op, carried, w.partitionKeys(), w.orderKeys(), w.functions(),
                    w.output().table, w.output().number);
            int[] more = java.util.Arrays.copyOf(carried, carried.length + 1);
            more[carried.length] = w.output().number;
            carried = more;
            if (b.explain) {
                lines.add("window: " + w.functions().length + " function(s) over " + w.partitionKeys().length
                        + " partition key(s), " + w.orderKeys().length + " order key(s)");
            }
        }
        if (b.distinct) {
            op = Blocking.distinct(op, b.outputs);
            lines.add("distinct");
        }
        op = orderAndLimit(op, b, carried, presorted[0], lines);
        lines.addAll(b.subplans);
        return new Planned(op, b.outputs, b.names, carried, b.outerRefs, lines, b.countStarOnly, countInput,
                countTable);
    }

    private static Operator orderAndLimit(Operator op, LogicalQuery q, int[] carried, boolean presorted, List<String> lines) {
        if (!q.order.isEmpty() && !presorted) {
            if (q.explain) {
                lines.add("sort by " + q.order.size() + " key(s)");
            }
            if (q.explain && (q.limit >= 0 || q.offset > 0)) {
                lines.add("limit " + q.limit + " offset " + q.offset);
            }
            return Blocking.sort(op, carried, q.order, q.limit, q.offset);
        }
        if (q.limit >= 0 || q.offset > 0) {
            if (q.explain) {
                lines.add("limit " + q.limit + " offset " + q.offset);
            }
            return new Limit(op, q.limit, q.offset);
        }
        return op;
    }

    /** Where EXPLAIN lines go: a list, or for a plan that is to run one that keeps nothing. */
    private static List<String> lines(LogicalQuery q) {
        return q.explain ? new ArrayList<>() : NO_LINES;
    }

    private static final List<String> NO_LINES = new java.util.AbstractList<>() {
        @Override
        public boolean add(String s) {
            return true;
        }

        @Override
        public boolean addAll(java.util.Collection<? extends String> c) {
            return true;
        }

        @Override
        public String get(int index) {
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public int size() {
            return 0;
        }
    };

    /** The AND of the conditions, or null when there are none. */
    static Expression and(List<?> conds) {
        Expression e = null;
        for (Object o : conds) {
            Expression x = o instanceof Conjunct c ? c.expr : (Expression) o;
            e = e == null ? x : Expressions.binary(Expr.BinaryOp.AND, e, x);
        }
        return e;
    }

    /** Greedy left-deep join order and the join operators of one block. */
    private static final class JoinPlanner {
        private final LogicalQuery.Block b;
        private final List<String> lines;
        private final boolean[] presorted;
        private final long block;
        private final List<Conjunct> pending;

        JoinPlanner(LogicalQuery.Block b, List<String> lines, boolean[] presorted) {
            this.b = b;
            this.lines = lines;
            this.presorted = presorted;
            long m = 0;
            for (Relation r : b.relations) {
                m |= r.bit();
            }
            this.block = m;
            this.pending = new ArrayList<>(b.where);
        }

        Operator plan() {
            List<Relation> remaining = new ArrayList<>(b.relations);
            List<String> steps = b.explain ? new ArrayList<>() : NO_LINES;
            StringBuilder order = new StringBuilder("join order: ");

            // The first relation: the cheapest access path of its own conditions (and the block's constant ones).
            Relation first = null;
            AccessPlanner.Access best = null;
            LogicalQuery.OrderKey hint = orderHint();
            for (Relation r : remaining) {
                if (r.dependsOn != 0) {
                    continue;
                }
                AccessPlanner.Access a = AccessPlanner.choose(r, ownConditions(r, 0, pending), hint);
                if (best == null || a.cost() < best.cost()) {
                    best = a;
                    first = r;
                }
            }
            remaining.remove(first);
            pending.removeAll(ownConditions(first, 0, pending));
            Operator op = best.op();
            presorted[0] = best.ordered() && remaining.isEmpty();
            steps.add(best.description());
            if (b.explain) {
                order.append(first.displayName());
            }
            long placed = first.bit();

            while (!remaining.isEmpty()) {
                Relation next = null;
                Step bestStep = null;
                for (Relation r : remaining) {
                    if ((r.dependsOn & ~placed) != 0) {
                        continue;
                    }
                    Step s = step(r, placed);
                    if (bestStep == null || s.cost < bestStep.cost) {
                        bestStep = s;
                        next = r;
                    }
                }
                remaining.remove(next);
                op = bestStep.build(op);
                steps.add(bestStep.description);
                for (Conjunct c : bestStep.consumed) {
                    pending.remove(c);
                }
                placed |= next.bit();
                if (next.outerJoined) {
                    // WHERE terms on the nullable side filter after the join (a NULL row may fail them).
                    List<Conjunct> after = ready(placed, pending);
                    pending.removeAll(after);
                    if (!after.isEmpty()) {
                        op = new Filter(op, and(after));
                        if (b.explain) {
                            steps.add("filter " + io.respsql.exec.op.Describe.condition(and(after)));
                        }
                    }
                }
                if (b.explain) {
                    order.append(" -> ").append(next.displayName());
                }
            }
            if (!pending.isEmpty()) { // conditions on no relation of the block that no step took (defensive)
                op = new Filter(op, and(pending));
                if (b.explain) {
                    steps.add("filter " + io.respsql.exec.op.Describe.condition(and(pending)));
                }
            }
            if (b.relations.size() > 1) {
                lines.add(order.toString());
            }
            lines.addAll(steps);
            return op;
        }

        /** The ORDER BY an index walk of a single-table block could give. */
        private LogicalQuery.OrderKey orderHint() {
            if (b.relations.size() != 1 || b.aggregate || b.distinct || !b.windows.isEmpty() || b.order.size() != 1) {
                return null;
            }
            LogicalQuery.OrderKey k = b.order.get(0);
            return k.column() != null && k.relation() == b.relations.get(0) && k.nullsFirst() == k.descending() ? k : null;
        }

        /** Pending conditions all of whose block relations are within {@code mask}. */
        private List<Conjunct> ready(long mask, List<Conjunct> from) {
            List<Conjunct> out = new ArrayList<>();
            for (Conjunct c : from) {
                if ((c.rels & block & ~mask) == 0) {
                    out.add(c);
                }
            }
            return out;
        }

        /** Conditions that read only {@code r} among the block's relations (outer blocks' rows are fixed). */
        private List<Conjunct> ownConditions(Relation r, long placed, List<Conjunct> from) {
            List<Conjunct> out = new ArrayList<>();
            for (Conjunct c : from) {
                long rels = c.rels & block;
                if (rels == r.bit() || (placed == 0 && rels == 0 && !r.outerJoined)) {
                    out.add(c);
                }
            }
            return out;
        }

        /** How relation {@code r} would be joined to the {@code placed} ones, and at what cost. */
        private Step step(Relation r, long placed) {
            List<Conjunct> conds = r.outerJoined ? r.on : ready(placed | r.bit(), pending);
            List<Conjunct> own = new ArrayList<>();
            List<Conjunct> cross = new ArrayList<>();
            for (Conjunct c : conds) {
                long rels = c.rels & block;
                if ((rels & ~r.bit()) == 0) {
                    own.add(c);
                } else {
                    cross.add(c);
                }
            }
            Step s = new Step();
            s.relation = r;
            s.consumed = r.outerJoined ? List.of() : conds;
            // An index probe keyed by the joined rows.
            if (r.kind == Relation.Kind.TABLE) {
                for (Conjunct c : cross) {
                    for (Conjunct.Sarg sa : c.sargs) {
                        if (sa.relation != r || sa.op != Conjunct.Op.EQ || (sa.valueRels & block & ~placed) != 0
                                || !io.respsql.exec.op.scan.KeyProbe.usable(sa.column.type(), sa.values[0].type())) {
                            continue;
                        }
                        io.respsql.storage.TableIndex ix = AccessPlanner.indexOn(r.table, sa.column);
                        if (ix == null) {
                            continue;
                        }
                        double cost = ix.isPrimary() ? 1 : 10;
                        if (s.index == null || cost < s.cost) {
                            s.index = ix;
                            s.key = sa;
                            s.cost = cost;
                        }
                    }
                }
            }
            if (s.index != null) {
                List<Conjunct> filter = new ArrayList<>(own);
                filter.addAll(cross);
                s.filter = and(filter);
                s.description = !b.explain ? "" : (s.index.isPrimary() ? "primary key probe" : "index probe") + " on " + r.table.name()
                        + " using " + s.index.name() + " (" + s.key.column.name() + " = " + s.key.values[0].describe() + ")"
                        + (s.filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(s.filter));
                return s;
            }
            AccessPlanner.Access a = AccessPlanner.choose(r, own, null);
            s.access = a;
            s.condition = and(cross);
            boolean connected = false;
            for (Conjunct c : cross) {
                for (Conjunct.Sarg sa : c.sargs) {
                    connected |= sa.relation == r && sa.op == Conjunct.Op.EQ;
                }
            }
            s.equi = connected ? equiKeys(r, cross) : null;
            s.cost = a.cost() * (connected ? 1 : 1000);
            s.description = !b.explain ? "" : (connected && s.equi != null ? "hash join with " : "nested loop join with ") + a.description()
                    + (s.condition == null ? "" : "; on " + io.respsql.exec.op.Describe.condition(s.condition));
            return s;
        }

        /** Equi-join keys usable by a hash join (inner side, outer side), or null. */
        private List<Expression[]> equiKeys(Relation r, List<Conjunct> cross) {
            List<Expression[]> keys = new ArrayList<>();
            for (Conjunct c : cross) {
                for (Conjunct.Sarg sa : c.sargs) {
                    if (sa.relation == r && sa.op == Conjunct.Op.EQ) {
                        SqlType a = SqlTypes.of(sa.column.type());
                        SqlType v = sa.values[0].type();
                        boolean same = a == v || (a.isNumeric() && v.isNumeric());
                        if (same) {
                            keys.add(new Expression[]{Expressions.column(sa.column, r.number, sa.column.name()), sa.values[0]});
                        }
                        break;
                    }
                }
            }
            return keys.isEmpty() ? null : keys;
        }

        /** A chosen way to join one relation. */
        private static final class Step {
            Relation relation;
            double cost;
            String description;
            List<Conjunct> consumed;
            // index join
            io.respsql.storage.TableIndex index;
            Conjunct.Sarg key;
            Expression filter;
            // nested loop / hash join
            AccessPlanner.Access access;
            Expression condition;
            List<Expression[]> equi;

            Operator build(Operator outer) {
                Relation r = relation;
                if (index != null) {
                    io.respsql.exec.op.scan.KeyProbe probe = new io.respsql.exec.op.scan.KeyProbe(key.values[0],
                            key.column.type(), io.respsql.exec.op.scan.KeyProbe.Bound.EQ);
                    return new IndexJoin(outer, index, r.number, probe, filter, r.outerJoined, description);
                }
                int[] innerRels = {r.number};
                if (equi != null) {
                    Expression[] build = new Expression[equi.size()];
                    Expression[] probe = new Expression[equi.size()];
                    for (int i = 0; i < build.length; i++) {
                        build[i] = equi.get(i)[0];
                        probe[i] = equi.get(i)[1];
                    }
                    Operator h = Blocking.hashJoin(access.op(), innerRels, build, outer, probe, r.outerJoined, condition);
                    if (h != null) {
                        return h;
                    }
                }
                return new NestedLoopJoin(outer, access.op(), innerRels, condition, r.outerJoined);
            }
        }
    }
}
