package io.respsql.exec.write;

import io.respsql.plan.StatementPlanner;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/** DELETE: finds the rows as UPDATE does (any predicate), then frees their slots and index entries. Replies the count. */
public final class DeleteExecutor {
    private DeleteExecutor() {
    }

    public record Plan(Table table, StatementPlanner.RowsPlan rows) {
    }

    public static Plan plan(Catalog catalog, Statement.Delete s, String sql) {
        Table t = Tables.require(catalog, s.table(), "DELETE from");
        return new Plan(t, StatementPlanner.planRows(catalog, t, s.where(), sql));
    }

    /** Returns the number of rows deleted. */
    public static long run(Plan p, IntArrayList buffer, UndoLog undo) {
        return run(p, buffer, undo, null);
    }

    /** {@link #run(Plan, IntArrayList, UndoLog)} with parameter values (a cached plan). */
    public static long run(Plan p, IntArrayList buffer, UndoLog undo, io.respsql.expr.ParamValues params) {
        return run(p, buffer, undo, params, null);
    }

    /** {@link #run(Plan, IntArrayList, UndoLog, io.respsql.expr.ParamValues)} stopped by {@code cancel} before the first row goes. */
    public static long run(Plan p, IntArrayList buffer, UndoLog undo, io.respsql.expr.ParamValues params,
                           io.respsql.expr.Cancellation cancel) {
        Table t = p.table();
        io.respsql.expr.EvalContext ctx = p.rows().context();
        ctx.params = params;
        RowCollector.collect(p.rows().root(), ctx, buffer, cancel);
        int n = buffer.size();
        int[] r = buffer.elements();
        if (undo != null && n > 0) {
            undo.deletingRows(t, r, n);
        }
        for (int i = 0; i < n; i++) {
            t.deleteRow(r[i]);
        }
        t.maybeCompactText();
        return n;
    }
}
