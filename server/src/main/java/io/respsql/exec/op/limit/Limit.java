package io.respsql.exec.op.limit;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;

import java.util.List;

/** Skips {@code offset} tuples, passes at most {@code limit} (-1: no limit), then stops its input. */
public final class Limit implements Operator {
    private final Operator input;
    private final long limit;
    private final long offset;

    public Limit(Operator input, long limit, long offset) {
        this.input = input;
        this.limit = limit;
        this.offset = offset;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (limit == 0) {
            return true;
        }
        long[] seen = {0};
        long end = limit < 0 ? Long.MAX_VALUE : offset + limit;
        input.run(ctx, c -> {
            long n = ++seen[0];
            if (n <= offset) {
                return true;
            }
            if (!out.accept(c)) {
                seen[0] = Long.MIN_VALUE; // the consumer stopped us, not the limit
                return false;
            }
            return n < end;
        });
        return seen[0] >= 0;
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
        lines.add("  ".repeat(depth) + "limit " + limit + " offset " + offset);
        input.explain(lines, depth + 1);
    }
}
