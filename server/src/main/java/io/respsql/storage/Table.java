package io.respsql.storage;

/** A table: typed columns in primitive chunks, a primary key and secondary indexes. */
public final class Table {
    public String name() {
        return "";
    }

    /** Live rows; O(1). */
    public long rowCount() {
        return 0;
    }

    /** Bytes held by the column data (all chunks and text arenas). */
    public long dataBytes() {
        return 0;
    }

    /** Bytes held by the primary key and every secondary index. */
    public long indexBytes() {
        return 0;
    }
}
