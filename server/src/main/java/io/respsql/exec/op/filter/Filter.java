package io.respsql.exec.op.filter;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;

import java.util.List;

/**
 * Passes on the tuples for which the condition is TRUE (FALSE and UNKNOWN drop them): conditions
 * over several relations after a join, WHERE terms on the nullable side of a LEFT JOIN, HAVING.
 */
public final class Filter implements Operator {
    private final Operator input;
    private final Expression condition;

    public Filter(Operator input, Expression condition) {
        this.input = input;
        this.condition = condition;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        return input.run(ctx, c -> !condition.isTrue(c) || out.accept(c));
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(input);
    }

    @Override
    public long relations() {
        return input.relations();
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "filter " + io.respsql.exec.op.Describe.condition(condition));
        input.explain(lines, depth + 1);
    }
}
