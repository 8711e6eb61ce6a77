package io.respsql.exec;

import io.respsql.plan.Binder;
import io.respsql.plan.Scope;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.Expr;
import io.respsql.sql.SqlException;
import io.respsql.sql.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * INSERT: every value of every row is converted and every key checked before the first row is
 * written, so a statement that fails (bad value, duplicate key) changes nothing.
 */
public final class InsertExecutor {
    private InsertExecutor() {
    }

    /** Returns the number of rows inserted. */
    public static long run(Catalog catalog, Statement.Insert s, String sql, Headroom headroom, UndoLog undo, RespWriter out) {
        Table t = Scope.requireTable(catalog, s.table());
        int[] target = targetColumns(t, s.columns());
        int nRows = s.rows().size();
        int nCols = t.columnCount();
        long[] longs = new long[nRows * nCols];
        double[] doubles = new double[nRows * nCols];
        byte[][] texts = new byte[nRows * nCols][];
        Binder constants = new Binder(new Scope(), sql);
        for (int r = 0; r < nRows; r++) {
            List<Expr> values = s.rows().get(r);
            if (values.size() != target.length) {
                throw new SqlException("INSERT into '" + t.name() + "' has " + values.size() + " values for "
                        + target.length + " columns" + (nRows > 1 ? " (row " + (r + 1) + ")" : ""));
            }
            for (int i = 0; i < target.length; i++) {
                Column c = t.column(target[i]);
                int slot = r * nCols + target[i];
                Expr e = values.get(i);
                switch (c.type()) {
                    case INT:
                    case BIGINT:
                        longs[slot] = Values.integerLiteral(c, e, sql, constants);
                        doubles[slot] = longs[slot];
                        break;
                    case FLOAT:
                        doubles[slot] = Values.floatLiteral(c, e, sql, constants);
                        break;
                    default:
                        texts[slot] = Values.textLiteral(e, sql);
                }
            }
            // Columns the statement does not name take their type's zero value.
            if (target.length < nCols) {
                for (int c = 0; c < nCols; c++) {
                    if (t.column(c).type() == ColumnType.TEXT && texts[r * nCols + c] == null) {
                        texts[r * nCols + c] = new byte[0];
                    }
                }
            }
        }
        checkKeys(t, nRows, nCols, longs, doubles, texts);
        headroom.ensure(writeBytes(t, nRows, nCols, texts));
        int[] written = new int[nRows];
        int fromFree = Math.min(nRows, t.rows().freeCount());
        int done = 0;
        int next = -1;
        boolean allocated = false;
        try {
            for (int r = 0; r < nRows; r++) {
                next = t.peekRow(0);
                allocated = false;
                int row = t.allocateRow();
                allocated = true;
                writeRow(t, row, r * nCols, longs, doubles, texts);
                t.indexRow(row);
                written[done++] = row;
            }
        } catch (OutOfMemoryError e) {
            // The heap ran out mid-statement: take back every row written, so the INSERT changes
            // nothing, then let the engine reply -OOM.
            t.abandonRow(next, allocated);
            for (int i = done - 1; i >= 0; i--) {
                t.deleteRow(written[i]);
            }
            throw e;
        }
        if (undo != null) {
            undo.insertedRows(t, written, done, fromFree);
        }
        if (s.returnSize()) {
            out.integer(t.dataBytes() + t.indexBytes());
        } else {
            out.ok();
        }
        return nRows;
    }

    /** What writing the rows may allocate: column slots, text bytes, one entry per index. */
    private static long writeBytes(Table t, int nRows, int nCols, byte[][] texts) {
        long need = (long) nRows * (nCols * 8L + Headroom.INDEX_BYTES_PER_ENTRY * t.indexes().size());
        for (byte[] text : texts) {
            if (text != null) {
                need += text.length + 4;
            }
        }
        return need;
    }

    private static void writeRow(Table t, int row, int base, long[] longs, double[] doubles, byte[][] texts) {
        for (int c = 0; c < t.columnCount(); c++) {
            Column col = t.column(c);
            int slot = base + c;
            switch (col.type()) {
                case INT:
                    ((IntColumn) col).set(row, (int) longs[slot]);
                    break;
                case BIGINT:
                    ((LongColumn) col).set(row, longs[slot]);
                    break;
                case FLOAT:
                    ((DoubleColumn) col).set(row, doubles[slot]);
                    break;
                default:
                    ((TextColumn) col).set(row, texts[slot]);
            }
        }
    }

    private static int[] targetColumns(Table t, List<String> names) {
        if (names == null) {
            int[] all = new int[t.columnCount()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] target = new int[names.size()];
        Set<Integer> seen = new HashSet<>();
        boolean hasPk = false;
        for (int i = 0; i < target.length; i++) {
            Column c = t.column(names.get(i));
            if (c == null) {
                throw new SqlException("column '" + names.get(i) + "' does not exist in table '" + t.name() + "'");
            }
            if (!seen.add(c.position())) {
                throw new SqlException("column '" + c.name() + "' is named twice in INSERT");
            }
            hasPk |= c == t.primaryColumn();
            target[i] = c.position();
        }
        if (!hasPk) {
            throw new SqlException("INSERT into '" + t.name() + "' must give primary key column '" + t.primaryColumn().name() + "'");
        }
        return target;
    }

    private static void checkKeys(Table t, int nRows, int nCols, long[] longs, double[] doubles, byte[][] texts) {
        Column pk = t.primaryColumn();
        int p = pk.position();
        if (pk.type() == ColumnType.TEXT) {
            Set<String> batch = nRows > 1 ? new HashSet<>() : null;
            for (int r = 0; r < nRows; r++) {
                byte[] v = texts[r * nCols + p];
                String shown = new String(v, java.nio.charset.StandardCharsets.UTF_8);
                if (PrimaryKeys.findText(t, v) >= 0 || (batch != null && !batch.add(shown))) {
                    throw duplicate(t, shown);
                }
            }
            return;
        }
        LongOpenHashSet batch = nRows > 1 ? new LongOpenHashSet(nRows) : null;
        for (int r = 0; r < nRows; r++) {
            int slot = r * nCols + p;
            long key = PrimaryKeys.numericKey(pk, longs[slot], doubles[slot]);
            if (PrimaryKeys.findNumeric(t, key) >= 0 || (batch != null && !batch.add(key))) {
                throw duplicate(t, pk.type() == ColumnType.FLOAT ? Double.toString(doubles[slot]) : Long.toString(longs[slot]));
            }
        }
    }

    private static SqlException duplicate(Table t, String key) {
        return new SqlException("INSERT on Existing Data - use UPDATE (table '" + t.name() + "' already has "
                + t.primaryColumn().name() + "=" + key + ")");
    }
}
