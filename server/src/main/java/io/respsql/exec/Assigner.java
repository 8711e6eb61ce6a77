package io.respsql.exec;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.ColumnValue;
import io.respsql.expr.ValueType;
import io.respsql.sql.SqlException;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

/**
 * One {@code SET column = value} of an UPDATE. A row is updated in two steps, compute (every
 * assignment reads the row's old values, as SQL requires for {@code SET a=b, b=a}) then write.
 * Fixed-width values are written in place; an indexed column also moves the row's index entry.
 */
final class Assigner {
    final Column column;
    private final BoundExpr value;
    private final boolean indexed;
    /** Constant values need no per-row evaluation or checks. */
    private final boolean constant;
    private long pendingLong;
    private double pendingDouble;
    private byte[] pendingText;

    Assigner(Table t, Column column, BoundExpr value) {
        this.column = column;
        this.value = value;
        this.indexed = t.isIndexed(column);
        if (column.type() == ColumnType.TEXT && value.type() != ValueType.TEXT) {
            throw new SqlException("cannot assign number " + value.describe() + " to TEXT column '" + column.name() + "'");
        }
        if (column.type() != ColumnType.TEXT && value.type() == ValueType.TEXT) {
            throw new SqlException("value " + value.describe() + " is not a valid " + column.type() + " for column '" + column.name() + "'");
        }
        this.constant = value.isConstant();
        if (constant) {
            compute(null); // checks range and type once, and keeps the value
        }
    }

    /** True when computing can fail for some row (overflow, fraction into an integer column...). */
    boolean mayFail() {
        return !constant;
    }

    /** Evaluates the new value for the row in {@code tuple}, throwing if it cannot be stored exactly. */
    void compute(int[] tuple) {
        if (constant && tuple != null) {
            return;
        }
        switch (column.type()) {
            case INT:
            case BIGINT:
                pendingLong = value.type() == ValueType.LONG
                        ? Values.toInteger(column, value.evalLong(tuple), null)
                        : Values.toInteger(column, value.evalDouble(tuple), null);
                pendingDouble = pendingLong;
                break;
            case FLOAT:
                pendingDouble = value.evalDouble(tuple);
                break;
            default:
                pendingText = value instanceof ColumnValue.TextValue tv ? copy(tv.col, tuple[tv.tableIndex])
                        : ((io.respsql.expr.Constant.Text) value).bytes;
        }
    }

    long pendingLong() {
        return pendingLong;
    }

    double pendingDouble() {
        return pendingDouble;
    }

    byte[] pendingText() {
        return pendingText;
    }

    /** Stores the computed value into {@code row}. */
    void write(Table t, int row) {
        switch (column.type()) {
            case INT: {
                IntColumn c = (IntColumn) column;
                if (indexed) {
                    if (c.get(row) == (int) pendingLong) {
                        return;
                    }
                    t.beforeIndexedChange(c, row);
                    c.set(row, (int) pendingLong);
                    t.afterIndexedChange(c, row);
                } else {
                    c.set(row, (int) pendingLong);
                }
                return;
            }
            case BIGINT: {
                LongColumn c = (LongColumn) column;
                if (indexed) {
                    if (c.get(row) == pendingLong) {
                        return;
                    }
                    t.beforeIndexedChange(c, row);
                    c.set(row, pendingLong);
                    t.afterIndexedChange(c, row);
                } else {
                    c.set(row, pendingLong);
                }
                return;
            }
            case FLOAT: {
                DoubleColumn c = (DoubleColumn) column;
                if (indexed) {
                    if (Double.compare(c.get(row), pendingDouble) == 0) {
                        return;
                    }
                    t.beforeIndexedChange(c, row);
                    c.set(row, pendingDouble);
                    t.afterIndexedChange(c, row);
                } else {
                    c.set(row, pendingDouble);
                }
                return;
            }
            default: {
                TextColumn c = (TextColumn) column;
                if (c.equalsBytes(row, pendingText)) {
                    return;
                }
                if (indexed) {
                    t.beforeIndexedChange(c, row);
                    c.set(row, pendingText);
                    t.afterIndexedChange(c, row);
                } else {
                    c.set(row, pendingText);
                }
            }
        }
    }

    private static byte[] copy(TextColumn c, int row) {
        int len = c.length(row);
        byte[] b = new byte[len];
        if (len > 0) {
            System.arraycopy(c.bytes(row), c.offset(row), b, 0, len);
        }
        return b;
    }
}
