package io.respsql.exec.write;

import io.respsql.exec.Headroom;
import io.respsql.exec.kernel.NumericKernel;
import io.respsql.expr.EvalContext;
import io.respsql.index.LongIntBTree;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.RowAllocator;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * UPDATE in place, as an operator over a row source ({@link RowSource}: the rows the planner's
 * access path finds, any predicate) whose run state is a {@link WriteRun} of its own (DuckDB's
 * PhysicalUpdate: DML as operators, state apart from the plan). The rows are collected before
 * the first write, so the update cannot disturb its own row source; the shape the planner
 * recorded picks the loop (a key range or every row: the batch kernels, no row list). Cost:
 * finding the rows plus one store per assigned column per row. Anything that can fail (a value
 * out of range, NULL into NOT NULL, a duplicate primary key) is checked for every matched row
 * before the first write; a UNIQUE violation is found after the writes and takes them back. So a
 * failed UPDATE changes nothing. Returns the number of rows matched; the caller replies.
 */
public final class UpdateOperator {
    private final Table table;
    private final RowSource rows;
    private final Assignment[] assignments;
    private final int relations;
    /** RETURNING (null: none): the rows' new values, once written and checked. */
    private Returning returning;
    /** The state of this plan's runs, which never overlap (the event loop): made once, reused. */
    private WriteRun kept;
    /** The CHECKs that read an assigned column (null: none), bound by the planner. */
    private Constraints.Check[] checks;
    /** The assigned columns are in a foreign key (either side): the rows are checked, referencing rows acted on. */
    private final boolean fkWork;
    /** Constraints to check: the batch paths that skip the general loop are not taken. */
    private boolean constrained;
    private final Column[] assigned;
    /** Every assignment's value is the same for all rows of a run (constants, parameters): no per-row compute. */
    private final boolean allConstant;
    /** The assignment to the primary key's column (its new keys are checked before the writes), or -1. */
    private final int pk;
    /** Some assigned column is TEXT: the table's text may be compacted after the writes. */
    private final boolean writesText;

    /**
     * The bound statement (plan.WritePlanner makes it): the rows, the assignments (one per
     * column) and the relations the statement numbered (its context's slots).
     */
    public UpdateOperator(Table table, RowSource rows, Assignment[] assignments, int relations) {
        this.table = table;
        this.rows = rows;
        this.assignments = assignments;
        this.relations = relations;
        this.assigned = new Column[assignments.length];
        boolean constant = true;
        boolean text = false;
        int key = -1;
        for (int i = 0; i < assignments.length; i++) {
            Assignment a = assignments[i];
            assigned[i] = a.column;
            constant &= a.isConstant();
            text |= a.column.type() == ColumnType.TEXT;
            if (table.hasPrimaryKey() && a.column == table.primaryColumn()) {
                key = i;
            }
        }
        this.allConstant = constant;
        this.writesText = text;
        this.pk = key;
        this.fkWork = !table.constraints().isEmpty() && Constraints.fkTouched(table, assigned);
        this.constrained = fkWork;
    }

    /** The table's CHECKs (bound by the planner; null: none); those that read no assigned column are left out. Returns this. */
    public UpdateOperator checks(Constraints.Check[] bound) {
        if (bound != null) {
            List<Constraints.Check> read = new ArrayList<>();
            for (Constraints.Check c : bound) {
                if (c.reads(assigned)) {
                    read.add(c);
                }
            }
            checks = read.isEmpty() ? null : read.toArray(new Constraints.Check[0]);
        }
        constrained = fkWork || checks != null;
        return this;
    }

    public Table table() {
        return table;
    }

    /** Replies the updated rows' new values through {@code r} (RETURNING); set by the planner before the first run. */
    public UpdateOperator returning(Returning r) {
        this.returning = r;
        return this;
    }

