package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.ViewDef;

import java.util.Collection;
import java.util.List;

/**
 * The storage calls of the write side that the storage branch of issue 10 provides (multi-column,
 * UNIQUE and DESC indexes, views, NULLs), in one place while that branch is being merged: each
 * body becomes the direct call once it is there.
 */
final class StorageCalls {
    private StorageCalls() {
    }

    static TableIndex createIndex(Table t, String name, List<Column> columns, boolean unique, boolean[] descending) {
        if (columns.size() != 1 || unique || descending[0]) {
            throw new SqlException("multi-column, UNIQUE and DESC indexes are not available yet");
        }
        return t.createIndex(name, columns.get(0));
    }

    /** Whether another row of {@code t} has the same key as {@code row} in UNIQUE index {@code ix} (NULLs never collide). */
    static boolean violatesUnique(Table t, TableIndex ix, int row) {
        return false;
    }

    static boolean isUnique(TableIndex ix) {
        return ix.isPrimary();
    }

    static List<Column> columns(TableIndex ix) {
        return List.of(ix.column());
    }

    static boolean descending(TableIndex ix, int i) {
        return false;
    }

    static ViewDef view(Catalog catalog, String name) {
        return null;
    }

    static void addView(Catalog catalog, ViewDef v) {
        throw new SqlException("views are not available yet");
    }

    static void dropView(Catalog catalog, String name) {
        throw new SqlException("views are not available yet");
    }

    static Collection<ViewDef> views(Catalog catalog) {
        return List.of();
    }

    /** The table is about to add or remove views (rollback inside MULTI). */
    static void viewsChanging(io.respsql.storage.UndoLog undo) {
        undo.catalogChanging();
    }

    static void setNull(Column c, int row) {
        c.setNull(row);
    }

    static void setBoolean(Column c, int row, boolean v) {
        throw new SqlException("BOOLEAN columns are not available yet");
    }

    static void setDate(Column c, int row, long days) {
        throw new SqlException("DATE columns are not available yet");
    }

    static void setTimestamp(Column c, int row, long micros) {
        throw new SqlException("TIMESTAMP columns are not available yet");
    }
}
