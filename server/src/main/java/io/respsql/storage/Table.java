package io.respsql.storage;

import io.respsql.index.LongIntBTree;
import it.unimi.dsi.fastutil.longs.LongArrays;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A table: typed columns in primitive chunks, addressed by row slot; a primary-key index and
 * any number of secondary indexes. Knows nothing of SQL: callers validate values, then write.
 *
 * <p>Writes to a non-indexed fixed-width column are plain array stores (UPDATE in place).
 * Changing an indexed value must go through {@link #beforeIndexedChange}/{@link #afterIndexedChange}
 * so every index on that column moves the row to its new key.
 */
public final class Table {
    private final String name;
    private final Column[] columns;
    private final Map<String, Column> byName = new HashMap<>();
    private final Column primaryColumn;
    private final TableIndex primaryIndex;
    private final List<TableIndex> indexes = new ArrayList<>();
    private final RowAllocator rows = new RowAllocator();

    public Table(String name, List<String> columnNames, List<ColumnType> types, int primaryPosition) {
        this.name = name;
        this.columns = new Column[columnNames.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = Column.create(columnNames.get(i), types.get(i), i);
            byName.put(columnNames.get(i).toLowerCase(Locale.ROOT), columns[i]);
        }
        this.primaryColumn = columns[primaryPosition];
        this.primaryIndex = new TableIndex(name + ":" + primaryColumn.name() + ":pk", primaryColumn, true, new LongIntBTree());
        indexes.add(primaryIndex);
    }

    /**
     * A table as CREATE TABLE declares it; {@code primaryPosition} -1 when no PRIMARY KEY is
     * declared (the row slot is then the row's identity and any column may hold duplicates).
     * Stub until the storage branch of issue 10: only tables with a primary key.
     */
    public Table(String name, List<ColumnSpec> columns, int primaryPosition) {
        this(name, columns.stream().map(ColumnSpec::name).toList(), columns.stream().map(ColumnSpec::type).toList(),
                checkedPrimary(primaryPosition));
    }

    private static int checkedPrimary(int p) {
        if (p < 0) {
            throw new UnsupportedOperationException("tables without a primary key: storage branch");
        }
        return p;
    }

    /**
     * A work table: rows a plan materializes (a derived table, GROUP BY groups, a set
     * operation's result). Not in the catalog, no primary key, no index; {@link #truncate} empties it.
     */
    public static Table workTable(String name, List<ColumnSpec> columns) {
        throw new UnsupportedOperationException("work tables: storage branch");
    }

    /** Whether a PRIMARY KEY was declared. */
    public boolean hasPrimaryKey() {
        return primaryColumn != null;
    }

    /** Frees every row and empties every index, keeping the columns (work tables between runs). */
    public void truncate() {
        throw new UnsupportedOperationException("truncate: storage branch");
    }

    public String name() {
        return name;
    }

    public int columnCount() {
        return columns.length;
    }

    public Column column(int position) {
        return columns[position];
    }

    /** Column by name, case-insensitive; null when absent. */
    public Column column(String columnName) {
        return byName.get(columnName.toLowerCase(Locale.ROOT));
    }

    public Column primaryColumn() {
        return primaryColumn;
    }

    public TableIndex primaryIndex() {
        return primaryIndex;
    }

    /** All indexes, the primary key first. */
    public List<TableIndex> indexes() {
        return Collections.unmodifiableList(indexes);
    }

    /** The best index over {@code c}: the primary key if it is the PK column, else the first secondary. */
    public TableIndex indexOn(Column c) {
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                return ix;
            }
        }
        return null;
    }

    public RowAllocator rows() {
        return rows;
    }

    /** Live rows; O(1). */
    public long rowCount() {
        return rows.liveCount();
    }

    public boolean isLive(int row) {
        return rows.isLive(row);
    }

    /** Row slot holding primary key {@code key}, or -1. */
    public int findByPrimaryKey(long key) {
        return primaryIndex.tree().firstRow(key);
    }

    // ---- row lifecycle ---------------------------------------------------------------------

    /** The slot the {@code nth} next {@link #allocateRow()} will return (for validation before commit). */
    public int peekRow(int nth) {
        return rows.peekNext(nth);
    }

    /** Takes a row slot, with column storage behind it. Values are then set, then {@link #indexRow}. */
    public int allocateRow() {
        int row = rows.allocate();
        for (Column c : columns) {
            c.ensureCapacity(row + 1);
        }
        return row;
    }

    /** Adds a fully written row to every index. The caller has checked primary-key uniqueness. */
    public void indexRow(int row) {
        for (TableIndex ix : indexes) {
            ix.tree().insert(ix.column().indexKey(row), row);
        }
    }

    /**
     * Takes back a row of an INSERT that failed while writing it (out of memory): removes it from
     * whichever indexes it reached and frees its slot. {@code allocated} says whether
     * {@link #allocateRow} returned it (its column storage exists); if not, only the slot is freed.
     */
    public void abandonRow(int row, boolean allocated) {
        if (allocated) {
            for (TableIndex ix : indexes) {
                ix.tree().remove(ix.column().indexKey(row), row);
            }
        }
        if (rows.isLive(row)) {
            rows.release(row);
        }
    }

    public void deleteRow(int row) {
        for (TableIndex ix : indexes) {
            ix.tree().remove(ix.column().indexKey(row), row);
        }
        for (Column c : columns) {
            c.clear(row);
        }
        rows.release(row);
    }

    /**
     * Takes back a row an INSERT wrote (a transaction's rollback): out of every index, values
     * cleared, and the slot returned exactly as {@link #allocateRow} took it ({@code fresh}: from
     * the high-water mark rather than the free list).
     */
    void undoInsert(int row, boolean fresh) {
        for (TableIndex ix : indexes) {
            ix.tree().remove(ix.column().indexKey(row), row);
        }
        for (Column c : columns) {
            c.clear(row);
        }
        rows.unallocate(row, fresh);
    }

    /** Makes a deleted slot live again (a transaction's rollback); its values are set next, then {@link #indexRow}. */
    void undoDelete(int row) {
        rows.reclaim(row);
    }

    /** True when some index covers column {@code c} (its writes must maintain the index). */
    public boolean isIndexed(Column c) {
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                return true;
            }
        }
        return false;
    }

    public void beforeIndexedChange(Column c, int row) {
        long key = c.indexKey(row);
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                ix.tree().remove(key, row);
            }
        }
    }

    public void afterIndexedChange(Column c, int row) {
        long key = c.indexKey(row);
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                ix.tree().insert(key, row);
            }
        }
    }

    /** Reclaims text garbage once it outweighs live text; called after statements that rewrite text. */
    public void maybeCompactText() {
        for (Column c : columns) {
            if (c instanceof TextColumn && ((TextColumn) c).needsCompaction()) {
                ((TextColumn) c).compact(rows);
            }
        }
    }

    // ---- secondary indexes -----------------------------------------------------------------

    /** Builds an index over the rows already present: one sort and a bulk load, not n inserts. */
    public TableIndex createIndex(String indexName, Column c) {
        TableIndex ix = new TableIndex(indexName, c, false, bulkLoad(c));
        indexes.add(ix);
        return ix;
    }

    /** A tree of every live row's key in {@code c}: one radix sort, then a bottom-up load. */
    private LongIntBTree bulkLoad(Column c) {
        int n = (int) rows.liveCount();
        long[] keys = new long[n];
        long[] slots = new long[n];
        int i = 0;
        boolean sorted = true;
        for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
            keys[i] = c.indexKey(row);
            slots[i] = row;
            sorted &= i == 0 || keys[i] >= keys[i - 1];
            i++;
        }
        // Rows come in slot order, so keys already in order (a primary key inserted ascending, as
        // after most loads) are already sorted (key, row) pairs: skip the sort.
        if (!sorted) {
            LongArrays.radixSort(keys, slots);
        }
        int[] rowIds = new int[n];
        for (int j = 0; j < n; j++) {
            rowIds[j] = (int) slots[j];
        }
        return LongIntBTree.bulkLoad(keys, rowIds, n);
    }

    /** Position of the index called {@code indexName} in {@link #indexes()}, or -1. */
    public int indexPosition(String indexName) {
        for (int i = 0; i < indexes.size(); i++) {
            if (indexes.get(i).name().equalsIgnoreCase(indexName)) {
                return i;
            }
        }
        return -1;
    }

    /** Builds a dropped index again at its old place in {@link #indexes()} (a transaction's rollback). */
    void restoreIndex(String indexName, Column c, int position) {
        indexes.add(Math.min(position, indexes.size()), new TableIndex(indexName, c, false, bulkLoad(c)));
    }

    public boolean dropIndex(String indexName) {
        for (int i = 1; i < indexes.size(); i++) {
            if (indexes.get(i).name().equalsIgnoreCase(indexName)) {
                indexes.remove(i);
                return true;
            }
        }
        return false;
    }

    // ---- snapshots -------------------------------------------------------------------------

    /** A point-in-time view of the table; see {@link Catalog#capture()}. */
    TableImage capture() {
        ColumnImage[] images = new ColumnImage[columns.length];
        for (int i = 0; i < columns.length; i++) {
            images[i] = columns[i].capture();
        }
        List<String> indexNames = new ArrayList<>();
        int[] indexColumns = new int[indexes.size() - 1];
        for (int i = 1; i < indexes.size(); i++) {
            indexNames.add(indexes.get(i).name());
            indexColumns[i - 1] = indexes.get(i).column().position();
        }
        return new TableImage(this, name, primaryColumn.position(), images, indexNames, indexColumns, rows.capture());
    }

    void releaseCapture() {
        for (Column c : columns) {
            c.releaseCapture();
        }
        rows.releaseCapture();
    }

    /** Chunks copied so far because a capture shared them. */
    long copiedChunks() {
        long n = rows.copiedChunks;
        for (Column c : columns) {
            n += c.copiedChunks;
        }
        return n;
    }

    /**
     * Snapshot restore, step 1 of 3, on a new empty table: lays out the row slots exactly as saved
     * (see {@link RowAllocator#restore}) with column storage behind every slot. Step 2 sets every
     * slot's values through the columns' setters ({@link TextColumn#restoreValue} for text); step 3
     * is {@link #restoreIndexes()}.
     */
    public void restoreRows(int highWater, long[] liveWords, int[] free) {
        if (rows.highWater() != 0) {
            throw new IllegalStateException("table " + name + " is not empty");
        }
        rows.restore(highWater, liveWords, free);
        for (Column c : columns) {
            c.ensureCapacity(highWater);
        }
    }

    /** Snapshot restore, step 3: builds the primary index from the restored rows by one bulk load. */
    public void restoreIndexes() {
        if (primaryIndex.tree().size() != 0) {
            throw new IllegalStateException("table " + name + " already has indexed rows");
        }
        primaryIndex.replaceTree(bulkLoad(primaryColumn));
    }

    // ---- accounting -----------------------------------------------------------------------

    public long dataBytes() {
        long b = rows.memoryBytes();
        for (Column c : columns) {
            b += c.memoryBytes();
        }
        return b;
    }

    public long indexBytes() {
        long b = 0;
        for (TableIndex ix : indexes) {
            b += ix.tree().memoryBytes();
        }
        return b;
    }
}
