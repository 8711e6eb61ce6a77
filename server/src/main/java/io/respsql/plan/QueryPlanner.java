package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.filter.Filter;
import io.respsql.exec.op.join.IndexJoin;
import io.respsql.exec.op.join.NestedLoopJoin;
import io.respsql.exec.op.limit.Limit;
import io.respsql.exec.op.materialize.ValuesScan;
import io.respsql.exec.op.scan.OneRow;
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
 * order from row estimates ({@link Cardinality}; each step an index probe, a hash join or nested
 * loops, whichever costs least: see {@code JoinPlanner}), the conditions applied
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
        return plan(q, DerivedAccess.Hints.NONE);
    }

    /** {@code hints}: what an outer block asks of a derived table's query (a SELECT block's; ignored otherwise). */
    static Planned plan(LogicalQuery q, DerivedAccess.Hints hints) {
        if (q instanceof LogicalQuery.Block b) {
            return planBlock(b, hints);
        } else if (q instanceof LogicalQuery.SetOp s) {
            return planSetOp(s);
        } else if (q instanceof LogicalQuery.Recursive r) {
            return planRecursive(r);
        } else if (q instanceof LogicalQuery.Series g) {
            List<String> lines = lines(g);
            if (g.explain) {
                lines.add("generate_series (" + g.kind.name().toLowerCase(java.util.Locale.ROOT) + ")");
            }
            Operator op = new io.respsql.exec.op.scan.SeriesScan(g.kind, g.start, g.stop, g.step, g.output.table, g.output.number,
                    io.respsql.exec.op.setop.RecursiveUnion.DEFAULT_MAX_ROWS);
            return new Planned(op, g.outputs, g.names, new int[] {g.output.number}, g.outerRefs, lines, false, null, null);
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

    /** WITH RECURSIVE's iteration ({@link io.respsql.exec.op.setop.RecursiveUnion}). */
    private static Planned planRecursive(LogicalQuery.Recursive q) {
        Planned init = plan(q.initial);
        Planned rec = plan(q.recursive);
        List<String> lines = lines(q);
        if (q.explain) {
            lines.add("recursive " + (q.distinct ? "union" : "union all") + " " + q.name + " of:");
            for (String x : init.explain()) {
                lines.add("  " + x);
            }
            lines.add("and, until it adds no row:");
            for (String x : rec.explain()) {
                lines.add("  " + x);
            }
        }
        Operator op = new io.respsql.exec.op.setop.RecursiveUnion(q.name, q.distinct, init.root(),
                q.initial.outputs.toArray(new Expression[0]), rec.root(), q.recursive.outputs.toArray(new Expression[0]), q.working,
                q.output.table, q.output.number, io.respsql.exec.op.setop.RecursiveUnion.DEFAULT_MAX_ROWS);
        int[] carried = {q.output.number};
        return new Planned(op, q.outputs, q.names, carried, q.outerRefs, lines, false, null, null);
    }

    private static Planned planBlock(LogicalQuery.Block b, DerivedAccess.Hints hints) {
        List<String> lines = lines(b);
        boolean[] presorted = {false};
        boolean grouped = false;
        Operator op;
        Table countTable = null;
        EagerAggregation.Shape eager = b.eager != null && eagerPays(b.eager) ? b.eager : null;
        if (eager != null) {
            op = planEager(b, eager, lines);
        } else if (b.relations.isEmpty()) {
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
            JoinPlanner jp = new JoinPlanner(b, lines, presorted);
            jp.grouping = hints.grouping();
            op = jp.plan();
            if (hints.grouping() != null) {
                // the walk in the key's order took (or not): the window then sees each partition's rows together
                grouped = presorted[0];
                presorted[0] = false;
                if (grouped && hints.limited()) {
                    DerivedAccess.stoppedByLimit(op);
                }
            }
            if (b.countStarOnly && b.relations.size() == 1 && b.where.isEmpty()
                    && b.relations.get(0).kind == Relation.Kind.TABLE) {
                countTable = b.relations.get(0).table;
            }
        }
        int[] carried;
        Operator countInput = null;
        if (b.aggregate) {
            countInput = b.countStarOnly ? op : null;
            op = eager != null ? Blocking.hashAggregate(op, eager.finalKeys(), eager.finalAggs(), b.group.table, b.group.number)
                    : b.groupingSets != null ? Blocking.groupingSets(op, b.groupingSets, b.aggregates, b.group.table, b.group.number)
                    : Blocking.hashAggregate(op, b.groupKeys, b.aggregates, b.group.table, b.group.number);
            if (!b.countStarOnly && b.explain) { // a lone COUNT(*) counts the rows above: the 2010 EXPLAIN shows only their path
                lines.add("hash aggregate: " + b.groupKeys.size() + " group key(s), " + b.aggregates.size() + " aggregate(s)"
                        + (b.groupingSets == null ? "" : ", " + b.groupingSets.size() + " grouping set(s), one pass each"));
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
        for (int s = 0; s < b.windows.size(); s++) {
            LogicalQuery.WindowStep w = b.windows.get(s);
            op = new io.respsql.exec.op.window.WindowOperator(op, carried, w.partitionKeys(), w.orderKeys(), w.functions(),
                    w.output().table, w.output().number, s == hints.step() ? hints.topK() : null, grouped);
            int[] more = java.util.Arrays.copyOf(carried, carried.length + 1);
            more[carried.length] = w.output().number;
            carried = more;
            if (b.explain) {
                lines.add("window: " + w.functions().length + " function(s) over " + w.partitionKeys().length
                        + " partition key(s), " + w.orderKeys().length + " order key(s)"
                        + (s == hints.step() && hints.topK() != null ? "; top-k per partition (" + w.functions()[hints.topK().function()]
                        .kind().sqlName() + (hints.topK().strict() ? " < " : " <= ") + hints.topK().bound().describe() + ")" : "")
                        + (grouped ? "; input grouped by partition" : ""));
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

    /**
     * Whether grouping below the dimension's join pays: the fact column has at most half as many
     * distinct values as its table has rows (else the early grouping barely shrinks the rows).
     */
    private static boolean eagerPays(EagerAggregation.Shape s) {
        Cardinality card = new Cardinality();
        return 2 * card.distinct(s.fact(), s.factColumn()) <= card.tableRows(s.fact());
    }

    /**
     * {@link EagerAggregation}: the block's other relations joined and grouped by the fact column,
     * then the dimension joined to the groups, by a probe of its unique index per group or a hash
     * join built on its rows, whichever costs less ({@link JoinPlanner}'s units). The block's
     * grouping then runs over these joined groups.
     */
    private static Operator planEager(LogicalQuery.Block b, EagerAggregation.Shape s, List<String> lines) {
        LogicalQuery.Block f = new LogicalQuery.Block();
        f.sql = b.sql;
        f.explain = b.explain;
        f.aggregate = true; // no ORDER BY walk: the rows are grouped next
        for (Relation r : b.relations) {
            if (r != s.dim()) {
                f.relations.add(r);
            }
        }
        f.where.addAll(s.factWhere());
        if (b.explain) {
            lines.add("eager aggregation: group by " + s.factKey().describe() + " before the join to " + s.dim().displayName()
                    + " on its unique key " + s.dimKey().name());
        }
        Operator op = new JoinPlanner(f, lines, new boolean[1]).plan();
        op = Blocking.hashAggregate(op, List.of(s.factKey()), s.preAggs(), s.pre().table, s.pre().number);
        if (b.explain) {
            lines.add("hash aggregate: 1 group key(s), " + s.preAggs().size() + " aggregate(s)");
        }
        Cardinality card = new Cardinality();
        Relation d = s.dim();
        double groups = Math.min(card.distinct(s.fact(), s.factColumn()), card.tableRows(s.fact()));
        AccessPlanner.Access a = AccessPlanner.choose(d, s.dimWhere(), null);
        double hashCost = JoinPlanner.HASH_SETUP + a.cost() + JoinPlanner.HASH_BUILD * card.rows(d, s.dimWhere())
                + JoinPlanner.HASH_PROBE * groups;
        io.respsql.storage.TableIndex ix = AccessPlanner.indexOn(d.table, s.dimKey());
        if (ix != null && ix.unique() && groups * (JoinPlanner.PROBE + JoinPlanner.FETCH) <= hashCost) {
            Expression filter = and(s.dimWhere());
            String how = !b.explain ? "" : "primary key probe on " + d.table.name() + " using " + ix.name() + " ("
                    + s.dimKey().name() + " = " + s.preKey().describe() + ")"
                    + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter));
            lines.add(how);
            io.respsql.exec.op.scan.KeyProbe probe = new io.respsql.exec.op.scan.KeyProbe(s.preKey(), s.dimKey().type(),
                    io.respsql.exec.op.scan.KeyProbe.Bound.EQ);
            return new IndexJoin(op, ix, d.number, probe, filter, false, 1, how);
        }
        if (b.explain) {
            lines.add("hash join (hash table on " + d.displayName() + ") with " + a.description());
        }
        Expression key = Expressions.column(s.dimKey(), d.number, s.dimKey().name());
        return Blocking.hashJoin(a.op(), new int[]{d.number}, new Expression[]{key}, op, new Expression[]{s.preKey()},
                false, null);
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

    /**
     * Greedy left-deep join order and the join operators of one block, from row estimates
     * ({@link Cardinality}). The first relation is the one with the fewest estimated rows after
     * its own conditions; then, step by step, the relation whose join costs least, each joined
     * the cheapest way: an index probe per joined tuple (few joined tuples, an index on the
     * relation's equi-join column), a hash join (the smaller side built, the bigger probing; a
     * LEFT JOIN always builds its nullable side, so the preserved rows probe), else nested loops.
     * A LEFT JOIN's relation waits for those before it. With ORDER BY one indexed column (and no
     * grouping), a second plan starts with that relation walked in key order and joins only in
     * ways that keep the order (probes, hash joins probed by the joined rows); it wins when it
     * costs less than the first plan and its sort, a LIMIT scaling its streamed part by the share
     * of the rows it needs.
     */
    static final class JoinPlanner {
        // Costs in units of one row read in sequence, fitted to SF 0.1 runs of seed 004's joins
        // (bench/joins/README.md): 50,000 probes of orders_customer_id reaching 300,000 orders took
        // about 0.4x the time of hashing the 50,000 customers and probing with 300,000 orders, and
        // 0.2x that of hashing the 300,000 orders (a LEFT JOIN's build side). Building is the dear part.
        // HASH_BUILD refitted after HashJoin's flat build (bench/joins/hashjoin-ab/README.md: the same
        // shapes in one JVM solved for a build and a probe cost per tuple, in units of the index
        // plan: build 10.5-18.5 and probe ~5 for the new operator, 18-35 and ~9 for the old one).
        /** An index descent for one joined tuple. */
        private static final double PROBE = 10;
        /** A row reached through an index (random access, a cache miss). */
        private static final double FETCH = 5;
        /** Per tuple put into / looked up in a hash table; and a hash table's fixed cost. */
        private static final double HASH_BUILD = 12;
        private static final double HASH_PROBE = 5;
        private static final double HASH_SETUP = 100;
        /**
         * A probe into a hash table of at most this many tuples costs {@link #HASH_PROBE_SMALL}: the
         * table stays in cache (SF 0.1: 10,000 products hashed and 750,000 items streaming through
         * them beat 10,000 probes of order_items_product_id reaching the same 750,000 rows at random,
         * 4,260 ms inline against 1,498 ms for the all-hash plan of Q08/Q30 in the same minute).
         */
        private static final double SMALL_BUILD = 65_536;
        private static final double HASH_PROBE_SMALL = 2;

        private final LogicalQuery.Block b;
        private final List<String> lines;
        private final boolean[] presorted;
        private final long block;
        private final Cardinality card = new Cardinality();
        /** Set for a derived table's block: walk its one relation in this key's order (a window's partitions together). */
        LogicalQuery.OrderKey grouping;

        JoinPlanner(LogicalQuery.Block b, List<String> lines, boolean[] presorted) {
            this.b = b;
            this.lines = lines;
            this.presorted = presorted;
            long m = 0;
            for (Relation r : b.relations) {
                m |= r.bit();
            }
            this.block = m;
        }

        /** One candidate plan: the first relation's access, then one step per other relation. */
        private static final class Plan {
            Relation first;
            AccessPlanner.Access access;
            final List<Step> steps = new ArrayList<>();
            /** Conditions no step took (defensive). */
            Expression leftover;
            double rows;
            /** Cost paid before the first tuple comes out (hash builds) and per tuple streamed. */
            double blocking;
            double streamed;
            boolean ordered;
        }

        Operator plan() {
            Plan p;
            if (grouping != null && b.relations.size() == 1) {
                p = greedy(grouping, false);
            } else if (b.relations.size() == 1) {
                p = greedy(orderHint(), false);
            } else {
                p = greedy(null, false);
                LogicalQuery.OrderKey hint = orderHint();
                Plan o = hint == null ? null : greedy(hint, true);
                if (o != null && cost(o) < cost(p) + sortCost(p.rows)) {
                    p = o;
                }
            }
            Operator op = p.access.op();
            presorted[0] = p.ordered;
            if (p.ordered && needed() >= 0 && op instanceof io.respsql.exec.op.scan.IndexRange walk) {
                walk.stoppedByLimit(); // the background-query estimate: not a read of the whole index
            }
            List<String> steps = b.explain ? new ArrayList<>() : NO_LINES;
            StringBuilder order = new StringBuilder("join order: ");
            steps.add(p.access.description());
            if (b.explain) {
                order.append(p.first.displayName());
            }
            for (Step s : p.steps) {
                op = s.build(op);
                steps.add(s.description);
                if (s.after != null) {
                    op = new Filter(op, s.after);
                    if (b.explain) {
                        steps.add("filter " + io.respsql.exec.op.Describe.condition(s.after));
                    }
                }
                if (b.explain) {
                    order.append(" -> ").append(s.relation.displayName());
                }
            }
            if (p.leftover != null) {
                op = new Filter(op, p.leftover);
                if (b.explain) {
                    steps.add("filter " + io.respsql.exec.op.Describe.condition(p.leftover));
                }
            }
            if (b.relations.size() > 1) {
                lines.add(order.toString());
            }
            lines.addAll(steps);
            return op;
        }

        /** Rows the block needs from its joins: LIMIT + OFFSET, or all (-1). */
        private double needed() {
            return b.limit >= 0 && !b.aggregate && !b.distinct && b.windows.isEmpty() ? (double) b.limit + b.offset : -1;
        }

        /** A plan's cost: its streamed part scaled down when a LIMIT stops it early (only an ordered plan stops early). */
        private double cost(Plan p) {
            double need = needed();
            double share = p.ordered && need >= 0 ? Math.min(1, need / Math.max(1, p.rows)) : 1;
            return p.blocking + share * p.streamed;
        }

        /** What sorting the joined rows costs (a top-N heap with a LIMIT); nothing without ORDER BY. */
        private double sortCost(double rows) {
            if (b.order.isEmpty()) {
                return 0;
            }
            return needed() >= 0 ? 2 * rows : rows * (1 + Math.log(Math.max(2, rows)) / Math.log(2));
        }

        /**
         * The greedy plan. With {@code hint}: the hinted relation first; with {@code mustOrder} too,
         * null unless its access gives the order, and only order-keeping steps.
         */
        private Plan greedy(LogicalQuery.OrderKey hint, boolean mustOrder) {
            List<Conjunct> pending = new ArrayList<>(b.where);
            List<Relation> remaining = new ArrayList<>(b.relations);
            Plan p = new Plan();
            if (mustOrder) {
                Relation r = hint.relation();
                if (r.dependsOn != 0 || r.outerJoined) {
                    return null;
                }
                List<Conjunct> own = ownConditions(r, 0, pending);
                p.access = AccessPlanner.choose(r, own, hint, needed() >= 0);
                if (!p.access.ordered()) {
                    return null;
                }
                p.first = r;
                p.rows = card.rows(r, own);
            } else {
                for (Relation r : remaining) {
                    if (r.dependsOn != 0) {
                        continue;
                    }
                    List<Conjunct> own = ownConditions(r, 0, pending);
                    double rows = card.rows(r, own);
                    AccessPlanner.Access a = AccessPlanner.choose(r, own, hint, hint != null && needed() >= 0);
                    if (p.first == null || rows < p.rows || (rows == p.rows && a.cost() < p.access.cost())) {
                        p.first = r;
                        p.access = a;
                        p.rows = rows;
                    }
                }
            }
            pending.removeAll(ownConditions(p.first, 0, pending));
            remaining.remove(p.first);
            p.ordered = p.access.ordered() && (mustOrder || remaining.isEmpty());
            p.streamed = p.access.cost();
            long placed = p.first.bit();
            double need = needed();
            while (!remaining.isEmpty()) {
                Step best = null;
                double bestScore = 0;
                for (Relation r : remaining) {
                    if ((r.dependsOn & ~placed) != 0) {
                        continue;
                    }
                    Step s = step(r, placed, pending, p.rows, mustOrder, mustOrder ? need : -1);
                    double score = s.blocking + s.share * s.streamed;
                    // A relation with a join term to the joined ones before any cross product (as most planners).
                    if (best == null || (s.connected && !best.connected) || (s.connected == best.connected && score < bestScore)) {
                        best = s;
                        bestScore = score;
                    }
                }
                remaining.remove(best.relation);
                pending.removeAll(best.consumed);
                placed |= best.relation.bit();
                if (best.relation.outerJoined) {
                    // WHERE terms on the nullable side filter after the join (a NULL row may fail them).
                    List<Conjunct> after = ready(placed, pending);
                    pending.removeAll(after);
                    antiJoin(best, after);
                    best.after = and(after);
                }
                p.steps.add(best);
                p.rows = best.rows;
                p.blocking += best.blocking;
                p.streamed += best.streamed;
            }
            p.leftover = and(pending);
            return p;
        }

        /**
         * Makes LEFT JOIN step {@code s} an anti-join when a term of {@code after} is an IS NULL that
         * only the NULL-extended rows pass ({@link AntiJoinRule}), dropping that term; kept as is
         * when neither its index probe nor an exact key set can serve it.
         */
        private void antiJoin(Step s, List<Conjunct> after) {
            Conjunct isNull = AntiJoinRule.isNullTerm(s.relation, after);
            if (isNull == null || (s.index == null && (s.access == null || s.equi == null))) {
                return;
            }
            if (s.index == null && (s.antiKeys = AntiJoinRule.hashKeys(s.relation, block)) == null) {
                return;
            }
            after.remove(isNull);
            s.anti = true;
            if (b.explain) {
                s.description = "anti join (rows without a match, " + isNull.text + "): " + s.description;
            }
        }

        /**
         * The ORDER BY an index walk could give: one plain column of a relation of the block, its
         * NULL placement the index's, and no grouping, DISTINCT or window between the rows and the order.
         */
        private LogicalQuery.OrderKey orderHint() {
            if (b.aggregate || b.distinct || !b.windows.isEmpty() || b.order.size() != 1) {
                return null;
            }
            LogicalQuery.OrderKey k = b.order.get(0);
            return k.column() != null && b.relations.contains(k.relation()) && k.nullsFirst() == k.descending() ? k : null;
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

        /** The block relation that is exactly {@code bits}, or null. */
        private Relation relationOf(long bits) {
            for (Relation r : b.relations) {
                if (r.bit() == bits) {
                    return r;
                }
            }
            return null;
        }

        /**
         * The cheapest way to join relation {@code r} to the {@code placed} ones (about
         * {@code outRows} tuples): an index probe, a hash join or nested loops, with its cost and
         * the joined rows it is estimated to give. {@code keepOrder}: only ways that keep the
         * joined tuples' order (a hash join then builds on {@code r}); {@code need} >= 0: a LIMIT
         * stops such a plan after about that many rows, so only that share of the streamed cost counts.
         */
        private Step step(Relation r, long placed, List<Conjunct> pending, double outRows, boolean keepOrder, double need) {
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
            s.connected = !cross.isEmpty();
            double inRows = card.rows(r, own);

            // The joined rows: an equality divides by the larger side's distinct keys, any other term by a default.
            double rows = outRows * inRows;
            for (Conjunct c : cross) {
                double sel = Cardinality.OTHER;
                for (Conjunct.Sarg sa : c.sargs) {
                    if (sa.relation == r && sa.op == Conjunct.Op.EQ && (sa.valueRels & block & ~placed) == 0) {
                        double ndv = Math.min(inRows, card.distinct(r, sa.column));
                        io.respsql.storage.Column oc = Expressions.referencedColumn(sa.values[0]);
                        Relation or = oc == null ? null : relationOf(sa.valueRels & block);
                        if (or != null) {
                            ndv = Math.max(ndv, Math.min(outRows, card.distinct(or, oc)));
                        }
                        sel = 1 / Math.max(1, ndv);
                        break;
                    }
                }
                rows *= sel;
            }
            s.rows = Math.max(1, r.outerJoined ? Math.max(rows, outRows) : rows);
            s.share = need >= 0 ? Math.min(1, need / s.rows) : 1;

            // An index probe keyed by the joined rows.
            double indexCost = Double.MAX_VALUE;
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
                        double perProbe = ix.unique() ? 1 : card.tableRows(r) / card.distinct(r, sa.column);
                        double cost = outRows * (PROBE + perProbe * FETCH);
                        if (s.index == null || cost < indexCost || (cost == indexCost && ix.isPrimary())) {
                            s.index = ix;
                            s.key = sa;
                            s.perProbe = perProbe;
                            indexCost = cost;
                        }
                    }
                }
            }

            // A hash join on the equi-join columns, or nested loops over the relation's own access path.
            AccessPlanner.Access a = AccessPlanner.choose(r, own, null);
            boolean connected = false;
            for (Conjunct c : cross) {
                for (Conjunct.Sarg sa : c.sargs) {
                    connected |= sa.relation == r && sa.op == Conjunct.Op.EQ;
                }
            }
            List<Expression[]> equi = connected ? equiKeys(r, cross) : null;
            double otherBlocking;
            double otherStreamed;
            boolean buildOuter = false;
            if (equi != null) {
                buildOuter = !keepOrder && !r.outerJoined && outRows < inRows;
                if (buildOuter) { // the joined rows into the table, the relation's rows probe it as they stream
                    otherBlocking = HASH_SETUP + HASH_BUILD * outRows;
                    otherStreamed = a.cost() + (outRows <= SMALL_BUILD ? HASH_PROBE_SMALL : HASH_PROBE) * inRows;
                } else {
                    otherBlocking = HASH_SETUP + a.cost() + HASH_BUILD * inRows;
                    otherStreamed = (inRows <= SMALL_BUILD ? HASH_PROBE_SMALL : HASH_PROBE) * outRows;
                }
            } else { // the inner side is buffered once, then every pair is tried
                otherBlocking = a.cost();
                otherStreamed = outRows * inRows;
            }
            if (s.index != null && s.share * indexCost <= otherBlocking + s.share * otherStreamed) {
                s.streamed = indexCost + s.rows;
                List<Conjunct> filter = new ArrayList<>(own);
                filter.addAll(cross);
                s.filter = and(filter);
                s.description = !b.explain ? "" : (s.index.isPrimary() ? "primary key probe" : "index probe") + " on " + r.table.name()
                        + " using " + s.index.name() + " (" + s.key.column.name() + " = " + s.key.values[0].describe() + ")"
                        + (s.filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(s.filter));
                return s;
            }
            s.index = null;
            s.key = null;
            s.access = a;
            s.condition = and(cross);
            s.residual = equi == null ? s.condition : and(notCoveredByKeys(r, cross));
            s.equi = equi;
            s.buildOuter = buildOuter;
            s.blocking = otherBlocking;
            s.streamed = otherStreamed + s.rows;
            if (b.explain) {
                String how = equi != null
                        ? "hash join (hash table on " + (buildOuter ? "the joined rows" : r.displayName()) + ") with "
                        : "nested loop join with ";
                s.description = how + a.description() + (s.condition == null ? "" : "; on " + io.respsql.exec.op.Describe.condition(s.condition));
            } else {
                s.description = "";
            }
            return s;
        }

        /**
         * The terms of {@code cross} a hash join on {@link #equiKeys} must still test per match: all
         * but those its keys decide exactly (an integer or TEXT column = a value of the same kind,
         * as written: the hash table's equality is the comparison's; numbers meeting as doubles
         * stay, their hashed form is looser).
         */
        private List<Conjunct> notCoveredByKeys(Relation r, List<Conjunct> cross) {
            List<Conjunct> rest = new ArrayList<>();
            for (Conjunct c : cross) {
                boolean covered = false;
                for (Conjunct.Sarg sa : c.sargs) {
                    if (sa.relation == r && sa.op == Conjunct.Op.EQ) { // the one equiKeys takes
                        SqlType a = SqlTypes.of(sa.column.type());
                        SqlType v = sa.values[0].type();
                        boolean exactKind = a == SqlType.TEXT ? v == SqlType.TEXT
                                : a.isLongCarried() && (a == v || (a.isInteger() && v.isInteger()));
                        covered = sa.exact && exactKind;
                        break;
                    }
                }
                if (!covered) {
                    rest.add(c);
                }
            }
            return rest;
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
            String description;
            List<Conjunct> consumed;
            /** The share of the streamed cost that counts (a LIMIT stops an order-keeping plan early). */
            double share;
            /** A term links it to the joined relations (else it is a cross product). */
            boolean connected;
            /** Estimated joined rows after this step; its cost before the first tuple and per streamed tuple. */
            double rows;
            double blocking;
            double streamed;
            /** WHERE terms on a LEFT JOIN's nullable side, applied after it (or null). */
            Expression after;
            // index join
            io.respsql.storage.TableIndex index;
            Conjunct.Sarg key;
            /** Rows one probe of {@link #index} is estimated to find. */
            double perProbe;
            Expression filter;
            // nested loop / hash join
            AccessPlanner.Access access;
            Expression condition;
            /** What a hash join tests per match: {@link #condition} without the terms its keys decide. */
            Expression residual;
            List<Expression[]> equi;
            /** Hash join: the joined rows are the build side, this relation's rows probe (an inner join only). */
            boolean buildOuter;
            /** Set when the LEFT JOIN is an anti-join by a key set (inner keys, outer values); see {@link #antiJoin}. */
            Expression[][] antiKeys;
            /** The LEFT JOIN is an anti-join (by {@link #index}, or by {@link #antiKeys}). */
            boolean anti;

            Operator build(Operator outer) {
                Relation r = relation;
                if (anti && index == null) {
                    return io.respsql.exec.op.join.AntiJoin.byHash(outer, r.number, access.op(), antiKeys[0], antiKeys[1], description);
                }
                if (index != null) {
                    io.respsql.exec.op.scan.KeyProbe probe = new io.respsql.exec.op.scan.KeyProbe(key.values[0],
                            key.column.type(), io.respsql.exec.op.scan.KeyProbe.Bound.EQ);
                    if (anti) {
                        return io.respsql.exec.op.join.AntiJoin.byIndex(outer, index, r.number, probe, filter, description);
                    }
                    return new IndexJoin(outer, index, r.number, probe, filter, r.outerJoined, perProbe, description);
                }
                int[] innerRels = {r.number};
                if (equi != null) {
                    Expression[] inner = new Expression[equi.size()];
                    Expression[] joined = new Expression[equi.size()];
                    for (int i = 0; i < inner.length; i++) {
                        inner[i] = equi.get(i)[0];
                        joined[i] = equi.get(i)[1];
                    }
                    if (buildOuter) {
                        int[] outerRels = io.respsql.exec.op.TupleBuffer.relationsOf(outer.relations());
                        return Blocking.hashJoin(outer, outerRels, joined, access.op(), inner, false, residual);
                    }
                    return Blocking.hashJoin(access.op(), innerRels, inner, outer, joined, r.outerJoined, residual);
                }
                return new NestedLoopJoin(outer, access.op(), innerRels, condition, r.outerJoined);
            }
        }
    }
}
