package io.respsql.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One table as of a {@link Catalog#capture()}: its schema, row slots and column values. */
public final class TableImage {
    /** The live table, for releasing its frozen chunks; never read through by the image. */
    final Table source;
    private final String name;
    private final int primaryPosition;
    private final ColumnImage[] columns;
    private final List<String> indexNames;
    private final int[] indexColumns;
    private final RowsImage rows;

    TableImage(Table source, String name, int primaryPosition, ColumnImage[] columns, List<String> indexNames,
               int[] indexColumns, RowsImage rows) {
        this.source = source;
        this.name = name;
        this.primaryPosition = primaryPosition;
        this.columns = columns;
        this.indexNames = Collections.unmodifiableList(new ArrayList<>(indexNames));
        this.indexColumns = indexColumns;
        this.rows = rows;
    }

    public String name() {
        return name;
    }

    public int columnCount() {
        return columns.length;
    }

    public ColumnImage column(int position) {
        return columns[position];
    }

    public int primaryPosition() {
        return primaryPosition;
    }

    /** Secondary index names in creation order (the primary key's index is implied). */
    public List<String> indexNames() {
        return indexNames;
    }

    /** Column position of secondary index {@code i} of {@link #indexNames()}. */
    public int indexColumn(int i) {
        return indexColumns[i];
    }

    public RowsImage rows() {
        return rows;
    }
}
