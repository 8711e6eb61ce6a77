package io.respsql.exec.op;

import io.respsql.expr.Cancellation;
import io.respsql.expr.EvalContext;

/**
 * Counts the inner work of an operator whose output is not bounded by a scan's batches (a nested
 * loop's inner tuples per outer one, a hash probe's matches, a sort's comparisons and replay) and
 * checks the statement's {@link Cancellation} once per {@link #EVERY} units: one add and compare
 * per unit, one volatile (and clock) read per batch. Null when the run is not cancellable.
 */
public final class CancelCheck {
    public static final int EVERY = 1024;
    private final Cancellation cancel;
    private int work;

    private CancelCheck(Cancellation cancel) {
        this.cancel = cancel;
    }

    /** A counter for one run of an operator; null when {@code ctx} carries no cancellation. */
    public static CancelCheck of(EvalContext ctx) {
        return ctx.cancel == null ? null : new CancelCheck(ctx.cancel);
    }

    /** Adds {@code n} units of work; checks (and may throw the statement's error) past a batch. */
    public void add(int n) {
        if ((work += n) >= EVERY) {
            work = 0;
            cancel.check();
        }
    }
}
