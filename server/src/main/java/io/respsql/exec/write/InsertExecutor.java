package io.respsql.exec.write;

import io.respsql.exec.Headroom;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.plan.StatementPlanner;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * INSERT: {@code VALUES} rows or the rows of a query, into the columns listed (any order) or all
 * of them; a column left out gets its DEFAULT, else NULL. Every value of every row is converted
 * ({@link ValueRules}), NOT NULL and primary keys are checked before the first row is written;
 * UNIQUE indexes are checked as the rows go in, and a violation takes back the rows already
 * written. So a statement that fails changes nothing. {@code INSERT ... SELECT} gathers all of
 * the query's rows first, so {@code INSERT INTO t SELECT * FROM t} doubles t exactly once.
 */
public final class InsertExecutor {
    private InsertExecutor() {
    }

    /** Runs the INSERT and replies (OK, or the table's size for RETURN SIZE); returns the rows inserted. */
    public static long run(Catalog catalog, Statement.Insert s, String sql, Headroom headroom, UndoLog undo, RespWriter out) {
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        int[] target = targetColumns(t, s.columns());
        int nCols = t.columnCount();
        PendingRows rows;
        if (s.rows() != null) {
            rows = values(t, target, s.rows(), sql);
        } else {
            rows = query(catalog, t, target, s, sql);
        }
        int nRows = rows.rows;
        if (target.length < nCols) {
            fillOmitted(t, target, rows);
        }
        checkNotNull(t, rows);
        if (t.hasPrimaryKey()) {
            checkKeys(t, rows);
        }
        headroom.ensure(writeBytes(t, rows));
        List<TableIndex> unique = uniqueSecondaries(t);
        int[] written = new int[nRows];
        int fromFree = Math.min(nRows, t.rows().freeCount());
        int done = 0;
        int next = -1;
        boolean allocated = false;
        Cell cell = new Cell();
        try {
            for (int r = 0; r < nRows; r++) {
                next = t.peekRow(0);
                allocated = false;
                int row = t.allocateRow();
                allocated = true;
                for (int c = 0; c < nCols; c++) {
                    rows.get(r, c, cell);
                    CellStore.store(t.column(c), row, cell);
                }
                written[done++] = row;
                if (unique != null) {
                    TableIndex clash = clash(t, unique, row);
                    if (clash != null) {
                        SqlException e = uniqueViolation(t, clash, row);
                        takeBack(catalog, t, written, done, fromFree);
                        throw e;
                    }
                }
                t.indexRow(row);
            }
        } catch (OutOfMemoryError e) {
            // The heap ran out mid-statement: take back every row written, so the INSERT changes
            // nothing, then let the engine reply -OOM.
            if (done > 0 && written[done - 1] == next) {
                done--; // written but not yet in the indexes
                t.abandonRow(next, true);
            } else {
                t.abandonRow(next, allocated);
            }
            for (int i = done - 1; i >= 0; i--) {
                t.deleteRow(written[i]);
            }
            throw e;
        }
        if (undo != null) {
            undo.insertedRows(t, written, done, fromFree);
        }
        if (s.returnSize()) {
            out.integer(t.dataBytes() + t.indexBytes());
        } else {
            out.ok();
        }
        return nRows;
    }

    /** EXPLAIN of an INSERT. */
    public static List<String> explain(Catalog catalog, Statement.Insert s, String sql) {
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        List<String> lines = new ArrayList<>();
        if (s.rows() != null) {
            lines.add("insert " + s.rows().size() + " row(s) into " + t.name());
        } else {
            lines.add("insert the rows of a query into " + t.name());
            lines.addAll(StatementPlanner.planQuery(catalog, s.query(), sql).explain());
        }
        return lines;
    }

    private static PendingRows values(Table t, int[] target, List<List<Expr>> values, String sql) {
        int nRows = values.size();
        PendingRows rows = new PendingRows(t.columnCount(), nRows);
        Cell cell = new Cell();
        EvalContext ctx = null;
        for (int r = 0; r < nRows; r++) {
            List<Expr> row = values.get(r);
            if (row.size() != target.length) {
                throw new SqlException("INSERT into '" + t.name() + "' has " + row.size() + " values for "
                        + target.length + " columns" + (nRows > 1 ? " (row " + (r + 1) + ")" : ""));
            }
            int at = rows.addRow();
            for (int i = 0; i < target.length; i++) {
                Column c = t.column(target[i]);
                Expr e = row.get(i);
                if (!ValueRules.literal(c, e, sql, false, cell)) {
                    Expression x = StatementPlanner.bindConstant(e, sql);
                    if (ctx == null) {
                        ctx = new EvalContext(1);
                    }
                    ValueRules.evaluated(c, x, ctx, ValueRules.source(e, sql), cell);
                }
                rows.set(at, target[i], cell);
            }
        }
        return rows;
    }

    /** The query's rows, all gathered before the first is written. */
    private static PendingRows query(Catalog catalog, Table t, int[] target, Statement.Insert s, String sql) {
        StatementPlanner.QueryPlan plan = StatementPlanner.planQuery(catalog, s.query(), sql);
        List<Expression> outputs = plan.outputs();
        if (outputs.size() != target.length) {
            throw new SqlException("INSERT into '" + t.name() + "' has " + outputs.size() + " values for "
                    + target.length + " columns (the query's columns)");
        }
        Column[] cols = new Column[target.length];
        Expression[] exprs = outputs.toArray(new Expression[0]);
        for (int i = 0; i < cols.length; i++) {
            cols[i] = t.column(target[i]);
        }
        PendingRows rows = new PendingRows(t.columnCount(), 16);
        Cell cell = new Cell();
        EvalContext ctx = plan.newContext();
        TupleConsumer gather = c -> {
            int at = rows.addRow();
            for (int i = 0; i < cols.length; i++) {
                ValueRules.evaluated(cols[i], exprs[i], c, null, cell);
                rows.set(at, target[i], cell);
            }
            return true;
        };
        plan.root().run(ctx, gather);
        return rows;
    }

