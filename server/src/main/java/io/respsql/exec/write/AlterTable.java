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

import java.util.Arrays;
import java.util.List;

/**
 * ALTER TABLE's actions, TRUNCATE, and DROP TABLE's several tables, in PostgreSQL's meaning. Each
 * action records its undo ({@link UndoLog#tableAltering}, {@link UndoLog#catalogChanging}) in the
 * statement's own log before it changes anything, so the engine takes the whole statement back
 * when a later action (or the check of dependent views) fails, and a block takes it back on
 * rollback.
 *
 * <p>ADD COLUMN with a constant DEFAULT (or none) visits no row on a large table: the new column's
 * chunks all share one array holding the constant (see {@code Column.shareConstantChunks}), so
 * it costs O(chunks) whatever the row count. A type change writes a new column through an UPDATE
 * plan ({@link Planning#rewrite}), bounded like any write by {@code loop-write-max-ms}: past it the
 * statement fails and changes nothing.
 */
public final class AlterTable {
    private AlterTable() {
    }

    /** What the executor needs from the planner (which exec does not import). */
    public interface Planning {
        /** The column's DEFAULT bound as INSERT binds it. */
        DefaultValue defaultValue(Column c);

        /**
         * Runs {@code UPDATE t SET target = <expression>} over every row ({@code expressionSql} is
         * SQL text in the statement's dialect); returns the rows written.
         */
        long rewrite(Table t, Column target, String expressionSql);

        /** Binds a CHECK constraint's expression (ADD CONSTRAINT ... CHECK). */
        Constraints.CheckBinder checkBinder();
    }

    /** Name of the column a type change writes before it takes the old one's place. */
    private static final String REWRITE_PREFIX = "__alter_rewrite__";

