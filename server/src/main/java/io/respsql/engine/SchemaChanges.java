package io.respsql.engine;

import io.respsql.exec.Headroom;
import io.respsql.exec.write.AlterTable;
import io.respsql.exec.write.InsertOperator;
import io.respsql.exec.write.TableDdl;
import io.respsql.exec.write.UpdateOperator;
import io.respsql.expr.Cancellation;
import io.respsql.expr.SqlType;
import io.respsql.plan.PlannedQuery;
import io.respsql.plan.StatementPlanner;
import io.respsql.plan.WritePlanner;
import io.respsql.sql.Dialect;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlParser;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import io.respsql.storage.ViewDef;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The statements that change a live table's shape or empty it (ALTER TABLE, DROP TABLE of
 * several tables with CASCADE/RESTRICT, TRUNCATE, CREATE TABLE AS / SELECT INTO), run for
 * {@link SqlEngine}: each runs under a statement-local {@link UndoLog}, taken back whole when any
 * part fails and handed to the block's log ({@link UndoLog#absorb}) when inside MULTI/EXEC.
 *
 * <p>Views are bound at each use, so a view "depends" on a table exactly when the change makes it
 * fail to plan (or changes its column count, as dropping a column its {@code SELECT *} showed):
 * every view that planned before the change is planned again after it; the broken ones refuse
 * the change with 2BP01, or are dropped with it under CASCADE.
 */
final class SchemaChanges {
    private final Catalog catalog;
    private final Headroom headroom;
    private final Cancellation writeStop;
    /** The write bound in force ({@code loop-write-max-ms}; 0: none, as in replay). */
    private final java.util.function.LongSupplier writeBoundMs;

    /**
     * Rows a type change is assumed to rewrite per millisecond on the event loop (about half of the
     * 9,500 measured for INT to BIGINT over 10M rows on the 2-core machine under load: bench/issue24):
     * a table with more live rows than this times the write bound is refused rather than rewritten
     * past it. Not incremental yet.
     */
    static final long REWRITE_ROWS_PER_MS = 5_000;

    SchemaChanges(Catalog catalog, Headroom headroom, Cancellation writeStop, java.util.function.LongSupplier writeBoundMs) {
        this.catalog = catalog;
        this.headroom = headroom;
        this.writeStop = writeStop;
        this.writeBoundMs = writeBoundMs;
    }

    /** Runs {@code change} under its own undo log; {@code block} (may be null) takes the log over on success. */
    private <T> T atomically(UndoLog block, java.util.function.Function<UndoLog, T> change) {
        UndoLog local = new UndoLog(catalog);
        T result;
        try {
            result = change.apply(local);
        } catch (RuntimeException | Error e) {
            local.rollback();
            catalog.schemaChanged();
            throw e;
        }
        if (block != null) {
            block.absorb(local);
        }
        return result;
    }

    boolean alter(Statement.AlterTable s, String sql, UndoLog block) {
        return atomically(block, log -> {
            Map<String, Integer> views = viewShapes();
            boolean changed = AlterTable.alter(catalog, s, log, planning(sql));
            boolean cascade = false;
            for (Statement.AlterAction a : s.actions()) {
                cascade |= a instanceof Statement.DropColumn d && d.cascade();
            }
            dependentViews(views, cascade, "alter table \"" + s.table() + "\"", log);
            return changed;
        });
    }

