package io.respsql.exec;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.Constant;
import io.respsql.plan.AccessPath;
import io.respsql.plan.Binder;
import io.respsql.plan.Planner;
import io.respsql.plan.Scope;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.Expr;
import io.respsql.sql.SqlException;
import io.respsql.sql.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * UPDATE in place. Cost: the index walk that finds the matched rows plus one store per
 * assigned column per row; the table's size does not enter. The reply is the number of rows
 * matched. Anything that can fail (a value out of range, a duplicate primary key) is checked for
 * every matched row before the first write, so a failed UPDATE changes nothing.
 */
public final class UpdateExecutor {
    private UpdateExecutor() {
    }

    public static Plan plan(Catalog catalog, Statement.Update s, String sql) {
        Scope scope = Scope.of(catalog, List.of(s.table()));
        Table t = scope.table(0);
        Binder binder = new Binder(scope, sql);
        List<Assigner> assigners = new ArrayList<>();
        Set<Column> seen = new HashSet<>();
        for (Statement.Assignment a : s.assignments()) {
            Column c = t.column(a.column());
            if (c == null) {
                throw new SqlException("column '" + a.column() + "' does not exist in table '" + t.name() + "'");
            }
            Assigner bound = new Assigner(t, c, value(binder, c, a.value(), sql));
            if (!seen.add(c)) {
                // SET x=3, x=4: the rightmost assignment of a column wins, as in SQLite (PostgreSQL refuses it).
                assigners.removeIf(earlier -> earlier.column == c);
            }
            assigners.add(bound);
        }
        AccessPath path = Planner.plan(binder, 0, Planner.conjuncts(s.where()), null, false);
        return new Plan(t, assigners, path);
    }

    /**
     * SET col = ...: a TEXT column takes numbers and unquoted names verbatim, as INSERT does
     * ({@code SET name=NEWNAME}, {@code SET s=foo-bar}); a number column takes a quoted number
     * ({@code SET fk='5'}). Otherwise the value is an expression over the row.
     */
    private static BoundExpr value(Binder binder, Column target, Expr e, String sql) {
        if (target.type() == ColumnType.TEXT) {
            if (e instanceof Expr.Str || e instanceof Expr.Raw) {
                return new Constant.Text(new String(Values.textLiteral(e, sql), StandardCharsets.UTF_8));
            }
            BoundExpr b;
            try {
                b = binder.value(e);
            } catch (SqlException unknownName) {
                return new Constant.Text(binder.text(e));
            }
            return b.isConstant() && b.type() != io.respsql.expr.ValueType.TEXT ? new Constant.Text(binder.text(e)) : b;
        }
        if (e instanceof Expr.Str || e instanceof Expr.Raw
                || (e instanceof Expr.Ident id && binder.scope().resolve(id.qualifier(), id.name()) == null)) {
            return Values.numericConstant(target, e, sql, binder);
        }
        return binder.value(e);
    }

    public record Plan(Table table, List<Assigner> assigners, AccessPath path) {
    }

    /** Returns the number of rows matched (and written). */
    public static long run(Plan p, IntArrayList rows, Headroom headroom, UndoLog undo, RespWriter out) {
        Table t = p.table();
        int[] tuple = new int[1];
        rows.clear();
        RowSource.collect(p.path(), tuple, 0, rows, Long.MAX_VALUE);
        int n = rows.size();
        int[] r = rows.elements();
        Assigner[] as = p.assigners().toArray(new Assigner[0]);

        boolean validate = false;
        Assigner pk = null;
        for (Assigner a : as) {
            validate |= a.mayFail();
            if (a.column == t.primaryColumn()) {
                pk = a;
            }
        }
        if (validate) {
            for (int i = 0; i < n; i++) {
                tuple[0] = r[i];
                for (Assigner a : as) {
                    a.compute(tuple);
                }
            }
        }
        if (pk != null && n > 0) {
            checkPrimaryKeys(t, pk, r, n, tuple);
        }
        headroom.ensure(writeBytes(t, as, r, n, tuple));
        if (undo != null && n > 0) {
            Column[] assigned = new Column[as.length];
            for (int i = 0; i < as.length; i++) {
                assigned[i] = as[i].column;
            }
            undo.changingCells(t, assigned, r, n);
        }
        for (int i = 0; i < n; i++) {
            int row = r[i];
            tuple[0] = row;
            for (Assigner a : as) {
                a.compute(tuple);
            }
            if (as.length == 1) {
                as[0].write(t, row);
            } else {
                for (Assigner a : as) {
                    a.write(t, row);
                }
            }
        }
        for (Assigner a : as) {
            if (a.column.type() == ColumnType.TEXT) {
                t.maybeCompactText();
                break;
            }
        }
        out.integer(n);
        return n;
    }

    /**
     * Writes happen in place and cannot be undone, so before the first one the heap must have room
     * for what they may allocate (new text bytes, index entries); see {@link Headroom}. Numeric
     * columns without an index allocate nothing and skip this.
     */
    private static long writeBytes(Table t, Assigner[] as, int[] rows, int n, int[] tuple) {
        long need = 0;
        for (Assigner a : as) {
            if (t.isIndexed(a.column)) {
                need += Headroom.INDEX_BYTES_PER_ENTRY * n;
            }
            if (a.column.type() == ColumnType.TEXT) {
                for (int i = 0; i < n; i++) {
                    tuple[0] = rows[i];
                    a.compute(tuple);
                    need += a.pendingText().length + 16;
                }
            }
        }
        return need;
    }

    /**
     * New primary keys must be distinct from each other and from the keys of rows this UPDATE
     * does not touch (a key held by a matched row is being vacated, so it may be reused).
     */
    private static void checkPrimaryKeys(Table t, Assigner pk, int[] rows, int n, int[] tuple) {
        int[] matched = java.util.Arrays.copyOf(rows, n);
        IntArrays.quickSort(matched);
        Column col = pk.column;
        if (col.type() == ColumnType.TEXT) {
            Set<String> fresh = new HashSet<>();
            for (int i = 0; i < n; i++) {
                tuple[0] = rows[i];
                pk.compute(tuple);
                byte[] v = pk.pendingText();
                String shown = new String(v, StandardCharsets.UTF_8);
                int holder = PrimaryKeys.findText(t, v);
                if (!fresh.add(shown) || holder >= 0 && java.util.Arrays.binarySearch(matched, holder) < 0) {
                    throw duplicate(t, shown);
                }
            }
            return;
        }
        LongOpenHashSet fresh = new LongOpenHashSet(n);
        for (int i = 0; i < n; i++) {
            tuple[0] = rows[i];
            pk.compute(tuple);
            long key = PrimaryKeys.numericKey(col, pk.pendingLong(), pk.pendingDouble());
            int holder = PrimaryKeys.findNumeric(t, key);
            if (!fresh.add(key) || holder >= 0 && java.util.Arrays.binarySearch(matched, holder) < 0) {
                throw duplicate(t, col.type() == ColumnType.FLOAT ? Double.toString(pk.pendingDouble()) : Long.toString(pk.pendingLong()));
            }
        }
    }

    private static SqlException duplicate(Table t, String key) {
        return new SqlException("UPDATE would duplicate primary key " + t.primaryColumn().name() + "=" + key
                + " in table '" + t.name() + "'");
    }
}
