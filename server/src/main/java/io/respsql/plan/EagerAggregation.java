package io.respsql.plan;

import io.respsql.exec.op.aggregate.AggregateSpec;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Eager aggregation (group-by pushdown) below an inner join to a dimension's unique key: in
 * {@code SELECT ... FROM f JOIN d ON d.k = f.c ... GROUP BY d.x, d.k}, with {@code d.k} unique,
 * every group is the rows of one {@code f.c} value that has a {@code d} row. So the other
 * relations' rows are grouped by {@code f.c} alone first (a single integer key over the fact
 * rows, often a dense array), and {@code d} is joined to the groups, not to the rows. Each group
 * then meets at most one {@code d} row, so a group's aggregates are its pre-aggregated values as
 * they are (DISTINCT ones too); the block's own aggregate then only copies them (MAX of a single
 * value) beside its keys, and HAVING, windows and ORDER BY read the group relation unchanged.
 *
 * <p>Valid only when: every join is inner; {@code d} is a base table joined by one equality of
 * its unique (or captured primary key) integer column with an integer column of another
 * relation, and by no other condition (conditions on {@code d} alone filter its rows); every
 * GROUP BY key reads only {@code d} or is that other column, and one of them is {@code d.k} or
 * {@code f.c} (so groups are one-to-one with {@code f.c} values); every aggregate reads only the
 * other relations (not GROUP_CONCAT, whose concatenation order would follow the new plan), or is
 * MIN/MAX of {@code d} alone (a bare column); nothing after grouping reads the FROM rows. A NULL
 * {@code f.c} forms a group that no {@code d} row matches, as the join drops those rows.
 */
final class EagerAggregation {
    private EagerAggregation() {
    }

    /** Off: blocks are planned as written (the differential test plans each query both ways). */
    static volatile boolean enabled = !Boolean.getBoolean("respsql.eagerAggregation.off");

    /**
     * A block the transform applies to. {@code pre}: the groups of the other relations by
     * {@code factKey} (column 0) and {@code preAggs}; {@code finalKeys}/{@code finalAggs}: the
     * block's grouping over {@code pre} joined to {@code dim}, into the block's group relation.
     */
    record Shape(Relation dim, Column dimKey, Relation fact, Column factColumn, Expression factKey, Relation pre,
                 List<Conjunct> factWhere, List<Conjunct> dimWhere, List<AggregateSpec> preAggs,
                 List<Expression> finalKeys, List<AggregateSpec> finalAggs) {
        /** The pre-aggregated key as the dimension probe reads it. */
        Expression preKey() {
            return Expressions.column(pre.table.column(0), pre.number, "key");
        }
    }

