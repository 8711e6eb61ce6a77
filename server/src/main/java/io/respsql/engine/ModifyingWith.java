package io.respsql.engine;

import io.respsql.exec.Headroom;
import io.respsql.exec.op.Outputs;
import io.respsql.exec.write.DeleteOperator;
import io.respsql.exec.write.InsertOperator;
import io.respsql.exec.write.UpdateOperator;
import io.respsql.expr.Cancellation;
import io.respsql.plan.PlannedQuery;
import io.respsql.plan.StatementPlanner;
import io.respsql.plan.WritePlanner;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code WITH name AS (INSERT | UPDATE | DELETE ... [RETURNING ...]), ... SELECT ...} (PostgreSQL's
 * data-modifying WITH): the data-modifying statements run first, in order, each one's RETURNING rows
 * kept in a work table its name then reads; then the query runs over them. The whole statement is one
 * write: its changes are recorded in an undo log (the block's inside MULTI/EXEC, else one of its own)
 * and all taken back when any part fails; the engine logs and replicates its text as one statement.
 *
 * <p>PostgreSQL runs every part against one snapshot, so no part sees another's changes. Running the
 * parts in sequence gives the same answer only when no other part reads a table a data-modifying
 * part changes; a statement where one does (or that reads a view, whose tables are not known here) is
 * refused (0A000) rather than answered differently. A data-modifying part may not read another WITH
 * query (refused, never read as a table of that name).
 */
public final class ModifyingWith {
    private ModifyingWith() {
    }

    /** The data-modifying WITH queries of {@code st} at its top level (a SELECT's WITH), or an empty list. */
    public static List<Query.Modifying> of(Statement st) {
        if (!(st instanceof Statement.QueryStatement q) || !(q.query() instanceof Query.With w)) {
            return List.of();
        }
        List<Query.Modifying> out = new ArrayList<>();
        for (Query.Cte c : w.ctes()) {
            if (c.query() instanceof Query.Modifying m) {
                out.add(m);
            }
        }
        return out;
    }

    /** The table a data-modifying statement changes. */
    static String target(Query.Modifying m) {
        Statement s = m.statement();
        return s instanceof Statement.Insert i ? i.table() : s instanceof Statement.Update u ? u.table()
                : ((Statement.Delete) s).table();
    }

    static long run(Catalog catalog, Query.With w, List<Query.Modifying> parts, String sql, ResultSink results,
                    Headroom headroom, IntArrayList buffer, UndoLog blockUndo, Cancellation writeStop, Cancellation stop) {
        check(catalog, w, parts);
        UndoLog log = blockUndo != null ? blockUndo : new UndoLog(catalog);
        try {
            Map<Query.Modifying, Table> rows = new IdentityHashMap<>();
            long changes = 0;
            for (Query.Cte c : w.ctes()) {
                if (!(c.query() instanceof Query.Modifying m)) {
                    continue;
                }
                Returned sink = new Returned(c.name(), c.columns());
                Statement s = m.statement();
                if (s instanceof Statement.Insert i) {
                    InsertOperator op = WritePlanner.planInsert(catalog, io.respsql.exec.write.SequenceDdl.identityInsert(catalog, i), sql);
                    changes += op.run(catalog, headroom, log, null, writeStop, op.returnsRows() ? sink : null);
                } else if (s instanceof Statement.Update u) {
                    io.respsql.exec.write.SequenceDdl.identityUpdate(catalog, u);
                    UpdateOperator op = WritePlanner.planUpdate(catalog, u, sql);
                    changes += op.run(catalog, buffer, headroom, log, null, writeStop, op.returnsRows() ? sink : null);
                } else {
                    DeleteOperator op = WritePlanner.planDelete(catalog, (Statement.Delete) s, sql);
                    changes += op.run(buffer, log, null, writeStop, op.returnsRows() ? sink : null);
                }
                rows.put(m, sink.table); // null: no RETURNING (it ran all the same)
            }
            PlannedQuery p = StatementPlanner.planWithModified(catalog, w, sql, rows);
            p.runOnLoop(results, null, stop);
            return changes;
        } catch (RuntimeException | OutOfMemoryError e) {
            if (log != blockUndo) {
                log.rollback();
            }
            throw e;
        }
    }

    /** The columns the statement answers, planned over empty RETURNING tables (pgwire's Describe); nothing runs. */
    public static ResultColumns describe(Catalog catalog, Statement st, String sql) {
        Query.With w = (Query.With) ((Statement.QueryStatement) st).query();
        Map<Query.Modifying, Table> rows = new IdentityHashMap<>();
        for (Query.Cte c : w.ctes()) {
            if (c.query() instanceof Query.Modifying m) {
                ResultColumns cols = WritePlanner.returningColumns(catalog, m.statement(), sql);
                Returned sink = new Returned(c.name(), c.columns());
                if (cols != null) {
                    sink.columns(cols, 0);
                }
                rows.put(m, sink.table);
            }
        }
        return StatementPlanner.planWithModified(catalog, w, sql, rows).columns();
    }

    /** Refuses what sequential runs would answer differently from PostgreSQL's one snapshot. */
    private static void check(Catalog catalog, Query.With w, List<Query.Modifying> parts) {
        Set<String> cteNames = new LinkedHashSet<>();
        for (Query.Cte c : w.ctes()) {
            cteNames.add(c.name().toLowerCase(Locale.ROOT));
        }
        Set<String> changed = new LinkedHashSet<>();
        for (Query.Modifying m : parts) {
            io.respsql.storage.Table tt = catalog.table(target(m));
            if (tt != null && tt.partitioning != null) {
                // review2: the write would bypass the routing step (a partitioned table's rows stayed in its own
                // storage, a partition's went unchecked against its bound)
                throw refused("a data-modifying WITH query on a partitioned table or a partition (\"" + tt.name() + "\")");
            }
            String t = target(m).toLowerCase(Locale.ROOT);
            if (!changed.add(t) && !(m.statement() instanceof Statement.Insert)) {
                throw refused("two data-modifying WITH queries change table \"" + t + "\"");
            }
        }
        for (Query.Modifying m : parts) {
            for (String name : tablesNamed(m.statement())) {
                if (cteNames.contains(name)) {
                    throw refused("a data-modifying WITH query reading another WITH query (\"" + name + "\")");
                }
            }
        }
        List<String> read = new ArrayList<>();
        for (Query.Cte c : w.ctes()) {
            if (!(c.query() instanceof Query.Modifying)) {
                read.addAll(tablesNamed(c.query()));
            }
        }
        read.addAll(tablesNamed(w.body()));
        for (Query.Modifying m : parts) {
            for (String name : tablesNamed(m.statement())) {
                if (!name.equals(target(m).toLowerCase(Locale.ROOT))) {
                    read.add(name);
                }
            }
        }
        for (String name : read) {
            if (cteNames.contains(name)) {
                continue;
            }
            if (changed.contains(name)) {
                throw refused("another part of the statement reads table \"" + name + "\", which a data-modifying WITH query"
                        + " changes (PostgreSQL shows it that part as it was before the statement)");
            }
            if (catalog.table(name) == null && catalog.view(name) != null) {
                throw refused("a view (\"" + name + "\") read beside a data-modifying WITH query");
            }
        }
    }

    private static SqlException refused(String what) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "not supported yet: " + what);
    }

    /** Every table name a FROM, USING or subquery in {@code node} names (lower case), through the whole syntax tree. */
    static List<String> tablesNamed(Object node) {
        List<String> out = new ArrayList<>();
        walk(node, out);
        return out;
    }

    private static void walk(Object node, List<String> out) {
        if (node == null) {
            return;
        }
        if (node instanceof Query.TableRef t) {
            out.add(t.name().toLowerCase(Locale.ROOT));
            return;
        }
        if (node instanceof List<?> l) {
            for (Object o : l) {
                walk(o, out);
            }
            return;
        }
        if (node instanceof Record r) {
            for (java.lang.reflect.RecordComponent c : r.getClass().getRecordComponents()) {
                Class<?> type = c.getType();
                if (type.isPrimitive() || type == String.class || type.isEnum()) {
                    continue;
                }
                try {
                    walk(c.getAccessor().invoke(r), out);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** RETURNING's rows into a work table (columns named by the WITH query's column list, else RETURNING's). */
    private static final class Returned implements ResultSink {
        private final String name;
        private final List<String> declared;
        Table table;
        private int row;
        private int col;

        Returned(String name, List<String> declared) {
            this.name = name;
            this.declared = declared;
        }

        @Override
        public void columns(ResultColumns columns, long rowCount) {
            if (table != null) {
                return;
            }
            List<ColumnSpec> specs = new ArrayList<>();
            if (declared.size() > columns.size()) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "WITH query \"" + name + "\" has " + columns.size()
                        + " columns available but " + declared.size() + " columns specified");
            }
            for (int i = 0; i < columns.size(); i++) {
                String type = columns.type(i);
                ColumnType ct;
                switch (type) {
                    case "INT":
                        ct = ColumnType.INT;
                        break;
                    case "BIGINT":
                        ct = ColumnType.BIGINT;
                        break;
                    case "FLOAT":
                        ct = ColumnType.FLOAT;
                        break;
                    case "TEXT":
                        ct = ColumnType.TEXT;
                        break;
                    default:
                        throw refused("RETURNING a " + type + " column (\"" + columns.name(i) + "\") from a data-modifying WITH query");
                }
                specs.add(new ColumnSpec(i < declared.size() ? declared.get(i) : columns.name(i), ct, false, null));
            }
            table = Table.workTable(name, specs);
        }

        @Override
        public void beginRow() {
            row = table.allocateRow();
            col = 0;
        }

        @Override
        public void longValue(long v) {
            Outputs.writeLong(table.column(col++), row, v);
        }

        @Override
        public void doubleValue(double v) {
            Outputs.writeDouble(table.column(col++), row, v);
        }

        @Override
        public void textValue(byte[] b, int off, int len) {
            Outputs.writeText(table.column(col++), row, b, off, len);
        }

        @Override
        public void nullValue() {
            table.column(col++).setNull(row);
        }

        @Override
        public void endRow() {
        }

        @Override
        public void end() {
        }

        @Override
        public void countStar(ResultColumns columns, long count) {
            throw new IllegalStateException("RETURNING never counts");
        }
    }
}