    /** Runs every action on {@code s}'s table; returns false when IF EXISTS found no table. */
    public static boolean alter(Catalog catalog, Statement.AlterTable s, UndoLog undo, Planning planning) {
        Table t = catalog.table(s.table());
        if (t == null && s.actions().size() == 1 && s.actions().get(0) instanceof Statement.RenameTable r
                && (catalog.view(s.table()) != null || catalog.indexOwner(s.table()) != null)) {
            renameViewOrIndex(catalog, s.table(), r.to(), undo);
            return true;
        }
        if (t == null && s.actions().size() == 1 && s.actions().get(0) instanceof Statement.RenameTable r) {
            // ALTER INDEX k RENAME TO k2, k a UNIQUE / PRIMARY KEY constraint's name: in PostgreSQL its
            // index carries that name, and renaming it renames the constraint (regress24)
            for (Table owner : catalog.tables()) {
                if (owner.constraints().keyNames.containsKey(s.table().toLowerCase(java.util.Locale.ROOT))) {
                    ConstraintDdl.rename(owner, s.table(), r.to(), undo);
                    catalog.schemaChanged();
                    return true;
                }
            }
        }
        if (t == null) {
            if (catalog.view(s.table()) != null) {
                throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + s.table() + "\" is a view: ALTER TABLE changes tables only");
            }
            if (s.ifExists()) {
                return false;
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + s.table() + "\" does not exist");
        }
        for (Statement.AlterAction a : s.actions()) {
            if (a instanceof Statement.UnsupportedAction u) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER TABLE ... " + u.what() + " is not supported yet");
            }
        }
        undo.catalogChanging();
        undo.tableAltering(t);
        for (Statement.AlterAction a : s.actions()) {
            if (a instanceof Statement.AddColumn add) {
                addColumn(catalog, t, add, planning);
            } else if (a instanceof Statement.DropColumn drop) {
                dropColumn(catalog, t, drop, undo, planning);
            } else if (a instanceof Statement.RenameColumn r) {
                Column c = column(t, r.column());
                if (t.column(r.to()) != null && t.column(r.to()) != c) {
                    throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + r.to() + "\" of relation \"" + t.name() + "\" already exists");
                }
                List<io.respsql.storage.ConstraintDef> checks = checksOn(t, c, planning);
                if (!checks.isEmpty() && !r.to().equals(c.name())) {
                    // a CHECK is kept as its text: renaming a column it names would leave it naming none
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot rename column \"" + c.name() + "\": check constraint \""
                            + checks.get(0).name() + "\" uses it (drop the constraint first)");
                }
                t.renameColumn(c, r.to());
            } else if (a instanceof Statement.RenameTable r) {
                if (!r.to().equalsIgnoreCase(t.name()) && catalog.nameTaken(r.to())) {
                    throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + r.to() + "\" already exists");
                }
                catalog.renameTable(t, r.to());
            } else if (a instanceof Statement.SetDefault d) {
                Column c = column(t, d.column());
                t.redeclare(c, c.notNull(), d.text());
                if (d.text() != null) {
                    checkDefault(t, c, planning);
                }
            } else if (a instanceof Statement.SetNotNull n) {
                setNotNull(t, column(t, n.column()), n.notNull());
            } else if (a instanceof Statement.AlterColumnType ct) {
                changeType(t, ct, planning);
            } else if (a instanceof Statement.AddConstraint add) {
                ConstraintDdl.add(catalog, t, add.constraint(), undo, planning.checkBinder(), true);
            } else if (a instanceof Statement.DropConstraint drop) {
                ConstraintDdl.drop(catalog, t, drop, undo);
            } else if (a instanceof Statement.IdentityAction ia) {
                SequenceDdl.alterIdentity(catalog, t, column(t, ia.column()), ia, undo);
            } else if (a instanceof Statement.RenameConstraint rc) {
                ConstraintDdl.rename(t, rc.name(), rc.to(), undo);
            } else {
                throw new IllegalStateException("ALTER TABLE action " + a);
            }
        }
        catalog.schemaChanged();
        return true;
    }

    /** ALTER TABLE | VIEW | INDEX x RENAME TO y, x being a view or an index. */
    private static void renameViewOrIndex(Catalog catalog, String from, String to, UndoLog undo) {
        io.respsql.storage.ViewDef v = catalog.view(from);
        if (v != null) {
            if (!to.equalsIgnoreCase(from) && catalog.nameTaken(to)) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + to + "\" already exists");
            }
            undo.catalogChanging();
            catalog.dropView(v.name());
            catalog.addView(new io.respsql.storage.ViewDef(to, v.columnNames(), v.queryText()));
            return;
        }
        Table owner = catalog.indexOwner(from);
        if (!to.equalsIgnoreCase(from) && catalog.indexOwner(to) != null) {
            throw new SqlException(SqlState.DUPLICATE_TABLE, "relation \"" + to + "\" already exists");
        }
        undo.catalogChanging();
        undo.tableAltering(owner);
        catalog.renameIndex(from, to);
    }

    private static Column column(Table t, String name) {
        Column c = t.column(name);
        if (c == null || c.name().startsWith(REWRITE_PREFIX)) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + name + "\" of relation \"" + t.name() + "\" does not exist");
        }
        return c;
    }

    private static ColumnType type(Statement.ColumnDef d) {
        return type(d.type(), d.name());
    }

    private static ColumnType type(io.respsql.sql.tree.TypeName tn, String column) {
        ColumnType type = ValueRules.columnType(tn);
        if (type == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "type \"" + tn.base().toLowerCase(java.util.Locale.ROOT)
                    + "\" does not exist (column \"" + column + "\")");
        }
        return type;
    }

    private static void addColumn(Catalog catalog, Table t, Statement.AddColumn add, Planning planning) {
        Statement.ColumnDef d = add.column();
        if (t.column(d.name()) != null) {
            if (add.ifNotExists()) {
                return;
            }
            throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + d.name() + "\" of relation \"" + t.name() + "\" already exists");
        }
        ColumnType type = type(d);
        if (d.primaryKey()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER TABLE ... ADD COLUMN ... PRIMARY KEY is not supported yet");
        }
        Column c = t.addColumn(new ColumnSpec(d.name(), type, d.notNull(), d.defaultText(), ValueRules.typeModifier(type, d.type())));
        Cell value = new Cell();
        if (d.defaultText() != null) {
            try {
                planning.defaultValue(c).value(value);
            } catch (SqlException e) {
                throw new SqlException(e.sqlState(), "DEFAULT " + d.defaultText() + " of column \"" + d.name() + "\": " + e.getMessage());
            }
        } else {
            value.setNull();
        }
        if (value.isNull) {
            if (d.notNull() && t.rowCount() > 0) {
                throw new SqlException(SqlState.NOT_NULL_VIOLATION, "column \"" + d.name() + "\" of relation \"" + t.name() + "\" contains null values");
            }
        } else {
            c = t.fillColumn(c, boxed(c, value));
        }
        if (d.unique()) {
            String name = t.name() + ":" + d.name() + ":unique";
            if (catalog.indexOwner(name) != null) {
                throw new SqlException(SqlState.DUPLICATE_TABLE, "index \"" + name + "\" already exists");
            }
            TableIndex ix = t.createIndex(name, List.of(c), true, new boolean[1]);
            if (!value.isNull && t.rowCount() > 1) {
                throw new SqlException(SqlState.UNIQUE_VIOLATION, "could not create unique index \"" + name + "\": key ("
                        + d.name() + ")=(" + d.defaultText() + ") is duplicated");
            }
            catalog.registerIndex(ix.name(), t);
        }
    }

    /** The cell's value as {@link Table#fillColumn} takes it. */
    private static Object boxed(Column c, Cell v) {
        switch (c.type().storedAs()) {
            case INT:
            case BIGINT:
                return v.l;
            case FLOAT:
                return v.d;
            default:
                return Arrays.copyOfRange(v.text, v.textOff, v.textOff + v.textLen);
        }
    }

    private static void checkDefault(Table t, Column c, Planning planning) {
        Cell cell = new Cell();
        try {
            int sequenceCalls = io.respsql.storage.SequenceScope.boundCount();
            DefaultValue d = planning.defaultValue(c);
            if (io.respsql.storage.SequenceScope.boundCount() != sequenceCalls) {
                return; // nextval(...): evaluating it would take a value from the sequence (PostgreSQL takes none)
            }
            d.value(cell);
        } catch (UnsupportedOperationException notYet) {
            return;
        } catch (SqlException e) {
            throw new SqlException(e.sqlState(), "DEFAULT " + c.defaultText() + " of column \"" + c.name() + "\": " + e.getMessage());
        }
    }

    /** The CHECK constraints of {@code t} whose expression uses {@code c}. */
    private static List<io.respsql.storage.ConstraintDef> checksOn(Table t, Column c, Planning planning) {
        List<io.respsql.storage.ConstraintDef> out = new java.util.ArrayList<>();
        for (io.respsql.storage.ConstraintDef def : t.constraints().checks) {
            for (Column used : planning.checkBinder().apply(def).columns()) {
                if (used == c) {
                    out.add(def);
                    break;
                }
            }
        }
        return out;
    }

    /** The foreign keys (of any table) with {@code c} among their referencing or referenced columns. */
    private static List<io.respsql.storage.ConstraintDef> foreignKeysOn(Table t, Column c) {
        List<io.respsql.storage.ConstraintDef> out = new java.util.ArrayList<>();
        for (io.respsql.storage.ConstraintDef fk : t.constraints().foreignKeys) {
            if (Arrays.asList(fk.columns()).contains(c)) {
                out.add(fk);
            }
        }
        for (io.respsql.storage.ConstraintDef fk : t.constraints().referencedBy) {
            if (Arrays.asList(fk.refColumns()).contains(c) && !out.contains(fk)) {
                out.add(fk);
            }
        }
        return out;
    }

    private static void dropColumn(Catalog catalog, Table t, Statement.DropColumn drop, UndoLog undo, Planning planning) {
        Column c = t.column(drop.column());
        if (c == null) {
            if (drop.ifExists()) {
                return;
            }
            column(t, drop.column());
        }
        if (t.columnCount() == 1) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot drop column \"" + c.name() + "\": it is the only column of table \""
                    + t.name() + "\" (tables without columns are not supported)");
        }
        // PostgreSQL's: the table's own CHECKs and foreign keys using the column go with it; another
        // table's foreign key referencing it needs CASCADE (and then goes too)
        for (io.respsql.storage.ConstraintDef fk : foreignKeysOn(t, c)) {
            if (fk.table() != t && !drop.cascade()) {
                throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop column " + c.name() + " of table " + t.name()
                        + " because other objects depend on it (constraint " + fk.name() + " on table " + fk.table().name()
                        + "; use DROP ... CASCADE to drop it too)");
            }
        }
        for (io.respsql.storage.ConstraintDef fk : foreignKeysOn(t, c)) {
            ConstraintDdl.drop(catalog, fk.table(), new Statement.DropConstraint(fk.name(), false, false), undo);
        }
        for (io.respsql.storage.ConstraintDef check : checksOn(t, c, planning)) {
            ConstraintDdl.drop(catalog, t, new Statement.DropConstraint(check.name(), false, false), undo);
        }
        for (String ix : t.dropColumn(c)) {
            catalog.unregisterIndex(ix);
        }
    }

    private static void setNotNull(Table t, Column c, boolean notNull) {
        if (!notNull) {
            for (TableIndex ix : t.indexes()) {
                if (ix.columns().contains(c) && (ix.isPrimary() || ix.name().toLowerCase(java.util.Locale.ROOT).endsWith(":pk"))) {
                    throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "column \"" + c.name() + "\" is in a primary key");
                }
            }
            t.redeclare(c, false, c.defaultText());
            return;
        }
        if (c.mayHaveNulls()) {
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                if (c.isNull(row)) {
                    throw new SqlException(SqlState.NOT_NULL_VIOLATION, "column \"" + c.name() + "\" of relation \"" + t.name()
                            + "\" contains null values");
                }
            }
        }
        t.redeclare(c, true, c.defaultText());
    }

    /**
     * ALTER COLUMN ... TYPE: a new column of the type, written by an UPDATE of every row from the
     * USING expression (else the column itself, converted as an assignment converts), then put in
     * the old one's place with its name, NOT NULL, DEFAULT and indexes.
     */
    private static void changeType(Table t, Statement.AlterColumnType ct, Planning planning) {
        Column old = column(t, ct.column());
        ColumnType to = type(ct.type(), ct.column());
        if (to == old.type() && ct.using() == null && ValueRules.typeModifier(to, ct.type()) == old.typeModifier()) {
            return; // the same type: nothing to rewrite
        }
        List<io.respsql.storage.ConstraintDef> fks = foreignKeysOn(t, old);
        if (!fks.isEmpty()) {
            // a foreign key holds its columns: a rewritten column would leave it checking the old one
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot change the type of column \"" + old.name()
                    + "\": foreign key constraint \"" + fks.get(0).name() + "\" uses it (drop the constraint first)");
        }
        if (ct.using() == null && !assignable(old.type(), to)) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, "column \"" + old.name() + "\" cannot be cast automatically to type "
                    + ct.type().base().toLowerCase(java.util.Locale.ROOT) + " (write USING " + old.name() + "::"
                    + ct.type().base().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        Column fresh = t.addColumn(new ColumnSpec(REWRITE_PREFIX + old.name(), to, false, null, ValueRules.typeModifier(to, ct.type())));
        String expression = ct.using() != null ? ct.usingText() : quoted(old.name());
        if (t.rowCount() > 0) {
            planning.rewrite(t, fresh, expression);
        }
        if (old.notNull() && fresh.mayHaveNulls()) {
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                if (fresh.isNull(row)) {
                    throw new SqlException(SqlState.NOT_NULL_VIOLATION, "column \"" + old.name() + "\" of relation \"" + t.name()
                            + "\" contains null values");
                }
            }
        }
        t.replaceColumn(old, fresh, old.defaultText());
        for (TableIndex ix : t.indexes()) {
            if (ix.unique() && ix.columns().contains(fresh)) {
                for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                    if (t.violatesUnique(ix, row)) {
                        throw new SqlException(SqlState.UNIQUE_VIOLATION, "could not create unique index \"" + ix.name()
                                + "\": the new values of column \"" + fresh.name() + "\" repeat " + UniqueIndexes.keyText(ix, row));
                    }
                }
            }
        }
        if (old.defaultText() != null) {
            try {
                checkDefault(t, fresh, planning);
            } catch (SqlException e) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "default for column \"" + fresh.name()
                        + "\" cannot be cast automatically to type " + ct.type().base().toLowerCase(java.util.Locale.ROOT)
                        + " (" + e.getMessage() + ")");
            }
        }
    }

    /** Whether PostgreSQL converts {@code from} to {@code to} without USING (an assignment cast). */
    private static boolean assignable(ColumnType from, ColumnType to) {
        if (from == to || to == ColumnType.TEXT) {
            return true;
        }
        if (from.isNumeric() && from != ColumnType.BOOLEAN && from != ColumnType.DATE && from != ColumnType.TIMESTAMP) {
            return to == ColumnType.INT || to == ColumnType.BIGINT || to == ColumnType.FLOAT;
        }
        return from == ColumnType.DATE && to == ColumnType.TIMESTAMP || from == ColumnType.TIMESTAMP && to == ColumnType.DATE;
    }

    /** {@code name} as a double-quoted identifier. */
    public static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    // ---- TRUNCATE ----

    /** Empties every table named (all checked first); each gets fresh storage, the old kept for a rollback. */
    public static void truncate(Catalog catalog, Statement.Truncate s, UndoLog undo) {
        List<Table> tables = new java.util.ArrayList<>();
        for (String name : s.tables()) {
            Table t = catalog.table(name);
            if (t == null) {
                if (catalog.view(name) != null) {
                    throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table");
                }
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
            }
            if (!tables.contains(t)) {
                tables.add(t);
            }
        }
        ConstraintDdl.truncating(tables, s.cascade()); // a foreign key from outside the list refuses it
        if (s.cascade()) {
            tables = ConstraintDdl.truncateCascade(tables);
        }
        for (Table t : tables) {
            Table.Rows old = t.detachRows();
            if (undo != null) {
                undo.truncating(t, old);
            }
        }
        catalog.schemaChanged();
    }
}
