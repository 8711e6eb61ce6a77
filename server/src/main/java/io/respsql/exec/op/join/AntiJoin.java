package io.respsql.exec.op.join;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.LongKeyTable;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.exec.op.scan.KeyProbe;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.TableIndex;

import java.util.List;

/**
 * {@code outer LEFT JOIN relation ON ... WHERE relation.col IS NULL} where {@code col} is non-NULL
 * in every row that can match (NOT NULL, or the equi-join column): pushes each outer tuple that
 * has no match, once, with {@code slots[relation] = -1} (the NULL row), exactly the tuples the
 * LEFT JOIN and the filter would leave; the joined rows are never made. A tuple whose key is
 * NULL matches nothing and is kept.
 *
 * <p>Two ways, as the planner chose for the LEFT JOIN: by index, probing per outer tuple and
 * stopping at the first entry for which {@code filter} (the ON terms) is TRUE; or by hash, the
 * inner side's join keys (its own ON terms already applied by its access path) collected once
 * into a key set, a probe being one lookup. The hash way takes no residual: the planner uses it
 * only when the ON terms across the sides are exactly the key equalities.
 */
public final class AntiJoin implements Operator {
    private final Operator outer;
    private final int relation;
    // by index
    private final TableIndex index;
    private final KeyProbe key;
    private final Expression filter;
    // by hash
    private final Operator inner;
    private final Keys innerKeys;
    private final Keys outerKeys;
    private final String description;

    private AntiJoin(Operator outer, int relation, TableIndex index, KeyProbe key, Expression filter, Operator inner,
                     Expression[] innerKeys, Expression[] outerKeys, String description) {
        this.outer = outer;
        this.relation = relation;
        this.index = index;
        this.key = key;
        this.filter = filter;
        this.inner = inner;
        if (inner != null) {
            innerKeys = innerKeys.clone();
            outerKeys = outerKeys.clone();
            Keys.matchForms(innerKeys, outerKeys);
            byte[] kinds = Keys.unify(innerKeys, outerKeys);
            this.innerKeys = new Keys(innerKeys, kinds);
            this.outerKeys = new Keys(outerKeys, kinds);
        } else {
            this.innerKeys = null;
            this.outerKeys = null;
        }
        this.description = description;
    }

    /** Probes {@code index} (of relation {@code relation}) with {@code key} per outer tuple; {@code filter}: the ON terms (nullable). */
    public static AntiJoin byIndex(Operator outer, TableIndex index, int relation, KeyProbe key, Expression filter,
                                   String description) {
        return new AntiJoin(outer, relation, index, key, filter, null, null, null, description);
    }

    /** Collects {@code innerKeys} of {@code inner}'s tuples (relation {@code relation}) into a set, then probes it with {@code outerKeys}. */
    public static AntiJoin byHash(Operator outer, int relation, Operator inner, Expression[] innerKeys, Expression[] outerKeys,
                                  String description) {
        return new AntiJoin(outer, relation, null, null, null, inner, innerKeys, outerKeys, description);
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        return index != null ? runIndex(ctx, out) : innerKeys.singleLong() && outerKeys.singleLong()
                ? runLongHash(ctx, out) : runHash(ctx, out);
    }

    private boolean runIndex(EvalContext ctx, TupleConsumer out) {
        int rel = relation;
        if (index.unique() && index.columnCount() == 1 && index.column().type().isInteger() && key.bound() == KeyProbe.Bound.EQ) {
            LongIntBTree tree = index.tree();
            return outer.run(ctx, c -> {
                long k = key.key(c);
                int row = KeyProbe.none(c) ? -1 : tree.firstRow(k);
                if (row >= 0) {
                    c.slots[rel] = row;
                    if (filter == null || filter.isTrue(c)) {
                        return true;
                    }
                }
                c.slots[rel] = -1;
                return out.accept(c);
            });
        }
        LongIntBTree.Cursor cursor = index.tree().cursor();
        return outer.run(ctx, c -> {
            int[] slots = c.slots;
            long k = key.key(c);
            if (!KeyProbe.none(c)) {
                for (boolean ok = cursor.seek(k); ok && cursor.key() == k; ok = cursor.next()) {
                    slots[rel] = cursor.row();
                    if (filter == null || filter.isTrue(c)) {
                        return true; // a match: the LEFT JOIN's rows for this tuple all fail IS NULL
                    }
                }
            }
            slots[rel] = -1;
            return out.accept(c);
        });
    }

    private boolean runLongHash(EvalContext ctx, TupleConsumer out) {
        LongKeyTable set = new LongKeyTable();
        Expression ik = innerKeys.expression(0);
        inner.run(ctx, c -> {
            long k = ik.evalLong(c);
            if (!c.isNull) {
                set.findOrAdd(k);
            }
            return true;
        });
        Expression ok = outerKeys.expression(0);
        int rel = relation;
        return outer.run(ctx, c -> {
            long k = ok.evalLong(c);
            if (!c.isNull && set.find(k) >= 0) {
                return true;
            }
            c.isNull = false;
            c.slots[rel] = -1;
            return out.accept(c);
        });
    }

    private boolean runHash(EvalContext ctx, TupleConsumer out) {
        KeyTable set = new KeyTable(innerKeys.newStore());
        KeyBuffer ib = innerKeys.newBuffer();
        inner.run(ctx, c -> {
            innerKeys.load(c, ib);
            if (!ib.anyNull()) {
                set.findOrAdd(ib);
            }
            return true;
        });
        KeyBuffer ob = outerKeys.newBuffer();
        int rel = relation;
        return outer.run(ctx, c -> {
            outerKeys.load(c, ob);
            if (!ob.anyNull() && set.find(ob) >= 0) {
                return true;
            }
            c.slots[rel] = -1;
            return out.accept(c);
        });
    }

    /** Like {@link IndexJoin#rowsTouched}, a probe stopping at its first match; the hash way's inner scan is counted under it. */
    @Override
    public long rowsTouched() {
        if (index == null) {
            return 0;
        }
        long driving = Operator.rowsTouchedUnder(outer);
        return driving == 0 ? 0 : Math.min(index.tree().size(), driving);
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(outer);
        if (inner != null) {
            each.accept(inner);
        }
    }

    @Override
    public long relations() {
        return outer.relations() | (1L << relation);
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "anti join: " + description
                + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter)));
        outer.explain(lines, depth + 1);
        if (inner != null) {
            inner.explain(lines, depth + 1);
        }
    }
}
