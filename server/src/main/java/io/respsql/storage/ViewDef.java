package io.respsql.storage;

import java.util.List;

/**
 * A view: its name, the column names it declares (empty: those of its query) and its query's
 * SQL text. Storage keeps the text (snapshots, DESC) and never reads it; the binder parses it
 * and expands the view where it is used.
 */
public record ViewDef(String name, List<String> columnNames, String queryText) {
    public ViewDef {
        columnNames = List.copyOf(columnNames); // immutable, so captures and undo entries can share it
    }
}
