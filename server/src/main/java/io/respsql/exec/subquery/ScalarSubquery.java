package io.respsql.exec.subquery;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.util.List;

/**
 * {@code (SELECT x ...)} as a value: no row is NULL, more than one an error. An uncorrelated one
 * runs once per statement run (its value kept for the context it ran in); a correlated one
 * (reading outer rows' slots) runs again at every evaluation.
 */
public final class ScalarSubquery extends Expression {
    private final Operator plan;
    private final Expression output;
    private final long outerRefs;
    private final List<String> explain;
    private final TupleConsumer capture = this::capture;
    private EvalContext computedFor;
    /** The run of {@link #computedFor} it was computed in (a context kept for the next run counts them). */
    private long computedRun;
    private int rows;
    private boolean isNull;
    private long longValue;
    private double doubleValue;
    private byte[] text = new byte[32];
    private int textLength;

    public ScalarSubquery(Operator plan, Expression output, long outerRefs, List<String> explain) {
        super(output.type());
        this.plan = plan;
        this.output = output;
        this.outerRefs = outerRefs;
        this.explain = explain;
    }

    private void compute(EvalContext ctx) {
        if (outerRefs == 0 && computedFor == ctx && computedRun == ctx.run()) {
            return;
        }
        rows = 0;
        isNull = true;
        plan.run(ctx, capture);
        computedFor = outerRefs == 0 ? ctx : null;
        computedRun = ctx.run();
    }

    private boolean capture(EvalContext ctx) {
        if (++rows > 1) {
            throw new SqlException(SqlState.CARDINALITY_VIOLATION, "scalar subquery returned more than one row");
        }
        SqlType t = output.type();
        if (t.isTextCarried()) {
            byte[] b = output.evalText(ctx);
            if (!ctx.isNull) {
                if (text.length < ctx.textLength) {
                    text = new byte[Math.max(ctx.textLength, text.length * 2)];
                }
                System.arraycopy(b, ctx.textOffset, text, 0, ctx.textLength);
                textLength = ctx.textLength;
            }
        } else if (t == SqlType.DOUBLE) {
            doubleValue = output.evalDouble(ctx);
        } else if (t == SqlType.NULL) {
            ctx.isNull = true;
        } else {
            longValue = output.evalLong(ctx);
        }
        isNull = ctx.isNull;
        return true;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        compute(ctx);
        ctx.isNull = isNull;
        return longValue;
    }

    @Override
    public double evalDouble(EvalContext ctx) {
        compute(ctx);
        ctx.isNull = isNull;
        return type == SqlType.DOUBLE ? doubleValue : longValue;
    }

    @Override
    public byte[] evalText(EvalContext ctx) {
        compute(ctx);
        ctx.isNull = isNull;
        ctx.textOffset = 0;
        ctx.textLength = textLength;
        return text;
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
        return "(scalar subquery" + (outerRefs != 0 ? ", correlated" : "") + ")";
    }
}
