package io.respsql.exec.op;

import io.respsql.storage.Column;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

/**
 * Writing values into a work table's columns, converting numbers to the column's own type
 * (INT/BOOLEAN/DATE in an IntColumn, BIGINT/TIMESTAMP in a LongColumn, DOUBLE in a DoubleColumn).
 */
public final class Outputs {
    private Outputs() {
    }

    /** Empties a work table at the start of a run (a never-written table is already empty). */
    public static void clear(Table t) {
        if (t.rows().highWater() > 0 || t.rowCount() > 0) {
            t.truncate();
        }
    }

    public static void writeLong(Column c, int row, long v) {
        if (c instanceof LongColumn) {
            ((LongColumn) c).set(row, v);
        } else if (c instanceof IntColumn) {
            ((IntColumn) c).set(row, (int) v);
        } else if (c instanceof DoubleColumn) {
            ((DoubleColumn) c).set(row, (double) v);
        } else {
            throw new IllegalStateException("column " + c.name() + " of type " + c.type() + " cannot take an integer");
        }
    }

    public static void writeDouble(Column c, int row, double v) {
        if (c instanceof DoubleColumn) {
            ((DoubleColumn) c).set(row, v);
        } else if (c instanceof LongColumn) {
            ((LongColumn) c).set(row, (long) v);
        } else if (c instanceof IntColumn) {
            ((IntColumn) c).set(row, (int) v);
        } else {
            throw new IllegalStateException("column " + c.name() + " of type " + c.type() + " cannot take a DOUBLE");
        }
    }

    public static void writeText(Column c, int row, byte[] b, int off, int len) {
        if (!(c instanceof TextColumn)) {
            throw new IllegalStateException("column " + c.name() + " of type " + c.type() + " cannot take TEXT");
        }
        ((TextColumn) c).set(row, b, off, len);
    }

    public static void writeNull(Column c, int row) {
        c.setNull(row);
    }

    /** Writes key {@code j} of row {@code id} of {@code s} into {@code c} at {@code row}. */
    public static void writeKey(KeyStore s, int id, int j, Column c, int row) {
        if (s.isNull(id, j)) {
            c.setNull(row);
            return;
        }
        switch (s.kind(j)) {
            case Keys.LONG:
                writeLong(c, row, s.getLong(id, j));
                break;
            case Keys.DOUBLE:
                writeDouble(c, row, s.getDouble(id, j));
                break;
            default:
                int from = s.textShownFrom(id, j);
                writeText(c, row, s.textArena(), s.textOffset(id, j) + from, s.textLength(id, j) - from);
        }
    }
}
