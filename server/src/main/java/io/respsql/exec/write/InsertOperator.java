package io.respsql.exec.write;

import io.respsql.exec.Headroom;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.ConstraintDef;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * INSERT, as an operator: {@code VALUES} rows (converted by the planner), a cached plan's
 * parameters, or the rows of a query, into the columns the planner bound; a column left out gets
 * its DEFAULT ({@link DefaultValue}), else NULL. Every value of every row is converted
 * ({@link ValueRules}), NOT NULL and primary keys are checked before the first row is written;
 * UNIQUE indexes are checked as the rows go in ({@link UniqueIndexes}), and a violation takes
 * back the rows already written. So a statement that fails changes nothing. {@code INSERT ...
 * SELECT} gathers all of the query's rows first, so {@code INSERT INTO t SELECT * FROM t} doubles
 * t exactly once. Returns the rows inserted; the caller replies (OK, or {@link #tableBytes()}
 * for RETURN SIZE).
 */
public final class InsertOperator {
    private final Table table;
    /** Per column: named by the statement (null: all are). */
    private final boolean[] named;
    /** Per column not named: its DEFAULT (null: none, the value stays NULL). */
    private final DefaultValue[] defaults;
    private final boolean returnSize;
    /** The UNIQUE indexes besides the primary key, checked as rows go in (null: none); fixed with the schema the plan was made for. */
    private final List<TableIndex> unique;
    /** Which column each value of a row goes to. */
    private final int[] target;
    /** VALUES converted by the planner (the plain path plans and runs at once), or null. */
    private final PendingRows values;
    /** INSERT ... SELECT: the query's operator tree, its outputs, its relations; else null. */
    private final Operator query;
    private final Expression[] outputs;
    /** INSERT ... SELECT: how each output goes into its column, chosen when planned; else null. */
    private final Conversion[] conversions;
    private final int queryRelations;
    /** A cached INSERT ... VALUES: what each value is (a parameter or a constant); else null. */
    private final Parameters parameters;
    /** The state of this plan's runs, which never overlap (the event loop): made once, reused. */
    private InsertRun kept;
    /** RETURNING (null: none): the inserted rows' values, once all are in. */
    private Returning returning;
    /** ON CONFLICT (null: none). */
    private OnConflict conflict;
    /** The table's CHECK constraints, bound by the planner (null: none). */
    private Constraints.Check[] checks;

    private InsertOperator(Table table, int[] target, DefaultValue[] defaults, boolean returnSize, PendingRows values,
                           Operator query, Expression[] outputs, int queryRelations, Parameters parameters) {
        this.table = table;
        this.target = target;
        this.named = target.length < table.columnCount() ? named(table, target) : null;
        this.defaults = defaults;
        this.returnSize = returnSize;
        this.unique = UniqueIndexes.secondaries(table);
        this.values = values;
        this.query = query;
        this.outputs = outputs;
        if (outputs == null) {
            this.conversions = null;
        } else {
            this.conversions = new Conversion[target.length];
            for (int i = 0; i < target.length; i++) {
                conversions[i] = Conversion.of(table.column(target[i]), outputs[i]);
            }
        }
        this.queryRelations = queryRelations;
        this.parameters = parameters;
    }

    /** INSERT ... VALUES whose rows the planner converted ({@link ValuesBuilder}). */
    public static InsertOperator values(Table t, int[] target, DefaultValue[] defaults, boolean returnSize,
                                        ValuesBuilder rows) {
        return new InsertOperator(t, target, defaults, returnSize, rows.rows, null, null, 0, null);
    }

    /** INSERT ... SELECT: {@code query} pushes tuples, {@code outputs} are evaluated in them per row. */
    public static InsertOperator query(Table t, int[] target, DefaultValue[] defaults, boolean returnSize, Operator query,
                                       Expression[] outputs, int relations) {
        return new InsertOperator(t, target, defaults, returnSize, null, query, outputs, relations, null);
    }

    /** A cached INSERT ... VALUES: {@code p} says per value which parameter (or constant) it is. */
    public static InsertOperator parameters(Table t, int[] target, DefaultValue[] defaults, boolean returnSize,
                                            Parameters p) {
        return new InsertOperator(t, target, defaults, returnSize, null, null, null, 0, p);
    }

    public Table table() {
        return table;
    }

    /** Replies the inserted rows through {@code r} (RETURNING); set by the planner before the first run. */
    public InsertOperator returning(Returning r) {
        this.returning = r;
        return this;
    }

    /** Whether the statement replies rows (RETURNING). */
    public boolean returnsRows() {
        return returning != null;
    }

    /** Whether the statement has ON CONFLICT (it may insert some rows and update others). */
    public boolean hasConflictClause() {
        return conflict != null;
    }

    /** Writes with {@code c} (ON CONFLICT); set by the planner before the first run. */
    public InsertOperator onConflict(OnConflict c) {
        this.conflict = c;
        return this;
    }

    /** Sets the table's CHECKs the rows must pass (the planner bound them; null: none); returns this. */
    public InsertOperator checks(Constraints.Check[] bound) {
        this.checks = bound;
        return this;
    }

    /** Whether the reply is the table's size ({@code RETURN SIZE}) rather than OK. */
    public boolean returnsSize() {
        return returnSize;
    }

    /** The table's size now, data and indexes: the reply of {@code RETURN SIZE}. */
    public long tableBytes() {
        return table.dataBytes() + table.indexBytes();
    }

    /** The per-run state: the rows being written and the slots they went to. */
    private static final class InsertRun {
        PendingRows rows;
        int[] written = new int[16];
        final Cell cell = new Cell();
        /** RETURNING's context (null: none yet). */
        EvalContext ctx;
        EvalContext checkCtx;

        int[] written(int n) {
            if (written.length < n) {
                written = new int[Math.max(n, written.length * 2)];
            }
            return written;
        }
    }

    /**
     * Runs the INSERT with {@code params} (a cached plan's values; null: none); a query's rows are
     * gathered first, stopped by {@code cancel} (null: none) before the first row is written.
     */
    public long run(Catalog catalog, Headroom headroom, UndoLog undo, io.respsql.expr.ParamValues params,
                    io.respsql.expr.Cancellation cancel) {
        return run(catalog, headroom, undo, params, cancel, null);
    }

    /** {@link #run(Catalog, Headroom, UndoLog, io.respsql.expr.ParamValues, io.respsql.expr.Cancellation)}, RETURNING's rows to {@code sink}. */
    public long run(Catalog catalog, Headroom headroom, UndoLog undo, io.respsql.expr.ParamValues params,
                    io.respsql.expr.Cancellation cancel, io.respsql.result.ResultSink sink) {
        InsertRun run = kept != null ? kept : (kept = new InsertRun());
        PendingRows rows;
        if (values != null) {
            rows = values;
        } else if (query != null) {
            rows = queryRows(cancel);
        } else {
            rows = parameterRows(run, params);
        }
        if (checks != null && run.checkCtx == null) {
            run.checkCtx = new EvalContext(CHECK_RELATIONS);
        }
        if (conflict != null) {
            if (named != null) {
                fillOmitted(named, defaults, rows, run.cell);
            }
            checkNotNull(table, rows);
            IntArrayList affected = new IntArrayList();
            long n = conflict.write(catalog, table, rows, run.cell, headroom, undo, params, affected, checks, run.checkCtx);
            if (returning != null) {
                int[] a = affected.elements();
                int kept = 0;
                for (int i = 0; i < affected.size(); i++) {
                    if (a[i] >= 0) {
                        a[kept++] = a[i];
                    }
                }
                EvalContext ctx = returning.newContext();
                ctx.params = params;
                returning.emit(ctx, a, kept, sink);
            }
            return n;
        }
        int[] written = run.written(rows.rows);
        long n = write(catalog, table, named, defaults, rows, unique, written, run.cell, headroom, undo, checks,
                run.checkCtx);
        if (returning != null) {
            EvalContext ctx = run.ctx != null ? run.ctx : (run.ctx = returning.newContext());
            ctx.reset();
            ctx.params = params;
            returning.emit(ctx, written, (int) n, sink);
        }
        return n;
    }

    /**
     * The rows of {@code rows} (their named columns converted) completed, checked and written, or
     * nothing written and an error thrown; then the reply. Shared by the plain and the cached path,
     * so both check, write and take back alike. {@code written} has room for every row.
     */
    private static long write(Catalog catalog, Table t, boolean[] named, DefaultValue[] defaults, PendingRows rows,
            List<TableIndex> unique, int[] written, Cell cell, Headroom headroom, UndoLog undo,
            Constraints.Check[] checks, EvalContext checkCtx) {
        int nRows = rows.rows;
        int nCols = t.columnCount();
        if (named != null) {
            fillOmitted(named, defaults, rows, cell);
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
                    TableIndex clash = UniqueIndexes.clash(t, unique, row);
                    if (clash != null) {
                        SqlException e = UniqueIndexes.violation(t, clash, row);
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
        if (checks != null || !t.constraints().foreignKeys.isEmpty()) {
            // after every row is in (PostgreSQL checks at the statement's end: a row may reference one inserted after it)
            try {
                for (int i = 0; i < done; i++) {
                    if (checks != null) {
                        Constraints.check(t, checks, checkCtx, written[i]);
                    }
                    for (ConstraintDef fk : t.constraints().foreignKeys) {
                        Constraints.childRow(fk, written[i]);
                    }
                }
            } catch (SqlException e) {
                takeBack(catalog, t, written, done, fromFree);
                throw e;
            }
        }
        if (undo != null) {
            undo.insertedRows(t, written, done, fromFree);
        }
        return nRows;
    }

    // ---- the plan cache's INSERT ... VALUES -----------------------------------------------------

    /**
     * What each value of a cached INSERT ... VALUES is, bound once by the planner: the column it
     * goes to and how it is converted, a parameter of the statement's text or a constant. A run
     * converts the parameters straight into reused pending rows and writes them through the
     * same checks as the plain path ({@link #write}): no lexing, parsing or binding, and nothing
     * allocated but what the stored values need.
     */
    public static final class Parameters {
        final int nRows;
        final int width;
        /** Per value (row-major, {@code width} a row): its column position. */
        final int[] column;
        /** Per value: the parameter it is, or -1 for a constant ({@link #constants}). */
        final int[] param;
        final Expr.LiteralKind[] kind;
        final boolean[] negative;
        final Cell[] constants;

        public Parameters(int nRows, int width) {
            this.nRows = nRows;
            this.width = width;
            int n = nRows * width;
            column = new int[n];
            param = new int[n];
            kind = new Expr.LiteralKind[n];
            negative = new boolean[n];
            constants = new Cell[n];
        }

        /** Value {@code v} goes to column {@code col} from parameter {@code index} (a {@code kind} literal, negated when {@code negative}). */
        public void parameter(int v, int col, int index, Expr.LiteralKind kind, boolean negative) {
            column[v] = col;
            param[v] = index;
            this.kind[v] = kind;
            this.negative[v] = negative;
        }

        /** Value {@code v} goes to column {@code col} as the converted constant {@code value}. */
        public void constant(int v, int col, Cell value) {
            column[v] = col;
            param[v] = -1;
            constants[v] = value;
        }
    }

    /** A cached run's rows: its parameters converted into the run's reused pending rows. */
    private PendingRows parameterRows(InsertRun run, io.respsql.expr.ParamValues params) {
        Parameters p = parameters;
        Table t = table;
        PendingRows rows = run.rows;
        if (rows == null) {
            rows = run.rows = new PendingRows(t.columnCount(), p.nRows);
        }
        rows.clear();
        Cell cell = run.cell;
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
        return rows;
    }

    /**
     * The plain path's VALUES rows as the planner converts them: literals by {@link ValueRules},
     * expressions bound by the planner and evaluated here.
     */
    public static final class ValuesBuilder {
        private final Table table;
        private final PendingRows rows;
        private final Cell cell = new Cell();
        private EvalContext ctx;
        private int at;

        public ValuesBuilder(Table t, int expectedRows) {
            this.table = t;
            this.rows = new PendingRows(t.columnCount(), expectedRows);
        }

        /** Begins the next row (every value NULL until set). */
        public void addRow() {
            at = rows.addRow();
        }

        /** Column {@code col} of the current row from literal {@code e}; false when it must be bound ({@link #evaluated}). */
        public boolean literal(int col, Expr e, String sql) {
            if (!ValueRules.literal(table.column(col), e, sql, false, cell)) {
                return false;
            }
            rows.set(at, col, cell);
            return true;
        }

        /** Column {@code col} of the current row: its DEFAULT ({@code DEFAULT} written in VALUES). */
        public void defaultValue(int col, DefaultValue d) {
            d.value(cell);
            rows.set(at, col, cell);
        }

        /** Column {@code col} of the current row: the constant expression {@code x}, written {@code shown}. */
        public void evaluated(int col, Expression x, String shown) {
            if (ctx == null) {
                ctx = new EvalContext(CHECK_RELATIONS); // a subquery in the entry binds its tables' slots
            }
            ValueRules.evaluated(table.column(col), x, ctx, shown, cell);
            rows.set(at, col, cell);
        }
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
        private DefaultValue[] defaults;
        private PendingRows rows;
        private int[] written = new int[16];
        private final Cell cell = new Cell();
        private int at;
        private Constraints.Check[] checks;
        private EvalContext checkCtx;

        /** The table's CHECKs (the planner bound them; null: none), for the statement started last. */
        public void checks(Constraints.Check[] bound) {
            checks = bound;
            if (bound != null && checkCtx == null) {
                checkCtx = new EvalContext(CHECK_RELATIONS);
            }
        }

        /**
         * Starts a statement into {@code t}'s columns {@code target} (the planner bound them and
         * the omitted columns' {@code defaults}, plan.WritePlanner#startBulk).
         */
        public void start(Table t, int[] target, DefaultValue[] defaults) {
            table = t;
            this.target = target;
            named = target.length < table.columnCount() ? named(table, target) : null;
            this.defaults = defaults;
            if (rows == null || rows.columns != table.columnCount()) {
                rows = new PendingRows(table.columnCount(), 1024);
            }
            rows.clear();
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

        /**
         * Value {@code i} of the current row from a COPY's field: the bytes {@code b[off, off+len)}
         * (escapes already taken out) read as PostgreSQL's input function of the column's type does.
         * A value the type refuses throws 22P02 (or 22003 out of range), naming the value.
         */
        public void copyValue(int i, byte[] b, int off, int len) {
            Column c = table.column(target[i]);
            if (c.type() == ColumnType.TEXT) {
                if (c.typeModifier() >= 0) {
                    // varchar(n)/char(n): PostgreSQL's 22001 past n characters (trailing blanks cut)
                    cell.isNull = false;
                    cell.text = b;
                    cell.textOff = off;
                    cell.textLen = len;
                    boolean prior = io.respsql.sql.Dialect.set(true); // COPY is PostgreSQL's
                    try {
                        ValueRules.fitLength(c, cell);
                    } finally {
                        io.respsql.sql.Dialect.set(prior);
                    }
                    len = cell.textLen;
                }
                rows.setTextBytes(at, target[i], b, off, len);
                return;
            }
            CopyValues.convert(c, b, off, len, cell);
            rows.set(at, target[i], cell);
        }

        /** The table this statement writes into (null once released). */
        public Table table() {
            return table;
        }

        /** Rows read so far and not yet written. */
        public int pendingRows() {
            return rows == null ? 0 : rows.rows;
        }

        /** The row slots the last {@link #write} filled, {@code [0, rows written)}. */
        public int[] writtenRows() {
            return written;
        }

        /** Writes the rows read (all or none); returns the rows inserted (the caller replies OK). */
        public long write(Catalog catalog, Headroom headroom, UndoLog undo) {
            if (written.length < rows.rows) {
                written = new int[Math.max(rows.rows, written.length * 2)];
            }
            try {
                return InsertOperator.write(catalog, table, named, defaults, rows, UniqueIndexes.secondaries(table),
                        written, cell, headroom, undo, checks, checkCtx);
            } finally {
                release();
            }
        }

        /** Lets the statement's table and values go (a huge statement's arrays too). */
        public void release() {
            table = null;
            defaults = null;
            checks = null;
            if (rows != null && (rows.longs.length > 1 << 20 || rows.textBytes.length > 1 << 24)) {
                rows = null;
                written = new int[16];
            }
        }
    }

    /** The query's rows, all gathered before the first is written. */
    private PendingRows queryRows(io.respsql.expr.Cancellation cancel) {
        PendingRows rows = new PendingRows(table.columnCount(), 16);
        Cell cell = new Cell();
        EvalContext ctx = new EvalContext(queryRelations);
        ctx.cancel = cancel;
        Expression[] exprs = outputs;
        Conversion[] into = conversions;
        int[] to = target;
        TupleConsumer gather = c -> {
            int at = rows.addRow();
            for (int i = 0; i < into.length; i++) {
                into[i].convert(exprs[i], c, null, cell);
                rows.set(at, to[i], cell);
            }
            return true;
        };
        query.run(ctx, gather);
        return rows;
    }

    /** Which columns {@code target} names. */
    static boolean[] named(Table t, int[] target) {
        boolean[] named = new boolean[t.columnCount()];
        for (int c : target) {
            named[c] = true;
        }
        return named;
    }

    /** Columns the statement does not name take their DEFAULT ({@code defaults}, null: none), or NULL. */
    private static void fillOmitted(boolean[] named, DefaultValue[] defaults, PendingRows rows, Cell cell) {
        for (int c = 0; c < named.length; c++) {
            if (named[c] || defaults[c] == null) {
                continue; // rows start NULL
            }
            if (defaults[c].perRow()) { // nextval(...): one value per row, in row order
                for (int r = 0; r < rows.rows; r++) {
                    defaults[c].value(cell);
                    rows.set(r, c, cell);
                }
                continue;
            }
            defaults[c].value(cell);
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

    /** Relations of a CHECK's context (plan.QueryBinder.MAX_RELATIONS; a CHECK reads relation 0). */
    static final int CHECK_RELATIONS = 64;

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
        if (io.respsql.sql.Dialect.postgres()) {
            return UniqueIndexes.pgViolation(t, t.primaryIndex(), t.primaryColumn().name(), key);
        }
        return new SqlException(SqlState.UNIQUE_VIOLATION, "INSERT on Existing Data - use UPDATE (table '" + t.name() + "' already has "
                + t.primaryColumn().name() + "=" + key + ")");
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
