package io.respsql.exec.write;

import io.respsql.index.LongIntBTree;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.TextColumn;
import io.respsql.storage.ViewDef;
import it.unimi.dsi.fastutil.ints.IntArrays;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

/**
 * {@code DUMP t}: the table as statements that recreate it exactly when replayed: CREATE TABLE
 * (types, PRIMARY KEY, NOT NULL, DEFAULT), CREATE [UNIQUE] INDEX, then one INSERT per row in
 * primary-key order (slot order without one). Values are SQL literals ({@link SqlText}): NULL as
 * NULL, text quoted, floats in a round-trip form. A view dumps as its CREATE VIEW.
 *
 * <p>The lines are made as they are read, not held: a dump of millions of rows streams through
 * the reply writer's chunks (as it did when this wrote RESP itself) instead of being materialised
 * whole on the event loop. Only the rows' order (an int each) is taken up front.
 */
public final class TableDump {
    private TableDump() {
    }

    /**
     * The statements, one line each, made when read: read it right after the statement, on the
     * event loop, as the reply is written (the data must not change in between).
     */
    public static List<String> dump(Catalog catalog, Statement.Dump s) {
        Table t = catalog.table(s.table());
        if (t == null) {
            ViewDef v = catalog.view(s.table());
            if (v == null) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "table '" + s.table() + "' does not exist");
            }
            return List.of("CREATE VIEW " + v.name() + (v.columnNames().isEmpty() ? "" : " (" + String.join(", ", v.columnNames()) + ")")
                    + " AS " + v.queryText());
        }
        List<TableIndex> secondary = new ArrayList<>();
        for (TableIndex ix : t.indexes()) {
            if (!ix.isPrimary()) {
                secondary.add(ix);
            }
        }
        List<String> head = new ArrayList<>(1 + secondary.size());
        head.add(createStatement(t));
        for (TableIndex ix : secondary) {
            head.add("CREATE " + (ix.unique() ? "UNIQUE " : "") + "INDEX " + ix.name() + " ON " + t.name()
                    + " " + SchemaReport.columnList(ix));
        }
        return new Lines(t, head, rowsInKeyOrder(t));
    }

    /** The schema lines, then one INSERT per row, each built when asked for. */
    private static final class Lines extends AbstractList<String> implements RandomAccess {
        private final Table t;
        private final List<String> head;
        private final int[] rows;
        private final String prefix;
        private final StringBuilder sb = new StringBuilder();

        Lines(Table t, List<String> head, int[] rows) {
            this.t = t;
            this.head = head;
            this.rows = rows;
            this.prefix = "INSERT INTO " + t.name() + " VALUES (";
        }

        @Override
        public int size() {
            return head.size() + rows.length;
        }

        @Override
        public String get(int i) {
            if (i < head.size()) {
                return head.get(i);
            }
            int row = rows[i - head.size()];
            sb.setLength(0);
            sb.append(prefix);
            for (int c = 0; c < t.columnCount(); c++) {
                if (c > 0) {
                    sb.append(',');
                }
                SqlText.append(sb, t.column(c), row);
            }
            return sb.append(')').toString();
        }
    }

    static String createStatement(Table t) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(t.name()).append(" (");
        for (int c = 0; c < t.columnCount(); c++) {
            Column col = t.column(c);
            sb.append(c == 0 ? "" : ", ").append(col.name()).append(' ').append(typeName(col));
            if (t.hasPrimaryKey() && col == t.primaryColumn()) {
                sb.append(" PRIMARY KEY");
            } else if (col.notNull()) {
                sb.append(" NOT NULL");
            }
            if (col.defaultText() != null) {
                sb.append(" DEFAULT ").append(col.defaultText());
            }
        }
        return sb.append(')').toString();
    }

    /** The column's type as CREATE TABLE writes it: NUMERIC with its precision and scale. */
    static String typeName(Column col) {
        if (!col.type().isDecimal()) {
            return col.type().name();
        }
        int m = col.typeModifier();
        return m < 0 ? "NUMERIC" : "NUMERIC(" + (m >>> 16) + "," + (m & 0xFFFF) + ")";
    }

    /** Rows in primary-key order (a TEXT key's index orders by an 8-byte prefix only, so those sort fully); slot order without a key. */
    private static int[] rowsInKeyOrder(Table t) {
        int[] rows = new int[(int) t.rowCount()];
        int i = 0;
        if (!t.hasPrimaryKey()) {
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                rows[i++] = row;
            }
            return rows;
        }
        LongIntBTree.Cursor c = t.primaryIndex().tree().cursor();
        for (boolean ok = c.first(); ok; ok = c.next()) {
            rows[i++] = c.row();
        }
        if (t.primaryColumn() instanceof TextColumn text) {
            IntArrays.mergeSort(rows, (a, b) -> text.compareRows(a, text, b));
        }
        return rows;
    }
}
