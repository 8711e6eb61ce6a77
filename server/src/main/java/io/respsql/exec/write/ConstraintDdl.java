package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ConstraintDef;
import io.respsql.storage.KeyMatch;
import io.respsql.storage.Table;
import io.respsql.storage.TableConstraints;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;

import java.util.ArrayList;
import java.util.List;

/**
 * Declaring and dropping constraints: CREATE TABLE's CHECK and FOREIGN KEY constraints and its
 * key constraints' names, ALTER TABLE ... ADD / DROP CONSTRAINT (existing rows validated first: a
 * failure changes nothing), and what DROP TABLE and TRUNCATE must respect. PostgreSQL's default
 * names ({@code t_c_check}, {@code t_pkey}, {@code t_a_b_key}, {@code t_c_fkey}) and messages.
 * Every change is recorded in the undo log (rollback takes it back) and moves the schema version
 * (plans bind the CHECKs).
 */
public final class ConstraintDdl {
    private ConstraintDdl() {
    }

    /** After CREATE TABLE made {@code t}: its key constraints' names, then its CHECKs and foreign keys. */
    public static void created(Catalog catalog, Table t, Statement.CreateTable s, UndoLog undo, Constraints.CheckBinder binder) {
        TableConstraints tc = t.constraints();
        // key constraints, in PostgreSQL's order of naming: the primary key, then the UNIQUEs
        for (Statement.ColumnDef d : s.columns()) {
            if (d.primaryKey()) {
                tc.nameKey(fresh(tc, t.name() + "_pkey"), t.primaryIndex().name());
            }
        }
        for (Statement.KeyConstraint k : s.keys()) {
            String index;
            if (k.primary() && k.columns().size() == 1) {
                index = t.primaryIndex().name();
            } else {
                index = t.name() + ":" + String.join(",", k.columns()) + (k.primary() ? ":pk" : ":unique");
                if (t.indexPosition(index) < 0 && !k.primary()) {
                    continue;
                }
            }
            String name = k.name() != null ? explicit(t, k.name()) : fresh(tc, keyName(t, k.primary(), k.columns()));
            tc.nameKey(name, index);
        }
        for (Statement.ColumnDef d : s.columns()) {
            if (d.unique() && !d.primaryKey()) {
                tc.nameKey(fresh(tc, keyName(t, false, List.of(d.name()))), t.name() + ":" + d.name() + ":unique");
            }
        }
        for (Statement.TableConstraint c : s.constraints()) {
            add(catalog, t, c, undo, binder, false);
        }
    }

    private static String keyName(Table t, boolean primary, List<String> cols) {
        return primary ? t.name() + "_pkey" : t.name() + "_" + String.join("_", cols) + "_key";
    }

    /** {@code base}, or base1, base2, ... : the first the table does not use yet. */
    private static String fresh(TableConstraints tc, String base) {
        if (!tc.has(base)) {
            return base;
        }
        for (int i = 1; ; i++) {
            if (!tc.has(base + i)) {
                return base + i;
            }
        }
    }

    private static String explicit(Table t, String name) {
        if (t.constraints().has(name)) {
            throw new SqlException(SqlState.DUPLICATE_OBJECT, "constraint \"" + name + "\" for relation \"" + t.name() + "\" already exists");
        }
        return name;
    }

    /** ALTER TABLE ... ADD (or CREATE TABLE's) constraint {@code c} on {@code t}; {@code validate}: check the rows already there. */
    public static void add(Catalog catalog, Table t, Statement.TableConstraint c, UndoLog undo, Constraints.CheckBinder binder,
                           boolean validate) {
        switch (c.kind()) {
            case CHECK:
                addCheck(catalog, t, c, undo, binder, validate);
                return;
            case FOREIGN_KEY:
                addForeignKey(catalog, t, c, undo, validate);
                return;
            default:
                addKey(catalog, t, c, undo);
        }
    }

