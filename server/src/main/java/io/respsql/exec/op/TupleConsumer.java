package io.respsql.exec.op;

import io.respsql.expr.EvalContext;

/** Takes one tuple (the slots now in the context); false stops the producer. */
@FunctionalInterface
public interface TupleConsumer {
    boolean accept(EvalContext ctx);
}
