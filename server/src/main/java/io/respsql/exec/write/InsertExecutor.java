package io.respsql.exec.write;

import io.respsql.exec.Headroom;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.plan.StatementPlanner;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
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

    /** Runs the INSERT; returns the rows inserted. */
    public static long run(Catalog catalog, Statement.Insert s, String sql, Headroom headroom, UndoLog undo) {
        return run(catalog, s, sql, headroom, undo, null);
    }

    /** {@link #run(Catalog, Statement.Insert, String, Headroom, UndoLog)}; an INSERT ... SELECT's query is stopped by {@code cancel} before the first row is written. */
    public static long run(Catalog catalog, Statement.Insert s, String sql, Headroom headroom, UndoLog undo,
                           io.respsql.expr.Cancellation cancel) {
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        int[] target = targetColumns(t, s.columns());
        PendingRows rows;
        if (s.rows() != null) {
            rows = values(t, target, s.rows(), sql);
        } else {
            rows = query(catalog, t, target, s, sql, cancel);
        }
        boolean[] named = target.length < t.columnCount() ? named(t, target) : null;
        return write(catalog, t, named, rows, uniqueSecondaries(t), new int[rows.rows], new Cell(),
                headroom, undo);
    }

    /**
     * The rows of {@code rows} (their named columns converted) completed, checked and written, or
     * nothing written and an error thrown; returns the rows written. Shared by the plain and the cached path,
     * so both check, write and take back alike. {@code written} has room for every row.
     */
    private static long write(Catalog catalog, Table t, boolean[] named, PendingRows rows, List<TableIndex> unique,
            int[] written, Cell cell, Headroom headroom, UndoLog undo) {
        int nRows = rows.rows;
        int nCols = t.columnCount();
        if (named != null) {
            fillOmitted(t, named, rows, cell);
        }
        checkNotNull(t, rows);
        if (t.hasPrimaryKey()) {
            checkKeys(t, rows);
        }
        headroom.ensure(writeBytes(t, rows));
        int fromFree = Math.min(nRows, t.rows().freeCount());
        int done = 0;
        int next = -1;
        boolean allocated = false;
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
        return nRows;
    }

    // ---- the plan cache's INSERT ... VALUES -----------------------------------------------------

    /**
     * An INSERT ... VALUES whose values are literals (the plan cache's parameters) or constants:
     * the target table, which column each value goes to, and how it is converted, bound once.
     * A run converts the parameters straight into reused pending rows and writes them through the
     * same checks as the plain path ({@link #write}): no lexing, parsing or binding, and nothing
     * allocated but what the stored values need. Event loop only (its scratch is reused).
     */
    public static final class Plan {
        final Table table;
        final boolean[] named;
        final boolean returnSize;
        final List<TableIndex> unique;
        final int nRows;
        final int width;
        /** Per value (row-major, {@code width} a row): its column position. */
        final int[] column;
        /** Per value: the parameter it is, or -1 for a constant ({@link #constants}). */
        final int[] param;
        final Expr.LiteralKind[] kind;
        final boolean[] negative;
        final Cell[] constants;
        private final PendingRows rows;
        private final int[] written;
        private final Cell cell = new Cell();

        private Plan(Table table, boolean[] named, boolean returnSize, int nRows, int width) {
            this.table = table;
            this.named = named;
            this.returnSize = returnSize;
            this.unique = uniqueSecondaries(table);
            this.nRows = nRows;
            this.width = width;
            int n = nRows * width;
            column = new int[n];
            param = new int[n];
            kind = new Expr.LiteralKind[n];
            negative = new boolean[n];
            constants = new Cell[n];
            rows = new PendingRows(table.columnCount(), nRows);
            written = new int[nRows];
        }

        /** The 2010 {@code RETURN SIZE} suffix: the reply is the table's size, not OK. */
        public boolean returnSize() {
            return returnSize;
        }

        public Table table() {
            return table;
        }
    }

    /** Which parameter a literal of the statement's text is (-1: not one; it stays a literal). */
    @FunctionalInterface
    public interface Parameters {
        int indexOf(Expr.Literal literal);
    }

    /**
     * The cached plan of an INSERT ... VALUES, or null when it cannot be one: a query for rows,
     * a value that must be evaluated (an expression, a function, a signed number for a TEXT column),
     * unquoted text or a typed literal (their text is in the key),
     * a literal that is not one of the {@code literals} parameters, or one that the plain path
     * would refuse for its column whatever its value (its errors are the plain path's to give).
     * Throws what the plain path throws for an unknown table or column.
     */
    public static Plan plan(Catalog catalog, Statement.Insert s, String sql, Parameters params, int literals) {
        if (s.rows() == null) {
            return null;
        }
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        int[] target = targetColumns(t, s.columns());
        int nRows = s.rows().size();
        Plan p = new Plan(t, target.length < t.columnCount() ? named(t, target) : null, s.returnSize(), nRows,
                target.length);
        int made = 0;
        int v = 0;
        for (List<Expr> row : s.rows()) {
            if (row.size() != target.length) {
                return null; // the plain path's error
            }
            for (int i = 0; i < target.length; i++, v++) {
                Column c = t.column(target[i]);
                Expr e = row.get(i);
                p.column[v] = target[i];
                boolean negative = false;
                boolean signed = false;
                Expr x = e;
                while (x instanceof Expr.Unary u && u.op() != Expr.UnaryOp.NOT) {
                    negative ^= u.op() == Expr.UnaryOp.MINUS;
                    signed = true;
                    x = u.operand();
                }
                int index = x instanceof Expr.Literal lit ? params.indexOf(lit) : -1;
                if (index >= 0) {
                    Expr.Literal lit = (Expr.Literal) x;
                    if (!ValueRules.parameterFits(c, lit.kind(), signed)) {
                        return null;
                    }
                    p.param[v] = index;
                    p.kind[v] = lit.kind();
                    p.negative[v] = negative;
                    made++;
                    continue;
                }
                // A constant (NULL, TRUE, FALSE): converted now, the same every run. Unquoted 2010 text
                // (marieanne) is not cached: it is in the key, so a plan would serve only that one value
                // and a load of distinct names would fill the cache with plans used once.
                if (!(e instanceof Expr.Literal lit) || (lit.kind() != Expr.LiteralKind.NULL
                        && lit.kind() != Expr.LiteralKind.TRUE && lit.kind() != Expr.LiteralKind.FALSE)) {
                    return null;
                }
                Cell k = new Cell();
                try {
                    if (!ValueRules.literal(c, e, sql, false, k)) {
                        return null;
                    }
                } catch (SqlException refused) {
                    return null;
                }
                p.param[v] = -1;
                p.constants[v] = k;
            }
        }
        // A literal inside a constant (unquoted text such as foo-5): its value is part of the row, so not cached.
        return made == literals ? p : null;
    }

    /** Runs a cached INSERT with {@code params}' values; as {@link #run(Catalog, Statement.Insert, String, Headroom, UndoLog)}. */
    public static long run(Catalog catalog, Plan p, Headroom headroom, UndoLog undo,
            io.respsql.expr.ParamValues params) {
        Table t = p.table;
        PendingRows rows = p.rows;
        rows.clear();
        Cell cell = p.cell;
        int v = 0;
        for (int r = 0; r < p.nRows; r++) {
            int at = rows.addRow();
            for (int i = 0; i < p.width; i++, v++) {
                int col = p.column[v];
                int index = p.param[v];
                if (index < 0) {
                    rows.set(at, col, p.constants[v]);
                } else {
                    ValueRules.parameter(t.column(col), p.kind[v], p.negative[v], params, index, cell);
                    rows.set(at, col, cell);
                }
            }
        }
        return write(catalog, t, p.named, rows, p.unique, p.written, cell, headroom, undo);
    }

    // ---- a stream of VALUES rows (bulk load) -----------------------------------------------------

    /**
     * A bulk INSERT ... VALUES read straight from its text: the caller walks the rows and hands over
     * each value as a literal's span ({@link #set}) or NULL; the values are converted as the plain
     * path converts those literals, into pending rows, and written through the same checks
     * ({@link #write}), so a bad value anywhere leaves nothing. No syntax tree, no bound expression
     * per value. One per engine, reused (event loop only).
     */
    public static final class Bulk {
        private Table table;
        private int[] target;
        private boolean[] named;
        private PendingRows rows;
        private int[] written = new int[16];
        private final Cell cell = new Cell();
        private int at;

        /**
         * Starts a statement shaped as {@code s} (its rows are not read: only its table and
         * columns); false when it is no VALUES insert. Throws the plain path's errors for an
         * unknown table or column.
         */
        public boolean start(Catalog catalog, Statement.Insert s) {
            if (s.rows() == null || s.returnSize()) {
                return false;
            }
            table = Tables.require(catalog, s.table(), "INSERT into");
            target = targetColumns(table, s.columns());
            named = target.length < table.columnCount() ? named(table, target) : null;
            if (rows == null || rows.columns != table.columnCount()) {
                rows = new PendingRows(table.columnCount(), 1024);
            }
            rows.clear();
            return true;
        }

        /** Values per row. */
        public int width() {
            return target.length;
        }

        /** Begins the next row (every value NULL until set). */
        public void addRow() {
            at = rows.addRow();
        }

        /**
         * Value {@code i} of the current row: the literal {@code sql[start, end)} of {@code kind}
         * (an INTEGER's value read as {@code integer}), under a sign when {@code signed}.
         * False when only the plain path can read it (a sign before text, a number for a DATE);
         * a value its column refuses throws (the plain path then gives the error).
         */
        public boolean set(int i, Expr.LiteralKind kind, boolean signed, boolean negative, long integer, String sql,
                int start, int end) {
            Column c = table.column(target[i]);
            if (!ValueRules.parameterFits(c, kind, signed)) {
                return false;
            }
            if (c.type() == ColumnType.TEXT) {
                // straight into the rows' text buffer: no array per value (ValueRules.literalAt's conversion)
                if (kind == Expr.LiteralKind.STRING) {
                    rows.setText(at, target[i], sql, start + 1, end - 1, true);
                } else {
                    rows.setText(at, target[i], sql, start, end, false); // unsigned: verbatim, leading zeros kept
                }
                return true;
            }
            ValueRules.literalAt(c, kind, negative, integer, sql, start, end, cell);
            rows.set(at, target[i], cell);
            return true;
        }

        /** Writes the rows read (all or none); returns the rows inserted. */
        public long write(Catalog catalog, Headroom headroom, UndoLog undo) {
            if (written.length < rows.rows) {
                written = new int[Math.max(rows.rows, written.length * 2)];
            }
            try {
                return InsertExecutor.write(catalog, table, named, rows, uniqueSecondaries(table), written, cell,
                        headroom, undo);
            } finally {
                release();
            }
        }

        /** Lets the statement's table and values go (a huge statement's arrays too). */
        public void release() {
            table = null;
            if (rows != null && (rows.longs.length > 1 << 20 || rows.textBytes.length > 1 << 24)) {
                rows = null;
                written = new int[16];
            }
        }
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
                throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT into '" + t.name() + "' has " + row.size() + " values for "
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
    private static PendingRows query(Catalog catalog, Table t, int[] target, Statement.Insert s, String sql,
                                     io.respsql.expr.Cancellation cancel) {
        StatementPlanner.QueryPlan plan = StatementPlanner.planQuery(catalog, s.query(), sql);
        List<Expression> outputs = plan.outputs();
        if (outputs.size() != target.length) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT into '" + t.name() + "' has " + outputs.size() + " values for "
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
        ctx.cancel = cancel;
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

    /** Which columns {@code target} names. */
    private static boolean[] named(Table t, int[] target) {
        boolean[] named = new boolean[t.columnCount()];
        for (int c : target) {
            named[c] = true;
        }
        return named;
    }

    /** Columns the statement does not name take their DEFAULT, or NULL. */
    private static void fillOmitted(Table t, boolean[] named, PendingRows rows, Cell cell) {
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
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "DEFAULT " + col.defaultText() + " of column '" + col.name()
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
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column '" + c.name() + "' is named twice in INSERT");
            }
            hasPk |= t.hasPrimaryKey() && c == t.primaryColumn();
            target[i] = c.position();
        }
        if (t.hasPrimaryKey() && !hasPk && t.primaryColumn().defaultText() == null) {
            throw new SqlException(SqlState.NOT_NULL_VIOLATION, "INSERT into '" + t.name() + "' must give primary key column '" + t.primaryColumn().name() + "'");
        }
        return target;
    }

    /** Up to this many rows, keys within the statement are compared pairwise (no set to allocate). */
    private static final int PAIRWISE_KEYS = 16;

    /**
     * New primary keys must be distinct from each other and from the table's; the first row whose
     * key is taken (by the table or an earlier row) is the one named.
     */
    private static void checkKeys(Table t, PendingRows rows) {
        Column pk = t.primaryColumn();
        int p = pk.position();
        int nRows = rows.rows;
        int nCols = rows.columns;
        if (pk.type() == ColumnType.TEXT) {
            Set<String> batch = nRows > PAIRWISE_KEYS ? new HashSet<>() : null;
            for (int r = 0; r < nRows; r++) {
                byte[] v = rows.textCopy(r, p); // a TEXT key: an array per row, as the set of keys needs
                boolean taken = PrimaryKeys.findText(t, v) >= 0;
                if (!taken && batch != null) {
                    taken = !batch.add(new String(v, StandardCharsets.UTF_8));
                } else {
                    for (int q = 0; q < r && !taken; q++) {
                        taken = rows.sameText(r * nCols + p, q * nCols + p);
                    }
                }
                if (taken) {
                    throw duplicate(t, new String(v, StandardCharsets.UTF_8));
                }
            }
            return;
        }
        // Keys in strictly rising order (a bulk load's) are distinct from each other: then only the
        // table is asked, and no set of the statement's keys is built.
        boolean rising = true;
        long prev = 0;
        for (int r = 0; r < nRows && rising; r++) {
            int slot = r * nCols + p;
            long key = PrimaryKeys.numericKey(pk, rows.longs[slot], rows.doubles[slot]);
            rising = r == 0 || key > prev;
            prev = key;
        }
        LongOpenHashSet batch = !rising && nRows > PAIRWISE_KEYS ? new LongOpenHashSet(nRows) : null;
        for (int r = 0; r < nRows; r++) {
            int slot = r * nCols + p;
            long key = PrimaryKeys.numericKey(pk, rows.longs[slot], rows.doubles[slot]);
            boolean taken = PrimaryKeys.findNumeric(t, key) >= 0;
            if (rising) {
                // distinct from the earlier rows' keys: nothing more to check
            } else if (!taken && batch != null) {
                taken = !batch.add(key);
            } else {
                for (int q = 0; q < r && !taken; q++) {
                    int other = q * nCols + p;
                    taken = PrimaryKeys.numericKey(pk, rows.longs[other], rows.doubles[other]) == key;
                }
            }
            if (taken) {
                throw duplicate(t, pk.type() == ColumnType.FLOAT ? Double.toString(rows.doubles[slot]) : Long.toString(rows.longs[slot]));
            }
        }
    }

    /** The 2010 reply, with the key that exists. */
    private static SqlException duplicate(Table t, String key) {
        return new SqlException(SqlState.UNIQUE_VIOLATION, "INSERT on Existing Data - use UPDATE (table '" + t.name() + "' already has "
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
        return new SqlException(SqlState.UNIQUE_VIOLATION, "UNIQUE index '" + ix.name() + "' of table '" + t.name() + "' already has " + keyText(ix, row));
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
            if (rows.textLen[i] >= 0) {
                need += rows.textLen[i] + 4;
            }
        }
        return need;
    }
}
