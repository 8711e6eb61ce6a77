package io.respsql.exec.op.materialize;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

/** Writes evaluated values into a new row of a work table (its columns typed as the values are). */
public final class WorkTableWriter {
    private WorkTableWriter() {
    }

    /** Appends one row holding {@code values} evaluated in {@code ctx}; returns its row number. */
    public static int append(Table work, Expression[] values, EvalContext ctx) {
        int row = work.allocateRow();
        for (int i = 0; i < values.length; i++) {
            write(work.column(i), row, values[i], ctx);
        }
        return row;
    }

    public static void write(Column c, int row, Expression e, EvalContext ctx) {
        switch (c.type().storedAs()) {
            case TEXT: {
                byte[] b = e.evalText(ctx);
                if (ctx.isNull) {
                    c.setNull(row);
                } else {
                    ((TextColumn) c).set(row, b, ctx.textOffset, ctx.textLength);
                }
                return;
            }
            case FLOAT: {
                double d = e.evalDouble(ctx);
                if (ctx.isNull) {
                    c.setNull(row);
                } else {
                    ((DoubleColumn) c).set(row, d);
                }
                return;
            }
            case INT: {
                long v = e.evalLong(ctx);
                if (ctx.isNull) {
                    c.setNull(row);
                } else {
                    ((IntColumn) c).set(row, (int) v);
                }
                return;
            }
            case BIGINT: {
                long v = e.evalLong(ctx);
                if (ctx.isNull) {
                    c.setNull(row);
                } else {
                    ((LongColumn) c).set(row, v);
                }
                return;
            }
            default:
                throw new UnsupportedOperationException("work table column of type " + c.type());
        }
    }
}
