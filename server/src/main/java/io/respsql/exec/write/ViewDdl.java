package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.UndoLog;
import io.respsql.storage.ViewDef;

import java.util.List;

/**
 * CREATE VIEW and DROP VIEW. A view is its query's text; CREATE VIEW plans the query once to
 * check it (names, types, the column count against a declared column list) and stores the text.
 */
public final class ViewDdl {
    private ViewDdl() {
    }

    /** {@code queryColumns} plans the view's query (the planner's, so it checks it) and gives its column count. */
    public static boolean createView(Catalog catalog, Statement.CreateView s, java.util.function.IntSupplier queryColumns,
                                     UndoLog undo) {
        if (catalog.table(s.view()) != null || catalog.view(s.view()) != null) {
            if (s.ifNotExists()) {
                return false;
            }
            throw new SqlException(SqlState.DUPLICATE_TABLE, (catalog.table(s.view()) != null ? "a table named '" : "view '") + s.view() + "' already exists");
        }
        List<String> names = s.columnNames() == null ? List.of() : s.columnNames();
        int columns;
        try {
            columns = queryColumns.getAsInt();
        } catch (UnsupportedOperationException queryPlannerNotMergedYet) {
            columns = -1; // until the query side lands the query is checked when the view is used
        }
        if (columns >= 0 && !names.isEmpty() && names.size() != columns) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "view '" + s.view() + "' names " + names.size() + " columns but its query has "
                    + columns);
        }
        catalog.addView(new ViewDef(s.view(), names, s.queryText()));
        if (undo != null) {
            undo.viewAdded(s.view());
        }
        return true;
    }

    public static boolean dropView(Catalog catalog, Statement.DropView s, UndoLog undo) {
        ViewDef v = catalog.view(s.view());
        if (v == null) {
            if (catalog.table(s.view()) != null) {
                throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "'" + s.view() + "' is a table: use DROP TABLE");
            }
            if (s.ifExists()) {
                return false;
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "view '" + s.view() + "' does not exist");
        }
        catalog.dropView(v.name());
        if (undo != null) {
            undo.viewDropped(v);
        }
        return true;
    }
}
