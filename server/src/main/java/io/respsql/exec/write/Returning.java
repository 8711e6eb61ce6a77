package io.respsql.exec.write;

import io.respsql.exec.ResultWriter;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;

/**
 * {@code RETURNING expr, ...} of an INSERT, UPDATE or DELETE (PostgreSQL's): the projection the
 * write operator hands the rows it affected to (the new values of an inserted or updated row, the
 * old of a deleted one, read before the slot is freed), written to the statement's {@link
 * ResultSink} as a query's rows are. A write without RETURNING has none and pays nothing. An
 * {@code UPDATE ... FROM} or {@code DELETE ... USING} row carries the slots of the rows it joined
 * ({@link WriteRun#at}), so RETURNING may name those tables too.
 */
public final class Returning {
    private final Expression[] outputs;
    private final ResultColumns columns;
    private final ResultWriter writer = new ResultWriter();
    /** Slots of the statement's contexts (its relations numbered). */
    private final int contextSlots;

    public Returning(Expression[] outputs, ResultColumns columns, int contextSlots) {
        this.outputs = outputs;
        this.columns = columns;
        this.contextSlots = contextSlots;
    }

    /** The result's columns (pgwire's RowDescription). */
    public ResultColumns columns() {
        return columns;
    }

    /** A context for a write that has none of its own (INSERT). */
    EvalContext newContext() {
        return new EvalContext(contextSlots);
    }

    /** Writes the result: {@code n} rows of the table, the i-th in slot {@code rows[i]}. */
    void emit(EvalContext ctx, int[] rows, int n, ResultSink sink) {
        sink.columns(columns, n);
        int[] slots = ctx.slots;
        for (int i = 0; i < n; i++) {
            slots[0] = rows[i];
            row(ctx, sink);
        }
        sink.end();
    }

    /** Writes the result: the {@code n} rows an UPDATE or DELETE collected in {@code run}. */
    void emit(WriteRun run, int[] rows, int n, ResultSink sink) {
        EvalContext ctx = run.ctx;
        sink.columns(columns, n);
        for (int i = 0; i < n; i++) {
            run.at(ctx, rows, i);
            row(ctx, sink);
        }
        sink.end();
    }

    private void row(EvalContext ctx, ResultSink sink) {
        sink.beginRow();
        for (Expression e : outputs) {
            writer.emit(e, ctx, sink);
        }
        sink.endRow();
    }
}
