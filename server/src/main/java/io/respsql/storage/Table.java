package io.respsql.storage;

import io.respsql.index.LongIntBTree;
import it.unimi.dsi.fastutil.longs.LongArrayList;
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
 *
 * <p>A read view's table ({@link #readOnlyOf}, made by {@link Catalog#readView()}) is the table as
 * of a capture: columns and row slots sharing the capture's arrays, no primary key
 * ({@link #hasPrimaryKey()} false: plans scan it), no index; every method that would change it
 * throws IllegalStateException.
 */
public final class Table {
    /** Changed only by ALTER TABLE (see "schema changes" below), which saves the shape first. */
    private String name;
    private Column[] columns;
    /** Rows every column's storage holds (a writable table's chunks never shrink: truncate keeps them). */
    private int covered;
    private final Map<String, Column> byName = new HashMap<>();
    /** Null when no PRIMARY KEY was declared (then the row slot is the row's identity). */
    private Column primaryColumn;
    private TableIndex primaryIndex;
    /**
     * A read view's table: the captured table's primary key column (its values were unique when
     * captured and the view never changes), else null. Planners may rely on it; no index backs it.
     */
    private final Column capturedKey;
    private final boolean workTable;
    /** Every index, the primary key's first when there is one. */
    private final List<TableIndex> indexes = new ArrayList<>();
    /** CHECK and FOREIGN KEY constraints, and the names of the key constraints (see {@link TableConstraints}). */
    private final TableConstraints constraints = new TableConstraints();
    /** Replaced only by TRUNCATE ({@link #detachRows}). */
    private RowAllocator rows;
    /** A read view's table: never written. */
    private final boolean readOnly;
    /** Number of the latest capture of this table (0: none); captures are numbered 1, 2, ... */
    private long captureSeq;
    /** Numbers of the captures not yet released, oldest first. */
    private final LongArrayList outstanding = new LongArrayList(2);
    /** partition: this table's place in a partition tree (null: an ordinary table); see {@link Partitioning}. */
    public Partitioning partitioning;

    /** The 2010 dialect's tables: every table has a primary key. */
    public Table(String name, List<String> columnNames, List<ColumnType> types, int primaryPosition) {
        this(name, specs(columnNames, types), primaryPosition);
        if (primaryPosition < 0) {
            throw new IllegalArgumentException("table " + name + ": primary key position " + primaryPosition);
        }
    }

    /**
     * A table as CREATE TABLE declares it; {@code primaryPosition} -1 when no PRIMARY KEY is
     * declared (the row slot is then the row's identity and any column may hold duplicates). The
     * primary key's column is NOT NULL whatever its spec says.
     */
    public Table(String name, List<ColumnSpec> columns, int primaryPosition) {
        this(name, columns, primaryPosition, false);
    }

    private Table(String name, List<ColumnSpec> specs, int primaryPosition, boolean workTable) {
        if (primaryPosition < -1 || primaryPosition >= specs.size()) {
            throw new IllegalArgumentException("table " + name + ": primary key position " + primaryPosition
                    + " of " + specs.size() + " columns");
        }
        this.name = name;
        this.workTable = workTable;
        this.readOnly = false;
        this.rows = new RowAllocator();
        this.columns = new Column[specs.size()];
        for (int i = 0; i < columns.length; i++) {
            ColumnSpec spec = specs.get(i);
            columns[i] = Column.create(spec.name(), spec.type(), i);
            columns[i].declare(spec.notNull() || i == primaryPosition, spec.defaultText());
            columns[i].typeModifier(spec.typeModifier());
            byName.put(spec.name().toLowerCase(Locale.ROOT), columns[i]);
        }
        if (primaryPosition >= 0) {
            this.primaryColumn = columns[primaryPosition];
            this.primaryIndex = new TableIndex(name + ":" + primaryColumn.name() + ":pk", primaryColumn, true, new LongIntBTree());
            indexes.add(primaryIndex);
        } else {
            this.primaryColumn = null;
            this.primaryIndex = null;
        }
        this.capturedKey = null;
    }

    private static List<ColumnSpec> specs(List<String> names, List<ColumnType> types) {
        List<ColumnSpec> specs = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            specs.add(new ColumnSpec(names.get(i), types.get(i), false, null));
        }
        return specs;
    }

    /** A read view's table over a capture's arrays; see {@link #readOnlyOf}. */
    private Table(String name, Column[] columns, RowAllocator rows, int keyPosition) {
        this.name = name;
        this.workTable = false;
        this.readOnly = true;
        this.rows = rows;
        this.columns = columns;
        for (Column c : columns) {
            byName.put(c.name().toLowerCase(Locale.ROOT), c);
        }
        this.primaryColumn = null;
        this.primaryIndex = null;
        this.capturedKey = keyPosition >= 0 ? columns[keyPosition] : null;
    }

    /**
     * The table as {@code image} holds it, read-only, sharing the image's arrays (nothing is
     * copied): same name, columns (types, NOT NULL, DEFAULT text) and row slots. No primary key and
     * no index: {@link #hasPrimaryKey()} is false, {@link #indexes()} empty, {@link #indexOn}
     * null, {@link #findByPrimaryKey} throws; the primary key column keeps its NOT NULL.
     */
    static Table readOnlyOf(TableImage image) {
        Column[] cols = new Column[image.columnCount()];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = Column.readOnlyOf(image.column(i), i);
        }
        return new Table(image.name(), cols, RowAllocator.readOnlyOf(image.rows()), image.primaryPosition());
    }

    /** Whether this is a read view's table (see {@link ReadView}): every write throws. */
    public boolean isReadOnly() {
        return readOnly;
    }

    private void checkWritable() {
        if (readOnly) {
            throw new IllegalStateException("table " + name + " is a read view and cannot be written");
        }
    }

    /**
     * A work table: rows a plan materializes (a derived table, GROUP BY groups, a set
     * operation's result). Not in the catalog, no primary key, no index; {@link #truncate} empties it.
     */
    public static Table workTable(String name, List<ColumnSpec> columns) {
        return new Table(name, columns, -1, true);
    }

    /** Whether this is a plan's work table (never in a catalog, never captured). */
    public boolean isWorkTable() {
        return workTable;
    }

    /** Whether a PRIMARY KEY was declared. */
    public boolean hasPrimaryKey() {
        return primaryColumn != null;
    }

    /**
     * Frees every row and empties every index, keeping the columns (work tables between runs):
     * O(chunks), not O(rows) beyond clearing text references. The allocator restarts at slot 0,
     * null bitmaps are dropped and text arenas reset, so no old value can be read back; numeric
     * value slots keep stale numbers until written (every insert writes or nulls each column).
     * Text references are reset up to the old high-water mark only, so the cost follows the rows used.
     * Not undoable through {@link UndoLog}.
     */
    public void truncate() {
        checkWritable();
        int highWater = rows.highWater();
        rows.clear();
        for (Column c : columns) {
            c.reset(highWater);
        }
        for (TableIndex ix : indexes) {
            ix.reset();
        }
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

    /** The PRIMARY KEY column, or null when none was declared. */
    public Column primaryColumn() {
        return primaryColumn;
    }

    /** The primary key's index, or null when no PRIMARY KEY was declared. */
    public TableIndex primaryIndex() {
        return primaryIndex;
    }

    /** All indexes, the primary key first (when there is one). */
    public TableConstraints constraints() {
        return constraints;
    }

    public List<TableIndex> indexes() {
        return Collections.unmodifiableList(indexes);
    }

    /**
     * The best index keyed on {@code c} (its first column): the primary key if {@code c} is the PK
     * column, else the first secondary index whose first column is {@code c}; null when none.
     */
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

    /**
     * Row slot holding primary key {@code key}, or -1.
     *
     * @throws IllegalStateException when the table has no primary key
     */
    public int findByPrimaryKey(long key) {
        if (primaryIndex == null) {
            throw new IllegalStateException("table " + name + " has no primary key");
        }
        return primaryIndex.tree().firstRow(key);
    }

    // ---- row lifecycle ---------------------------------------------------------------------

    /** The slot the {@code nth} next {@link #allocateRow()} will return (for validation before commit). */
    public int peekRow(int nth) {
        return rows.peekNext(nth);
    }

    /** Takes a row slot, with column storage behind it. Values are then set, then {@link #indexRow}. */
    public int allocateRow() {
        checkWritable();
        int row = rows.allocate();
        if (row >= covered) {
            // Grow every column to the size Chunks.grow would reach anyway (the first chunk doubled,
            // then whole chunks), once: per row, asking each column cost more than writing the row.
            int want = row < Chunks.SIZE ? Math.min(Chunks.SIZE, Math.max(Chunks.INITIAL, Integer.highestOneBit(row) << 1))
                    : ((row >>> Chunks.SHIFT) + 1) << Chunks.SHIFT;
            for (Column c : columns) {
                c.ensureCapacity(want);
            }
            covered = want;
        }
        return row;
    }

    /**
     * Adds a fully written row to every index whose first column is not NULL in it. The caller
     * has checked primary-key and UNIQUE constraints ({@link #violatesUnique}).
     */
    public void indexRow(int row) {
        checkWritable();
        for (TableIndex ix : indexes) {
            Column c = ix.column();
            if (!c.isNull(row)) {
                ix.tree().insert(c.indexKey(row), row);
            }
        }
    }

    /** Removes the row from every index it is in (those whose first column is not NULL in it). */
    private void unindexRow(int row) {
        for (TableIndex ix : indexes) {
            Column c = ix.column();
            if (!c.isNull(row)) {
                ix.tree().remove(c.indexKey(row), row);
            }
        }
    }

    /**
     * Whether a live row other than {@code row} has values equal to {@code row}'s, none of them
     * NULL, in every column of {@code ix}: the UNIQUE check for a row written but not yet indexed
     * (or already indexed: {@code row} itself is skipped). False whenever a column of {@code row}
     * is NULL. Text keys are 8-byte prefixes, so candidates sharing the first column's key are
     * compared on their real values. No allocation.
     */
    public boolean violatesUnique(TableIndex ix, int row) {
        return uniqueClash(ix, row) >= 0;
    }

    /** The live row other than {@code row} that holds {@code row}'s key of unique index {@code ix}, or -1 (ON CONFLICT's arbiter). */
    public int uniqueClash(TableIndex ix, int row) {
        Column[] cols = ix.columnsRef();
        for (Column c : cols) {
            if (c.isNull(row)) {
                return -1;
            }
        }
        long key = cols[0].indexKey(row);
        LongIntBTree.Cursor cur = ix.probe();
        for (boolean ok = cur.seek(key); ok && cur.key() == key; ok = cur.next()) {
            int other = cur.row();
            if (other != row && rows.isLive(other) && sameValues(cols, row, other)) {
                return other;
            }
        }
        return -1;
    }

    /** Whether rows {@code a} and {@code b} hold equal non-NULL values in every column of {@code cols}. */
    private static boolean sameValues(Column[] cols, int a, int b) {
        for (Column c : cols) {
            if (c.isNull(b)) {
                return false;
            }
            if (c instanceof IntColumn ic) {
                if (ic.get(a) != ic.get(b)) {
                    return false;
                }
            } else if (c instanceof LongColumn lc) {
                if (lc.get(a) != lc.get(b)) {
                    return false;
                }
            } else if (c instanceof DoubleColumn dc) {
                double x = dc.get(a);
                double y = dc.get(b);
                if (x != y && !(x != x && y != y)) { // NaN equals NaN in a UNIQUE index (PostgreSQL)
                    return false;
                }
            } else if (((TextColumn) c).compareRows(a, (TextColumn) c, b) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes back a row of an INSERT that failed while writing it (out of memory): removes it from
     * whichever indexes it reached and frees its slot. {@code allocated} says whether
     * {@link #allocateRow} returned it (its column storage exists); if not, only the slot is freed.
     */
    public void abandonRow(int row, boolean allocated) {
        checkWritable();
        if (allocated) {
            unindexRow(row);
        }
        if (rows.isLive(row)) {
            rows.release(row);
        }
    }

    public void deleteRow(int row) {
        checkWritable();
        unindexRow(row);
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
        checkWritable();
        unindexRow(row);
        for (Column c : columns) {
            c.clear(row);
        }
        rows.unallocate(row, fresh);
    }

    /** Makes a deleted slot live again (a transaction's rollback); its values are set next, then {@link #indexRow}. */
    void undoDelete(int row) {
        checkWritable();
        rows.reclaim(row);
    }

    /**
     * True when some index is keyed on column {@code c} (its first column), so writes to {@code c}
     * must go through {@link #beforeIndexedChange}/{@link #afterIndexedChange}. A column that is
     * only a later column of an index does not move rows in any tree, but a UNIQUE index over it
     * must still be checked ({@link #coveredByUnique}).
     */
    public boolean isIndexed(Column c) {
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether no two live rows share a non-NULL value of {@code c}: {@code c} alone is the key of a
     * UNIQUE index (the primary key included), or a read view's captured primary key column.
     */
    public boolean uniqueValues(Column c) {
        if (c == capturedKey && c != null) {
            return true;
        }
        for (TableIndex ix : indexes) {
            if (ix.unique() && ix.columnCount() == 1 && ix.column() == c) {
                return true;
            }
        }
        return false;
    }

    /** Whether some UNIQUE index (the primary key included) has {@code c} among its columns. */
    public boolean coveredByUnique(Column c) {
        for (TableIndex ix : indexes) {
            if (ix.unique() && ix.columns().contains(c)) {
                return true;
            }
        }
        return false;
    }

    /** Takes the row out of the indexes keyed on {@code c} before its value (or NULL state) changes. */
    public void beforeIndexedChange(Column c, int row) {
        checkWritable();
        if (c.isNull(row)) {
            return;
        }
        long key = c.indexKey(row);
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                ix.tree().remove(key, row);
            }
        }
    }

    /** Puts the row back into the indexes keyed on {@code c} after the change, unless it is NULL now. */
    public void afterIndexedChange(Column c, int row) {
        checkWritable();
        if (c.isNull(row)) {
            return;
        }
        long key = c.indexKey(row);
        for (TableIndex ix : indexes) {
            if (ix.column() == c) {
                ix.tree().insert(key, row);
            }
        }
    }

    /** Reclaims text garbage once it outweighs live text; called after statements that rewrite text. */
    public void maybeCompactText() {
        checkWritable();
        for (Column c : columns) {
            if (c instanceof TextColumn && ((TextColumn) c).needsCompaction()) {
                ((TextColumn) c).compact(rows);
            }
        }
    }

    // ---- secondary indexes -----------------------------------------------------------------

    /** Builds a non-unique ascending index on one column over the rows already present. */
    public TableIndex createIndex(String indexName, Column c) {
        return createIndex(indexName, List.of(c), false, new boolean[1]);
    }

    /**
     * Builds an index over the rows already present: one sort and a bulk load, not n inserts. The
     * tree is keyed on the first column (see {@link TableIndex}); {@code descending} (one flag per
     * column, null: all ascending) is kept for plans. A UNIQUE index is not checked here: the
     * caller checks existing rows first ({@link #violatesUnique} after creating, or its own scan).
     */
    public TableIndex createIndex(String indexName, List<Column> columns, boolean unique, boolean[] descending) {
        checkWritable();
        TableIndex ix = newIndex(indexName, columns.toArray(new Column[0]), unique,
                descending == null ? new boolean[columns.size()] : descending);
        indexes.add(ix);
        return ix;
    }

    private TableIndex newIndex(String indexName, Column[] cols, boolean unique, boolean[] descending) {
        for (Column c : cols) {
            if (c == null || c.position() >= columns.length || columns[c.position()] != c) {
                throw new IllegalArgumentException("index " + indexName + ": column not of table " + name);
            }
        }
        return new TableIndex(indexName, cols, false, unique, descending, bulkLoad(indexName, cols[0]));
    }

    /** A build over at least this many rows logs its progress every few seconds ({@link ProgressLog}). */
    private static final int PROGRESS_ROWS = 1_000_000;

    /**
     * A tree of every live row's key in {@code c} (NULLs left out): one radix sort, then a bottom-up
     * load. A large build reports its progress, counted as 3 units a row (gather, sort, load), at
     * every 64K rows gathered and after each phase: one clock read each.
     */
    private LongIntBTree bulkLoad(String indexName, Column c) {
        int n = 0;
        boolean nullable = c.mayHaveNulls();
        for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
            if (!nullable || !c.isNull(row)) {
                n++;
            }
        }
        ProgressLog progress = n >= PROGRESS_ROWS ? new ProgressLog("Building index " + indexName + " on " + name) : null;
        long units = 3L * n;
        long[] keys = new long[n];
        long[] slots = new long[n];
        int i = 0;
        boolean sorted = true;
        for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
            if (nullable && c.isNull(row)) {
                continue;
            }
            keys[i] = c.indexKey(row);
            slots[i] = row;
            sorted &= i == 0 || keys[i] >= keys[i - 1];
            i++;
            if (progress != null && (i & 0xFFFF) == 0) {
                progress.rows(i, units, n);
            }
        }
        // Rows come in slot order, so keys already in order (a primary key inserted ascending, as
        // after most loads) are already sorted (key, row) pairs: skip the sort.
        if (!sorted) {
            LongArrays.radixSort(keys, slots);
        }
        if (progress != null) {
            progress.rows(2L * n, units, n);
        }
        int[] rowIds = new int[n];
        for (int j = 0; j < n; j++) {
            rowIds[j] = (int) slots[j];
        }
        LongIntBTree tree = LongIntBTree.bulkLoad(keys, rowIds, n);
        if (progress != null) {
            progress.rows(units, units, n);
        }
        return tree;
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

    /** Builds a dropped index again, same definition, at its old place in {@link #indexes()} (a transaction's rollback). */
    void restoreIndex(TableIndex dropped, int position) {
        TableIndex ix = newIndex(dropped.name(), dropped.columnsRef(), dropped.unique(), dropped.descending());
        indexes.add(Math.min(position, indexes.size()), ix);
    }

    /** Drops a secondary index by name (never the primary key's); false when there is none. */
    public boolean dropIndex(String indexName) {
        checkWritable();
        for (int i = 0; i < indexes.size(); i++) {
            if (!indexes.get(i).isPrimary() && indexes.get(i).name().equalsIgnoreCase(indexName)) {
                indexes.remove(i);
                return true;
            }
        }
        return false;
    }

    // ---- schema changes (ALTER TABLE) --------------------------------------------------------

    /**
     * What ALTER TABLE may change, saved before it does ({@link UndoLog#tableAltering}): the name,
     * the column objects in order with their names, NOT NULL and DEFAULT, the indexes and the
     * primary key. Restoring it puts the table back exactly; the column objects keep their data,
     * so a dropped column comes back with its values.
     */
    public static final class Shape {
        private final String name;
        private final Column[] columns;
        private final String[] names;
        private final boolean[] notNull;
        private final String[] defaults;
        private final List<TableIndex> indexes;
        private final String[] indexNames;
        private final Column primaryColumn;
        private final TableIndex primaryIndex;

        private Shape(Table t) {
            this.name = t.name;
            this.columns = t.columns.clone();
            int n = columns.length;
            this.names = new String[n];
            this.notNull = new boolean[n];
            this.defaults = new String[n];
            for (int i = 0; i < n; i++) {
                names[i] = columns[i].name();
                notNull[i] = columns[i].notNull();
                defaults[i] = columns[i].defaultText();
            }
            this.indexes = new ArrayList<>(t.indexes);
            this.indexNames = new String[indexes.size()];
            for (int i = 0; i < indexNames.length; i++) {
                indexNames[i] = indexes.get(i).name();
            }
            this.primaryColumn = t.primaryColumn;
            this.primaryIndex = t.primaryIndex;
        }
    }

    /** A table's storage as TRUNCATE took it away ({@link #detachRows}), for a rollback to give back. */
    public static final class Rows {
        private final Shape shape;
        private final RowAllocator rows;
        private final int covered;

        private Rows(Shape shape, RowAllocator rows, int covered) {
            this.shape = shape;
            this.rows = rows;
            this.covered = covered;
        }
    }

    /**
     * TRUNCATE: the table keeps its definition (names, types, NOT NULL, DEFAULT, indexes) over
     * fresh, empty storage; the old storage is returned untouched, so {@link #attachRows} can put
     * it back (a rollback). O(columns + indexes): no row is visited.
     */
    public Rows detachRows() {
        checkWritable();
        Rows old = new Rows(new Shape(this), rows, covered);
        Column[] fresh = new Column[columns.length];
        for (int i = 0; i < fresh.length; i++) {
            Column c = columns[i];
            fresh[i] = Column.create(c.name(), c.type(), i);
            fresh[i].declare(c.notNull(), c.defaultText());
            fresh[i].typeModifier(c.typeModifier());
            fresh[i].lastCapture = captureSeq;
        }
        for (int i = 0; i < indexes.size(); i++) {
            TableIndex ix = indexes.get(i);
            Column[] cols = ix.columnsRef().clone();
            for (int k = 0; k < cols.length; k++) {
                cols[k] = fresh[cols[k].position()];
            }
            TableIndex empty = new TableIndex(ix.name(), cols, ix.isPrimary(), ix.unique(), ix.descending(), new LongIntBTree());
            indexes.set(i, empty);
            if (ix == primaryIndex) {
                primaryIndex = empty;
            }
        }
        if (primaryColumn != null) {
            primaryColumn = fresh[primaryColumn.position()];
        }
        columns = fresh;
        rows = new RowAllocator();
        covered = 0;
        rebuildNames();
        return old;
    }

    /** Gives back the storage {@link #detachRows} took (a TRUNCATE rolled back). */
    public void attachRows(Rows old) {
        checkWritable();
        rows = old.rows;
        covered = old.covered;
        restoreShape(old.shape);
    }

    /** The table's shape now, for {@link #restoreShape}. */
    public Shape saveShape() {
        checkWritable();
        return new Shape(this);
    }

    /** Puts back a shape {@link #saveShape} took (ALTER TABLE failed or its block rolled back). */
    public void restoreShape(Shape s) {
        checkWritable();
        name = s.name;
        columns = s.columns.clone();
        for (int i = 0; i < columns.length; i++) {
            Column c = columns[i];
            c.rename(s.names[i]);
            c.reposition(i);
            c.declare(s.notNull[i], s.defaults[i]);
            c.ensureCapacity(storageRows());
        }
        indexes.clear();
        indexes.addAll(s.indexes);
        for (int i = 0; i < s.indexNames.length; i++) {
            indexes.get(i).rename(s.indexNames[i]);
        }
        primaryColumn = s.primaryColumn;
        primaryIndex = s.primaryIndex;
        rebuildNames();
    }

    private void rebuildNames() {
        byName.clear();
        for (Column c : columns) {
            byName.put(c.name().toLowerCase(Locale.ROOT), c);
        }
    }

    /** ALTER TABLE ... RENAME TO: the table's own name (the catalog re-keys it: {@link Catalog#renameTable}). */
    void rename(String to) {
        checkWritable();
        name = to;
    }

    /** ALTER TABLE ... RENAME COLUMN; the caller checked that {@code to} is free. */
    public void renameColumn(Column c, String to) {
        checkWritable();
        c.rename(to);
        rebuildNames();
    }

    /** ALTER TABLE ... SET/DROP NOT NULL, SET/DROP DEFAULT: what is declared (the caller validated the rows). */
    public void redeclare(Column c, boolean notNull, String defaultText) {
        checkWritable();
        c.declare(notNull, defaultText);
    }

    /**
     * ALTER TABLE ... ADD COLUMN: a new last column, NULL in every existing row, with storage for
     * every slot. Constant values are then given by {@link #fillColumn}.
     */
    public Column addColumn(ColumnSpec spec) {
        checkWritable();
        covered = storageRows();
        Column c = Column.create(spec.name(), spec.type(), columns.length);
        c.declare(spec.notNull(), spec.defaultText());
        c.typeModifier(spec.typeModifier());
        c.lastCapture = captureSeq;
        if (covered >= Chunks.SIZE) {
            c.shareConstantChunks(covered, zeroChunk(spec.type()), true);
        } else {
            c.ensureCapacity(covered);
            for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
                c.setNull(row);
            }
        }
        columns = java.util.Arrays.copyOf(columns, columns.length + 1);
        columns[columns.length - 1] = c;
        rebuildNames();
        return c;
    }

    private static java.util.function.IntFunction<Object> zeroChunk(ColumnType type) {
        switch (type.storedAs()) {
            case INT:
                return int[]::new;
            case BIGINT:
                return long[]::new;
            case FLOAT:
                return double[]::new;
            default:
                return n -> {
                    long[] refs = new long[n];
                    java.util.Arrays.fill(refs, TextColumn.EMPTY);
                    return refs;
                };
        }
    }

    /**
     * Gives every existing row of the freshly added column {@code c} one constant (ALTER TABLE ...
     * ADD COLUMN ... DEFAULT k): O(chunks) on a large table (one shared chunk array, copied by the
     * first write to each chunk: see {@link Column#shareConstantChunks}), a loop over the live rows
     * of a small one. {@code value}: an Integer/Long (INT, BOOLEAN, DATE, BIGINT, TIMESTAMP as
     * stored), a Double, or a byte[] (TEXT). Returns the column now in the table (a large table's is
     * a new object).
     */
    public Column fillColumn(Column c, Object value) {
        checkWritable();
        if (c != columns[columns.length - 1]) {
            throw new IllegalArgumentException("column " + c.name() + " is not the newly added one");
        }
        if (covered >= Chunks.SIZE) {
            Column fresh = Column.create(c.name(), c.type(), c.position());
            fresh.declare(c.notNull(), c.defaultText());
            fresh.typeModifier(c.typeModifier());
            fresh.lastCapture = captureSeq;
            java.util.function.IntFunction<Object> chunk;
            switch (c.type().storedAs()) {
                case INT: {
                    int v = ((Number) value).intValue();
                    chunk = n -> {
                        int[] a = new int[n];
                        java.util.Arrays.fill(a, v);
                        return a;
                    };
                    break;
                }
                case BIGINT: {
                    long v = ((Number) value).longValue();
                    chunk = n -> {
                        long[] a = new long[n];
                        java.util.Arrays.fill(a, v);
                        return a;
                    };
                    break;
                }
                case FLOAT: {
                    double v = ((Number) value).doubleValue();
                    chunk = n -> {
                        double[] a = new double[n];
                        java.util.Arrays.fill(a, v);
                        return a;
                    };
                    break;
                }
                default: {
                    long ref = ((TextColumn) fresh).sharedRef((byte[]) value, rows.liveCount());
                    chunk = n -> {
                        long[] a = new long[n];
                        java.util.Arrays.fill(a, ref);
                        return a;
                    };
                }
            }
            fresh.shareConstantChunks(covered, chunk, false);
            columns[columns.length - 1] = fresh;
            rebuildNames();
            return fresh;
        }
        for (int row = rows.nextLive(0); row >= 0; row = rows.nextLive(row + 1)) {
            switch (c.type().storedAs()) {
                case INT:
                    ((IntColumn) c).set(row, ((Number) value).intValue());
                    break;
                case BIGINT:
                    ((LongColumn) c).set(row, ((Number) value).longValue());
                    break;
                case FLOAT:
                    ((DoubleColumn) c).set(row, ((Number) value).doubleValue());
                    break;
                default:
                    ((TextColumn) c).set(row, (byte[]) value);
            }
        }
        return c;
    }

    /**
     * ALTER TABLE ... DROP COLUMN: the column goes, and with it every index that has it among its
     * columns (the primary key's too: the table then has none), as in PostgreSQL. Returns the names
     * of the dropped indexes, for the catalog. The column object keeps its data (an undo puts it back).
     */
    public List<String> dropColumn(Column c) {
        checkWritable();
        List<String> dropped = new ArrayList<>();
        for (int i = indexes.size() - 1; i >= 0; i--) {
            if (indexes.get(i).columns().contains(c)) {
                dropped.add(0, indexes.get(i).name());
                indexes.remove(i);
            }
        }
        if (primaryColumn == c) {
            primaryColumn = null;
            primaryIndex = null;
        }
        Column[] next = new Column[columns.length - 1];
        for (int i = 0, j = 0; i < columns.length; i++) {
            if (columns[i] != c) {
                next[j] = columns[i];
                next[j].reposition(j);
                j++;
            }
        }
        columns = next;
        rebuildNames();
        return dropped;
    }

    /**
     * ALTER TABLE ... TYPE: {@code replacement} (added by {@link #addColumn}, its rows written)
     * takes {@code old}'s place, name, NOT NULL and DEFAULT; every index over {@code old} is built
     * again over it (same names, same order).
     */
    public void replaceColumn(Column old, Column replacement, String defaultText) {
        checkWritable();
        int at = old.position();
        Column[] next = new Column[columns.length - 1];
        for (int i = 0, j = 0; i < columns.length; i++) {
            Column c = i == at ? replacement : columns[i];
            if (c == replacement && i != at) {
                continue;
            }
            next[j] = c;
            j++;
        }
        replacement.rename(old.name());
        replacement.declare(old.notNull(), defaultText);
        columns = next;
        for (int i = 0; i < columns.length; i++) {
            columns[i].reposition(i);
        }
        for (int i = 0; i < indexes.size(); i++) {
            TableIndex ix = indexes.get(i);
            if (!ix.columns().contains(old)) {
                continue;
            }
            Column[] cols = ix.columnsRef().clone();
            for (int k = 0; k < cols.length; k++) {
                if (cols[k] == old) {
                    cols[k] = replacement;
                }
            }
            TableIndex rebuilt = new TableIndex(ix.name(), cols, ix.isPrimary(), ix.unique(), ix.descending(), bulkLoad(ix.name(), cols[0]));
            indexes.set(i, rebuilt);
            if (ix == primaryIndex) {
                primaryIndex = rebuilt;
            }
        }
        if (primaryColumn == old) {
            primaryColumn = replacement;
        }
        rebuildNames();
    }

    /**
     * Row slots the columns' storage covers: {@link #covered}, or more after a snapshot restore
     * ({@link #restoreRows} sizes the columns directly). Whole chunks once past the first.
     */
    private int storageRows() {
        int n = 0;
        for (Column c : columns) {
            int k = c.chunkCount();
            n = Math.max(n, k == 0 ? 0 : k == 1 ? c.chunkRows(0) : k << Chunks.SHIFT);
        }
        return Math.max(n, covered);
    }

    // ---- snapshots -------------------------------------------------------------------------

    /**
     * A point-in-time view of the table; see {@link Catalog#capture()}. Any number may be
     * outstanding; each must be released once ({@link TableImage#release}).
     */
    TableImage capture() {
        checkWritable();
        long seq = ++captureSeq;
        outstanding.add(seq);
        ColumnImage[] images = new ColumnImage[columns.length];
        for (int i = 0; i < columns.length; i++) {
            images[i] = columns[i].capture(seq);
        }
        List<TableImage.IndexDef> defs = new ArrayList<>();
        for (TableIndex ix : indexes) {
            if (!ix.isPrimary()) {
                defs.add(new TableImage.IndexDef(ix.name(), ix.positions(), ix.unique(), ix.descending()));
            }
        }
        return new TableImage(this, seq, name, primaryColumn == null ? -1 : primaryColumn.position(), images, defs,
                rows.capture(seq));
    }

    /**
     * Capture {@code seq} ended: chunks no outstanding capture holds any more stop copying (all of
     * them once none is outstanding). O(columns × chunks). Event loop only.
     */
    void releaseCapture(long seq) {
        int at = outstanding.indexOf(seq);
        if (at < 0) {
            throw new IllegalStateException("capture " + seq + " of table " + name + " is not outstanding");
        }
        outstanding.removeLong(at);
        long newest = 0;
        for (int i = 0; i < outstanding.size(); i++) {
            newest = Math.max(newest, outstanding.getLong(i));
        }
        for (Column c : columns) {
            c.releaseCapture(newest);
        }
        rows.releaseCapture(newest);
    }

    /** Captures of this table not yet released. */
    public int outstandingCaptures() {
        return outstanding.size();
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
        checkWritable();
        if (rows.highWater() != 0) {
            throw new IllegalStateException("table " + name + " is not empty");
        }
        rows.restore(highWater, liveWords, free);
        for (Column c : columns) {
            c.ensureCapacity(highWater);
        }
    }

    /**
     * Snapshot restore, step 3: builds every index already defined (the primary key's) from the
     * restored rows by one bulk load each, NULLs left out. Secondary indexes are then added with
     * {@link #createIndex(String, List, boolean, boolean[])}.
     */
    public void restoreIndexes() {
        checkWritable();
        for (TableIndex ix : indexes) {
            if (ix.tree().size() != 0) {
                throw new IllegalStateException("table " + name + " already has indexed rows");
            }
            ix.replaceTree(bulkLoad(ix.name(), ix.column()));
        }
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
