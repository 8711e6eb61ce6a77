package io.respsql.exec;

import io.respsql.plan.AccessPath;
import io.respsql.plan.Binder;
import io.respsql.plan.Planner;
import io.respsql.plan.Scope;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/** DELETE: finds rows like SELECT, then frees their slots and index entries. Replies the count. */
public final class DeleteExecutor {
    private DeleteExecutor() {
    }

    public static AccessPath plan(Catalog catalog, Statement.Delete s, String sql) {
        Scope scope = Scope.of(catalog, List.of(s.table()));
        return Planner.plan(new Binder(scope, sql), 0, Planner.conjuncts(s.where()), null, false);
    }

    /** Returns the number of rows deleted. */
    public static long run(AccessPath path, IntArrayList rows, UndoLog undo, RespWriter out) {
        Table t = path.table;
        rows.clear();
        RowSource.collect(path, new int[1], 0, rows, Long.MAX_VALUE);
        int n = rows.size();
        int[] r = rows.elements();
        if (undo != null && n > 0) {
            undo.deletingRows(t, r, n);
        }
        for (int i = 0; i < n; i++) {
            t.deleteRow(r[i]);
        }
        t.maybeCompactText();
        out.integer(n);
        return n;
    }
}
