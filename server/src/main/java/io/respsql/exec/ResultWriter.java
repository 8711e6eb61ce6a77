package io.respsql.exec;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/**
 * Runs a query plan and writes its rows into a {@link ResultSink}: the result tuples (their
 * relations' row slots) are gathered first, because the sink takes the row count before the
 * first row; then, per tuple, the slots are put back and each output expression's value goes to
 * the sink as a long, double, text or NULL. DATE and TIMESTAMP go as their text, BOOLEAN as 0/1.
 */
public final class ResultWriter {
    private static final byte[] EMPTY = new byte[0];
    private byte[] temporal;
    private io.respsql.expr.Interval.Printer intervalText;
    /** Above this many slots the tuple buffer is let go after the run. */
    private static final int KEEP_BUFFER = 1 << 16;
    /** The result tuples' slots, reused run after run (a writer belongs to one plan; one thread). */
    private IntArrayList buf = new IntArrayList();
    /** The slots of a one-relation result (most results): compact when they come in order ({@link TupleSlots}). */
    private final TupleSlots single = new TupleSlots();
    private int[] carriedNow;
    private int tuples;
    private final TupleConsumer gatherOne = c -> {
        single.add(c.slots[carriedNow[0]]);
        tuples++;
        return true;
    };
    private final TupleConsumer gather = c -> {
        int[] s = c.slots;
        for (int r : carriedNow) {
            buf.add(s[r]);
        }
        tuples++;
        return true;
    };

    /** Writes every row {@code root} produces; {@code carried} are the relations a tuple consists of. */
    public void write(Operator root, List<Expression> outputs, ResultColumns columns, int[] carried, EvalContext ctx,
                      ResultSink sink) {
        write(root, outputs.toArray(new Expression[0]), columns, carried, ctx, sink);
    }

    /** {@link #write(Operator, List, ResultColumns, int[], EvalContext, ResultSink)} with the outputs as an array. */
    public void write(Operator root, Expression[] outs, ResultColumns columns, int[] carried, EvalContext ctx,
                      ResultSink sink) {
        buf.clear();
        single.clear();
        tuples = 0;
        carriedNow = carried;
        int w = carried.length;
        boolean gathered = false;
        try {
            root.run(ctx, w == 1 ? gatherOne : gather);
            gathered = true;
        } finally {
            carriedNow = null;
            if (!gathered) {
                release(); // a cancel or an error mid-run: a cached plan must not keep what was gathered
            }
        }
        int n = tuples;
        sink.columns(columns, n);
        int[] slots = ctx.slots;
        // The event-loop bound stays armed while rows are encoded: until the first chunk leaves
        // (RespWriter tells the statement's Cancellation) an overrun can still be taken back and moved.
        io.respsql.expr.Cancellation cancel = ctx.cancel;
        if (w == 1) {
            int at = carried[0];
            try {
                int i = 0;
                for (int c = single.first(); c >= 0; c = single.next(c), i++) {
                    if (cancel != null && (i & 63) == 0) {
                        cancel.check(); // from the first row: a few rows with costly outputs take long too
                    }
                    slots[at] = single.slot(c);
                    sink.beginRow();
                    for (Expression e : outs) {
                        emit(e, ctx, sink);
                    }
                    sink.endRow();
                }
                sink.end();
            } finally {
                single.release();
            }
            return;
        }
        int[] rows = buf.elements();
        for (int i = 0, at = 0; i < n; i++, at += w) {
            if (cancel != null && (i & 63) == 0) {
                cancel.check(); // from the first row: a few rows with costly outputs take long too
            }
            for (int k = 0; k < w; k++) {
                slots[carried[k]] = rows[at + k];
            }
            sink.beginRow();
            for (Expression e : outs) {
                emit(e, ctx, sink);
            }
            sink.endRow();
        }
        sink.end();
        if (rows.length > KEEP_BUFFER) {
            buf = new IntArrayList();
        }
    }

    /** Lets large buffers go, as after a run. */
    private void release() {
        single.release();
        if (buf.elements().length > KEEP_BUFFER) {
            buf = new IntArrayList();
        }
    }

    /** Bytes the gather buffers hold now (for tests). */
    long heldBytes() {
        return single.heldBytes() + buf.elements().length * 4L;
    }

    /** The number of tuples {@code root} produces (a lone COUNT(*)). */
    public static long count(Operator root, EvalContext ctx) {
        long[] n = {0};
        root.run(ctx, c -> {
            n[0]++;
            return true;
        });
        return n[0];
    }

    /** Evaluates {@code e} on the current tuple and hands its value to the sink. */
    public void emit(Expression e, EvalContext ctx, ResultSink sink) {
        if (e.type().isArray()) { // arrays: their canonical text
            byte[] b = e.evalText(ctx);
            if (ctx.isNull) {
                sink.nullValue();
            } else {
                sink.textValue(b, ctx.textOffset, ctx.textLength);
            }
            return;
        }
        switch (e.type()) {
            case TEXT: {
                byte[] b = e.evalText(ctx);
                if (ctx.isNull) {
                    sink.nullValue();
                } else {
                    sink.textValue(b == null ? EMPTY : b, ctx.textOffset, ctx.textLength);
                }
                return;
            }
            case DOUBLE: {
                double d = e.evalDouble(ctx);
                if (ctx.isNull) {
                    sink.nullValue();
                } else {
                    sink.doubleValue(d);
                }
                return;
            }
            case NULL:
                sink.nullValue();
                return;
            case NUMERIC: { // its text, exactly as PostgreSQL prints it (typed replies and pgwire say NUMERIC)
                byte[] b = e.evalText(ctx);
                if (ctx.isNull) {
                    sink.nullValue();
                } else {
                    sink.textValue(b, ctx.textOffset, ctx.textLength);
                }
                return;
            }
            case INTERVAL: {
                byte[] b = e.evalText(ctx);
                if (ctx.isNull) {
                    sink.nullValue();
                } else {
                    if (intervalText == null) {
                        intervalText = new io.respsql.expr.Interval.Printer();
                    }
                    int len = intervalText.print(b, ctx.textOffset);
                    sink.textValue(intervalText.bytes(), 0, len);
                }
                return;
            }
            case DATE:
            case TIMESTAMP: {
                long v = e.evalLong(ctx);
                if (ctx.isNull) {
                    sink.nullValue();
                } else {
                    if (temporal == null) {
                        temporal = new byte[40];
                    }
                    int len = TemporalText.format(e.type() == io.respsql.expr.SqlType.DATE, v, temporal);
                    sink.textValue(temporal, 0, len);
                }
                return;
            }
            default: {
                long v = e.evalLong(ctx);
                if (ctx.isNull) {
                    sink.nullValue();
                } else {
                    sink.longValue(v);
                }
            }
        }
    }
}