    private AlterTable.Planning planning(String sql) {
        return new AlterTable.Planning() {
            @Override
            public io.respsql.exec.write.DefaultValue defaultValue(Column c) {
                return WritePlanner.defaultValue(c);
            }

            @Override
            public long rewrite(Table t, Column target, String expressionSql) {
                long bound = writeBoundMs.getAsLong();
                if (bound > 0 && t.rowCount() > REWRITE_ROWS_PER_MS * bound) {
                    throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "ALTER COLUMN ... TYPE rewrites every row of \""
                            + t.name() + "\" on the event loop, and its " + t.rowCount() + " rows are more than the "
                            + REWRITE_ROWS_PER_MS * bound + " it may rewrite within loop-write-max-ms (" + bound
                            + " ms); nothing was changed (raise loop-write-max-ms, 0: no bound, to allow it)");
                }
                String update = "UPDATE " + AlterTable.quoted(t.name()) + " SET " + AlterTable.quoted(target.name()) + " = "
                        + expressionSql;
                Statement st = SqlParser.parse(update);
                UpdateOperator op = WritePlanner.planUpdate(catalog, (Statement.Update) st, update);
                // no undo: on failure the whole new column goes with the statement's shape
                return op.run(catalog, new IntArrayList(), headroom, null, null, writeStop);
            }

            @Override
            public io.respsql.exec.write.Constraints.CheckBinder checkBinder() {
                return def -> WritePlanner.bindCheck(catalog, def);
            }
        };
    }

    /** DROP TABLE a[, b ...] [CASCADE | RESTRICT]; returns the objects dropped, -1 when IF EXISTS found none. */
    long dropTables(Statement.DropTable s, UndoLog block) {
        return atomically(block, log -> {
            List<Table> tables = new ArrayList<>();
            for (String name : s.tables()) {
                Table t = catalog.table(name);
                if (t == null) {
                    if (catalog.view(name) != null) {
                        throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table: use DROP VIEW");
                    }
                    if (s.ifExists()) {
                        continue;
                    }
                    throw new SqlException(SqlState.UNDEFINED_TABLE, "table \"" + name + "\" does not exist");
                }
                if (!tables.contains(t)) {
                    tables.add(t);
                }
            }
            if (tables.isEmpty()) {
                return -1L;
            }
            Map<String, Integer> views = viewShapes();
            log.catalogChanging();
            for (Table t : tables) {
                // a foreign key from a table not dropped refuses the drop unless CASCADE (which drops that key)
                for (io.respsql.storage.ConstraintDef fk : t.constraints().referencedBy) {
                    if (!s.cascade() && !tables.contains(fk.table())) {
                        throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop table " + t.name()
                                + " because other objects depend on it");
                    }
                }
            }
            for (Table t : tables) {
                io.respsql.exec.write.ConstraintDdl.tableDropping(catalog, t, true, log);
            }
            long dropped = 0;
            for (Table t : tables) {
                dropped += catalog.drop(t);
            }
            dependentViews(views, s.cascade(), "drop table \"" + tables.get(0).name() + "\"", log);
            return dropped;
        });
    }

    void truncate(Statement.Truncate s, UndoLog block) {
        atomically(block, log -> {
            AlterTable.truncate(catalog, s, log);
            if (s.restartIdentity()) {
                // RESTART IDENTITY: the tables' owned sequences (SERIAL, identity) start over; the
                // statement's text in the log replays the same restart
                for (String name : s.tables()) {
                    io.respsql.storage.Table t = catalog.table(name);
                    for (io.respsql.storage.Sequence q : t == null ? List.<io.respsql.storage.Sequence>of()
                            : catalog.sequencesOwnedBy(t.name())) {
                        q.lastValue = q.start;
                        q.isCalled = false;
                    }
                }
            }
            return null;
        });
    }

    /** CREATE TABLE t AS query / SELECT ... INTO t: returns the rows written, -1 when IF NOT EXISTS found the table. */
    long createTableAs(Statement.CreateTableAs s, String sql, UndoLog block) {
        if (catalog.nameTaken(s.table())) {
            if (s.ifNotExists()) {
                return -1;
            }
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + s.table() + "\" already exists");
        }
        PlannedQuery p = StatementPlanner.plan(catalog, s.query(), sql);
        List<String> names = new ArrayList<>(p.outputNames());
        if (s.columnNames() != null) {
            if (s.columnNames().size() > names.size()) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "too many column names were specified");
            }
            for (int i = 0; i < s.columnNames().size(); i++) {
                names.set(i, s.columnNames().get(i));
            }
        }
        List<ColumnSpec> specs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if (!seen.add(n.toLowerCase(Locale.ROOT))) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + n + "\" specified more than once");
            }
            io.respsql.expr.Expression out = p.outputs().get(i);
            io.respsql.storage.Column from = io.respsql.expr.Expressions.outputColumn(out);
            if (Dialect.postgres() && from != null && from.typeModifier() >= 0 && columnType(out.type()) == from.type()) {
                // PostgreSQL's: a column taken as it is keeps its type modifier (varchar(n), numeric(p,s))
                specs.add(new ColumnSpec(n, from.type(), false, null, from.typeModifier()));
            } else if (Dialect.postgres() && from != null && from.type().isDecimal()) {
                specs.add(new ColumnSpec(n, from.type(), false, null, from.typeModifier()));
            } else {
                specs.add(new ColumnSpec(n, columnType(out.type()), false, null));
            }
        }
        if (specs.isEmpty()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a table needs at least one column");
        }
        return atomically(block, log -> {
            log.catalogChanging();
            catalog.add(new Table(s.table(), specs, -1));
            if (!s.withData()) {
                return 0L;
            }
            InsertOperator ins = WritePlanner.planInsert(catalog, new Statement.Insert(s.table(), null, null, s.query(), false), sql);
            return ins.run(catalog, headroom, log, null, writeStop);
        });
    }

    private static ColumnType columnType(SqlType t) {
        switch (t) {
            case DOUBLE:
                return ColumnType.FLOAT;
            case NULL:
                return ColumnType.TEXT;
            case NUMERIC:
                return ColumnType.numeric(-1); // exact, unconstrained (never a double)
            default:
                ColumnType c = ColumnType.parse(t.name());
                return c == null ? ColumnType.TEXT : c;
        }
    }

    // ---- views that depend on a table ----

    /** Every view that plans now, with its column count (empty when there is no view). */
    private Map<String, Integer> viewShapes() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (ViewDef v : catalog.views()) {
            Integer n = viewColumns(v.name());
            if (n != null) {
                m.put(v.name(), n);
            }
        }
        return m;
    }

    private Integer viewColumns(String view) {
        String q = "SELECT * FROM " + AlterTable.quoted(view);
        try {
            Statement st = SqlParser.parse(q);
            return StatementPlanner.planQuery(catalog, ((Statement.QueryStatement) st).query(), q).outputs().size();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The views {@code before} held that the change broke: refused (2BP01), or dropped under CASCADE. */
    private void dependentViews(Map<String, Integer> before, boolean cascade, String what, UndoLog log) {
        if (before.isEmpty()) {
            return;
        }
        List<String> broken = new ArrayList<>();
        for (Map.Entry<String, Integer> e : before.entrySet()) {
            Integer n = catalog.view(e.getKey()) == null ? e.getValue() : viewColumns(e.getKey());
            if (n == null || !n.equals(e.getValue())) {
                broken.add(e.getKey());
            }
        }
        if (broken.isEmpty()) {
            return;
        }
        if (!cascade) {
            throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot " + what
                    + " because other objects depend on it: view " + String.join(", ", broken)
                    + (Dialect.postgres() ? " (use ... CASCADE to drop the dependent objects too)" : ""));
        }
        for (String v : broken) {
            ViewDef d = catalog.dropView(v);
            if (d != null) {
                log.viewDropped(d);
            }
        }
    }
}
