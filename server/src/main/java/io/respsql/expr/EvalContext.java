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
    /** The scale of the value {@link Expression#evalNumeric} returned (its digits after the point). */
    public int numScale;
    /**
     * Set by {@link Expression#evalNumeric} when the value does not fit its long form: the value
     * itself ({@link Numeric#NAN} for NaN), the returned long then meaningless; null otherwise.
     */
    public java.math.BigDecimal numBig;
    /** Statement start time (µs since the epoch), for CURRENT_TIMESTAMP and the like. */
    public long statementMicros;
    /** The statement's parameter values for this run ({@link Parameter}); null when it has none. */
    public ParamValues params;
    /** Non-null for a statement run on a worker thread: scans check it once per batch. */
    public Cancellation cancel;

    /**
     * Run state of the operators run in this context (a cursor, a selection vector, bounds),
     * by operator: an operator is the plan and holds none, as DuckDB keeps operator state apart
     * from the plan. Kept across {@link #reset()}: a plan that keeps its context for runs that
     * never overlap (a cached statement on the event loop) allocates it once.
     */
    private Object[] stateOwners;
    /**
     * Which run of this context it is: {@link #reset()} starts another. What is computed once per
     * run (an uncorrelated subquery's result) is tagged with the context and this number.
     */
    private long run;
    private Object[] states;
    private int stateCount;

    public EvalContext(int relations) {
        this.slots = new int[Math.max(relations, 1)];
    }

    /** Back to what the constructor made, for another run of the same statement. */
    public void reset() {
        run++;
        java.util.Arrays.fill(slots, 0);
        isNull = false;
        textOffset = 0;
        textLength = 0;
        statementMicros = 0;
        params = null;
        cancel = null;
    }

    /**
     * Takes {@code owner}'s run state kept here (null: none yet, or it is in use by a run of
     * {@code owner} that has not ended: then the caller makes its own). Give it back with
     * {@link #keep} when the run ends.
     */
    public Object take(Object owner) {
        Object[] o = stateOwners;
        for (int i = 0; i < stateCount; i++) {
            if (o[i] == owner) {
                Object s = states[i];
                states[i] = null;
                return s;
            }
        }
        return null;
    }

    /** Keeps {@code state} as {@code owner}'s for its next run in this context. */
    public void keep(Object owner, Object state) {
        Object[] o = stateOwners;
        for (int i = 0; i < stateCount; i++) {
            if (o[i] == owner) {
                states[i] = state;
                return;
            }
        }
        if (o == null || stateCount == o.length) {
            int n = o == null ? 4 : o.length * 2;
            stateOwners = o = o == null ? new Object[n] : java.util.Arrays.copyOf(o, n);
            states = states == null ? new Object[n] : java.util.Arrays.copyOf(states, n);
        }
        o[stateCount] = owner;
        states[stateCount++] = state;
    }

    /** This context's run ({@link #reset()} counts them): with the context, the key of what is computed once per run. */
    public long run() {
        return run;
    }

    /** Grows the slot array when the binder numbered more relations than first thought. */
    public void ensureRelations(int relations) {
        if (slots.length < relations) {
            slots = java.util.Arrays.copyOf(slots, relations);
        }
    }
}
