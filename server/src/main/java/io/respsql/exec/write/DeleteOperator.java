package io.respsql.exec.write;

import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * DELETE, as an operator over a row source ({@link RowSource}: any predicate, found as UPDATE
 * finds its rows) with its run state in a {@link WriteRun}: collects the rows, then frees their
 * slots and index entries. Returns the count; the caller replies.
 */
public final class DeleteOperator {
    private final Table table;
    private final RowSource rows;
    private final int relations;
    /** RETURNING (null: none): the rows' old values, written before their slots are freed. */
    private final Returning returning;
    /** The state of this plan's runs, which never overlap (the event loop): made once, reused. */
    private WriteRun kept;

    public DeleteOperator(Table table, RowSource rows, int relations) {
        this(table, rows, relations, null);
    }

    /** With RETURNING ({@code returning}, null: none). */
    public DeleteOperator(Table table, RowSource rows, int relations, Returning returning) {
        this.table = table;
        this.rows = rows;
        this.relations = relations;
        this.returning = returning;
    }

    /** Whether the statement replies rows (RETURNING). */
    public boolean returnsRows() {
        return returning != null;
    }

    public Table table() {
        return table;
    }

    /**
     * Deletes the matching rows with {@code params} (a cached plan's values; null: none) and
     * returns how many; stopped by {@code cancel} (null: none) only before the first row goes.
     * {@code buffer} is the engine's reusable row list.
     */
    public long run(IntArrayList buffer, UndoLog undo, io.respsql.expr.ParamValues params,
                    io.respsql.expr.Cancellation cancel) {
        return run(buffer, undo, params, cancel, null);
    }

    /** {@link #run(IntArrayList, UndoLog, io.respsql.expr.ParamValues, io.respsql.expr.Cancellation)}, RETURNING's rows to {@code sink}. */
    public long run(IntArrayList buffer, UndoLog undo, io.respsql.expr.ParamValues params,
                    io.respsql.expr.Cancellation cancel, io.respsql.result.ResultSink sink) {
        Table t = table;
        WriteRun run = kept != null ? kept : (kept = new WriteRun(relations));
        run.start(params);
        rows.collect(run, buffer, cancel);
        int n = buffer.size();
        int[] r = buffer.elements();
        if (returning != null) {
            returning.emit(run, r, n, sink); // the old values, before the slots are freed
        }
        if (n > 0 && !t.constraints().referencedBy.isEmpty()) {
            return deleteReferenced(t, r, n, undo);
        }
        if (undo != null && n > 0) {
            undo.deletingRows(t, r, n);
        }
        for (int i = 0; i < n; i++) {
            t.deleteRow(r[i]);
        }
        t.maybeCompactText();
        return n;
    }

    /**
     * Rows other tables' (or this table's) foreign keys reference: their referencing rows are
     * acted on first (refused, deleted, set NULL or DEFAULT; {@link Constraints#deleting}), then
     * the rows go. Everything is recorded in a statement-local log, taken back on a failure and
     * handed to the block's log ({@code undo}) on success.
     */
    private static long deleteReferenced(Table t, int[] r, int n, UndoLog undo) {
        UndoLog local = new UndoLog(null);
        java.util.Map<Table, it.unimi.dsi.fastutil.ints.IntOpenHashSet> going = new java.util.IdentityHashMap<>();
        it.unimi.dsi.fastutil.ints.IntOpenHashSet mine = new it.unimi.dsi.fastutil.ints.IntOpenHashSet(n);
        for (int i = 0; i < n; i++) {
            mine.add(r[i]);
        }
        going.put(t, mine);
        try {
            Constraints.deleting(t, r, n, local, going);
            int[] live = new int[n];
            int w = 0;
            for (int i = 0; i < n; i++) {
                if (t.isLive(r[i])) {
                    live[w++] = r[i];
                }
            }
            local.deletingRows(t, live, w);
            for (int i = 0; i < w; i++) {
                t.deleteRow(live[i]);
            }
        } catch (RuntimeException e) {
            local.rollback();
            throw e;
        }
        if (undo != null) {
            undo.absorb(local);
        }
        t.maybeCompactText();
        return n;
    }
}
