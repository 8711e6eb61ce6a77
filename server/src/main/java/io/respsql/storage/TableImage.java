package io.respsql.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/** One table as of a {@link Catalog#capture()}: its schema, row slots and column values. */
public final class TableImage {
    /** A secondary index's definition: name, column positions, UNIQUE, per-column DESC. */
    public record IndexDef(String name, int[] columns, boolean unique, boolean[] descending) {
    }

    /** The live table, for releasing its frozen chunks; never read through by the image. */
    final Table source;
    /** The table's number for this capture (see {@link Table#releaseCapture}). */
    private final long seq;
    private final String name;
    private final int primaryPosition;
    private final ColumnImage[] columns;
    private final List<IndexDef> indexes;
    private final List<String> indexNames;
    private final RowsImage rows;

    TableImage(Table source, long seq, String name, int primaryPosition, ColumnImage[] columns, List<IndexDef> indexes,
               RowsImage rows) {
        this.source = source;
        this.seq = seq;
        this.name = name;
        this.primaryPosition = primaryPosition;
        this.columns = columns;
        this.indexes = Collections.unmodifiableList(new ArrayList<>(indexes));
        List<String> names = new ArrayList<>();
        for (IndexDef d : indexes) {
            names.add(d.name());
        }
        this.indexNames = Collections.unmodifiableList(names);
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

    /** Position of the PRIMARY KEY column, -1 when the table has none. */
    public int primaryPosition() {
        return primaryPosition;
    }

    /** Secondary index names in creation order (the primary key's index is implied). */
    public List<String> indexNames() {
        return indexNames;
    }

    /** Secondary index definitions in creation order. */
    public List<IndexDef> indexes() {
        return indexes;
    }

    /** First column position of secondary index {@code i} of {@link #indexNames()}. */
    public int indexColumn(int i) {
        return indexes.get(i).columns()[0];
    }

    public RowsImage rows() {
        return rows;
    }

    /** Ends this table's part of the capture (see {@link CatalogImage#release()}); once only. */
    void release() {
        source.releaseCapture(seq);
    }

    /**
     * Bytes this image holds that the live table no longer uses ({@code inCatalog} false: the
     * table was dropped, so all of it); see {@link ColumnImage#heldBytes}.
     */
    long heldBytes(boolean inCatalog, Set<Object> seen) {
        long b = rows.heldBytes(inCatalog ? source.rows() : null, seen);
        for (int i = 0; i < columns.length; i++) {
            b += columns[i].heldBytes(inCatalog ? source.column(i) : null, seen);
        }
        return b;
    }
}
