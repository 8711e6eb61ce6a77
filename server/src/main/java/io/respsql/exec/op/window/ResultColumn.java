package io.respsql.exec.op.window;

import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.TextColumn;

/**
 * Writes one window function's results into its column of the output work table, resolving
 * the column's storage class once per run so the per-row writes are a switch and a store.
 */
final class ResultColumn {
    /** Records NULL results while {@link Column#setNull} is a stub (tests); null in production. */
    interface NullObserver {
        void nullAt(int function, int row);
    }

    private enum Store { INT, LONG, DOUBLE, TEXT }

    private final Column column;
    private final Store store;
    private final int function;
    private final NullObserver nulls;

    ResultColumn(Column column, int function, NullObserver nulls) {
        this.column = column;
        this.function = function;
        this.nulls = nulls;
        if (column instanceof IntColumn) {
            store = Store.INT;
        } else if (column instanceof LongColumn) {
            store = Store.LONG;
        } else if (column instanceof DoubleColumn) {
            store = Store.DOUBLE;
        } else if (column instanceof TextColumn) {
            store = Store.TEXT;
        } else {
            throw new IllegalStateException("window output column " + column.name() + " of type " + column.type()
                    + " has no writer");
        }
    }

    void setNull(int row) {
        if (nulls != null) {
            nulls.nullAt(function, row);
        } else {
            column.setNull(row);
        }
    }

    void setLong(int row, long v) {
        switch (store) {
            case INT:
                ((IntColumn) column).set(row, (int) v);
                break;
            case LONG:
                ((LongColumn) column).set(row, v);
                break;
            case DOUBLE:
                ((DoubleColumn) column).set(row, v);
                break;
            default:
                throw new IllegalStateException("window output column " + column.name() + " is TEXT, got a number");
        }
    }

    void setDouble(int row, double v) {
        if (store != Store.DOUBLE) {
            throw new IllegalStateException("window output column " + column.name() + " is not DOUBLE");
        }
        ((DoubleColumn) column).set(row, v);
    }

    /** Copies value {@code i} of {@code values} (NULL included), converting an integer for a DOUBLE column. */
    void copy(int row, ValueBuffer values, int i) {
        if (values.isNull(i)) {
            setNull(row);
            return;
        }
        switch (store) {
            case DOUBLE:
                ((DoubleColumn) column).set(row, values.getDouble(i));
                break;
            case TEXT:
                ((TextColumn) column).set(row, values.textBytes(), values.textOffset(i), values.textLength(i));
                break;
            default:
                setLong(row, values.getLong(i));
        }
    }
}
