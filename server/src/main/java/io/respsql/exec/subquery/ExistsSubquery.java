package io.respsql.exec.subquery;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;

import java.util.List;

/** {@code [NOT] EXISTS (SELECT ...)}: TRUE or FALSE, never NULL; stops its plan at the first row. */
public final class ExistsSubquery extends Expression {
    private static final TupleConsumer STOP = c -> false;
    private final Operator plan;
    private final boolean negated;
    private final long outerRefs;
    private final List<String> explain;
    private EvalContext computedFor;
    /** The run of {@link #computedFor} it was computed in (a context kept for the next run counts them). */
    private long computedRun;
    private boolean found;

    public ExistsSubquery(Operator plan, boolean negated, long outerRefs, List<String> explain) {
        super(SqlType.BOOLEAN);
        this.plan = plan;
        this.negated = negated;
        this.outerRefs = outerRefs;
        this.explain = explain;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        if (outerRefs != 0 || computedFor != ctx || computedRun != ctx.run()) {
            found = !plan.run(ctx, STOP);
            computedFor = outerRefs == 0 ? ctx : null;
            computedRun = ctx.run();
        }
        ctx.isNull = false;
        return found != negated ? 1 : 0;
    }

    @Override
    public long relations() {
        return outerRefs;
    }

    @Override
    public boolean isConstant() {
        return false;
    }

    public List<String> plan() {
        return explain;
    }

    @Override
    public String describe() {
        return (negated ? "NOT " : "") + "EXISTS (subquery" + (outerRefs != 0 ? ", correlated" : "") + ")";
    }
}
