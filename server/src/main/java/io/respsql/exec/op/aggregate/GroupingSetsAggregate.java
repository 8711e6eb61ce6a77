package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;

import java.util.List;

/**
 * GROUPING SETS / ROLLUP / CUBE (issue 25): one {@link HashAggregate} per grouping set over the
 * same input, run one after the other (one pass over the input per set), each writing its groups
 * into the one output work table (keys a set rolls up are NULL there, the hidden grouping column
 * tells those from data NULLs) and pushing them; the first clears the table.
 */
public final class GroupingSetsAggregate implements Operator {
    private final HashAggregate[] sets;
    private final long relations;

    public GroupingSetsAggregate(HashAggregate[] sets) {
        if (sets.length == 0) {
            throw new IllegalArgumentException("no grouping set");
        }
        this.sets = sets.clone();
        this.relations = sets[0].relations();
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        for (HashAggregate s : sets) {
            if (!s.run(ctx, out)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        for (HashAggregate s : sets) {
            each.accept(s);
        }
    }

    @Override
    public long relations() {
        return relations;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "GroupingSets (" + sets.length + " sets, one hash aggregation each)");
        for (HashAggregate s : sets) {
            s.explain(lines, depth + 1);
        }
    }
}
