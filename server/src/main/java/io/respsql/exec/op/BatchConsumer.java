package io.respsql.exec.op;

import io.respsql.expr.EvalContext;

/**
 * Takes a batch of one relation's row slots at once, {@code sel[0..n)} (a scan's selection vector
 * after its filter): an aggregate then runs one tight loop per key and accumulator instead of a
 * call chain per row. {@code sel} is the producer's and is reused for the next batch; false stops
 * the producer.
 */
@FunctionalInterface
public interface BatchConsumer {
    boolean acceptBatch(EvalContext ctx, int[] sel, int n);
}
