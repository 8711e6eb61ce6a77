package io.respsql.exec.write;

import io.respsql.sql.SqlException;
import io.respsql.storage.ConstraintDef;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The deferred constraint checks of one interactive transaction (PostgreSQL's {@code DEFERRABLE
 * INITIALLY DEFERRED} foreign keys and {@code SET CONSTRAINTS ... DEFERRED}): a referencing row
 * whose key has no referenced row yet is noted here instead of refused, and checked again at
 * COMMIT or at {@code SET CONSTRAINTS ... IMMEDIATE} (regress24).
 *
 * <p>The transaction's block holds it; the engine makes it {@link #current()} while one of the
 * transaction's statements runs (event loop only), so {@link Constraints#childRow} looks it up only
 * when a check fails. Outside an interactive transaction (autocommit, MULTI/EXEC) there is none and
 * every foreign key is checked at the statement's end, which is where PostgreSQL checks a deferred
 * constraint of a one-statement transaction.
 */
public final class DeferredChecks {
    private static final ThreadLocal<DeferredChecks> CURRENT = new ThreadLocal<>();

    /** SET CONSTRAINTS ALL: null unsaid, else whether every deferrable constraint is deferred. */
    private Boolean all;
    /** SET CONSTRAINTS name, ...: by lower-case name, whether deferred (after {@link #all}). */
    private final Map<String, Boolean> byName = new HashMap<>();
    /** Referencing rows to check again: a foreign key and a row slot of its table. */
    private final List<ConstraintDef> pendingFk = new ArrayList<>();
    private final it.unimi.dsi.fastutil.ints.IntArrayList pendingRow = new it.unimi.dsi.fastutil.ints.IntArrayList();

    /**
     * A replayed group (a committed transaction or MULTI/EXEC read back from the append-only file or
     * the master's stream): every deferrable foreign key deferred and nothing noted, as the group was
     * checked whole where it first ran and its rows are replayed in their order.
     */
    private boolean replay;

    public static DeferredChecks replay() {
        DeferredChecks d = new DeferredChecks();
        d.replay = true;
        return d;
    }

    public static DeferredChecks current() {
        return CURRENT.get();
    }

    public static void enter(DeferredChecks d) {
        CURRENT.set(d);
    }

    public static void leave() {
        CURRENT.remove();
    }

    /** Whether {@code fk} is deferred now in this transaction. */
    public boolean deferred(ConstraintDef fk) {
        if (!fk.deferrable()) {
            return false;
        }
        if (replay) {
            return true;
        }
        Boolean b = byName.get(fk.name().toLowerCase(Locale.ROOT));
        if (b != null) {
            return b;
        }
        return all != null ? all : fk.initiallyDeferred();
    }

    void add(ConstraintDef fk, int row) {
        if (replay) {
            return;
        }
        pendingFk.add(fk);
        pendingRow.add(row);
    }

    /** SET CONSTRAINTS ALL DEFERRED | IMMEDIATE (names set before are forgotten, as in PostgreSQL). */
    public void setAll(boolean deferred) {
        all = deferred;
        byName.clear();
    }

    public void set(String name, boolean deferred) {
        byName.put(name.toLowerCase(Locale.ROOT), deferred);
    }

    public boolean isEmpty() {
        return pendingFk.isEmpty();
    }

    /**
     * Checks the noted rows of the constraints that are no longer deferred ({@code all}: every one,
     * as at COMMIT) and forgets them; throws PostgreSQL's 23503 for the first whose referenced row
     * is still missing. A row that is gone (deleted, rolled back) or a constraint dropped since passes.
     */
    public void checkPending(boolean everything) {
        int keep = 0;
        try {
            for (int i = 0; i < pendingFk.size(); i++) {
                ConstraintDef fk = pendingFk.get(i);
                int row = pendingRow.getInt(i);
                if (!everything && deferred(fk)) {
                    pendingFk.set(keep, fk);
                    pendingRow.set(keep, row);
                    keep++;
                    continue;
                }
                Table t = fk.table();
                if (!t.constraints().foreignKeys.contains(fk)) {
                    fk = renamedOrDropped(t, fk); // ALTER TABLE ... RENAME CONSTRAINT since: the same key under its new name
                }
                if (fk == null || !t.isLive(row)) {
                    continue;
                }
                if (!Constraints.referenceHolds(fk, row)) {
                    throw Constraints.childViolation(fk);
                }
            }
        } catch (SqlException e) {
            clear();
            throw e;
        }
        truncate(keep);
    }

    private static ConstraintDef renamedOrDropped(Table t, ConstraintDef fk) {
        for (ConstraintDef c : t.constraints().foreignKeys) {
            if (c.refTable() == fk.refTable() && java.util.Arrays.equals(c.columns(), fk.columns())
                    && java.util.Arrays.equals(c.refColumns(), fk.refColumns())) {
                return c;
            }
        }
        return null;
    }

    private void truncate(int n) {
        while (pendingFk.size() > n) {
            pendingFk.remove(pendingFk.size() - 1);
        }
        pendingRow.size(n);
    }

    public void clear() {
        pendingFk.clear();
        pendingRow.clear();
    }

    /**
     * The state at a SAVEPOINT (the SET CONSTRAINTS modes and the rows still to check), which
     * ROLLBACK TO gives back as PostgreSQL's subtransaction abort does: checks a SET CONSTRAINTS
     * ... IMMEDIATE made after the savepoint count no more (the rows they passed may depend on rows
     * the rollback takes back), its modes are undone, rows noted after it are forgotten.
     */
    public Object save() {
        return new Saved(all, new HashMap<>(byName), new ArrayList<>(pendingFk), new it.unimi.dsi.fastutil.ints.IntArrayList(pendingRow));
    }

    /** Back to a state {@link #save} returned. */
    public void restore(Object saved) {
        Saved s = (Saved) saved;
        all = s.all;
        byName.clear();
        byName.putAll(s.byName);
        pendingFk.clear();
        pendingFk.addAll(s.pendingFk);
        pendingRow.clear();
        pendingRow.addAll(s.pendingRow);
    }

    private record Saved(Boolean all, Map<String, Boolean> byName, List<ConstraintDef> pendingFk,
            it.unimi.dsi.fastutil.ints.IntArrayList pendingRow) {
    }
}
