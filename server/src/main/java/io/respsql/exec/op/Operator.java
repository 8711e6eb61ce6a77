package io.respsql.exec.op;

import io.respsql.expr.EvalContext;

import java.util.List;
import java.util.function.Consumer;

/**
 * A physical operator: produces tuples by setting row slots in the {@link EvalContext} and
 * pushing them to a consumer (push-based, as in DuckDB's pipelines and HyPer's produce/consume).
 * An operator is the plan: it holds no state of a run. What a run needs (a cursor, a hash
 * table, a sort buffer) lives in locals of {@link #run} or in objects it creates per run, so a
 * plan can be run again (a cached plan, a correlated subquery re-run per outer row).
 *
 * <p>Scans produce batches: they gather up to a batch of live slots of a chunk in a selection
 * vector, narrow it with {@link io.respsql.expr.Expression#filter}, then push each survivor.
 */
public interface Operator {
    /**
     * Pushes every tuple to {@code out}, stopping as soon as it returns false (LIMIT, EXISTS).
     * Returns false when stopped early.
     */
    boolean run(EvalContext ctx, TupleConsumer out);

    /** The relation numbers whose slots this operator sets (for EXPLAIN and join planning). */
    long relations();

    /** EXPLAIN lines: this operator then its inputs, indented by {@code depth}. */
    void explain(List<String> lines, int depth);

    /**
     * The operators this one pulls rows from (none for a scan), for walks over a plan such as its
     * rows-touched estimate ({@code plan.PlannedQuery#estimatedRowsTouched}). Subqueries in
     * expressions are not inputs: the planner keeps their plans beside the tree.
     */
    default void inputs(Consumer<Operator> each) {
    }

    /**
     * Rows this operator visits by itself, inputs not counted, from its access path and the
     * table's size now: a full scan or a whole-index walk of a base table its rows; a probe, a
     * bounded range, or an operator over its inputs' tuples 0 (for the yes/no of running a query
     * in the background, {@code bg-query-min-rows}, not a cost model).
     */
    default long rowsTouched() {
        return 0;
    }

    /** An estimate's ceiling (a product of joined inputs' rows saturates here; sums of it do not overflow). */
    long MANY_ROWS = 1L << 60;

    /** {@link #rowsTouched()} summed over {@code op} and every operator under it (subqueries not counted), at most {@link #MANY_ROWS}. */
    static long rowsTouchedUnder(Operator op) {
        long[] sum = {op.rowsTouched()};
        op.inputs(in -> sum[0] = Math.min(MANY_ROWS, sum[0] + rowsTouchedUnder(in)));
        return sum[0];
    }
}
