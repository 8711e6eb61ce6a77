package io.respsql.exec.op.join;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/**
 * Every outer tuple with every inner tuple for which the condition holds (a cross product when
 * there is none). The inner side does not depend on the outer one, so it is run once per run and
 * its tuples (row slots) buffered; LEFT: an outer tuple nothing matched comes once with the inner
 * relations' slots -1 (their columns read as NULL).
 */
public final class NestedLoopJoin implements Operator {
    private final Operator outer;
    private final Operator inner;
    private final int[] innerRelations;
    private final Expression condition;
    private final boolean leftOuter;

    public NestedLoopJoin(Operator outer, Operator inner, int[] innerRelations, Expression condition, boolean leftOuter) {
        this.outer = outer;
        this.inner = inner;
        this.innerRelations = innerRelations;
        this.condition = condition;
        this.leftOuter = leftOuter;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        int w = innerRelations.length;
        IntArrayList buf = new IntArrayList();
        inner.run(ctx, c -> {
            for (int r : innerRelations) {
                buf.add(c.slots[r]);
            }
            return true;
        });
        int[] tuples = buf.elements();
        int n = buf.size() / w;
        if (n == 0 && !leftOuter) {
            return true;
        }
        // The outer input checks once per batch of its own rows, but each of its tuples costs n
        // here: count the inner tuples a block of CancelCheck.EVERY at a time (not n at once before
        // them), so even a huge inner side with an expensive condition stops within a block of row
        // pairs. Blocks keep the pair loop itself as tight as without a check.
        io.respsql.exec.op.CancelCheck check = io.respsql.exec.op.CancelCheck.of(ctx);
        return outer.run(ctx, c -> {
            int[] slots = c.slots;
            boolean matched = false;
            for (int from = 0; from < n; from += io.respsql.exec.op.CancelCheck.EVERY) {
                int to = Math.min(n, from + io.respsql.exec.op.CancelCheck.EVERY);
                for (int i = from, at = from * w; i < to; i++, at += w) {
                    for (int k = 0; k < w; k++) {
                        slots[innerRelations[k]] = tuples[at + k];
                    }
                    if (condition == null || condition.isTrue(c)) {
                        matched = true;
                        if (!out.accept(c)) {
                            return false;
                        }
                    }
                }
                if (check != null) {
                    check.add(to - from);
                }
            }
            if (check != null) {
                check.add(1); // the outer tuple itself (n may be 0 in a left join)
            }
            if (!matched && leftOuter) {
                for (int r : innerRelations) {
                    slots[r] = -1;
                }
                return out.accept(c);
            }
            return true;
        });
    }

    /**
     * Every outer tuple meets every inner one: the row pairs, not the inputs' sum (issue 22: a
     * cross join of two 3,000-row tables is 9 million pairs and goes to a worker). The inputs'
     * rows touched bound the tuples they produce; a filter is not credited, so a selective one
     * overestimates (the statement then runs on a worker, which is only slower to start).
     */
    @Override
    public long rowsTouched() {
        long o = Operator.rowsTouchedUnder(outer);
        long i = Operator.rowsTouchedUnder(inner);
        if (o <= 0 || i <= 0) {
            return 0;
        }
        return o > Operator.MANY_ROWS / i ? Operator.MANY_ROWS : o * i;
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(outer);
        each.accept(inner);
    }

    @Override
    public long relations() {
        return outer.relations() | inner.relations();
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + (leftOuter ? "left " : "") + "nested loop join"
                + (condition == null ? "" : " on " + io.respsql.exec.op.Describe.condition(condition)));
        outer.explain(lines, depth + 1);
        inner.explain(lines, depth + 1);
    }
}
