package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * CREATE/DROP TABLE and CREATE/DROP INDEX. Everything is checked before the catalog changes;
 * inside a block (MULTI) the change is recorded in the undo log first.
 *
 * <p>A table has a primary key only where one is declared (one column: the row's key, NOT NULL,
 * unique). A composite {@code PRIMARY KEY (a, b)} becomes a UNIQUE index over its columns (which
 * are then NOT NULL), as does every {@code UNIQUE} constraint.
 */
public final class TableDdl {
    private TableDdl() {
    }

    /** A UNIQUE index CREATE TABLE declares: its name, columns, and whether it stands for a composite primary key. */
    private record UniqueKey(String name, List<String> columns) {
    }

    /** Returns whether the catalog changed (false: IF NOT EXISTS found the table). */
    public static boolean createTable(Catalog catalog, Statement.CreateTable s, String sql, UndoLog undo,
            java.util.function.Function<Column, DefaultValue> defaults) {
        return createTable(catalog, s, sql, undo, defaults, null);
    }

    /** As above; {@code checks} binds the table's CHECK constraints (null: CHECKs are refused). */
    public static boolean createTable(Catalog catalog, Statement.CreateTable s, String sql, UndoLog undo,
            java.util.function.Function<Column, DefaultValue> defaults, Constraints.CheckBinder checks) {
        if (catalog.table(s.table()) != null || catalog.view(s.table()) != null) {
            if (s.ifNotExists()) {
                return false;
            }
            throw new SqlException(SqlState.DUPLICATE_TABLE, (catalog.table(s.table()) != null ? "table '" : "a view named '") + s.table() + "' already exists");
        }
        if (s.columns().isEmpty()) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "table '" + s.table() + "' needs at least one column");
        }
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int pk = -1;
        for (int i = 0; i < s.columns().size(); i++) {
            Statement.ColumnDef d = s.columns().get(i);
            if (!seen.add(d.name().toLowerCase(Locale.ROOT))) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column '" + d.name() + "' is defined twice");
            }
            if (d.primaryKey()) {
                if (pk >= 0) {
                    throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "table '" + s.table() + "' has more than one PRIMARY KEY");
                }
                pk = i;
            }
            names.add(d.name());
        }
        List<UniqueKey> uniqueKeys = new ArrayList<>();
        Set<Integer> keyNotNull = new HashSet<>();
        for (Statement.KeyConstraint k : s.keys()) {
            for (String c : k.columns()) {
                if (indexOfIgnoreCase(names, c) < 0) {
                    throw new SqlException(SqlState.UNDEFINED_COLUMN, (k.primary() ? "PRIMARY KEY" : "UNIQUE") + " column '" + c + "' is not defined");
                }
            }
            if (k.primary()) {
                if (pk >= 0) {
                    throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "table '" + s.table() + "' has more than one PRIMARY KEY");
                }
                if (k.columns().size() == 1) {
                    pk = indexOfIgnoreCase(names, k.columns().get(0));
                    continue;
                }
                pk = -2; // composite: a UNIQUE index over NOT NULL columns
                for (String c : k.columns()) {
                    keyNotNull.add(indexOfIgnoreCase(names, c));
                }
                uniqueKeys.add(new UniqueKey(s.table() + ":" + String.join(",", k.columns()) + ":pk", k.columns()));
            } else {
                uniqueKeys.add(new UniqueKey(s.table() + ":" + String.join(",", k.columns()) + ":unique", k.columns()));
            }
        }
        List<ColumnSpec> specs = new ArrayList<>();
        for (int i = 0; i < s.columns().size(); i++) {
            Statement.ColumnDef d = s.columns().get(i);
            ColumnType type = ValueRules.columnType(d.type()); // NUMERIC: exact in the PostgreSQL dialect (issue 25)
            if (type == null) {
                throw new SqlException(SqlState.UNDEFINED_OBJECT, "unknown type '" + typeText(d, sql) + "' for column '" + d.name()
                        + "' (use INT, BIGINT, FLOAT, TEXT, BOOLEAN, DATE or TIMESTAMP)");
            }
            if (d.unique() && !d.primaryKey()) {
                uniqueKeys.add(new UniqueKey(s.table() + ":" + d.name() + ":unique", List.of(d.name())));
            }
            specs.add(new ColumnSpec(d.name(), type, d.notNull() || d.primaryKey() || i == pk || keyNotNull.contains(i),
                    d.defaultText(), ValueRules.typeModifier(type, d.type())));
        }
        for (UniqueKey k : uniqueKeys) {
            if (catalog.indexOwner(k.name()) != null) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "index '" + k.name() + "' already exists");
            }
        }
        Table t = new Table(s.table(), specs, Math.max(pk, -1));
        checkDefaults(t, defaults);
        List<TableIndex> built = new ArrayList<>();
        for (UniqueKey k : uniqueKeys) {
            List<Column> cols = new ArrayList<>();
            for (String c : k.columns()) {
                cols.add(t.column(c));
            }
            built.add(t.createIndex(k.name(), cols, true, new boolean[cols.size()]));
        }
        // the constraints go in with the table, or neither does
        UndoLog local = new UndoLog(catalog);
        local.catalogChanging();
        catalog.add(t);
        for (TableIndex ix : built) {
            catalog.registerIndex(ix.name(), t);
        }
        try {
            ConstraintDdl.created(catalog, t, s, local, checks);
        } catch (RuntimeException e) {
            local.rollback();
            throw e;
        }
        if (undo != null) {
            undo.absorb(local);
        }
        return true;
    }

    /**
     * A DEFAULT that cannot be stored in its column is an error now, not at the first INSERT.
     * {@code defaults} binds one (the write planner's: binding is planning's, not execution's).
     */
    private static void checkDefaults(Table t, java.util.function.Function<Column, DefaultValue> defaults) {
        Cell cell = new Cell();
        for (int i = 0; i < t.columnCount(); i++) {
            Column c = t.column(i);
            if (c.defaultText() == null) {
                continue;
            }
            try {
                DefaultValue d = defaults.apply(c);
                if (d.perRow()) {
                    continue; // nextval(...): evaluating it would move the sequence
                }
                d.value(cell);
            } catch (UnsupportedOperationException notYet) {
                continue; // an expression the binder of this build cannot evaluate yet: checked at INSERT
            } catch (SqlException e) {
                throw new SqlException(e.sqlState(), "DEFAULT " + c.defaultText() + " of column '" + c.name() + "': " + e.getMessage());
            }
            if (cell.isNull && Tables.notNull(t, c)) {
                throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "DEFAULT NULL of column '" + c.name() + "' contradicts its NOT NULL");
            }
        }
    }

    private static String typeText(Statement.ColumnDef d, String sql) {
        int from = d.type().start();
        int to = d.type().end();
        return from >= 0 && to <= sql.length() && from < to ? sql.substring(from, to) : d.type().base();
    }

    private static int indexOfIgnoreCase(List<String> names, String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Returns the number of objects dropped (the table and its indexes), -1 for IF EXISTS of a missing table. */
    public static long dropTable(Catalog catalog, Statement.DropTable s, UndoLog undo) {
        Table t = catalog.table(s.table());
        if (t == null) {
            if (catalog.view(s.table()) != null) {
                throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "'" + s.table() + "' is a view: use DROP VIEW");
            }
            if (s.ifExists()) {
                return -1;
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "table '" + s.table() + "' does not exist");
        }
        ConstraintDdl.tableDropping(catalog, t, false, undo); // DROP TABLE ... CASCADE (alter's branch): pass its flag
        if (undo != null) {
            undo.catalogChanging();
        }
        return catalog.drop(t);
    }

    /** An index built over at least this many rows logs its start and end (a build of 10M rows takes seconds). */
    private static final long LARGE_INDEX_ROWS = 1_000_000;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableDdl.class);

    public static boolean createIndex(Catalog catalog, Statement.CreateIndex s, UndoLog undo) {
        if (catalog.indexOwner(s.index()) != null) {
            if (s.ifNotExists()) {
                return false;
            }
            throw new SqlException(SqlState.DUPLICATE_TABLE, "index '" + s.index() + "' already exists");
        }
        Table t = Tables.require(catalog, s.table(), "index");
        List<Column> cols = new ArrayList<>();
        boolean[] desc = new boolean[s.columns().size()];
        for (int i = 0; i < desc.length; i++) {
            Statement.IndexColumn ic = s.columns().get(i);
            Column c = Tables.column(t, ic.name());
            if (cols.contains(c)) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column '" + c.name() + "' is named twice in index '" + s.index() + "'");
            }
            cols.add(c);
            desc[i] = ic.descending();
        }
        long built = System.nanoTime();
        boolean large = t.rowCount() >= LARGE_INDEX_ROWS;
        if (large) {
            LOG.info("CREATE INDEX {} ON {}: building over {} rows", s.index(), t.name(), t.rowCount());
        }
        TableIndex ix = t.createIndex(s.index(), cols, s.unique(), desc);
        if (large) {
            LOG.info("CREATE INDEX {} ON {}: built over {} rows in {} ms", s.index(), t.name(), t.rowCount(),
                    (System.nanoTime() - built) / 1_000_000);
        }
        if (s.unique()) {
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                if (t.violatesUnique(ix, row)) {
                    SqlException e = new SqlException(SqlState.UNIQUE_VIOLATION, "cannot create UNIQUE index '" + s.index() + "': table '" + t.name()
                            + "' has more than one row with " + UniqueIndexes.keyText(ix, row));
                    t.dropIndex(s.index());
                    throw e;
                }
            }
        }
        if (undo != null) {
            undo.catalogChanging();
            undo.indexCreated(t, s.index());
        }
        catalog.registerIndex(s.index(), t);
        return true;
    }

    public static boolean dropIndex(Catalog catalog, Statement.DropIndex s, UndoLog undo) {
        Table t = catalog.indexOwner(s.index());
        if (t == null) {
            if (s.ifExists()) {
                return false;
            }
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "index '" + s.index() + "' does not exist");
        }
        if (t.hasPrimaryKey() && t.primaryIndex().name().equalsIgnoreCase(s.index())) {
            throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "index '" + s.index() + "' is the primary key of table '" + t.name() + "' and cannot be dropped");
        }
        if (ConstraintDdl.neededAsReferencedKey(t, s.index())) {
            throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop index " + s.index()
                    + " because a foreign key references table " + t.name() + " by its key");
        }
        if (ConstraintDdl.neededByForeignKey(t, s.index())) {
            throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop index " + s.index()
                    + " because a foreign key of table " + t.name() + " finds its referencing rows through it");
        }
        if (undo != null) {
            undo.catalogChanging();
            undo.indexDropping(t, s.index());
        }
        t.dropIndex(s.index());
        catalog.unregisterIndex(s.index());
        return true;
    }
}