    /** Columns the statement does not name take their DEFAULT, or NULL. */
    private static void fillOmitted(Table t, int[] target, PendingRows rows) {
        boolean[] named = new boolean[t.columnCount()];
        for (int c : target) {
            named[c] = true;
        }
        Cell cell = new Cell();
        for (int c = 0; c < named.length; c++) {
            if (named[c]) {
                continue;
            }
            Column col = t.column(c);
            if (col.defaultText() == null) {
                continue; // rows start NULL
            }
            try {
                Defaults.value(col, cell);
            } catch (UnsupportedOperationException binderNotMerged) {
                // Not the old path's zero value: that would store a wrong value silently.
                throw new SqlException("DEFAULT " + col.defaultText() + " of column '" + col.name()
                        + "' needs the expression binder, which this build does not have yet");
            }
            for (int r = 0; r < rows.rows; r++) {
                rows.set(r, c, cell);
            }
        }
    }

    private static void checkNotNull(Table t, PendingRows rows) {
        for (int c = 0; c < t.columnCount(); c++) {
            Column col = t.column(c);
            if (!Tables.notNull(t, col)) {
                continue;
            }
            for (int r = 0; r < rows.rows; r++) {
                if (rows.isNull(r, c)) {
                    throw Tables.nullViolation(t, col);
                }
            }
        }
    }

    private static int[] targetColumns(Table t, List<String> names) {
        if (names == null) {
            int[] all = new int[t.columnCount()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] target = new int[names.size()];
        Set<Integer> seen = new HashSet<>();
        boolean hasPk = false;
        for (int i = 0; i < target.length; i++) {
            Column c = Tables.column(t, names.get(i));
            if (!seen.add(c.position())) {
                throw new SqlException("column '" + c.name() + "' is named twice in INSERT");
            }
            hasPk |= t.hasPrimaryKey() && c == t.primaryColumn();
            target[i] = c.position();
        }
        if (t.hasPrimaryKey() && !hasPk && t.primaryColumn().defaultText() == null) {
            throw new SqlException("INSERT into '" + t.name() + "' must give primary key column '" + t.primaryColumn().name() + "'");
        }
        return target;
    }

    /** New primary keys must be distinct from each other and from the table's. */
    private static void checkKeys(Table t, PendingRows rows) {
        Column pk = t.primaryColumn();
        int p = pk.position();
        int nRows = rows.rows;
        int nCols = rows.columns;
        if (pk.type() == ColumnType.TEXT) {
            Set<String> batch = nRows > 1 ? new HashSet<>() : null;
            for (int r = 0; r < nRows; r++) {
                byte[] v = rows.texts[r * nCols + p];
                String shown = new String(v, StandardCharsets.UTF_8);
                if (PrimaryKeys.findText(t, v) >= 0 || (batch != null && !batch.add(shown))) {
                    throw duplicate(t, shown);
                }
            }
            return;
        }
        LongOpenHashSet batch = nRows > 1 ? new LongOpenHashSet(nRows) : null;
        for (int r = 0; r < nRows; r++) {
            int slot = r * nCols + p;
            long key = PrimaryKeys.numericKey(pk, rows.longs[slot], rows.doubles[slot]);
            if (PrimaryKeys.findNumeric(t, key) >= 0 || (batch != null && !batch.add(key))) {
                throw duplicate(t, pk.type() == ColumnType.FLOAT ? Double.toString(rows.doubles[slot]) : Long.toString(rows.longs[slot]));
            }
        }
    }

    /** The 2010 reply, with the key that exists. */
    private static SqlException duplicate(Table t, String key) {
        return new SqlException("INSERT on Existing Data - use UPDATE (table '" + t.name() + "' already has "
                + t.primaryColumn().name() + "=" + key + ")");
    }

    /** The UNIQUE indexes other than the primary key (checked row by row as rows go in), or null when there are none. */
    static List<TableIndex> uniqueSecondaries(Table t) {
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

    static TableIndex clash(Table t, List<TableIndex> unique, int row) {
        for (TableIndex ix : unique) {
            if (t.violatesUnique(ix, row)) {
                return ix;
            }
        }
        return null;
    }

    /** The error of a UNIQUE violation, naming the index and the values (read from {@code row}). */
    static SqlException uniqueViolation(Table t, TableIndex ix, int row) {
        return new SqlException("UNIQUE index '" + ix.name() + "' of table '" + t.name() + "' already has " + keyText(ix, row));
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

    /** Takes back the rows of a failed INSERT exactly (slots back to where they came from), the last not yet indexed. */
    private static void takeBack(Catalog catalog, Table t, int[] written, int done, int fromFree) {
        UndoLog local = new UndoLog(catalog);
        local.insertedRows(t, written, done, Math.min(done, fromFree));
        local.rollback();
    }

    /** What writing the rows may allocate: column slots, text bytes, one entry per index. */
    private static long writeBytes(Table t, PendingRows rows) {
        long need = (long) rows.rows * (rows.columns * 8L + Headroom.INDEX_BYTES_PER_ENTRY * t.indexes().size());
        for (int i = 0; i < rows.rows * rows.columns; i++) {
            byte[] text = rows.texts[i];
            if (text != null) {
                need += text.length + 4;
            }
        }
        return need;
    }
}
