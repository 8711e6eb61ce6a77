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

    /** NUMERIC: a NUMERIC_TEXT column, each value's text as PostgreSQL prints it (its own scale). */
    private enum Store { INT, LONG, DOUBLE, TEXT, NUMERIC }

    private final Column column;
    private final Store store;
    private final int function;
    private final NullObserver nulls;
    /** NUMERIC's text, formatted here without allocating (grown for a larger scale). */
    private byte[] digits = new byte[40];

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
            store = column.type() == io.respsql.storage.ColumnType.NUMERIC_TEXT ? Store.NUMERIC : Store.TEXT;
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

    /** A NUMERIC value (the long form {@code unscaled} at {@code scale}, or {@code big}). */
    void setNumeric(int row, long unscaled, int scale, java.math.BigDecimal big) {
        if (store != Store.NUMERIC) {
            throw new IllegalStateException("window output column " + column.name() + " is not NUMERIC");
        }
        if (big != null || unscaled == Long.MIN_VALUE) {
            String t = big != null ? io.respsql.expr.Numeric.text(0, 0, big) : java.math.BigDecimal.valueOf(unscaled, scale).toPlainString();
            byte[] b = t.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            ((TextColumn) column).set(row, b, 0, b.length);
            return;
        }
        if (digits.length < scale + 22) {
            digits = new byte[scale + 22];
        }
        byte[] out = digits;
        int pos = out.length;
        long a = Math.abs(unscaled); // the long form stays within 18 digits: no MIN_VALUE
        for (int k = 0; k < scale; k++) {
            out[--pos] = (byte) ('0' + (a % 10));
            a /= 10;
        }
        if (scale > 0) {
            out[--pos] = '.';
        }
        do {
            out[--pos] = (byte) ('0' + (a % 10));
            a /= 10;
        } while (a != 0);
        if (unscaled < 0) {
            out[--pos] = '-';
        }
        ((TextColumn) column).set(row, out, pos, out.length - pos);
    }

    /** Copies value {@code i} of {@code values} (NULL included), converting an integer for a DOUBLE or NUMERIC column. */
    void copy(int row, ValueBuffer values, int i) {
        if (values.isNull(i)) {
            setNull(row);
            return;
        }
        if (values.kind == ValueBuffer.Kind.NUMERIC) {
            if (store == Store.DOUBLE) {
                ((DoubleColumn) column).set(row, values.getDouble(i));
            } else {
                setNumeric(row, values.getLong(i), values.numScale(i), values.numBig(i));
            }
            return;
        }
        switch (store) {
            case NUMERIC:
                if (values.kind == ValueBuffer.Kind.DOUBLE) {
                    throw new IllegalStateException("window output column " + column.name() + " is NUMERIC, got a double");
                }
                setNumeric(row, values.getLong(i), 0, null);
                break;
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
