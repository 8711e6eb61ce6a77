package io.respsql.exec.op.distinct;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.LongKeyTable;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;

import java.util.List;

/**
 * SELECT DISTINCT: passes a tuple on only when its key values were not seen before in this run
 * (NULL equals NULL), so the first tuple of each distinct key goes through, in input order.
 * Streams: nothing is buffered but the keys seen.
 */
public final class Distinct implements Operator {
    private final Operator input;
    private final Keys keys;

    public Distinct(Operator input, Expression[] keys) {
        this.input = input;
        this.keys = new Keys(keys);
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (keys.singleLong()) {
            // one integer key: a primitive table on its value, no key buffer
            Expression key = keys.expression(0);
            LongKeyTable seenLong = new LongKeyTable();
            return input.run(ctx, c -> {
                long k = key.evalLong(c);
                if (c.isNull) {
                    seenLong.findOrAddNull();
                } else {
                    seenLong.findOrAdd(k);
                }
                return !seenLong.added || out.accept(c);
            });
        }
        KeyBuffer buf = keys.newBuffer();
        KeyTable seen = new KeyTable(keys.newStore());
        return input.run(ctx, c -> {
            keys.load(c, buf);
            seen.findOrAdd(buf);
            return !seen.added || out.accept(c);
        });
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
        lines.add("  ".repeat(depth) + "Distinct " + keys.describe());
        input.explain(lines, depth + 1);
    }
}
