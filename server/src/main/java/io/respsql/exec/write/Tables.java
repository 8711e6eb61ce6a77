package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Table;

/** Name lookups of the write side, with the errors that name what is missing. */
public final class Tables {
    private Tables() {
    }

    /** The table {@code name} that a statement writes; a view of that name is refused by name. */
    public static Table require(Catalog catalog, String name, String verb) {
        Table t = catalog.table(name);
        if (t == null) {
            if (catalog.view(name) != null) {
                throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "cannot " + verb + " view '" + name + "': views are read-only");
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "table '" + name + "' does not exist");
        }
        return t;
    }

    public static Column column(Table t, String name) {
        Column c = t.column(name);
        if (c == null) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, "column '" + name + "' does not exist in table '" + t.name() + "'");
        }
        return c;
    }

    /** Declared NOT NULL, or the primary key (which is NOT NULL). */
    public static boolean notNull(Table t, Column c) {
        return c.notNull() || (t.hasPrimaryKey() && c == t.primaryColumn());
    }

    public static SqlException nullViolation(Table t, Column c) {
        if (io.respsql.sql.Dialect.postgres()) {
            return new SqlException(SqlState.NOT_NULL_VIOLATION, "null value in column \"" + c.name() + "\" of relation \""
                    + t.name() + "\" violates not-null constraint");
        }
        return new SqlException(SqlState.NOT_NULL_VIOLATION, "column '" + c.name() + "' of table '" + t.name() + "' cannot be NULL");
    }
}
