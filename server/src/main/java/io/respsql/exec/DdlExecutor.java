package io.respsql.exec;

import io.respsql.plan.Scope;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.SqlException;
import io.respsql.sql.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.TextColumn;
import io.respsql.storage.UndoLog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** CREATE/DROP TABLE and INDEX, DESC, DUMP, SHOW TABLES. */
public final class DdlExecutor {
    private DdlExecutor() {
    }

    public static void createTable(Catalog catalog, Statement.CreateTable s, UndoLog undo, RespWriter out) {
        if (catalog.table(s.table()) != null) {
            if (s.ifNotExists()) {
                out.ok();
                return;
            }
            throw new SqlException("table '" + s.table() + "' already exists");
        }
        List<String> names = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int pk = -1;
        for (int i = 0; i < s.columns().size(); i++) {
            Statement.ColumnDef d = s.columns().get(i);
            if (!seen.add(d.name().toLowerCase(Locale.ROOT))) {
                throw new SqlException("column '" + d.name() + "' is defined twice");
            }
            ColumnType type = ColumnType.parse(d.typeName());
            if (type == null) {
                throw new SqlException("unknown type '" + d.typeName() + "' for column '" + d.name() + "' (use INT, BIGINT, FLOAT or TEXT)");
            }
            if (d.primaryKey()) {
                if (pk >= 0) {
                    throw new SqlException("table '" + s.table() + "' has more than one PRIMARY KEY");
                }
                pk = i;
            }
            names.add(d.name());
            types.add(type);
        }
        if (s.primaryKeyColumn() != null) {
            int i = indexOfIgnoreCase(names, s.primaryKeyColumn());
            if (i < 0) {
                throw new SqlException("PRIMARY KEY column '" + s.primaryKeyColumn() + "' is not defined");
            }
            if (pk >= 0 && pk != i) {
                throw new SqlException("table '" + s.table() + "' has more than one PRIMARY KEY");
            }
            pk = i;
        }
        if (names.isEmpty()) {
            throw new SqlException("table '" + s.table() + "' needs at least one column");
        }
        if (undo != null) {
            undo.catalogChanging();
        }
        catalog.add(new Table(s.table(), names, types, Math.max(pk, 0)));
        out.ok();
    }

    private static int indexOfIgnoreCase(List<String> names, String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    public static void dropTable(Catalog catalog, Statement.DropTable s, UndoLog undo, RespWriter out) {
        Table t = catalog.table(s.table());
        if (t == null) {
            if (s.ifExists()) {
                out.integer(0);
                return;
            }
            throw new SqlException("table '" + s.table() + "' does not exist");
        }
        if (undo != null) {
            undo.catalogChanging();
        }
        out.integer(catalog.drop(t));
    }

    public static void createIndex(Catalog catalog, Statement.CreateIndex s, UndoLog undo, RespWriter out) {
        Table t = Scope.requireTable(catalog, s.table());
        if (catalog.indexOwner(s.index()) != null) {
            throw new SqlException("index '" + s.index() + "' already exists");
        }
        Column c = t.column(s.column());
        if (c == null) {
            throw new SqlException("column '" + s.column() + "' does not exist in table '" + t.name() + "'");
        }
        if (undo != null) {
            undo.catalogChanging();
        }
        t.createIndex(s.index(), c);
        if (undo != null) {
            undo.indexCreated(t, s.index());
        }
        catalog.registerIndex(s.index(), t);
        out.ok();
    }

    public static void dropIndex(Catalog catalog, Statement.DropIndex s, UndoLog undo, RespWriter out) {
        Table t = catalog.indexOwner(s.index());
        if (t == null) {
            throw new SqlException("index '" + s.index() + "' does not exist");
        }
        if (t.primaryIndex().name().equalsIgnoreCase(s.index())) {
            throw new SqlException("index '" + s.index() + "' is the primary key of table '" + t.name() + "' and cannot be dropped");
        }
        if (undo != null) {
            undo.catalogChanging();
            undo.indexDropping(t, s.index());
        }
        t.dropIndex(s.index());
        catalog.unregisterIndex(s.index());
        out.ok();
    }

    public static void describe(Catalog catalog, Statement.Describe s, RespWriter out) {
        Table t = Scope.requireTable(catalog, s.table());
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < t.columnCount(); i++) {
            Column c = t.column(i);
            StringBuilder sb = new StringBuilder(c.name()).append(" | ").append(c.type());
            if (c == t.primaryColumn()) {
                sb.append(" | PRIMARY KEY");
            }
            for (TableIndex ix : t.indexes()) {
                if (!ix.isPrimary() && ix.column() == c) {
                    sb.append(" | INDEX ").append(ix.name());
                }
            }
            lines.add(sb.toString());
        }
        long rows = t.rowCount();
        long data = t.dataBytes();
        long index = t.indexBytes();
        lines.add("INFO: rows=" + rows + " data_bytes=" + data + " index_bytes=" + index
                + " bytes_per_row=" + (rows == 0 ? "0" : String.format(Locale.ROOT, "%.2f", (data + index) / (double) rows)));
        out.arrayHeader(lines.size());
        for (String l : lines) {
            out.bulk(l);
        }
    }

