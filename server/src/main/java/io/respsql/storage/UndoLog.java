package io.respsql.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a transaction (a MULTI/EXEC block) changed, kept so that {@link #rollback()} can take all
 * of it back when a later statement of the block fails. Statements record before they change
 * anything (or, for an INSERT, once its rows are in): the rows an INSERT wrote, the values an
 * UPDATE overwrites, the rows a DELETE frees, and the catalog's names around DDL and FLUSHALL, a prepared statement's
 * definition around PREPARE and DEALLOCATE.
 *
 * <p>One entry per statement, holding primitive arrays; only statements inside a block record,
 * so statements outside one pay nothing. Rollback undoes the entries newest first, so each one
 * finds the data exactly as its statement left it: slots return to the free list or high-water
 * mark they came from, and every index ends with the same (key, row) pairs as before the block.
 * Event loop only.
 */
public final class UndoLog {
    private interface Entry {
        void undo();
    }

    private final Catalog catalog;
    private final List<Entry> entries = new ArrayList<>();

    public UndoLog(Catalog catalog) {
        this.catalog = catalog;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * An INSERT wrote {@code rows[0..n)} in this order, the first {@code fromFree} of them on
     * slots taken from the free list, the others above the high-water mark.
     */
    public void insertedRows(Table t, int[] rows, int n, int fromFree) {
        int[] written = Arrays.copyOf(rows, n);
        entries.add(() -> {
            for (int i = n - 1; i >= 0; i--) {
                t.undoInsert(written[i], i >= fromFree);
            }
        });
    }

    /** A DELETE is about to free {@code rows[0..n)}, in this order. */
    public void deletingRows(Table t, int[] rows, int n) {
        int[] freed = Arrays.copyOf(rows, n);
        Cells[] values = new Cells[t.columnCount()];
        for (int c = 0; c < values.length; c++) {
            values[c] = new Cells(t.column(c), freed, n);
        }
        entries.add(() -> {
            for (int i = n - 1; i >= 0; i--) {
                int row = freed[i];
                t.undoDelete(row);
                for (Cells v : values) {
                    v.restore(t, i, row, false);
                }
                t.indexRow(row);
            }
        });
    }

    /** An UPDATE is about to overwrite {@code columns} of {@code rows[0..n)}. */
    public void changingCells(Table t, Column[] columns, int[] rows, int n) {
        int[] changed = Arrays.copyOf(rows, n);
        Cells[] values = new Cells[columns.length];
        for (int c = 0; c < columns.length; c++) {
            values[c] = new Cells(columns[c], changed, n);
        }
        entries.add(() -> {
            for (Cells v : values) {
                boolean indexed = t.isIndexed(v.column);
                for (int i = n - 1; i >= 0; i--) {
                    v.restore(t, i, changed[i], indexed);
                }
            }
            t.maybeCompactText();
        });
    }

    /**
     * An undo the statement describes itself (an increment's kernel, exec/kernel/NumericKernel:
     * subtract its step again over the same rows), run in this log's order on rollback.
     */
    public void onRollback(Runnable undo) {
        entries.add(undo::run);
    }

    /** Rows per batch of a key range's batched walks (an increment over an index range and its undo). */
    public static final int RANGE_BATCH = 4096;

    /** A statement is about to add or remove tables or index names (DDL, FLUSHALL). */
    public void catalogChanging() {
        Catalog.Names saved = catalog.saveNames();
        entries.add(() -> catalog.restoreNames(saved));
    }

    /** {@code CREATE INDEX} added {@code indexName} to {@code t} (any definition: rollback drops it). */
    public void indexCreated(Table t, String indexName) {
        entries.add(() -> t.dropIndex(indexName));
    }

    /**
     * {@code DROP INDEX} is about to remove {@code indexName} from {@code t}: rollback builds it
     * again with the same columns, UNIQUE and DESC flags, at the same place. The global index name
     * goes back with {@link #catalogChanging}, which the caller records too.
     */
    public void indexDropping(Table t, String indexName) {
        int position = t.indexPosition(indexName);
        TableIndex dropped = t.indexes().get(position);
        entries.add(() -> t.restoreIndex(dropped, position));
    }

    /**
     * ALTER TABLE is about to change {@code t}'s shape (columns, names, indexes): rollback puts
     * the shape back ({@link Table#restoreShape}); the catalog's names go back with
     * {@link #catalogChanging}, which the caller records too.
     */
    public void tableAltering(Table t) {
        Table.Shape saved = t.saveShape();
        entries.add(() -> t.restoreShape(saved));
    }

    /**
     * TRUNCATE is about to empty {@code t}: it gets fresh storage ({@link Table#detachRows}) and
     * rollback gives back the old, untouched, with its indexes.
     */
    public void truncating(Table t, Table.Rows old) {
        entries.add(() -> t.attachRows(old));
    }

    /** {@code CREATE VIEW} added the view {@code name}: rollback drops it. */
    public void viewAdded(String name) {
        entries.add(() -> catalog.dropView(name));
    }

    /** {@code DROP VIEW} removed {@code view}: rollback adds it again. */
    public void viewDropped(ViewDef view) {
        entries.add(() -> catalog.addView(view));
    }

    /**
     * PREPARE or DEALLOCATE is about to add, replace or remove the prepared statement {@code name}:
     * rollback puts back the definition it has now, or removes the name when it has none.
     */
    public void preparedChanging(String name) {
        PreparedDef before = catalog.prepared(name);
        entries.add(() -> {
            if (before == null) {
                catalog.removePrepared(name);
            } else {
                catalog.putPrepared(before);
            }
        });
    }

    /** Takes over {@code statement}'s entries, after this log's (a statement's own log joins its block's). */
    public void absorb(UndoLog statement) {
        entries.addAll(statement.entries);
        statement.entries.clear();
    }

    /** How many entries the log holds: a mark for {@link #rollbackTo}. */
    public int size() {
        return entries.size();
    }

    /** Takes back the changes recorded after {@code mark} ({@link #size()} then), newest first. */
    public void rollbackTo(int mark) {
        for (int i = entries.size() - 1; i >= mark; i--) {
            entries.remove(i).undo();
        }
    }

    /** Takes back every recorded change, newest first, and empties the log. */
    public void rollback() {
        for (int i = entries.size() - 1; i >= 0; i--) {
            entries.get(i).undo();
        }
        entries.clear();
    }

    /** One column's values at some rows, copied before they change, and which of them were NULL. */
    private static final class Cells {
        static final byte[] NO_BYTES = new byte[0];
        final Column column;
        final long[] longs;
        final double[] doubles;
        final byte[][] texts;
        /** Bit i set: row i was NULL; null when the column held no NULL then. */
        final long[] nullRows;

        Cells(Column c, int[] rows, int n) {
            this.column = c;
            long[] l = null;
            double[] d = null;
            byte[][] x = null;
            long[] nr = null;
            if (c.mayHaveNulls()) {
                for (int i = 0; i < n; i++) {
                    if (c.isNull(rows[i])) {
                        if (nr == null) {
                            nr = new long[(n + 63) >>> 6];
                        }
                        nr[i >>> 6] |= 1L << i;
                    }
                }
            }
            this.nullRows = nr;
            switch (c.type().storedAs()) {
                case INT:
                case BIGINT:
                    l = new long[n];
                    for (int i = 0; i < n; i++) {
                        l[i] = c.getLong(rows[i]);
                    }
                    break;
                case FLOAT:
                    d = new double[n];
                    DoubleColumn dc = (DoubleColumn) c;
                    for (int i = 0; i < n; i++) {
                        d[i] = dc.get(rows[i]);
                    }
                    break;
                default:
                    x = new byte[n][];
                    TextColumn tc = (TextColumn) c;
                    for (int i = 0; i < n; i++) {
                        int row = rows[i];
                        int len = tc.length(row);
                        x[i] = len == 0 ? NO_BYTES : Arrays.copyOfRange(tc.bytes(row), tc.offset(row), tc.offset(row) + len);
                    }
            }
            this.longs = l;
            this.doubles = d;
            this.texts = x;
        }

        /** Puts value {@code i} back into {@code row}, moving the row in the column's indexes if asked. */
        void restore(Table t, int i, int row, boolean maintainIndexes) {
            if (maintainIndexes) {
                t.beforeIndexedChange(column, row);
            }
            if (nullRows != null && (nullRows[i >>> 6] & (1L << i)) != 0) {
                column.setNull(row);
                if (maintainIndexes) {
                    t.afterIndexedChange(column, row);
                }
                return;
            }
            switch (column.type().storedAs()) {
                case INT:
                    ((IntColumn) column).set(row, (int) longs[i]);
                    break;
                case BIGINT:
                    ((LongColumn) column).set(row, longs[i]);
                    break;
                case FLOAT:
                    ((DoubleColumn) column).set(row, doubles[i]);
                    break;
                default:
                    ((TextColumn) column).set(row, texts[i]);
            }
            if (maintainIndexes) {
                t.afterIndexedChange(column, row);
            }
        }
    }
}
