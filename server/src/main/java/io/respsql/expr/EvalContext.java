package io.respsql.expr;

/**
 * The state one evaluation reads and writes: the current row slot of every relation of the
 * statement, and the out-values of the last {@code eval*} call. One instance per running
 * statement, reused for every row, so evaluation allocates nothing.
 *
 * <p>Relations are numbered once per statement by the binder, across every query block
 * (subqueries included), so a correlated subquery reads its outer row's slot directly.
 */
public final class EvalContext {
    /** Row slot per relation; -1 is the all-NULL row an outer join adds. */
    public int[] slots;
    /** Set by every {@code eval*} call: the value is NULL (the returned value is then meaningless). */
    public boolean isNull;
    /** Set by {@link Expression#evalText}: where the value's bytes start and how many. */
    public int textOffset;
    public int textLength;
    /** Statement start time (µs since the epoch), for CURRENT_TIMESTAMP and the like. */
    public long statementMicros;
    /** The statement's parameter values for this run ({@link Parameter}); null when it has none. */
    public ParamValues params;
    /** Non-null for a statement run on a worker thread: scans check it once per batch. */
    public Cancellation cancel;

    public EvalContext(int relations) {
        this.slots = new int[Math.max(relations, 1)];
    }

    /** Back to what the constructor made, for another run of the same statement. */
    public void reset() {
        java.util.Arrays.fill(slots, 0);
        isNull = false;
        textOffset = 0;
        textLength = 0;
        statementMicros = 0;
        params = null;
        cancel = null;
    }

    /** Grows the slot array when the binder numbered more relations than first thought. */
    public void ensureRelations(int relations) {
        if (slots.length < relations) {
            slots = java.util.Arrays.copyOf(slots, relations);
        }
    }
}
