package io.respsql.exec.op.join;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.exec.op.scan.KeyProbe;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.TableIndex;

import java.util.List;

/**
 * For each outer tuple, the inner table's rows found by probing an index with a key computed
 * from the outer tuple ({@code inner.col = outer expression}); the filter holds the join's other
 * conditions and re-checks what the key does not decide. LEFT: an outer tuple without a match
 * comes once with the inner slot -1. One cursor per run, re-seeked per outer tuple.
 */
public final class IndexJoin implements Operator {
    private final Operator outer;
    private final TableIndex index;
    private final int relation;
    private final KeyProbe key;
    private final Expression filter;
    private final boolean leftOuter;
    /** The planner's estimate of the rows one probe finds (index entries per distinct key). */
    private final double perProbe;
    private final String description;

    public IndexJoin(Operator outer, TableIndex index, int relation, KeyProbe key, Expression filter, boolean leftOuter,
                     double perProbe, String description) {
        this.outer = outer;
        this.index = index;
        this.relation = relation;
        this.key = key;
        this.filter = filter;
        this.leftOuter = leftOuter;
        this.perProbe = perProbe;
        this.description = description;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (index.unique() && index.columnCount() == 1 && index.column().type().isInteger() && key.bound() == KeyProbe.Bound.EQ) {
            return runUnique(ctx, out);
        }
        LongIntBTree.Cursor cursor = index.tree().cursor();
        // A key shared by many rows makes one outer tuple cost many: count the matches.
        io.respsql.exec.op.CancelCheck check = io.respsql.exec.op.CancelCheck.of(ctx);
        return outer.run(ctx, c -> {
            int[] slots = c.slots;
            boolean matched = false;
            long k = key.key(c);
            if (!KeyProbe.none(c)) {
                for (boolean ok = cursor.seek(k); ok && cursor.key() == k; ok = cursor.next()) {
                    if (check != null) {
                        check.add(1);
                    }
                    slots[relation] = cursor.row();
                    if (filter == null || filter.isTrue(c)) {
                        matched = true;
                        if (!out.accept(c)) {
                            return false;
                        }
                    }
                }
            }
            if (!matched && leftOuter) {
                slots[relation] = -1;
                return out.accept(c);
            }
            return true;
        });
    }

    /**
     * A unique integer key (a primary key probe): at most one row per outer tuple, found by one
     * point lookup ({@link LongIntBTree#firstRow}) rather than a cursor seek and a step past it.
     */
    private boolean runUnique(EvalContext ctx, TupleConsumer out) {
        LongIntBTree tree = index.tree();
        return outer.run(ctx, c -> {
            long k = key.key(c);
            int row = KeyProbe.none(c) ? -1 : tree.firstRow(k);
            if (row >= 0) {
                c.slots[relation] = row;
                if (filter == null || filter.isTrue(c)) {
                    return out.accept(c);
                }
            }
            if (leftOuter) {
                c.slots[relation] = -1;
                return out.accept(c);
            }
            return true;
        });
    }

    /**
     * Probes driven by rows read whole: the driving rows times the rows a probe finds, at most the
     * index's entries (seed 004's Q07 scans 50,000 customers and probes orders and order_items by
     * their foreign keys, about 1M rows; counting the scan alone kept it on the event loop,
     * stalling every client for up to 1.5 s). Driven only by constant-key lookups (nothing below
     * reads a table whole): 0, a few probes.
     */
    @Override
    public long rowsTouched() {
        long driving = Operator.rowsTouchedUnder(outer);
        if (driving == 0) {
            return 0;
        }
        double found = index.unique() ? driving : driving * Math.max(1, perProbe);
        return (long) Math.min(index.tree().size(), found);
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(outer);
    }

    @Override
    public long relations() {
        return outer.relations() | (1L << relation);
    }

    public String describe() {
        return description + (filter == null ? "" : "; filter " + io.respsql.exec.op.Describe.condition(filter));
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + (leftOuter ? "left join: " : "") + describe());
        outer.explain(lines, depth + 1);
    }
}
