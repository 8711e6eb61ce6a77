package io.respsql.exec.write;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Column;
import io.respsql.storage.ConstraintDef;
import io.respsql.storage.KeyMatch;
import io.respsql.storage.Table;
import io.respsql.storage.TableIndex;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Enforcing CHECK and FOREIGN KEY constraints (PostgreSQL's meaning and messages) on the write
 * paths: a written row's CHECKs ({@link #check}) and its foreign keys ({@link #childRow}), and
 * what a referenced row's deletion or key change does to the rows referencing it (NO ACTION and
 * RESTRICT refuse, CASCADE follows, SET NULL / SET DEFAULT set). Every check probes an index (the
 * referenced key's unique index, the referencing columns' index the foreign key made), never scans.
 * Changes made to other tables are recorded in the undo log the caller passes, so a statement
 * that fails later takes them back.
 */
public final class Constraints {
    private Constraints() {
    }

    /** A CHECK bound to its table as relation 0 (plan.WritePlanner binds it). */
    public record Check(ConstraintDef def, Expression expr, Column[] columns) {
        /** Whether the check reads one of {@code assigned} (an UPDATE that assigns none need not check it). */
        public boolean reads(Column[] assigned) {
            for (Column c : columns) {
                for (Column a : assigned) {
                    if (a == c) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** The binder of a table's CHECKs (the planner's, handed down by the engine), for ALTER TABLE ... ADD CHECK. */
    public interface CheckBinder extends Function<ConstraintDef, Check> {
    }

    // ---- CHECK -------------------------------------------------------------------------------

    /** Refuses {@code row} when one of {@code checks} is false for it (NULL passes). */
    public static void check(Table t, Check[] checks, EvalContext ctx, int row) {
        ctx.slots[0] = row;
        for (Check c : checks) {
            long v = c.expr.evalLong(ctx);
            if (!ctx.isNull && v == 0) {
                throw checkViolation(t, c.def.name());
            }
        }
    }

    public static SqlException checkViolation(Table t, String name) {
        return new SqlException(SqlState.CHECK_VIOLATION, "new row for relation \"" + t.name() + "\" violates check constraint \"" + name + "\"");
    }

    // ---- FOREIGN KEY: the referencing side ------------------------------------------------------

    /** Refuses {@code row} of {@code fk}'s table when its key is complete and no referenced row has it. */
    public static void childRow(ConstraintDef fk, int row) {
        if (!referenceHolds(fk, row)) {
            DeferredChecks d = fk.deferrable() ? DeferredChecks.current() : null;
            if (d != null && d.deferred(fk)) {
                d.add(fk, row); // checked again at COMMIT or SET CONSTRAINTS ... IMMEDIATE
                return;
            }
            throw childViolation(fk);
        }
    }

    /** MATCH SIMPLE: a NULL in any column passes; MATCH FULL: all NULL passes, some NULL fails. */
    static boolean referenceHolds(ConstraintDef fk, int row) {
        Column[] cols = fk.columns();
        int nulls = 0;
        for (Column c : cols) {
            if (c.isNull(row)) {
                nulls++;
            }
        }
        if (nulls > 0) {
            return !fk.matchFull() || nulls == cols.length;
        }
        Table parent = fk.refTable();
        TableIndex ix = KeyMatch.indexOn(parent, fk.refColumns(), true);
        if (ix == null) {
            throw new SqlException(SqlState.INVALID_FOREIGN_KEY, "there is no unique constraint matching given keys for referenced table \""
                    + parent.name() + "\"");
        }
        return KeyMatch.find(ix, fk.refColumns(), cols, row, parent, -1) >= 0;
    }

    static SqlException childViolation(ConstraintDef fk) {
        return new SqlException(SqlState.FOREIGN_KEY_VIOLATION, "insert or update on table \"" + fk.table().name()
                + "\" violates foreign key constraint \"" + fk.name() + "\"");
    }

    static SqlException parentViolation(ConstraintDef fk) {
        return new SqlException(SqlState.FOREIGN_KEY_VIOLATION, "update or delete on table \"" + fk.refTable().name()
                + "\" violates foreign key constraint \"" + fk.name() + "\" on table \"" + fk.table().name() + "\"");
    }

    /** Whether an UPDATE assigning {@code assigned} of {@code t} must check foreign keys (either side). */
    public static boolean fkTouched(Table t, Column[] assigned) {
        for (Column a : assigned) {
            for (ConstraintDef fk : t.constraints().foreignKeys) {
                if (fk.covers(a, false)) {
                    return true;
                }
            }
            for (ConstraintDef fk : t.constraints().referencedBy) {
                if (fk.covers(a, true)) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---- FOREIGN KEY: the referenced side -------------------------------------------------------

    /**
     * Rows of {@code parent} are about to be deleted ({@code rows[0..n)}): each foreign key that
     * references it acts on the rows referencing them (refuses, deletes them too, sets them NULL or
     * to their DEFAULT), recorded in {@code log}. {@code going}: rows being deleted by this statement
     * so far, per table (a row referencing another that goes too is no obstacle).
     */
    public static void deleting(Table parent, int[] rows, int n, UndoLog log, Map<Table, IntOpenHashSet> going) {
        List<ConstraintDef> incoming = parent.constraints().referencedBy;
        if (incoming.isEmpty()) {
            return;
        }
        for (ConstraintDef fk : incoming) {
            Table child = fk.table();
            TableIndex ix = childIndex(fk);
            IntArrayList found = new IntArrayList();
            IntOpenHashSet skip = going.get(child);
            for (int i = 0; i < n; i++) {
                int before = found.size();
                KeyMatch.findAll(ix, fk.columns(), fk.refColumns(), rows[i], child, found);
                if (skip != null) {
                    int w = before;
                    for (int j = before; j < found.size(); j++) {
                        if (!skip.contains(found.getInt(j))) {
                            found.set(w++, found.getInt(j));
                        }
                    }
                    found.size(w);
                }
            }
            if (found.isEmpty()) {
                continue;
            }
            act(fk, fk.onDelete(), found, log, going, null);
        }
    }

    /** Deletes {@code rows} of {@code t} (live ones, each once) after their own referencing rows were dealt with. */
    public static void cascadeDelete(Table t, IntArrayList rows, UndoLog log, Map<Table, IntOpenHashSet> going) {
        IntOpenHashSet set = going.computeIfAbsent(t, k -> new IntOpenHashSet());
        IntArrayList fresh = new IntArrayList();
        for (int i = 0; i < rows.size(); i++) {
            int r = rows.getInt(i);
            if (t.isLive(r) && set.add(r)) {
                fresh.add(r);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        deleting(t, fresh.elements(), fresh.size(), log, going);
        int w = 0;
        int[] a = fresh.elements();
        for (int i = 0; i < fresh.size(); i++) {
            if (t.isLive(a[i])) {
                a[w++] = a[i];
            }
        }
        log.deletingRows(t, a, w);
        for (int i = 0; i < w; i++) {
            t.deleteRow(a[i]);
        }
    }

    /** The action {@code action} of {@code fk} on its referencing rows {@code rows}; {@code newKeyRow}: an ON UPDATE CASCADE's parent rows (one per child row). */
    private static void act(ConstraintDef fk, char action, IntArrayList rows, UndoLog log, Map<Table, IntOpenHashSet> going,
                            int[] newKeyRow) {
        Table child = fk.table();
        switch (action) {
            case ConstraintDef.CASCADE:
                if (newKeyRow == null) {
                    cascadeDelete(child, rows, log, going);
                } else {
                    setKeys(fk, fk.columns(), rows, log, newKeyRow, action);
                }
                return;
            case ConstraintDef.SET_NULL:
            case ConstraintDef.SET_DEFAULT:
                setKeys(fk, newKeyRow == null && fk.setColumns() != null ? distinct(fk.setColumns()) : fk.columns(), rows, log, null,
                        action);
                if (action == ConstraintDef.SET_DEFAULT) {
                    for (int i = 0; i < rows.size(); i++) {
                        if (!referenceHolds(fk, rows.getInt(i))) {
                            throw childViolation(fk);
                        }
                    }
                }
                return;
            default:
                throw parentViolation(fk);
        }
    }

    /** Sets {@code fk}'s columns of {@code rows}: NULL / DEFAULT ({@code from} null, by the action), or the values of {@code fk.refColumns} at {@code from[i]}. */
    private static Column[] distinct(Column[] cols) {
        return java.util.Arrays.stream(cols).distinct().toArray(Column[]::new);
    }

    private static void setKeys(ConstraintDef fk, Column[] cols, IntArrayList rows, UndoLog log, int[] from, char action) {
        Table child = fk.table();
        int n = rows.size();
        int[] r = rows.elements();
        log.changingCells(child, cols, r, n);
        Cell cell = new Cell();
        for (int j = 0; j < cols.length; j++) {
            Column c = cols[j];
            if (from == null) {
                if (action == ConstraintDef.SET_DEFAULT) {
                    defaultOf(c, cell);
                } else {
                    cell.setNull();
                }
                if (cell.isNull && Tables.notNull(child, c)) {
                    throw Tables.nullViolation(child, c);
                }
            }
            for (int i = 0; i < n; i++) {
                if (from != null) {
                    read(fk.refColumns()[j], from[i], cell);
                }
                CellStore.storeIndexed(child, c, r[i], cell);
            }
        }
    }

    /** {@code c}'s DEFAULT (a literal), or NULL. */
    private static void defaultOf(Column c, Cell cell) {
        String text = c.defaultText();
        if (text == null) {
            cell.setNull();
            return;
        }
        String sql = "SELECT " + text;
        io.respsql.sql.tree.Statement st = io.respsql.sql.SqlParser.parse(sql);
        if (st instanceof io.respsql.sql.tree.Statement.QueryStatement q
                && q.query() instanceof io.respsql.sql.tree.Query.Select s && s.items().size() == 1
                && s.items().get(0) instanceof io.respsql.sql.tree.Query.Item item
                && ValueRules.literal(c, item.expr(), sql, false, cell)) {
            return;
        }
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ON DELETE/UPDATE SET DEFAULT needs a constant DEFAULT for column \"" + c.name() + "\"");
    }

    /** The value of {@code c} at {@code row} into {@code cell}. */
    static void read(Column c, int row, Cell cell) {
        if (c.isNull(row)) {
            cell.setNull();
            return;
        }
        switch (c.type().storedAs()) {
            case FLOAT:
                cell.setDouble(c.getDouble(row));
                return;
            case TEXT: {
                io.respsql.storage.TextColumn tc = (io.respsql.storage.TextColumn) c;
                int len = tc.length(row);
                byte[] b = new byte[len];
                if (len > 0) {
                    System.arraycopy(tc.bytes(row), tc.offset(row), b, 0, len);
                }
                cell.setText(b);
                return;
            }
            default:
                cell.setLong(c.getLong(row));
        }
    }

    /** The index on {@code fk}'s referencing columns (declaring it made one when none existed). */
    static TableIndex childIndex(ConstraintDef fk) {
        TableIndex ix = KeyMatch.indexOn(fk.table(), fk.columns(), false);
        if (ix == null) {
            throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "foreign key " + fk.name() + " has no index on its columns");
        }
        return ix;
    }

    /**
     * Before an UPDATE of {@code parent}'s rows assigning {@code assigned}: per referencing foreign
     * key whose referenced columns are assigned, the referencing rows of each updated row. Null when
     * none is affected.
     */
    public static ParentUpdate beforeParentUpdate(Table parent, Column[] assigned, int[] rows, int n) {
        ParentUpdate pu = null;
        List<ConstraintDef> incoming = parent.constraints().referencedBy;
        for (ConstraintDef fk : incoming) {
            boolean hit = false;
            for (Column a : assigned) {
                hit |= fk.covers(a, true);
            }
            if (!hit) {
                continue;
            }
            TableIndex ix = childIndex(fk);
            IntArrayList children = new IntArrayList();
            IntArrayList parents = new IntArrayList();
            for (int i = 0; i < n; i++) {
                int before = children.size();
                KeyMatch.findAll(ix, fk.columns(), fk.refColumns(), rows[i], fk.table(), children);
                for (int j = before; j < children.size(); j++) {
                    parents.add(rows[i]);
                }
            }
            if (children.isEmpty()) {
                continue;
            }
            if (pu == null) {
                pu = new ParentUpdate();
            }
            pu.fks.put(fk, new IntArrayList[] {children, parents});
        }
        return pu;
    }

    /** What {@link #beforeParentUpdate} found, acted on after the writes by {@link #afterParentUpdate}. */
    public static final class ParentUpdate {
        final Map<ConstraintDef, IntArrayList[]> fks = new IdentityHashMap<>();
    }

    /**
     * After the UPDATE's writes: a referencing row whose referenced row's key changed (no longer
     * equal) is refused (NO ACTION: unless another referenced row now has its key; RESTRICT), or
     * follows (CASCADE), or is set NULL / DEFAULT; recorded in {@code log}.
     */
    public static void afterParentUpdate(ParentUpdate pu, UndoLog log) {
        for (Map.Entry<ConstraintDef, IntArrayList[]> e : pu.fks.entrySet()) {
            ConstraintDef fk = e.getKey();
            IntArrayList children = e.getValue()[0];
            IntArrayList parents = e.getValue()[1];
            IntArrayList changed = new IntArrayList();
            IntArrayList from = new IntArrayList();
            for (int i = 0; i < children.size(); i++) {
                int c = children.getInt(i);
                int p = parents.getInt(i);
                if (KeyMatch.equal(fk.columns(), c, fk.refColumns(), p)) {
                    continue; // the key did not change
                }
                if (fk.onUpdate() == ConstraintDef.NO_ACTION && referenceHolds(fk, c)) {
                    continue; // another row holds the old key now
                }
                changed.add(c);
                from.add(p);
            }
            if (!changed.isEmpty()) {
                act(fk, fk.onUpdate(), changed, log, new IdentityHashMap<>(), from.toIntArray());
            }
        }
    }
}