    /** The shape of {@code b} when the transform applies (numbering its pre-aggregation relation), else null. */
    static Shape find(LogicalQuery.Block b, QueryBinder binder) {
        if (!enabled || !b.aggregate || b.groupKeys.isEmpty() || b.groupingSets != null || b.relations.size() < 2
                || binder.relationCount() >= QueryBinder.MAX_RELATIONS) {
            return null;
        }
        long block = 0;
        for (Relation r : b.relations) {
            if (r.outerJoined || r.dependsOn != 0) {
                return null;
            }
            block |= r.bit();
        }
        if (readsRows(b, block)) {
            return null;
        }
        for (Relation d : b.relations) {
            Shape s = tryDimension(b, d, block, binder);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /** Whether anything evaluated after grouping reads a FROM relation's slot (it would not be set the same way). */
    private static boolean readsRows(LogicalQuery.Block b, long block) {
        List<Expression> after = new ArrayList<>(b.outputs);
        if (b.having != null) {
            after.add(b.having);
        }
        for (LogicalQuery.OrderKey k : b.order) {
            after.add(k.expr());
        }
        for (LogicalQuery.WindowStep w : b.windows) {
            after.addAll(List.of(w.partitionKeys()));
            for (io.respsql.exec.op.window.WindowSortKey k : w.orderKeys()) {
                after.add(k.expr());
            }
            for (io.respsql.exec.op.window.WindowFunctionSpec f : w.functions()) {
                for (Expression a : f.args()) {
                    if (a != null) {
                        after.add(a);
                    }
                }
            }
        }
        for (Expression e : after) {
            if ((e.relations() & block) != 0) {
                return true;
            }
        }
        return false;
    }

    private static Shape tryDimension(LogicalQuery.Block b, Relation d, long block, QueryBinder binder) {
        if (d.kind != Relation.Kind.TABLE) {
            return null;
        }
        List<Conjunct> factWhere = new ArrayList<>();
        List<Conjunct> dimWhere = new ArrayList<>();
        Conjunct.Sarg join = null;
        for (Conjunct c : b.where) {
            long m = c.rels & block;
            if ((m & d.bit()) == 0) {
                factWhere.add(c);
            } else if (m == d.bit() && (c.rels & ~block) == 0) {
                dimWhere.add(c); // filters d's rows (a correlated one stays out: keep it simple)
            } else if (join == null && (join = joinKey(c, d, block)) != null) {
                continue;
            } else {
                return null;
            }
        }
        if (join == null) {
            return null;
        }
        Expression factKey = join.values[0];
        Column factColumn = Expressions.referencedColumn(factKey);
        Relation fact = null;
        for (Relation r : b.relations) {
            if (r.bit() == factKey.relations()) {
                fact = r;
            }
        }
        // The keys: d's (functionally dependent on d.k) or the fact column itself; one fixes the group's f.c.
        boolean determined = false;
        for (Expression k : b.groupKeys) {
            long m = k.relations() & block;
            Column c = Expressions.referencedColumn(k);
            if (c != null && ((m == d.bit() && c == join.column) || (m == fact.bit() && c == factColumn))) {
                determined = true;
            } else if ((m & ~d.bit()) != 0) {
                return null;
            }
        }
        if (!determined) {
            return null;
        }
        List<AggregateSpec> preAggs = new ArrayList<>();
        for (AggregateSpec a : b.aggregates) {
            if (a.kind() == AggregateSpec.Kind.GROUP_CONCAT || !a.plain()
                    || (a.argument() != null && a.argument().type() == io.respsql.expr.SqlType.NULL)) {
                return null;
            }
            long m = a.argument() == null ? 0 : a.argument().relations();
            if ((m & d.bit()) == 0) {
                preAggs.add(a);
            } else if ((m & block) != d.bit()
                    || (a.kind() != AggregateSpec.Kind.MIN && a.kind() != AggregateSpec.Kind.MAX)) {
                return null; // COUNT/SUM of d's columns count the group's rows, which the groups no longer are
            }
        }

        // The pre-aggregation's relation: the key, then the other relations' aggregates.
        List<ColumnSpec> specs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        names.add("key");
        specs.add(new ColumnSpec("key", factColumn.type(), false, null));
        for (int i = 0; i < preAggs.size(); i++) {
            names.add("partial_" + (i + 1));
            specs.add(new ColumnSpec(names.get(i + 1), SqlTypes.storageOf(preAggs.get(i).resultType()), false, null));
        }
        Relation pre = binder.newRelation(Relation.Kind.GROUP, null, Table.workTable("eager", specs), names);

        List<Expression> finalKeys = new ArrayList<>();
        for (Expression k : b.groupKeys) {
            finalKeys.add((k.relations() & block) == fact.bit() ? Expressions.column(pre.table.column(0), pre.number, "key") : k);
        }
        List<AggregateSpec> finalAggs = new ArrayList<>();
        int p = 0;
        for (AggregateSpec a : b.aggregates) {
            if (p < preAggs.size() && preAggs.get(p) == a) {
                p++;
                Expression partial = Expressions.column(pre.table.column(p), pre.number, names.get(p));
                finalAggs.add(new AggregateSpec(AggregateSpec.Kind.MAX, partial, false)); // one value per group
            } else {
                finalAggs.add(a); // MIN/MAX of d's columns: its one row per group
            }
        }
        return new Shape(d, join.column, fact, factColumn, factKey, pre, factWhere, dimWhere, preAggs, finalKeys, finalAggs);
    }

    /** {@code d.k = f.c}: d's unique integer column equal to an integer column of one other relation; else null. */
    private static Conjunct.Sarg joinKey(Conjunct c, Relation d, long block) {
        if (c.orBranches != null) {
            return null;
        }
        for (Conjunct.Sarg sa : c.sargs) {
            if (sa.relation != d || sa.op != Conjunct.Op.EQ || sa.values.length != 1) {
                continue;
            }
            Expression v = sa.values[0];
            Column fc = Expressions.referencedColumn(v);
            long vr = v.relations();
            if (fc != null && Long.bitCount(vr) == 1 && (vr & block) == vr && vr != d.bit() && c.rels == (d.bit() | vr) && sa.column.type().isInteger()
                    && fc.type().isInteger() && d.table.uniqueValues(sa.column)) {
                return sa;
            }
        }
        return null;
    }
}