    /**
     * Updates {@code targets} (ON CONFLICT DO UPDATE's rows), the i-th with EXCLUDED's row
     * {@code excluded[i]} as relation 1; the plan's row source must be {@link RowSource#given}.
     */
    public long runGiven(Catalog catalog, IntArrayList buffer, Headroom headroom, UndoLog undo,
                         io.respsql.expr.ParamValues params, IntArrayList targets, IntArrayList excluded) {
        state().give(targets, excluded);
        try {
            return run(catalog, buffer, headroom, undo, params, null, null);
        } finally {
            state().give(null, null);
        }
    }

    /** Whether the statement replies rows (RETURNING). */
    public boolean returnsRows() {
        return returning != null;
    }

    public RowSource rows() {
        return rows;
    }

    private WriteRun state() {
        WriteRun run = kept;
        if (run == null) {
            run = kept = new WriteRun(relations);
            run.values = new Cell[assignments.length];
            for (int i = 0; i < assignments.length; i++) {
                run.values[i] = assignments[i].newValue();
            }
        }
        return run;
    }

    /**
     * Runs the UPDATE with {@code params} (a cached plan's values; null: none) and returns the
     * number of rows matched (and written); {@code buffer} is the engine's reusable row list.
     * Stopped by {@code cancel} (a statement timeout; null: none) only while it looks for its
     * rows, before the first change: a stopped UPDATE changed nothing.
     */
    public long run(Catalog catalog, IntArrayList buffer, Headroom headroom, UndoLog undo,
                    io.respsql.expr.ParamValues params, io.respsql.expr.Cancellation cancel) {
        return run(catalog, buffer, headroom, undo, params, cancel, null);
    }

