package io.respsql.exec.write;

import io.respsql.exec.Headroom;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code INSERT ... ON CONFLICT} (PostgreSQL's): each proposed row is written, then looked up in
 * the arbiter indexes (the unique index or primary key the conflict target names; every one
 * when none is named). A row that collides is taken back: DO NOTHING skips it; DO UPDATE hands
 * the existing row, with the proposed one as {@code EXCLUDED} (relation 1, a one-table work table
 * of the table's columns), to an {@link UpdateOperator} planned for it, after the rows that did
 * not collide are in, so its checks (keys, UNIQUE, NOT NULL, headroom, undo) are UPDATE's. A
 * row proposed twice for DO UPDATE (or colliding with one this statement inserted) is
 * PostgreSQL's error 21000. A collision in any other unique index is the INSERT's error. The
 * engine runs the statement with an undo log, so any failure takes back every change.
 */
public final class OnConflict {
    private final List<TableIndex> arbiters;
    private final List<TableIndex> others;
    /** DO UPDATE's update (null: DO NOTHING), its rows given per run, EXCLUDED its relation 1. */
    private final UpdateOperator update;
    /** DO UPDATE ... WHERE (null: none), over relation 0 (the existing row) and 1 (EXCLUDED). */
    private final Expression where;
    private final Table excluded;
    private final int contextSlots;

    public OnConflict(Table t, List<TableIndex> arbiters, UpdateOperator update, Expression where, Table excluded,
                      int contextSlots) {
        this.arbiters = arbiters;
        List<TableIndex> rest = new ArrayList<>();
        for (TableIndex ix : t.indexes()) {
            if ((ix.unique() || ix.isPrimary()) && !arbiters.contains(ix)) {
                rest.add(ix);
            }
        }
        this.others = rest;
        this.update = update;
        this.where = where;
        this.excluded = excluded;
        this.contextSlots = contextSlots;
    }

    /**
     * Writes {@code rows} (complete and NOT NULL-checked) into {@code t} with this clause; the slot of
     * each row the statement inserted or updated goes to {@code affected}, in the order proposed.
     * Returns the rows inserted or updated.
     */
    long write(Catalog catalog, Table t, PendingRows rows, Cell cell, Headroom headroom, UndoLog undo,
               io.respsql.expr.ParamValues params, IntArrayList affected, Constraints.Check[] checks,
               EvalContext checkCtx) {
        int nRows = rows.rows;
        int nCols = t.columnCount();
        affected.clear();
        IntOpenHashSet inserted = new IntOpenHashSet();
        IntOpenHashSet claimed = new IntOpenHashSet();
        IntArrayList targets = new IntArrayList();
        IntArrayList proposals = new IntArrayList(); // the proposed row (in rows) of each target
        IntArrayList places = new IntArrayList(); // where in affected each target goes
        int[] one = new int[1];
        for (int r = 0; r < nRows; r++) {
            headroom.ensure((long) nCols * 8 + Headroom.INDEX_BYTES_PER_ENTRY * t.indexes().size());
            int fromFree = t.rows().freeCount() > 0 ? 1 : 0;
            int row = t.allocateRow();
            for (int c = 0; c < nCols; c++) {
                rows.get(r, c, cell);
                CellStore.store(t.column(c), row, cell);
            }
            int clash = -1;
            for (TableIndex ix : arbiters) {
                clash = t.uniqueClash(ix, row);
                if (clash >= 0) {
                    break;
                }
            }
            if (clash >= 0) {
                t.abandonRow(row, true);
                if (update == null) {
                    continue; // DO NOTHING
                }
                if (inserted.contains(clash) || !claimed.add(clash)) {
                    throw new SqlException(SqlState.CARDINALITY_VIOLATION,
                            "ON CONFLICT DO UPDATE command cannot affect row a second time");
                }
                targets.add(clash);
                proposals.add(r);
                places.add(affected.size());
                affected.add(clash);
                continue;
            }
            for (TableIndex ix : others) {
                if (t.uniqueClash(ix, row) >= 0) {
                    SqlException e = UniqueIndexes.violation(t, ix, row);
                    t.abandonRow(row, true);
                    throw e;
                }
            }
            t.indexRow(row);
            one[0] = row;
            undo.insertedRows(t, one, 1, fromFree);
            inserted.add(row);
            affected.add(row);
        }
        long changed = inserted.size();
        if (checks != null || !t.constraints().foreignKeys.isEmpty()) {
            // the inserted rows pass the table's CHECKs and foreign keys as a plain INSERT's do (a
            // failure throws: the statement's undo log takes every row back)
            for (int i = 0; i < affected.size(); i++) {
                int row = affected.getInt(i);
                if (!inserted.contains(row)) {
                    continue;
                }
                if (checks != null) {
                    Constraints.check(t, checks, checkCtx, row);
                }
                for (io.respsql.storage.ConstraintDef fk : t.constraints().foreignKeys) {
                    Constraints.childRow(fk, row);
                }
            }
        }
        if (update == null || targets.isEmpty()) {
            return changed;
        }
        // EXCLUDED: the proposed rows of the targets, in a work table of the table's columns
        excluded.truncate();
        IntArrayList excludedRows = new IntArrayList(targets.size());
        for (int i = 0; i < targets.size(); i++) {
            int slot = excluded.allocateRow();
            int r = proposals.getInt(i);
            for (int c = 0; c < nCols; c++) {
                rows.get(r, c, cell);
                CellStore.store(excluded.column(c), slot, cell);
            }
            excludedRows.add(slot);
        }
        if (where != null) {
            EvalContext ctx = new EvalContext(contextSlots);
            ctx.params = params;
            int kept = 0;
            for (int i = 0; i < targets.size(); i++) {
                ctx.slots[0] = targets.getInt(i);
                ctx.slots[1] = excludedRows.getInt(i);
                if (where.isTrue(ctx)) {
                    targets.set(kept, targets.getInt(i));
                    excludedRows.set(kept, excludedRows.getInt(i));
                    kept++;
                } else {
                    affected.set(places.getInt(i), -1); // not updated: not returned
                }
            }
            targets.size(kept);
            excludedRows.size(kept);
        }
        if (!targets.isEmpty()) {
            changed += update.runGiven(catalog, new IntArrayList(), headroom, undo, params, targets, excludedRows);
        }
        return changed;
    }
}
