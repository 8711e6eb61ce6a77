package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.ViewDef;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** DESC, SHOW TABLES and SHOW INDEXES: one bulk string per line, as the 2010 server replied. */
public final class SchemaReport {
    private SchemaReport() {
    }

    /**
     * {@code DESC t}: per column {@code name | TYPE}, then {@code | PRIMARY KEY} or {@code | NOT NULL},
     * {@code | DEFAULT <text>}, and each index that starts with the column; then an INFO line.
     * A view: {@code name | VIEW | <query>}.
     */
    public static List<String> describe(Catalog catalog, Statement.Describe s) {
        Table t = catalog.table(s.table());
        if (t == null) {
            ViewDef v = catalog.view(s.table());
            if (v == null) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "table '" + s.table() + "' does not exist");
            }
            return List.of(v.name() + " | VIEW" + (v.columnNames().isEmpty() ? "" : " (" + String.join(", ", v.columnNames()) + ")")
                    + " | " + v.queryText());
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < t.columnCount(); i++) {
            Column c = t.column(i);
            StringBuilder sb = new StringBuilder(c.name()).append(" | ").append(TableDump.typeName(c));
            if (t.hasPrimaryKey() && c == t.primaryColumn()) {
                sb.append(" | PRIMARY KEY");
            } else if (c.notNull()) {
                sb.append(" | NOT NULL");
            }
            if (c.defaultText() != null) {
                sb.append(" | DEFAULT ").append(c.defaultText());
            }
            for (TableIndex ix : t.indexes()) {
                List<Column> cols = ix.columns();
                if (!ix.isPrimary() && cols.get(0) == c) {
                    sb.append(ix.unique() ? " | UNIQUE INDEX " : " | INDEX ").append(ix.name());
                    if (cols.size() > 1 || ix.descending(0)) {
                        sb.append(' ').append(columnList(ix));
                    }
                }
            }
            lines.add(sb.toString());
        }
        // CHECK and FOREIGN KEY constraints (tables without any keep the 2010 reply), then what references the table
        for (io.respsql.storage.ConstraintDef c : t.constraints().checks) {
            lines.add("CONSTRAINT " + c.name() + " | " + c.definition());
        }
        for (io.respsql.storage.ConstraintDef c : t.constraints().foreignKeys) {
            lines.add("CONSTRAINT " + c.name() + " | " + c.definition());
        }
        for (io.respsql.storage.ConstraintDef c : t.constraints().referencedBy) {
            if (c.table() != t) {
                lines.add("REFERENCED BY " + c.table().name() + " CONSTRAINT " + c.name() + " | " + c.definition());
            }
        }
        long rows = t.rowCount();
        long data = t.dataBytes();
        long index = t.indexBytes();
        lines.add("INFO: rows=" + rows + " data_bytes=" + data + " index_bytes=" + index
                + " bytes_per_row=" + (rows == 0 ? "0" : String.format(Locale.ROOT, "%.2f", (data + index) / (double) rows)));
        return lines;
    }

    /** {@code (a, b DESC)}. */
    static String columnList(TableIndex ix) {
        StringBuilder sb = new StringBuilder("(");
        List<Column> cols = ix.columns();
        for (int i = 0; i < cols.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(cols.get(i).name());
            if (ix.descending(i)) {
                sb.append(" DESC");
            }
        }
        return sb.append(')').toString();
    }

    /** The tables in creation order, then the views. */
    public static List<String> showTables(Catalog catalog) {
        List<String> names = new ArrayList<>(catalog.tables().size() + catalog.views().size());
        for (Table t : catalog.tables()) {
            names.add(t.name());
        }
        for (ViewDef v : catalog.views()) {
            names.add(v.name());
        }
        return names;
    }

    /**
     * {@code SHOW INDEXES [FROM t]}: {@code <index> ON <table> (<columns>)}, marked {@code PRIMARY KEY}
     * or {@code UNIQUE}; tables in SHOW TABLES order, each table's primary key first.
     */
    public static List<String> showIndexes(Catalog catalog, Statement.ShowIndexes s) {
        List<Table> tables;
        if (s.table() == null) {
            tables = new ArrayList<>(catalog.tables());
        } else if (catalog.table(s.table()) == null && catalog.view(s.table()) != null) {
            tables = List.of(); // a view has no indexes
        } else {
            tables = List.of(Tables.require(catalog, s.table(), "show indexes of"));
        }
        List<String> lines = new ArrayList<>();
        for (Table t : tables) {
            for (TableIndex ix : t.indexes()) {
                lines.add(ix.name() + " ON " + t.name() + " " + columnList(ix)
                        + (ix.isPrimary() ? " PRIMARY KEY" : ix.unique() ? " UNIQUE" : ""));
            }
        }
        return lines;
    }
}