    private static void addCheck(Catalog catalog, Table t, Statement.TableConstraint c, UndoLog undo,
                                 Constraints.CheckBinder binder, boolean validate) {
        TableConstraints tc = t.constraints();
        String name = c.name() != null ? explicit(t, c.name()) : null;
        boolean pg = io.respsql.sql.Dialect.postgres();
        Constraints.Check bound = binder.apply(ConstraintDef.check(name == null ? "?" : name, t, c.checkText(), pg));
        if (name == null) {
            String col = !c.columns().isEmpty() ? c.columns().get(0)
                    : bound.columns().length == 1 ? bound.columns()[0].name() : null; // PostgreSQL: t_check over several columns
            name = fresh(tc, t.name() + (col == null ? "" : "_" + col) + "_check");
        }
        ConstraintDef def = ConstraintDef.check(name, t, c.checkText(), pg);
        if (validate) {
            Constraints.Check[] one = {new Constraints.Check(def, bound.expr(), bound.columns())};
            EvalContext ctx = new EvalContext(64); // plan.QueryBinder.MAX_RELATIONS
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                try {
                    Constraints.check(t, one, ctx, row);
                } catch (SqlException e) {
                    throw new SqlException(SqlState.CHECK_VIOLATION, "check constraint \"" + name + "\" of relation \"" + t.name()
                            + "\" is violated by some row");
                }
            }
        }
        tc.checks.add(def);
        catalog.schemaChanged();
        if (undo != null) {
            undo.onRollback(() -> {
                tc.checks.remove(def);
                catalog.schemaChanged();
            });
        }
    }

    private static void addForeignKey(Catalog catalog, Table t, Statement.TableConstraint c, UndoLog undo, boolean validate) {
        Table parent = c.refTable().equalsIgnoreCase(t.name()) ? t : catalog.table(c.refTable());
        if (parent == null) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + c.refTable() + "\" does not exist");
        }
        if (io.respsql.storage.Partitioning.partitioned(parent)) {
            // review2: a partitioned table's rows are in its partitions, its own storage is empty: every reference failed
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a foreign key referencing partitioned table \"" + parent.name()
                    + "\" is not supported yet");
        }
        Column[] cols = columns(t, c.columns());
        Column[] refs;
        if (c.refColumns() == null) {
            refs = primaryKey(parent);
            if (refs == null) {
                throw new SqlException(SqlState.UNDEFINED_OBJECT, "there is no primary key for referenced table \"" + parent.name() + "\"");
            }
        } else {
            refs = columns(parent, c.refColumns());
        }
        if (cols.length != refs.length) {
            throw new SqlException(SqlState.INVALID_FOREIGN_KEY, "number of referencing and referenced columns for foreign key disagree");
        }
        if (KeyMatch.indexOn(parent, refs, true) == null) {
            throw new SqlException(SqlState.INVALID_FOREIGN_KEY, "there is no unique constraint matching given keys for referenced table \""
                    + parent.name() + "\"");
        }
        TableConstraints tc = t.constraints();
        String name = c.name() != null ? explicit(t, c.name()) : fresh(tc, t.name() + "_" + String.join("_", c.columns()) + "_fkey");
        for (int i = 0; i < cols.length; i++) {
            if (!KeyMatch.comparable(cols[i], refs[i])) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "foreign key constraint \"" + name + "\" cannot be implemented: key columns \""
                        + cols[i].name() + "\" and \"" + refs[i].name() + "\" are of incompatible types: " + cols[i].type() + " and " + refs[i].type());
            }
        }
        Column[] setColumns = null;
        if (c.setColumns() != null) {
            setColumns = new Column[c.setColumns().size()];
            for (int i = 0; i < setColumns.length; i++) {
                Column s = t.column(c.setColumns().get(i));
                if (s == null) {
                    throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + c.setColumns().get(i)
                            + "\" referenced in ON DELETE SET action does not exist");
                }
                boolean part = false;
                for (Column k : cols) {
                    part |= k == s;
                }
                if (!part) {
                    throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "column \"" + s.name()
                            + "\" referenced in ON DELETE SET action must be part of foreign key");
                }
                setColumns[i] = s;
            }
        }
        String auto = null;
        if (KeyMatch.indexOn(t, cols, false) == null) {
            // the referencing columns get an index, so that a referenced row's DELETE or key
            // change finds its referencing rows by a probe, not a scan
            auto = t.name() + ":" + String.join(",", c.columns()) + ":fk";
            for (int i = 1; catalog.indexOwner(auto) != null; i++) {
                auto = t.name() + ":" + String.join(",", c.columns()) + ":fk" + i;
            }
            TableIndex ix = t.createIndex(auto, List.of(cols[0]), false, null);
            if (undo != null) {
                undo.catalogChanging();
                undo.indexCreated(t, ix.name());
            }
            catalog.registerIndex(ix.name(), t);
        }
        ConstraintDef def = ConstraintDef.foreignKey(name, t, cols, parent, refs, action(c.onDelete()), action(c.onUpdate()),
                c.matchFull(), auto, setColumns).deferral(c.deferral());
        if (validate) {
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                if (!Constraints.referenceHolds(def, row)) {
                    throw Constraints.childViolation(def);
                }
            }
        }
        tc.foreignKeys.add(def);
        parent.constraints().referencedBy.add(def);
        catalog.schemaChanged();
        if (undo != null) {
            undo.onRollback(() -> {
                tc.foreignKeys.remove(def);
                parent.constraints().referencedBy.remove(def);
                catalog.schemaChanged();
            });
        }
    }

    private static void addKey(Catalog catalog, Table t, Statement.TableConstraint c, UndoLog undo) {
        boolean primary = c.kind() == Statement.ConstraintKind.PRIMARY_KEY;
        Column[] cols = columns(t, c.columns());
        if (primary && primaryKey(t) != null) {
            throw new SqlException(SqlState.INVALID_TABLE_DEFINITION, "multiple primary keys for table \"" + t.name() + "\" are not allowed");
        }
        TableConstraints tc = t.constraints();
        String name = c.name() != null ? explicit(t, c.name()) : fresh(tc, keyName(t, primary, c.columns()));
        String index = t.name() + ":" + String.join(",", c.columns()) + (primary ? ":pk" : ":unique");
        for (int i = 1; catalog.indexOwner(index) != null; i++) {
            index = t.name() + ":" + String.join(",", c.columns()) + (primary ? ":pk" : ":unique") + i;
        }
        if (primary) {
            for (int row = t.rows().nextLive(0); row >= 0; row = t.rows().nextLive(row + 1)) {
                for (Column col : cols) {
                    if (col.isNull(row)) {
                        throw new SqlException(SqlState.NOT_NULL_VIOLATION, "column \"" + col.name() + "\" of relation \"" + t.name()
                                + "\" contains null values");
                    }
                }
            }
        }
        List<Statement.IndexColumn> ics = new ArrayList<>();
        for (String s : c.columns()) {
            ics.add(new Statement.IndexColumn(s, false));
        }
        try {
            TableDdl.createIndex(catalog, new Statement.CreateIndex(index, t.name(), ics, true, false), undo);
        } catch (SqlException e) {
            if (e.sqlState().equals(SqlState.UNIQUE_VIOLATION)) {
                throw new SqlException(SqlState.UNIQUE_VIOLATION, "could not create unique index \"" + name + "\"");
            }
            throw e;
        }
        String n = name;
        tc.nameKey(n, index);
        if (undo != null) {
            undo.onRollback(() -> tc.unnameKey(n));
        }
    }

    /** The primary key's columns of {@code t} (declared on one column or as a constraint), or null. */
    static Column[] primaryKey(Table t) {
        if (t.hasPrimaryKey()) {
            return new Column[] {t.primaryColumn()};
        }
        for (TableIndex ix : t.indexes()) {
            if (ix.unique() && ix.name().toLowerCase(java.util.Locale.ROOT).matches(".*:pk\\d*")) {
                return ix.columns().toArray(new Column[0]);
            }
        }
        return null;
    }

    private static Column[] columns(Table t, List<String> names) {
        Column[] cols = new Column[names.size()];
        for (int i = 0; i < cols.length; i++) {
            Column c = t.column(names.get(i));
            if (c == null) {
                throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + names.get(i) + "\" referenced in foreign key constraint does not exist");
            }
            cols[i] = c;
        }
        return cols;
    }

    private static char action(Statement.FkAction a) {
        if (a == null) {
            return ConstraintDef.NO_ACTION;
        }
        switch (a) {
            case RESTRICT:
                return ConstraintDef.RESTRICT;
            case CASCADE:
                return ConstraintDef.CASCADE;
            case SET_NULL:
                return ConstraintDef.SET_NULL;
            case SET_DEFAULT:
                return ConstraintDef.SET_DEFAULT;
            default:
                return ConstraintDef.NO_ACTION;
        }
    }

    // ---- regress24 ----

    /**
     * ALTER TABLE ... RENAME CONSTRAINT: a CHECK or FOREIGN KEY under its new name (the same
     * constraint object replaced by a renamed one in every list holding it), a UNIQUE / PRIMARY KEY
     * constraint's name; PostgreSQL's errors for a name that is none (42704) or taken (42710).
     */
    public static void rename(Table t, String from, String to, UndoLog undo) {
        TableConstraints tc = t.constraints();
        ConstraintDef def = tc.find(from);
        String index = def == null ? tc.keyNames.get(from.toLowerCase(java.util.Locale.ROOT)) : null;
        if (def == null && index == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "constraint \"" + from + "\" for table \"" + t.name() + "\" does not exist");
        }
        if (!from.equalsIgnoreCase(to) && tc.has(to)) {
            throw new SqlException(SqlState.DUPLICATE_OBJECT, "constraint \"" + to + "\" for relation \"" + t.name() + "\" already exists");
        }
        if (def != null) {
            ConstraintDef renamed = def.renamed(to);
            List<List<ConstraintDef>> holders = new ArrayList<>();
            holders.add(def.kind() == ConstraintDef.Kind.CHECK ? tc.checks : tc.foreignKeys);
            if (def.kind() == ConstraintDef.Kind.FOREIGN_KEY) {
                holders.add(def.refTable().constraints().referencedBy);
            }
            for (List<ConstraintDef> h : holders) {
                h.set(h.indexOf(def), renamed);
            }
            if (undo != null) {
                undo.onRollback(() -> {
                    for (List<ConstraintDef> h : holders) {
                        int at = h.indexOf(renamed);
                        if (at >= 0) {
                            h.set(at, def);
                        }
                    }
                });
            }
            return;
        }
        String spelled = tc.keyConstraint(index);
        tc.unnameKey(from);
        tc.nameKey(to, index);
        if (undo != null) {
            undo.onRollback(() -> {
                tc.unnameKey(to);
                tc.nameKey(spelled, index);
            });
        }
    }

    /** ALTER TABLE ... DROP CONSTRAINT; false when IF EXISTS found none. */
    public static boolean drop(Catalog catalog, Table t, Statement.DropConstraint d, UndoLog undo) {
        TableConstraints tc = t.constraints();
        ConstraintDef def = tc.find(d.name());
        if (def != null) {
            if (def.kind() == ConstraintDef.Kind.CHECK) {
                tc.checks.remove(def);
                if (undo != null) {
                    undo.onRollback(() -> tc.checks.add(def));
                }
            } else {
                dropForeignKey(catalog, def, undo);
            }
            catalog.schemaChanged();
            return true;
        }
        String index = tc.keyNames.get(d.name().toLowerCase(java.util.Locale.ROOT));
        if (index == null) {
            if (d.ifExists()) {
                return false;
            }
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "constraint \"" + d.name() + "\" of relation \"" + t.name() + "\" does not exist");
        }
        TableIndex ix = t.indexes().get(t.indexPosition(index));
        for (ConstraintDef fk : new ArrayList<>(tc.referencedBy)) {
            if (KeyMatch.sameSet(fk.refColumns(), ix.columns().toArray(new Column[0]))) {
                if (!d.cascade()) {
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop constraint " + d.name() + " on table " + t.name()
                            + " because other objects depend on it");
                }
                dropForeignKey(catalog, fk, undo);
            }
        }
        if (ix.isPrimary()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot drop the primary key \"" + d.name() + "\" of table \"" + t.name()
                    + "\" declared on its column");
        }
        TableDdl.dropIndex(catalog, new Statement.DropIndex(index, false), undo);
        String spelled = d.name();
        tc.unnameKey(spelled);
        if (undo != null) {
            undo.onRollback(() -> tc.nameKey(spelled, index));
        }
        return true;
    }

    private static void dropForeignKey(Catalog catalog, ConstraintDef fk, UndoLog undo) {
        Table t = fk.table();
        t.constraints().foreignKeys.remove(fk);
        fk.refTable().constraints().referencedBy.remove(fk);
        if (undo != null) {
            undo.onRollback(() -> {
                t.constraints().foreignKeys.add(fk);
                fk.refTable().constraints().referencedBy.add(fk);
                catalog.schemaChanged();
            });
        }
        if (fk.autoIndex() != null && t.indexPosition(fk.autoIndex()) >= 0 && !neededByForeignKey(t, fk.autoIndex())) {
            TableDdl.dropIndex(catalog, new Statement.DropIndex(fk.autoIndex(), false), undo);
        }
        catalog.schemaChanged();
    }

    /** Whether a foreign key referencing {@code t} has no unique index on its referenced columns but {@code index}. */
    static boolean neededAsReferencedKey(Table t, String index) {
        for (ConstraintDef fk : t.constraints().referencedBy) {
            TableIndex ix = KeyMatch.indexOn(t, fk.refColumns(), true);
            if (ix != null && ix.name().equalsIgnoreCase(index)) {
                for (TableIndex other : t.indexes()) {
                    if (other != ix && other.unique() && KeyMatch.sameSet(other.columns().toArray(new Column[0]), fk.refColumns())) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }

    /** Whether a foreign key of {@code t} has no index on its columns but {@code index}. */
    static boolean neededByForeignKey(Table t, String index) {
        for (ConstraintDef fk : t.constraints().foreignKeys) {
            boolean other = false;
            boolean mine = false;
            for (TableIndex ix : t.indexes()) {
                boolean leads = false;
                for (Column c : fk.columns()) {
                    leads |= ix.column() == c;
                }
                if (leads) {
                    if (ix.name().equalsIgnoreCase(index)) {
                        mine = true;
                    } else {
                        other = true;
                    }
                }
            }
            if (mine && !other) {
                return true;
            }
        }
        return false;
    }

    /**
     * DROP TABLE {@code t}: refused (2BP01) when another table's foreign key references it, unless
     * {@code cascade} (those foreign keys are dropped); its own foreign keys leave their referenced tables.
     */
    public static void tableDropping(Catalog catalog, Table t, boolean cascade, UndoLog undo) {
        for (ConstraintDef fk : new ArrayList<>(t.constraints().referencedBy)) {
            if (fk.table() == t) {
                continue;
            }
            if (!cascade) {
                    throw new SqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop table " + t.name()
                        + " because other objects depend on it");
            }
            dropForeignKey(catalog, fk, undo);
        }
        for (ConstraintDef fk : new ArrayList<>(t.constraints().foreignKeys)) {
            if (fk.refTable() != t) {
                fk.refTable().constraints().referencedBy.remove(fk);
                if (undo != null) {
                    undo.onRollback(() -> fk.refTable().constraints().referencedBy.add(fk));
                }
            }
        }
    }

    /**
     * TRUNCATE of {@code tables}: refused (0A000, as PostgreSQL) when a table outside the list has a
     * foreign key referencing one of them, unless {@code cascade} (the caller then truncates the
     * referencing tables too: {@link #truncateCascade}). For the TRUNCATE statement's executor.
     */
    public static void truncating(List<Table> tables, boolean cascade) {
        if (cascade) {
            return;
        }
        for (Table t : tables) {
            for (ConstraintDef fk : t.constraints().referencedBy) {
                if (!tables.contains(fk.table())) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot truncate a table referenced in a foreign key constraint");
                }
            }
        }
    }

    /** {@code tables} and every table referencing one of them, transitively: what TRUNCATE ... CASCADE empties. */
    public static List<Table> truncateCascade(List<Table> tables) {
        List<Table> all = new ArrayList<>(tables);
        for (int i = 0; i < all.size(); i++) {
            for (ConstraintDef fk : all.get(i).constraints().referencedBy) {
                if (!all.contains(fk.table())) {
                    all.add(fk.table());
                }
            }
        }
        return all;
    }
}
