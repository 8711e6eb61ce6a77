package io.respsql.storage;

import io.respsql.index.LongIntBTree;

import java.util.List;

/**
 * An index: the primary key (unique) or a secondary index over one or more columns, UNIQUE or not.
 * Both are B+trees of (key, row) pairs; the pair ordering makes every entry distinct, so
 * removing one row of a popular key is a single O(log n) operation.
 *
 * <p>The tree is keyed on the FIRST column's {@link Column#indexKey} only: an index on (a, b) finds
 * rows by a, by equality or range (a prefix of one column), and the executor checks b (and any
 * later column) on each row it yields. A row whose first column is NULL is not in the tree (no
 * comparison matches NULL); a NULL in a later column does not keep a row out. {@link #descending}
 * is the declared order of each column, for plans (an ORDER BY ... DESC walks the tree backwards);
 * the tree itself is always ascending. UNIQUE is checked by {@link Table#violatesUnique}.
 */
public final class TableIndex {
    /** Changed only by ALTER INDEX ... RENAME TO ({@link Catalog#renameIndex}). */
    private String name;
    private final Column[] columns;
    private final List<Column> columnList;
    private final boolean primary;
    private final boolean unique;
    private final boolean[] descending;
    private LongIntBTree tree;
    /** Reused by {@link Table#violatesUnique} (event loop only), so a check allocates nothing. */
    private LongIntBTree.Cursor probe;

    TableIndex(String name, Column column, boolean primary, LongIntBTree tree) {
        this(name, new Column[] {column}, primary, primary, new boolean[1], tree);
    }

    TableIndex(String name, Column[] columns, boolean primary, boolean unique, boolean[] descending, LongIntBTree tree) {
        if (columns.length == 0 || descending.length != columns.length) {
            throw new IllegalArgumentException("index " + name + ": " + columns.length + " columns, "
                    + descending.length + " orders");
        }
        this.name = name;
        this.columns = columns.clone();
        this.columnList = List.of(this.columns);
        this.primary = primary;
        this.unique = unique;
        this.descending = descending.clone();
        this.tree = tree;
    }

    public String name() {
        return name;
    }

    /** The first column: the one the tree is keyed on. */
    public Column column() {
        return columns[0];
    }

    /** Every indexed column, in declaration order. */
    public List<Column> columns() {
        return columnList;
    }

    public int columnCount() {
        return columns.length;
    }

    /** Whether no two live rows may share non-NULL values in all the columns (a primary key is unique). */
    public boolean unique() {
        return unique;
    }

    /** Per column, whether it was declared DESC (a copy). */
    public boolean[] descending() {
        return descending.clone();
    }

    /** Whether column {@code i} was declared DESC. */
    public boolean descending(int i) {
        return descending[i];
    }

    public boolean isPrimary() {
        return primary;
    }

    public LongIntBTree tree() {
        return tree;
    }

    /**
     * True when index keys decide an equality or range on the first column exactly (numeric
     * columns); text keys are prefixes, so the predicate must be re-checked on each row.
     */
    public boolean exact() {
        return columns[0].type().storedAs() != ColumnType.TEXT;
    }

    LongIntBTree.Cursor probe() {
        if (probe == null) {
            probe = tree.cursor();
        }
        return probe;
    }

    /** Column positions, for captures. */
    int[] positions() {
        int[] p = new int[columns.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = columns[i].position();
        }
        return p;
    }

    /** The column array itself (not copied): storage only, never modified. */
    Column[] columnsRef() {
        return columns;
    }

    void rename(String to) {
        this.name = to;
    }

    void replaceTree(LongIntBTree tree) {
        this.tree = tree;
        this.probe = null;
    }

    void reset() {
        replaceTree(new LongIntBTree());
    }
}
