package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;

import java.util.ArrayList;
import java.util.List;

/**
 * The UNIQUE indexes other than the primary key, as INSERT and UPDATE check them: after a row
 * is written, against the index (the primary key is checked before writing, by each statement).
 * One owner for the check and its error text, which INSERT, UPDATE and CREATE INDEX share.
 */
final class UniqueIndexes {
    private UniqueIndexes() {
    }

    /** The UNIQUE indexes other than the primary key, or null when there are none. */
    static List<TableIndex> secondaries(Table t) {
        List<TableIndex> unique = null;
        for (TableIndex ix : t.indexes()) {
            if (!ix.isPrimary() && ix.unique()) {
                if (unique == null) {
                    unique = new ArrayList<>();
                }
                unique.add(ix);
            }
        }
        return unique;
    }

    /** The first of {@code unique} that {@code row} now collides in, or null. */
    static TableIndex clash(Table t, List<TableIndex> unique, int row) {
        for (TableIndex ix : unique) {
            if (t.violatesUnique(ix, row)) {
                return ix;
            }
        }
        return null;
    }

    /** The error of a UNIQUE violation, naming the index and the values (read from {@code row}). */
    static SqlException violation(Table t, TableIndex ix, int row) {
        if (io.respsql.sql.Dialect.postgres()) {
            StringBuilder cols = new StringBuilder();
            StringBuilder vals = new StringBuilder();
            for (Column c : ix.columns()) {
                cols.append(cols.length() == 0 ? "" : ", ").append(c.name());
                vals.append(vals.length() == 0 ? "" : ", ").append(SqlText.value(c, row).replaceAll("^'(.*)'$", "$1"));
            }
            return pgViolation(t, ix, cols.toString(), vals.toString());
        }
        return new SqlException(SqlState.UNIQUE_VIOLATION, "UNIQUE index '" + ix.name() + "' of table '" + t.name() + "' already has " + keyText(ix, row));
    }

    /** PostgreSQL's text: {@code duplicate key value violates unique constraint "t_a_key"}, the detail after a newline. */
    static SqlException pgViolation(Table t, TableIndex ix, String cols, String vals) {
        String name = t.constraints().keyConstraint(ix.name());
        return new SqlException(SqlState.UNIQUE_VIOLATION, "duplicate key value violates unique constraint \""
                + (name == null ? ix.name() : name) + "\"");
    }

    /** {@code (a, b) = (1, 'x')}: the key of {@code row} in {@code ix}. */
    static String keyText(TableIndex ix, int row) {
        StringBuilder cols = new StringBuilder();
        StringBuilder vals = new StringBuilder();
        for (Column c : ix.columns()) {
            cols.append(cols.length() == 0 ? "" : ", ").append(c.name());
            vals.append(vals.length() == 0 ? "" : ", ").append(SqlText.value(c, row));
        }
        return "(" + cols + ") = (" + vals + ")";
    }
}