    public static void showTables(Catalog catalog, RespWriter out) {
        out.arrayHeader(catalog.tables().size());
        for (Table t : catalog.tables()) {
            out.bulk(t.name());
        }
    }

    /**
     * {@code SHOW INDEXES [FROM t]}: one bulk string per index, as SHOW TABLES gives one per table:
     * {@code <index> ON <table> (<column>)}, the primary key's marked {@code PRIMARY KEY}; tables in
     * SHOW TABLES order, each table's primary key first, then its indexes in creation order.
     */
    public static void showIndexes(Catalog catalog, Statement.ShowIndexes s, RespWriter out) {
        List<Table> tables = s.table() == null ? new ArrayList<>(catalog.tables())
                : List.of(Scope.requireTable(catalog, s.table()));
        List<String> lines = new ArrayList<>();
        for (Table t : tables) {
            for (TableIndex ix : t.indexes()) {
                lines.add(ix.name() + " ON " + t.name() + " (" + ix.column().name() + ")"
                        + (ix.isPrimary() ? " PRIMARY KEY" : ""));
            }
        }
        out.arrayHeader(lines.size());
        for (String l : lines) {
            out.bulk(l);
        }
    }

    /**
     * The table as statements that recreate it exactly: CREATE TABLE, CREATE INDEX, then one
     * INSERT per row in primary-key order. Text is quoted and floats use a round-trip form.
     */
    public static void dump(Catalog catalog, Statement.Dump s, RespWriter out) {
        Table t = Scope.requireTable(catalog, s.table());
        List<TableIndex> secondary = new ArrayList<>();
        for (TableIndex ix : t.indexes()) {
            if (!ix.isPrimary()) {
                secondary.add(ix);
            }
        }
        out.arrayHeader(1 + secondary.size() + t.rowCount());
        out.bulk(createStatement(t));
        for (TableIndex ix : secondary) {
            out.bulk("CREATE INDEX " + ix.name() + " ON " + t.name() + " (" + ix.column().name() + ")");
        }
        StringBuilder sb = new StringBuilder();
        String prefix = "INSERT INTO " + t.name() + " VALUES (";
        int[] rows = rowsInKeyOrder(t);
        for (int row : rows) {
            sb.setLength(0);
            sb.append(prefix);
            for (int c = 0; c < t.columnCount(); c++) {
                if (c > 0) {
                    sb.append(',');
                }
                Column col = t.column(c);
                switch (col.type()) {
                    case FLOAT:
                        sb.append(RespWriter.doubleText(((DoubleColumn) col).get(row)));
                        break;
                    case TEXT:
                        sb.append('\'').append(((TextColumn) col).getString(row).replace("'", "''")).append('\'');
                        break;
                    default:
                        sb.append(col.getLong(row));
                }
            }
            sb.append(')');
            out.bulk(sb.toString());
        }
    }

    static String createStatement(Table t) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(t.name()).append(" (");
        for (int c = 0; c < t.columnCount(); c++) {
            Column col = t.column(c);
            sb.append(c == 0 ? "" : ", ").append(col.name()).append(' ').append(col.type());
            if (col == t.primaryColumn()) {
                sb.append(" PRIMARY KEY");
            }
        }
        return sb.append(')').toString();
    }

    /** Rows in primary-key order. A TEXT key's index orders by an 8-byte prefix only, so sort those fully. */
    private static int[] rowsInKeyOrder(Table t) {
        int[] rows = new int[(int) t.rowCount()];
        int i = 0;
        io.respsql.index.LongIntBTree.Cursor c = t.primaryIndex().tree().cursor();
        for (boolean ok = c.first(); ok; ok = c.next()) {
            rows[i++] = c.row();
        }
        if (t.primaryColumn() instanceof TextColumn text) {
            it.unimi.dsi.fastutil.ints.IntArrays.mergeSort(rows, (a, b) -> text.compareRows(a, text, b));
        }
        return rows;
    }
}
