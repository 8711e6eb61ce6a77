package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;

import java.util.List;

/** No rows: the conditions on a relation cannot all hold ({@code id = 2.5} for an INT key). */
public final class EmptyScan implements Operator {
    private final long relations;
    private final String why;

    public EmptyScan(long relations, String why) {
        this.relations = relations;
        this.why = why;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        return true;
    }

    @Override
    public long relations() {
        return relations;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "no rows can match (" + why + ")");
    }
}
