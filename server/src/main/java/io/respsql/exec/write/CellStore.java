package io.respsql.exec.write;

import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

/** Stores converted values ({@link Cell}) into typed columns: the one place that knows the column classes. */
final class CellStore {
    private CellStore() {
    }

    /** Stores {@code v} into {@code row} of {@code c}; no index maintenance (see {@link #storeIndexed}). */
    static void store(Column c, int row, Cell v) {
        if (v.isNull) {
            c.setNull(row);
            return;
        }
        switch (c.type().storedAs()) { // BOOLEAN and DATE live in an IntColumn, TIMESTAMP in a LongColumn
            case INT:
                ((IntColumn) c).set(row, (int) v.l);
                return;
            case BIGINT:
                ((LongColumn) c).set(row, v.l);
                return;
            case FLOAT:
                ((DoubleColumn) c).set(row, v.d);
                return;
            default:
                ((TextColumn) c).set(row, v.text, v.textOff, v.textLen);
        }
    }

    /** Whether {@code row} of {@code c} already holds {@code v} (an UPDATE then leaves the row's index entries alone). */
    static boolean holds(Column c, int row, Cell v) {
        if (c.isNull(row) || v.isNull) {
            return c.isNull(row) && v.isNull;
        }
        switch (c.type()) {
            case FLOAT:
                return Double.compare(((DoubleColumn) c).get(row), v.d) == 0;
            case TEXT:
            case NUMERIC_TEXT:
            case INTERVAL:
                return ((TextColumn) c).equalsBytes(row, v.text);
            default:
                if (c.type().isArray()) {
                    return ((TextColumn) c).equalsBytes(row, v.text); // arrays
                }
                return c.getLong(row) == v.l;
        }
    }

    /** Stores {@code v}, moving the row in the indexes over {@code c} when the value changes. */
    static void storeIndexed(Table t, Column c, int row, Cell v) {
        if (holds(c, row, v)) {
            return;
        }
        t.beforeIndexedChange(c, row);
        store(c, row, v);
        t.afterIndexedChange(c, row);
    }
}
