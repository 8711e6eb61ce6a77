package io.respsql.exec.op.scan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;

import java.util.List;

/** One tuple of no relation: a SELECT without FROM. */
public final class OneRow implements Operator {
    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        return out.accept(ctx);
    }

    @Override
    public long relations() {
        return 0;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "one row (no FROM)");
    }
}