    /**
     * {@link #run(Catalog, IntArrayList, Headroom, UndoLog, io.respsql.expr.ParamValues, io.respsql.expr.Cancellation)},
     * RETURNING's rows to {@code sink}. With RETURNING the rows are always collected into a list (the
     * batch kernels that need none are skipped) and handed to it after the writes.
     */
    public long run(Catalog catalog, IntArrayList buffer, Headroom headroom, UndoLog undo,
                    io.respsql.expr.ParamValues params, io.respsql.expr.Cancellation cancel,
                    io.respsql.result.ResultSink sink) {
        Table t = table;
        Returning ret = returning;
        Assignment[] as = assignments;
        WriteRun run = state();
        EvalContext ctx = run.start(params);
        Cell[] vs = run.values;
        for (int j = 0; j < as.length; j++) {
            as[j].prepare(ctx, vs[j]);
        }
        if (ret == null && as.length == 1 && as[0].isIncrement() && !constrained) {
            long done = increment(run, as[0], buffer, undo, cancel);
            if (done >= 0) {
                return done;
            }
        }
        if (ret == null && undo == null && as.length == 1 && as[0].constantWrite(vs[0])
                && rows.shape == RowSource.Shape.KEY_RANGE && !constrained) {
            return setKeyRange(run, as[0], vs[0], buffer);
        }
        rows.collect(run, buffer, cancel);
        int n = buffer.size();
        int[] r = buffer.elements();
        boolean allConstant = this.allConstant;
        int pk = this.pk;
        // One row-local integer assignment (SET v = v + 1): each value is computed once, kept after
        // the row slots in the same reused buffer, and stored in a tight loop (rows[i] -> values[n + i]).
        boolean keptValues = false;
        if (!allConstant && as.length == 1 && as[0].rowLocalInt()) {
            Assignment a = as[0];
            Cell v = vs[0];
            buffer.size(2 * n);
            r = buffer.elements();
            keptValues = true;
            for (int i = 0; i < n; i++) {
                run.at(ctx, r, i);
                r[n + i] = a.computeInt(ctx, v);
                keptValues &= !v.isNull; // a NULL cannot be kept as an int: the general loop writes
            }
        } else if (!allConstant) {
            for (int i = 0; i < n; i++) {
                run.at(ctx, r, i);
                for (int j = 0; j < as.length; j++) {
                    as[j].compute(ctx, vs[j]);
                }
            }
        }
        if (pk >= 0 && n > 0) {
            checkPrimaryKeys(t, as[pk], vs[pk], r, n, run);
        }
        headroom.ensure(writeBytes(t, as, vs, r, n, run));
        List<TableIndex> unique = n == 0 ? null : affectedUnique(t, as);
        Constraints.ParentUpdate parents = fkWork && n > 0 ? Constraints.beforeParentUpdate(t, assigned, r, n) : null;
        boolean checking = constrained && n > 0;
        UndoLog local = null;
        if (unique != null || checking || (undo != null && n > 0)) {
            if (unique != null || checking) {
                local = new UndoLog(catalog); // takes the writes back if a UNIQUE index (or a constraint) ends up violated
                local.changingCells(t, assigned, r, n);
            }
            if (undo != null) {
                undo.changingCells(t, assigned, r, n);
            }
        }
        if (allConstant) {
            for (int j = 0; j < as.length; j++) {
                as[j].writeAll(r, n, vs[j]);
            }
        } else if (keptValues) {
            Assignment a = as[0];
            for (int i = 0; i < n; i++) {
                a.storeInt(r[i], r[n + i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                int row = r[i];
                run.at(ctx, r, i);
                for (int j = 0; j < as.length; j++) {
                    as[j].compute(ctx, vs[j]);
                }
                for (int j = 0; j < as.length; j++) {
                    as[j].write(row, vs[j]);
                }
            }
        }
        if (unique != null) {
            checkUnique(t, unique, r, n, local);
        }
        if (checking) {
            checkConstraints(catalog, t, r, n, ctx, parents, local, undo);
        }
        if (ret != null) {
            ret.emit(run, r, n, sink);
        }
        if (writesText) {
            t.maybeCompactText();
        }
        return n;
    }

    /**
     * {@code SET v = v ± k} into an unindexed INT, BIGINT or FLOAT column ({@link Assignment#isIncrement}):
     * every matched row's value is checked first ({@link NumericKernel#firstOutside}) and only then is k
     * added, in a primitive loop that skips NULLs; a row list outside a block is checked as it is
     * added to ({@link NumericKernel#addWithin}: one pass over strided rows), the additions taken back
     * at the first value that does not fit. Without a WHERE it walks the table's chunks, and over
     * an index range without filter it walks the cursor a batch at a time ({@link #incrementRange}):
     * no row list in either, and a block's undo log records the step, not the rows (FLOAT, whose
     * subtraction rounds, has its old values logged from a row list). A row
     * that would leave the column's range is computed by the general path, which throws its exact error
     * ("value ... is out of range", "integer overflow in a + b") before anything was written.
     * Returns the rows changed, or -1 when the general path must run (k is NULL).
     */
    /**
     * Adds {@code delta} to every live row of {@code t} when every value stays in range: returns -1
     * then, or (nothing written) the first live row whose value would not fit. A block's undo log
     * records the step (subtract again over the same live rows), not the rows.
     */
    private static int incrementLive(Table t, NumericKernel c, long delta, UndoLog undo) {
        RowAllocator live = t.rows();
        int bad = c.firstOutside(live, delta);
        if (bad < 0) {
            c.addToLive(live, delta);
            if (undo != null) {
                c.addedToLive(undo, t, delta);
            }
        }
        return bad;
    }

    private long increment(WriteRun run, Assignment a, IntArrayList buffer, UndoLog undo,
                           io.respsql.expr.Cancellation cancel) {
        Table t = table;
        EvalContext ctx = run.ctx;
        long delta = a.delta(ctx);
        if (delta == Long.MIN_VALUE) {
            return -1;
        }
        NumericKernel c = a.kernel();
        // the walks without a row list log the step for a block; a FLOAT's values are logged from the row list
        boolean walk = undo == null || c.exactUndo();
        if (walk && rows.shape == RowSource.Shape.ALL_ROWS) {
            int bad = incrementLive(t, c, delta, undo);
            if (bad >= 0) {
                throw rowError(a, ctx, bad);
            }
            return t.rows().liveCount();
        }
        if (walk && rows.shape == RowSource.Shape.KEY_RANGE) {
            long[] bounds = run.bounds;
            if (!rows.keys.eval(ctx, bounds)) {
                return 0;
            }
            if (coversAllRows(t, rows.index, bounds, run)) {
                // WHERE id > 0 over every row: the whole-table walk (live bitmap, chunk runs), not the cursor
                if (incrementLive(t, c, delta, undo) < 0) {
                    return t.rows().liveCount();
                }
                // a misfit (nothing written): the range walk names the first in key order, as the general path
            }
            return incrementRange(run, bounds, a, c, delta, buffer, undo);
        }
        rows.collect(run, buffer, cancel);
        int n = buffer.size();
        int[] r = buffer.elements();
        if (undo == null) {
            int bad = c.addWithin(r, n, delta); // one pass; a failure takes its additions back
            if (bad >= 0) {
                throw rowError(a, ctx, bad);
            }
            return n;
        }
        int bad = c.firstOutside(r, n, delta);
        if (bad >= 0) {
            throw rowError(a, ctx, bad);
        }
        if (n > 0) {
            undo.changingCells(t, new Column[] {a.column}, r, n); // a block's log: only what is certain to change
        }
        c.addTo(r, n, delta);
        return n;
    }

    /**
     * Whether the primary-key range [bounds[0], bounds[1]] holds every live row: the key holds one
     * entry per live row and its first and last keys are within the bounds.
     */
    private static boolean coversAllRows(Table t, TableIndex index, long[] bounds, WriteRun run) {
        if (!index.isPrimary() || index.tree().size() != t.rows().liveCount()) {
            return false;
        }
        LongIntBTree.Cursor cur = run.cursor(index);
        if (!cur.first() || cur.key() < bounds[0]) {
            return false;
        }
        return cur.last() && cur.key() <= bounds[1];
    }

    /**
     * The increment over an index range without filter (a {@code WHERE id > 0} over 5M rows): the
     * cursor hands out its rows a batch at a time into the engine's row buffer (no row list of the
     * whole range), and each batch is checked and added to in one pass ({@link NumericKernel#addWithin}).
     * At the first value that does not fit, that batch's additions are already taken back; the
     * range is walked again up to there to take back the earlier batches, and the general path's
     * error is thrown, so nothing is written. The column is in no index, so writing cannot disturb
     * the walk. A block's log records the range, not the rows: rollback subtracts over it again.
     */
    private long incrementRange(WriteRun run, long[] bounds, Assignment a, NumericKernel c, long delta,
                                IntArrayList buffer, UndoLog undo) {
        TableIndex index = rows.index;
        EvalContext ctx = run.ctx;
        LongIntBTree.Cursor cur = run.cursor(index);
        long done = 0;
        // one key's rows come in row order (pairs are ordered by key, then row): the ascending kernel
        boolean ascending = bounds[0] == bounds[1];
        int[] batch = firstBatch(cur, bounds[0], buffer);
        if (batch != null) {
            int n;
            while ((n = cur.fill(bounds[1], batch, UndoLog.RANGE_BATCH)) > 0) {
                int bad = ascending ? c.addWithinAscending(batch, n, delta) : c.addWithin(batch, n, delta);
                if (bad >= 0) {
                    c.addInRange(-delta, index, bounds[0], bounds[1], done, batch);
                    throw rowError(a, ctx, bad);
                }
                done += n;
            }
        }
        if (undo != null && done > 0) {
            c.addedInRange(undo, delta, index, bounds[0], bounds[1]);
        }
        return done;
    }

    /**
     * The start of a batched index-range walk ({@link #incrementRange}, {@link #setKeyRange}):
     * seeks {@code cur} to {@code from} and readies the engine's row buffer for
     * {@link LongIntBTree.Cursor#fill} batches of {@link UndoLog#RANGE_BATCH} rows. Returns the
     * batch array, or null when no key is at or after {@code from}. The batch loops stay in the
     * callers: their per-batch kernels differ (one can fail and take its batches back).
     */
    private static int[] firstBatch(LongIntBTree.Cursor cur, long from, IntArrayList buffer) {
        if (!cur.seek(from)) {
            return null;
        }
        buffer.clear();
        buffer.ensureCapacity(UndoLog.RANGE_BATCH);
        return buffer.elements();
    }

    /**
     * A constant into an unindexed INT, BIGINT or FLOAT column ({@link Assignment#constantWrite}) over an index
     * key or range without filter ({@code SET count = 5 WHERE fk = 7}), outside a block: the
     * cursor hands out the rows a batch at a time into the engine's row buffer and each batch is
     * stored by one loop ({@link NumericKernel#setAll}); no row list of the whole range. Nothing can
     * fail (the value was checked when prepared), the column is in no index (writing cannot
     * disturb the walk) and no UNIQUE or primary key is involved. Only for a
     * {@link RowSource.Shape#KEY_RANGE}.
     */
    private long setKeyRange(WriteRun run, Assignment a, Cell v, IntArrayList buffer) {
        long[] bounds = run.bounds;
        if (!rows.keys.eval(run.ctx, bounds)) {
            return 0;
        }
        TableIndex index = rows.index;
        NumericKernel c = a.kernel();
        long l = v.l;
        double d = v.d;
        LongIntBTree.Cursor cur = run.cursor(index);
        long done = 0;
        int[] batch = firstBatch(cur, bounds[0], buffer);
        if (batch != null) {
            int n;
            while ((n = cur.fill(bounds[1], batch, UndoLog.RANGE_BATCH)) > 0) {
                c.setAll(batch, n, l, d);
                done += n;
            }
        }
        return done;
    }

    /** The general path's error for a row whose new value does not fit (it computes and throws). */
    private static RuntimeException rowError(Assignment a, EvalContext ctx, int row) {
        ctx.slots[0] = row;
        Cell v = new Cell(); // an error's path: the value is thrown, not kept
        a.compute(ctx, v);
        return new IllegalStateException("row " + row + " was found out of range but computes to " + v.l);
    }

    /** The UNIQUE indexes (besides the primary key) over an assigned column, or null. */
    private static List<TableIndex> affectedUnique(Table t, Assignment[] as) {
        boolean any = false;
        for (Assignment a : as) {
            any |= a.inUnique; // known when bound: most UPDATEs (SET v = v + 1) skip the index walk
        }
        if (!any) {
            return null;
        }
        List<TableIndex> unique = null;
        List<TableIndex> indexes = t.indexes();
        for (int i = 0; i < indexes.size(); i++) {
            TableIndex ix = indexes.get(i);
            if (ix.isPrimary() || !ix.unique()) {
                continue;
            }
            for (Assignment a : as) {
                if (ix.columns().contains(a.column)) {
                    if (unique == null) {
                        unique = new ArrayList<>();
                    }
                    unique.add(ix);
                    break;
                }
            }
        }
        return unique;
    }

    /**
     * After the writes: the CHECKs that read an assigned column, the foreign keys over assigned
     * columns, and the actions of the foreign keys that reference a changed key; a violation takes
     * the whole statement back (its own writes and what it did to referencing rows).
     */
    private void checkConstraints(Catalog catalog, Table t, int[] r, int n, EvalContext ctx,
                                  Constraints.ParentUpdate parents, UndoLog local, UndoLog undo) {
        UndoLog cascades = null;
        try {
            if (checks != null) {
                for (int i = 0; i < n; i++) {
                    Constraints.check(t, checks, ctx, r[i]);
                }
            }
            if (fkWork) {
                for (io.respsql.storage.ConstraintDef fk : t.constraints().foreignKeys) {
                    boolean hit = false;
                    for (Column c : assigned) {
                        hit |= fk.covers(c, false);
                    }
                    if (hit) {
                        for (int i = 0; i < n; i++) {
                            Constraints.childRow(fk, r[i]);
                        }
                    }
                }
                if (parents != null) {
                    cascades = new UndoLog(catalog);
                    Constraints.afterParentUpdate(parents, cascades);
                }
            }
        } catch (RuntimeException e) {
            if (cascades != null) {
                cascades.rollback();
            }
            local.rollback();
            throw e;
        }
        if (undo != null && cascades != null) {
            undo.absorb(cascades);
        }
    }

    /** After the writes: a row that now collides in a UNIQUE index takes the whole statement back. */
    private static void checkUnique(Table t, List<TableIndex> unique, int[] rows, int n, UndoLog local) {
        for (int i = 0; i < n; i++) {
            TableIndex clash = UniqueIndexes.clash(t, unique, rows[i]);
            if (clash != null) {
                SqlException e = UniqueIndexes.violation(t, clash, rows[i]);
                local.rollback();
                throw e;
            }
        }
    }

    /**
     * Writes happen in place, so before the first one the heap must have room for what they may
     * allocate (new text bytes, index entries); see {@link Headroom}. Numeric columns without an
     * index allocate nothing and skip this.
     */
    private static long writeBytes(Table t, Assignment[] as, Cell[] vs, int[] rows, int n, WriteRun run) {
        EvalContext ctx = run.ctx;
        long need = 0;
        for (int j = 0; j < as.length; j++) {
            Assignment a = as[j];
            Cell v = vs[j];
            if (t.isIndexed(a.column)) {
                need += Headroom.INDEX_BYTES_PER_ENTRY * n;
            }
            if (a.column.type() == ColumnType.TEXT) {
                if (a.isConstant()) {
                    need += (long) n * ((v.text == null ? 0 : v.text.length) + 16);
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    run.at(ctx, rows, i);
                    a.compute(ctx, v);
                    need += (v.text == null ? 0 : v.text.length) + 16;
                }
            }
        }
        return need;
    }

    /**
     * New primary keys must be distinct from each other and from the keys of rows this UPDATE
     * does not touch (a key held by a matched row is being vacated, so it may be reused).
     */
    private static void checkPrimaryKeys(Table t, Assignment pk, Cell v, int[] rows, int n, WriteRun run) {
        EvalContext ctx = run.ctx;
        int[] matched = Arrays.copyOf(rows, n);
        IntArrays.quickSort(matched);
        Column col = pk.column;
        if (col.type() == ColumnType.TEXT) {
            Set<String> fresh = new HashSet<>();
            for (int i = 0; i < n; i++) {
                run.at(ctx, rows, i);
                pk.compute(ctx, v);
                String shown = new String(v.text, StandardCharsets.UTF_8);
                int holder = PrimaryKeys.findText(t, v.text);
                if (!fresh.add(shown) || holder >= 0 && Arrays.binarySearch(matched, holder) < 0) {
                    throw duplicate(t, shown);
                }
            }
            return;
        }
        LongOpenHashSet fresh = new LongOpenHashSet(n);
        for (int i = 0; i < n; i++) {
            run.at(ctx, rows, i);
            pk.compute(ctx, v);
            long key = PrimaryKeys.numericKey(col, v.l, v.d);
            int holder = PrimaryKeys.findNumeric(t, key);
            if (!fresh.add(key) || holder >= 0 && Arrays.binarySearch(matched, holder) < 0) {
                throw duplicate(t, col.type() == ColumnType.FLOAT ? Double.toString(v.d) : Long.toString(v.l));
            }
        }
    }

    private static SqlException duplicate(Table t, String key) {
        if (io.respsql.sql.Dialect.postgres()) {
            return UniqueIndexes.pgViolation(t, t.primaryIndex(), t.primaryColumn().name(), key);
        }
        return new SqlException(SqlState.UNIQUE_VIOLATION, "UPDATE would duplicate primary key " + t.primaryColumn().name() + "=" + key
                + " in table '" + t.name() + "'");
    }
}
