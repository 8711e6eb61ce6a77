package io.respsql.storage;

import io.respsql.index.LongIntBTree;

/**
 * An index of one column: the primary key (unique) or a secondary index (many rows per key).
 * Both are B+trees of (key, row) pairs; the pair ordering makes every entry distinct, so
 * removing one row of a popular key is a single O(log n) operation.
 */
public final class TableIndex {
    private final String name;
    private final Column column;
    private final boolean primary;
    private LongIntBTree tree;

    TableIndex(String name, Column column, boolean primary, LongIntBTree tree) {
        this.name = name;
        this.column = column;
        this.primary = primary;
        this.tree = tree;
    }

    public String name() {
        return name;
    }

    public Column column() {
        return column;
    }

    public boolean isPrimary() {
        return primary;
    }

    public LongIntBTree tree() {
        return tree;
    }

    /**
     * True when index keys decide the predicate exactly (numeric columns); text keys are prefixes,
     * so the predicate must be re-checked on each row.
     */
    public boolean exact() {
        return column.type() != ColumnType.TEXT;
    }

    void replaceTree(LongIntBTree tree) {
        this.tree = tree;
    }

    void reset() {
        tree = new LongIntBTree();
    }
}
