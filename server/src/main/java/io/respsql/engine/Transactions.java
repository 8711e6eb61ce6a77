package io.respsql.engine;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Interactive transactions (BEGIN ... COMMIT / ROLLBACK, savepoints) of both protocols: one
 * {@link Tx} per connection, and this coordinator, one per engine. See docs/transactions.md.
 *
 * <p>Writes apply in place; the transaction's block ({@link SqlEngine.Block}: the engine's undo log
 * and its queued log records) is put into the engine for each of its statements and taken out
 * after, so a ROLLBACK (or ROLLBACK TO a savepoint: a mark in the undo log) takes everything back
 * and a COMMIT hands the writes to the append-only file and the replicas as one MULTI/EXEC group.
 *
 * <p>Isolation (docs/transactions.md): a transaction that has changed anything holds the one
 * <em>write token</em> until it ends; another connection's statement that may write is
 * <em>parked</em> meanwhile (its connection stops reading, the event loop never waits) and run
 * again when the token is released, while its queries read the committed image taken before the
 * holder's first write. A REPEATABLE READ / SERIALIZABLE transaction reads a snapshot taken at its
 * first statement and fails its first write with 40001 when anything committed since. So no
 * connection ever sees another's uncommitted writes, no committed write is lost, writers are
 * serial, and no deadlock is possible (one holder, who never waits). Event loop only.
 */
public final class Transactions {
    public static final int READ_COMMITTED = 0;
    public static final int REPEATABLE_READ = 1;
    public static final int SERIALIZABLE = 2;

    private final SqlEngine engine;
    /** The transaction holding the write token, or null. */
    private Tx owner;
    /** Statements parked until the token is released: each re-runs its statement (on the event loop, later). */
    private final List<Runnable> waiters = new ArrayList<>();
    /** How many statements were parked so far (INFO). */
    private long parkedTotal;

    public Transactions(SqlEngine engine) {
        this.engine = engine;
    }

    /** Whether some transaction holds uncommitted changes (a snapshot now would hold them). */
    public boolean uncommitted() {
        return owner != null && owner.block != null && owner.block.changed();
    }

    /** Whether a statement of {@code t} (null: a connection outside any transaction) may run now. */
    public boolean mayRun(Tx t) {
        return owner == null || owner == t;
    }

    /**
     * Parks a statement that may not run now ({@link #mayRun} false): {@code wake} is called on the
     * event loop once the token is released (it must re-check, and may park again).
     */
    public void park(Runnable wake) {
        parkedTotal++;
        waiters.add(wake);
    }

    /** Queries of other connections that ran beside a transaction holding the token (INFO). */
    private long viewReads;

    public long viewReads() {
        return viewReads;
    }

    public long parkedTotal() {
        return parkedTotal;
    }

    public int parkedNow() {
        return waiters.size();
    }

    private void release(Tx t) {
        if (owner != t) {
            return;
        }
        owner = null;
        if (!waiters.isEmpty()) {
            List<Runnable> wake = new ArrayList<>(waiters);
            waiters.clear();
            for (Runnable r : wake) {
                r.run();
            }
        }
    }

    // ---- running a statement inside a transaction -------------------------------------------------

    /**
     * Before a data statement of a connection whose transaction is {@code t} (may be null or idle).
     * Returns false when it must park (the caller parks it with {@link #park}); throws the
     * transaction's refusal (25P02 in a failed block, 25006 a write in a READ ONLY one). When it
     * returns true inside a transaction, the caller runs the statement and then calls {@link #leave}.
     */
    // ---- prepared: a statement whose kind its caller knows is not parsed again ----

    /** 0: read the statement's text; 1: it is a query; 2: it writes (set for one {@link #enter}). */
    private int knownKind;

    /**
     * {@link #enter(Tx, CharSequence)} of a statement whose kind the caller knows from its plan
     * (pgwire's prepared statements): {@code query} true for a query, false for a write.
     */
    public boolean enter(Tx t, CharSequence sql, boolean query) {
        knownKind = query ? 1 : 2;
        try {
            return enter(t, sql);
        } finally {
            knownKind = 0;
        }
    }

    private boolean isQuery(CharSequence sql) {
        return knownKind == 0 ? queryLike(sql) : knownKind == 1;
    }

    private boolean writes(CharSequence sql) {
        return knownKind == 0 ? SqlEngine.writes(sql.toString())
                || ("EXECUTE".equals(PreparedStatements.verb(sql.toString())) && !engine.executesQuery(sql)) : knownKind == 2;
    }

    public boolean enter(Tx t, CharSequence sql) {
        if (t != null && t.state == Tx.OPEN && t.isolation >= REPEATABLE_READ && !t.block.changed()) {
            return enterSnapshot(t, sql);
        }
        if (owner != null && owner != t) {
            // a READ COMMITTED reader (autocommit, or a transaction that changed nothing) of another
            // connection: a query reads the committed data, never waits for the transaction
            boolean committedReader = t == null || t.state == Tx.IDLE
                    || (t.state == Tx.OPEN && t.isolation == READ_COMMITTED && !t.block.changed());
            if (!committedReader || !isQuery(sql)) {
                return false;
            }
            if (owner.block != null && owner.block.changed()) {
                if (owner.committedView == null) {
                    return false; // no image of the data before its writes: wait for its end
                }
                engine.readFrom(owner.committedView); // the data as before the owner's first write
            }
            viewReads++;
        }
        if (t == null || t.state == Tx.IDLE) {
            return true;
        }
        checkState(t, sql);
        return begin(t, sql);
    }

    /** mend: a query, or EXECUTE of a prepared query: it reads a snapshot or the committed image. */
    private boolean queryLike(CharSequence sql) {
        return SqlEngine.isQuery(sql) || engine.executesQuery(sql);
    }

    private void checkState(Tx t, CharSequence sql) {
        if (t.state == Tx.FAILED) {
            throw new SqlException(SqlState.IN_FAILED_SQL_TRANSACTION,
                    "current transaction is aborted, commands ignored until end of transaction block");
        }
        if (t.readOnly && writes(sql)) {
            String verb = firstWord(sql);
            throw new SqlException(SqlState.READ_ONLY_SQL_TRANSACTION,
                    "cannot execute " + verb + " in a read-only transaction");
        }
    }

    /** Puts {@code t}'s block into the engine for its statement (it may run now). */
    private boolean begin(Tx t, CharSequence sql) {
        t.started = true;
        if (!t.block.changed() && t.committedView == null && (owner == null || owner == t) && writes(sql)) {
            // its first change may come: the committed data before it, for the other connections' queries
            t.committedView = new SharedView(engine.catalog().readView());
        }
        engine.resumeBlock(t.block);
        t.statementMark = t.block.mark();
        return true;
    }

    /**
     * A REPEATABLE READ / SERIALIZABLE transaction that changed nothing yet: its snapshot is taken
     * at its first statement (the committed data: the token holder's image when one holds
     * uncommitted writes); its queries read the snapshot, never waiting; its first write waits for
     * the token and fails with 40001 when anything was committed since the snapshot (so all it
     * read is still true when it writes, and from then on it holds the token: nothing else
     * commits until it ends, and it reads the live tables, its own writes included).
     */
    private boolean enterSnapshot(Tx t, CharSequence sql) {
        checkState(t, sql);
        if (t.snapshot == null) {
            if (owner != null && owner != t && owner.block != null && owner.block.changed()) {
                if (owner.committedView == null) {
                    return false; // no committed image to take the snapshot from: wait
                }
                t.snapshot = owner.committedView.retain();
            } else {
                t.snapshot = new SharedView(engine.catalog().readView());
            }
            t.snapshotPoint = engine.changeCounter();
        }
        if (isQuery(sql)) {
            viewReads++;
            engine.readFrom(t.snapshot);
            t.started = true;
            engine.resumeBlock(t.block);
            t.statementMark = t.block.mark();
            return true;
        }
        if (owner != null && owner != t) {
            return false; // a write waits for the token
        }
        if (SqlEngine.readsSchemaOnly(sql)) {
            return begin(t, sql); // mend: DESC, SHOW TABLES, EXPLAIN read no row: no snapshot check, no token
        }
        if (engine.changeCounter() != t.snapshotPoint) {
            t.state = Tx.FAILED;
            throw new SqlException(SqlState.SERIALIZATION_FAILURE, "could not serialize access due to concurrent update");
        }
        return begin(t, sql);
    }

    /**
     * After a statement {@link #enter} let run in transaction {@code t}: {@code ok} whether it
     * succeeded. Returns the error that replaces a successful outcome (a write in a READ ONLY
     * transaction that no verb showed), else null.
     */
    public SqlException leave(Tx t, boolean ok) {
        engine.readFrom(null);
        if (t == null || t.state == Tx.IDLE) {
            return null;
        }
        SqlException refused = null;
        engine.suspendBlock();
        if (!ok) {
            engine.rollbackTo(t.block, t.statementMark); // the failed statement leaves nothing behind
            t.state = Tx.FAILED;
        } else if (t.readOnly && t.block.changed()) {
            engine.rollbackTo(t.block, t.statementMark);
            t.state = Tx.FAILED;
            refused = new SqlException(SqlState.READ_ONLY_SQL_TRANSACTION, "cannot write in a read-only transaction");
        }
        if (t.block.changed()) {
            owner = t;
        }
        if (!t.block.changed() && t.committedView != null) {
            t.committedView.release(); // it changed nothing: no image needed
            t.committedView = null;
        }
        return refused;
    }

    /**
     * A COPY FROM STDIN starts in transaction {@code t} (which may run now): it takes the token
     * (its rows arrive over several messages) and returns the block its rows go into.
     */
    public SqlEngine.Block holdForCopy(Tx t) {
        if (!t.block.changed() && t.committedView == null) {
            t.committedView = new SharedView(engine.catalog().readView()); // mend: the committed data, as for a write
        }
        owner = t;
        t.started = true;
        return t.block;
    }

    /** The connection of {@code t} closed (or timed out): an open transaction rolls back. */
    public void closed(Tx t) {
        if (t != null && t.state != Tx.IDLE) {
            end(t, false);
        }
    }

    /** Rolls back every open transaction that holds the token (SHUTDOWN saves committed data only). */
    public void rollbackOwner() {
        if (owner != null) {
            end(owner, false);
        }
    }

    /**
     * mend: the committed data as before the token holder's first write (a leased view the caller
     * releases), or null when no transaction holds uncommitted writes or it has no such image.
     */
    public io.respsql.storage.ReadView committedImage() {
        if (!uncommitted() || owner.committedView == null) {
            return null;
        }
        return owner.committedView.lease();
    }

    /**
     * mend: the tables as the connection of {@code t} (null: outside any transaction) may see them,
     * for the keyspace commands (DBSIZE, SCAN, TYPE, MEMORY USAGE): another connection's
     * transaction with uncommitted writes shows its committed image (so a table it created or
     * dropped is not seen so before its COMMIT); the token holder sees its own writes.
     */
    public io.respsql.storage.ReadableCatalog keyspace(Tx t) {
        if (t != null && t.state != Tx.IDLE && t.snapshot != null && !t.block.changed()) {
            return t.snapshot.view; // a REPEATABLE READ transaction's snapshot
        }
        if (uncommitted() && owner != t && owner.committedView != null) {
            return owner.committedView.view;
        }
        return engine.catalog();
    }

    private void end(Tx t, boolean commit) {
        t.ended++; // review1
        try {
            if (commit) {
                engine.commitBlock(t.block);
            } else {
                engine.rollbackBlock(t.block);
            }
        } finally {
            if (t.committedView != null) {
                t.committedView.release(); // a query moved to a worker holds its own reference (lease)
                t.committedView = null;
            }
            if (t.snapshot != null) {
                t.snapshot.release();
                t.snapshot = null;
            }
            t.reset();
            release(t);
        }
    }

    // ---- the transaction statements ---------------------------------------------------------------

    /** What a transaction statement answers: its tag, a warning, or the value SHOW asked for. */
    public record Reply(String tag, String noticeState, String notice, String showName, String showValue) {
        static Reply tag(String tag) {
            return new Reply(tag, null, null, null, null);
        }

        static Reply warn(String tag, String state, String message) {
            return new Reply(tag, state, message, null, null);
        }

        static Reply show(String name, String value) {
            return new Reply("SHOW", null, null, name, value);
        }
    }

    /**
     * A transaction statement (BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK, ABORT, SAVEPOINT,
     * ROLLBACK TO, RELEASE, SET TRANSACTION, SET SESSION CHARACTERISTICS, SET/SHOW of the transaction
     * settings) run for {@code t}, or null when {@code sql} is none. Throws PostgreSQL's errors; an
     * error inside a transaction block fails the block (as any failed statement does).
     */
    public Reply control(Tx t, String sql) {
        String[] w = words(sql);
        if (w.length == 0 || !isControl(w)) {
            return null;
        }
        t.coordinator = this;
        try {
            return controlWords(t, w);
        } catch (SqlException e) {
            if (t.state == Tx.OPEN) {
                t.state = Tx.FAILED;
            }
            throw e;
        }
    }

    /** Whether the words start a transaction statement (cheap: the first word decides mostly). */
    private static boolean isControl(String[] w) {
        switch (w[0]) {
            case "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release":
                return w[0].equals("start") ? w.length > 1 && w[1].equals("transaction") : true;
            case "set":
                return w.length > 1 && (w[1].equals("transaction") || w[1].equals("constraints") || (w[1].equals("session") && w.length > 2
                        && w[2].equals("characteristics")) || isTxSetting(setName(w)));
            case "show":
                return w.length > 1 && isTxSetting(w[1]);
            case "reset":
                return w.length > 1 && isTxSetting(w[1]);
            default:
                return false;
        }
    }

    private static String setName(String[] w) {
        int i = 1;
        if (w.length > 2 && (w[1].equals("session") || w[1].equals("local"))) {
            i = 2;
        }
        return w.length > i ? w[i] : "";
    }

    private static boolean isTxSetting(String name) {
        return switch (name) {
            case "transaction_isolation", "default_transaction_isolation", "transaction_read_only",
                    "default_transaction_read_only", "transaction_deferrable", "default_transaction_deferrable",
                    "idle_in_transaction_session_timeout" -> true;
            default -> false;
        };
    }

    private Reply controlWords(Tx t, String[] w) {
        switch (w[0]) {
            case "begin", "start" -> {
                int i = 1;
                if (w[0].equals("start")) {
                    i = 2;
                } else if (i < w.length && (w[i].equals("work") || w[i].equals("transaction"))) {
                    i++;
                }
                String tag = w[0].equals("begin") ? "BEGIN" : "START TRANSACTION";
                if (t.state == Tx.FAILED) {
                    throw aborted();
                }
                Modes m = modes(w, i, tag);
                if (t.state == Tx.OPEN) {
                    return Reply.warn(tag, SqlState.ACTIVE_SQL_TRANSACTION, "there is already a transaction in progress");
                }
                t.state = Tx.OPEN;
                t.isolation = m.isolation >= 0 ? m.isolation : t.defaultIsolation;
                t.readOnly = m.readOnly >= 0 ? m.readOnly == 1 : t.defaultReadOnly;
                t.deferrable = m.deferrable >= 0 ? m.deferrable == 1 : t.defaultDeferrable;
                t.block = engine.newBlock();
                t.started = false;
                return Reply.tag(tag);
            }
            case "commit", "end" -> {
                boolean chain = checkChain(w);
                if (t.state == Tx.IDLE) {
                    if (chain) {
                        throw new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION, "COMMIT AND CHAIN can only be used in transaction blocks");
                    }
                    return Reply.warn("COMMIT", SqlState.NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
                }
                boolean failed = t.state == Tx.FAILED;
                if (!failed && !t.block.deferred().isEmpty()) {
                    try {
                        t.block.deferred().checkPending(true); // the deferred constraints (regress24)
                    } catch (SqlException e) {
                        endAndChain(t, false, false); // PostgreSQL rolls the transaction back and reports why
                        throw e;
                    }
                }
                endAndChain(t, !failed, chain);
                return Reply.tag(failed ? "ROLLBACK" : "COMMIT");
            }
            case "rollback", "abort" -> {
                int i = 1;
                if (i < w.length && (w[i].equals("work") || w[i].equals("transaction"))) {
                    i++;
                }
                if (w[0].equals("rollback") && i < w.length && w[i].equals("to")) {
                    i++;
                    if (i < w.length && w[i].equals("savepoint")) {
                        i++;
                    }
                    if (i != w.length - 1) {
                        throw syntax(w);
                    }
                    return rollbackTo(t, w[i]);
                }
                boolean chain = checkChain(w);
                if (t.state == Tx.IDLE) {
                    if (chain) {
                        throw new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION, "ROLLBACK AND CHAIN can only be used in transaction blocks");
                    }
                    return Reply.warn("ROLLBACK", SqlState.NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
                }
                endAndChain(t, false, chain);
                return Reply.tag("ROLLBACK");
            }
            case "savepoint" -> {
                if (w.length != 2) {
                    throw syntax(w);
                }
                if (t.state == Tx.IDLE) {
                    throw new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION, "SAVEPOINT can only be used in transaction blocks");
                }
                if (t.state == Tx.FAILED) {
                    throw aborted();
                }
                t.savepointNames.add(w[1]);
                t.savepointMarks.add(t.block.mark());
                t.savepointReadOnly.add(t.readOnly);
                t.savepointDeferred.add(t.block.deferred().save()); // review2: ROLLBACK TO gives the deferred checks back
                return Reply.tag("SAVEPOINT");
            }
            case "release" -> {
                int i = 1;
                if (i < w.length && w[i].equals("savepoint")) {
                    i++;
                }
                if (i != w.length - 1) {
                    throw syntax(w);
                }
                if (t.state == Tx.IDLE) {
                    throw new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION,
                            "RELEASE SAVEPOINT can only be used in transaction blocks");
                }
                if (t.state == Tx.FAILED) {
                    throw aborted();
                }
                int at = t.savepointNames.lastIndexOf(w[i]);
                if (at < 0) {
                    throw new SqlException(SqlState.INVALID_SAVEPOINT_SPECIFICATION, "savepoint \"" + w[i] + "\" does not exist");
                }
                t.readOnly = t.savepointReadOnly.getBoolean(at); // a subtransaction's SET TRANSACTION ends with it
                t.dropSavepointsFrom(at);
                return Reply.tag("RELEASE");
            }
            case "show" -> {
                if (t.state == Tx.FAILED) {
                    throw aborted();
                }
                return Reply.show(w[1], value(t, w[1]));
            }
            case "reset" -> {
                setting(t, w[1], null);
                return Reply.tag("RESET");
            }
            default -> { // set
                if (w[1].equals("constraints")) {
                    return setConstraints(t, w);
                }
                if (w[1].equals("transaction")) {
                    if (w.length > 2 && w[2].equals("snapshot")) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "SET TRANSACTION SNAPSHOT is not supported");
                    }
                    Modes m = modes(w, 2, "SET TRANSACTION");
                    if (t.state == Tx.IDLE) {
                        return Reply.warn("SET", SqlState.NO_ACTIVE_SQL_TRANSACTION,
                                "SET TRANSACTION can only be used in transaction blocks");
                    }
                    if (t.state == Tx.FAILED) {
                        throw aborted();
                    }
                    applyModes(t, m);
                    return Reply.tag("SET");
                }
                if (w[1].equals("session") && w.length > 2 && w[2].equals("characteristics")) {
                    if (w.length < 5 || !w[3].equals("as") || !w[4].equals("transaction")) {
                        throw syntax(w);
                    }
                    Modes m = modes(w, 5, "SET SESSION CHARACTERISTICS");
                    if (m.isolation >= 0) {
                        t.defaultIsolation = m.isolation;
                    }
                    if (m.readOnly >= 0) {
                        t.defaultReadOnly = m.readOnly == 1;
                    }
                    if (m.deferrable >= 0) {
                        t.defaultDeferrable = m.deferrable == 1;
                    }
                    return Reply.tag("SET");
                }
                int i = w[1].equals("session") || w[1].equals("local") ? 2 : 1;
                String name = w[i];
                i++;
                if (i < w.length && (w[i].equals("to") || w[i].equals("="))) {
                    i++;
                }
                StringBuilder v = new StringBuilder();
                for (; i < w.length; i++) {
                    if (v.length() > 0) {
                        v.append(' ');
                    }
                    v.append(w[i]);
                }
                if (t.state == Tx.FAILED) {
                    throw aborted();
                }
                setting(t, name, v.toString().equals("default") ? null : v.toString());
                return Reply.tag("SET");
            }
        }
    }

    // ---- regress24: SET CONSTRAINTS -----------------------------------------------------------------

    /**
     * {@code SET CONSTRAINTS ALL | name [, ...] DEFERRED | IMMEDIATE}: which deferrable foreign keys
     * this transaction checks at COMMIT; IMMEDIATE checks the rows noted so far for the constraints
     * it names (PostgreSQL's error when one fails, which fails the transaction). Outside a transaction
     * block PostgreSQL's warning, nothing changed.
     */
    private Reply setConstraints(Tx t, String[] w) {
        if (w.length < 4 || !(w[w.length - 1].equals("deferred") || w[w.length - 1].equals("immediate"))) {
            throw syntax(w);
        }
        boolean deferred = w[w.length - 1].equals("deferred");
        boolean all = w.length == 4 && w[2].equals("all");
        List<String> names = new ArrayList<>();
        if (!all) {
            for (int i = 2; i < w.length - 1; i++) {
                String n = w[i];
                if (n.startsWith("public.")) {
                    n = n.substring("public.".length());
                }
                names.add(n);
            }
            for (String n : names) {
                checkDeferrable(n);
            }
        }
        if (t.state == Tx.IDLE) {
            return Reply.warn("SET CONSTRAINTS", SqlState.NO_ACTIVE_SQL_TRANSACTION,
                    "SET CONSTRAINTS can only be used in transaction blocks");
        }
        if (t.state == Tx.FAILED) {
            throw aborted();
        }
        io.respsql.exec.write.DeferredChecks d = t.block.deferred();
        if (all) {
            d.setAll(deferred);
        } else {
            for (String n : names) {
                d.set(n, deferred);
            }
        }
        if (!deferred) {
            d.checkPending(false);
        }
        return Reply.tag("SET CONSTRAINTS");
    }

    /** Refuses a name of SET CONSTRAINTS that is no constraint (42704) or none that can be deferred (42809). */
    private void checkDeferrable(String name) {
        boolean found = false;
        boolean key = false;
        for (io.respsql.storage.Table tb : engine.catalog().tables()) {
            io.respsql.storage.TableConstraints tc = tb.constraints();
            for (io.respsql.storage.ConstraintDef fk : tc.foreignKeys) {
                if (fk.name().equalsIgnoreCase(name)) {
                    if (fk.deferrable()) {
                        return;
                    }
                    found = true;
                }
            }
            if (tc.has(name)) {
                found = true;
                key |= tc.find(name) == null;
            }
        }
        if (key) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "deferring the UNIQUE or PRIMARY KEY constraint \"" + name
                    + "\" is not supported (only foreign keys can be deferred)");
        }
        if (!found) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "constraint \"" + name + "\" does not exist");
        }
        throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "constraint \"" + name + "\" is not deferrable");
    }

    private Reply rollbackTo(Tx t, String name) {
        if (t.state == Tx.IDLE) {
            throw new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION,
                    "ROLLBACK TO SAVEPOINT can only be used in transaction blocks");
        }
        int at = t.savepointNames.lastIndexOf(name);
        if (at < 0) {
            throw new SqlException(SqlState.INVALID_SAVEPOINT_SPECIFICATION, "savepoint \"" + name + "\" does not exist");
        }
        engine.rollbackTo(t.block, t.savepointMarks.getLong(at));
        t.readOnly = t.savepointReadOnly.getBoolean(at);
        t.block.deferred().restore(t.savepointDeferred.get(at)); // review2: PostgreSQL's subtransaction abort
        t.dropSavepointsFrom(at + 1);
        t.state = Tx.OPEN;
        return Reply.tag("ROLLBACK");
    }

    /** Whether a COMMIT/ROLLBACK asks AND CHAIN (a new transaction with the same characteristics). */
    private static boolean checkChain(String[] w) {
        int i = 1;
        if (i < w.length && (w[i].equals("work") || w[i].equals("transaction"))) {
            i++;
        }
        if (i == w.length) {
            return false;
        }
        if (w.length - i == 3 && w[i].equals("and") && w[i + 1].equals("no") && w[i + 2].equals("chain")) {
            return false;
        }
        if (w.length - i == 2 && w[i].equals("and") && w[i + 1].equals("chain")) {
            return true;
        }
        throw syntax(w);
    }

    private void endAndChain(Tx t, boolean commit, boolean chain) {
        int isolation = t.isolation;
        boolean readOnly = t.readOnly;
        boolean deferrable = t.deferrable;
        end(t, commit);
        if (chain) {
            t.state = Tx.OPEN;
            t.coordinator = this;
            t.isolation = isolation;
            t.readOnly = readOnly;
            t.deferrable = deferrable;
            t.block = engine.newBlock();
            t.started = false;
        }
    }

    private static SqlException aborted() {
        return new SqlException(SqlState.IN_FAILED_SQL_TRANSACTION,
                "current transaction is aborted, commands ignored until end of transaction block");
    }

    private static SqlException syntax(String[] w) {
        return new SqlException(SqlState.SYNTAX_ERROR, "syntax error in transaction statement: " + String.join(" ", w));
    }

    /** A transaction's modes: isolation (-1 not given), read only (-1 not given, 0 write, 1 only). */
    private record Modes(int isolation, int readOnly, int deferrable) {
        Modes(int isolation, int readOnly) {
            this(isolation, readOnly, -1);
        }
    }

    private static Modes modes(String[] w, int i, String what) {
        int iso = -1;
        int ro = -1;
        int def = -1;
        while (i < w.length) {
            String a = w[i];
            if (a.equals("isolation") && i + 2 < w.length && w[i + 1].equals("level")) {
                i += 2;
                switch (w[i]) {
                    case "serializable" -> {
                        iso = SERIALIZABLE;
                        i++;
                    }
                    case "repeatable" -> {
                        if (i + 1 >= w.length || !w[i + 1].equals("read")) {
                            throw syntax(w);
                        }
                        iso = REPEATABLE_READ;
                        i += 2;
                    }
                    case "read" -> {
                        if (i + 1 >= w.length || !(w[i + 1].equals("committed") || w[i + 1].equals("uncommitted"))) {
                            throw syntax(w);
                        }
                        iso = READ_COMMITTED; // READ UNCOMMITTED is READ COMMITTED, as in PostgreSQL
                        i += 2;
                    }
                    default -> throw syntax(w);
                }
            } else if (a.equals("read") && i + 1 < w.length && (w[i + 1].equals("only") || w[i + 1].equals("write"))) {
                ro = w[i + 1].equals("only") ? 1 : 0;
                i += 2;
            } else if (a.equals("deferrable")) {
                def = 1;
                i++;
            } else if (a.equals("not") && i + 1 < w.length && w[i + 1].equals("deferrable")) {
                def = 0;
                i += 2;
            } else {
                throw syntax(w);
            }
        }
        return new Modes(iso, ro, def);
    }

    private static void applyModes(Tx t, Modes m) {
        if (m.isolation >= 0 && m.isolation != t.isolation) {
            if (t.started) {
                throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION,
                        "SET TRANSACTION ISOLATION LEVEL must be called before any query");
            }
            t.isolation = m.isolation;
        }
        if (m.readOnly >= 0) {
            if (m.readOnly == 0 && t.readOnly && t.started) {
                throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION,
                        "transaction read-write mode must be set before any query");
            }
            t.readOnly = m.readOnly == 1;
        }
        if (m.deferrable >= 0) {
            t.deferrable = m.deferrable == 1;
        }
    }

    private static String isolationName(int level) {
        return switch (level) {
            case SERIALIZABLE -> "serializable";
            case REPEATABLE_READ -> "repeatable read";
            default -> "read committed";
        };
    }

    private static int isolationLevel(String v) {
        return switch (v) {
            case "serializable" -> SERIALIZABLE;
            case "repeatable read" -> REPEATABLE_READ;
            case "read committed", "read uncommitted" -> READ_COMMITTED;
            default -> throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter "
                    + "\"transaction_isolation\": \"" + v + "\"");
        };
    }

    private static boolean bool(String name, String v) {
        return switch (v) {
            case "on", "true", "yes", "1", "t", "y" -> true;
            case "off", "false", "no", "0", "f", "n" -> false;
            default -> throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "parameter \"" + name + "\" requires a Boolean value");
        };
    }

    private static String value(Tx t, String name) {
        boolean open = t.state != Tx.IDLE;
        return switch (name) {
            case "transaction_isolation" -> isolationName(open ? t.isolation : t.defaultIsolation);
            case "default_transaction_isolation" -> isolationName(t.defaultIsolation);
            case "transaction_read_only" -> (open ? t.readOnly : t.defaultReadOnly) ? "on" : "off";
            case "default_transaction_read_only" -> t.defaultReadOnly ? "on" : "off";
            case "idle_in_transaction_session_timeout" -> t.idleTimeoutMs == 0 ? "0" : t.idleTimeoutMs + "ms";
            case "transaction_deferrable" -> (open ? t.deferrable : t.defaultDeferrable) ? "on" : "off";
            default -> t.defaultDeferrable ? "on" : "off"; // default_transaction_deferrable
        };
    }

    /** SET (value null: DEFAULT / RESET) of a transaction setting. */
    private void setting(Tx t, String name, String value) {
        switch (name) {
            case "default_transaction_isolation" -> t.defaultIsolation = value == null ? READ_COMMITTED : isolationLevel(value);
            case "default_transaction_read_only" -> t.defaultReadOnly = value != null && bool(name, value);
            case "transaction_isolation" -> {
                int level = value == null ? t.defaultIsolation : isolationLevel(value);
                if (t.state == Tx.IDLE) {
                    return; // PostgreSQL: it applies to the transaction, none is open
                }
                applyModes(t, new Modes(level, -1));
            }
            case "transaction_read_only" -> {
                boolean ro = value == null ? t.defaultReadOnly : bool(name, value);
                if (t.state != Tx.IDLE) {
                    applyModes(t, new Modes(-1, ro ? 1 : 0));
                }
            }
            case "idle_in_transaction_session_timeout" -> t.idleTimeoutMs = value == null ? 0 : millis(name, value);
            case "default_transaction_deferrable" -> t.defaultDeferrable = value != null && bool(name, value);
            default -> { // transaction_deferrable: no effect here (transactions are serial already)
                if (t.state != Tx.IDLE) {
                    t.deferrable = value == null ? t.defaultDeferrable : bool(name, value);
                }
            }
        }
    }

    private static long millis(String name, String v) {
        String s = v.trim();
        long unit = 1;
        if (s.endsWith("ms")) {
            s = s.substring(0, s.length() - 2).trim();
        } else if (s.endsWith("min")) {
            unit = 60_000;
            s = s.substring(0, s.length() - 3).trim();
        } else if (s.endsWith("s")) {
            unit = 1000;
            s = s.substring(0, s.length() - 1).trim();
        } else if (s.endsWith("h")) {
            unit = 3_600_000;
            s = s.substring(0, s.length() - 1).trim();
        }
        try {
            long n = Long.parseLong(s);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + name + "\": \"" + v + "\"");
        }
    }

    /** The statement's words, lower-cased (quoted names kept as written), without a final ';', commas and quotes of values. */
    static String[] words(CharSequence sql) {
        List<String> out = new ArrayList<>(8);
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == ',' || c == ';') {
                i++;
            } else if (c == '=') {
                out.add("=");
                i++;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                StringBuilder b = new StringBuilder();
                while (j < n) {
                    char d = sql.charAt(j);
                    if (d == c) {
                        if (j + 1 < n && sql.charAt(j + 1) == c) {
                            b.append(c);
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    b.append(d);
                    j++;
                }
                String v = b.toString();
                if (c == '\'') {
                    // a setting's value: its words, as if unquoted ('repeatable read')
                    for (String part : v.trim().toLowerCase(Locale.ROOT).split("\\s+")) {
                        if (!part.isEmpty()) {
                            out.add(part);
                        }
                    }
                } else {
                    out.add(v);
                }
                i = j + 1;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else {
                int j = i;
                while (j < n) {
                    char d = sql.charAt(j);
                    if (Character.isWhitespace(d) || d == ',' || d == ';' || d == '=' || d == '\'' || d == '"') {
                        break;
                    }
                    j++;
                }
                out.add(sql.subSequence(i, j).toString().toLowerCase(Locale.ROOT));
                i = j;
            }
            if (out.size() > 64) {
                break;
            }
        }
        return out.toArray(new String[0]);
    }

    private static String firstWord(CharSequence sql) {
        String[] w = words(sql);
        return w.length == 0 ? "" : w[0].toUpperCase(Locale.ROOT);
    }

    /** Whether {@code sql} may be a transaction statement (its first word): a cheap test before {@link #control}. */
    public static boolean mayBeControl(CharSequence sql) {
        int n = sql.length();
        int i = 0;
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        if (i >= n) {
            return false;
        }
        char c = Character.toLowerCase(sql.charAt(i));
        return c == 'b' || c == 's' || c == 'c' || c == 'e' || c == 'r' || c == 'a';
    }

    /** A read view shared by a transaction's snapshot and the committed image of the token holder: released by its last user. */
    static final class SharedView {
        final io.respsql.storage.ReadView view;
        private int refs = 1;

        SharedView(io.respsql.storage.ReadView view) {
            this.view = view;
        }

        SharedView retain() {
            refs++;
            return this;
        }

        void release() {
            if (--refs == 0) {
                view.release();
            }
        }

        /**
         * txfix: one more reader, a statement moved to a worker: a view of the same capture whose
         * release drops this reference (on the event loop, when the worker is done), so the
         * capture outlives the transaction's end when the connection closes meanwhile.
         */
        io.respsql.storage.ReadView lease() {
            retain();
            return view.alias(this::release);
        }
    }

    /** One connection's transaction state. Event loop only. */
    public static final class Tx {
        static final int IDLE = 0;
        static final int OPEN = 1;
        static final int FAILED = 2;

        int state = IDLE;
        int isolation = READ_COMMITTED;
        boolean readOnly;
        int defaultIsolation = READ_COMMITTED;
        boolean defaultReadOnly;
        /** Whether a statement ran in it (SET TRANSACTION ISOLATION LEVEL comes before). */
        boolean started;
        SqlEngine.Block block;
        long statementMark;
        /** The committed data as before this transaction's first change, for other connections' queries (or null). */
        SharedView committedView;
        /** A REPEATABLE READ / SERIALIZABLE transaction's snapshot (taken at its first statement), and the change counter then. */
        SharedView snapshot;
        long snapshotPoint;
        final List<String> savepointNames = new ArrayList<>();
        final LongArrayList savepointMarks = new LongArrayList();
        /** Each savepoint's READ ONLY flag when it was set: ROLLBACK TO and RELEASE give it back (PostgreSQL's subtransactions). */
        final it.unimi.dsi.fastutil.booleans.BooleanArrayList savepointReadOnly = new it.unimi.dsi.fastutil.booleans.BooleanArrayList();
        /** Each savepoint's deferred-check state (DeferredChecks#save), given back by ROLLBACK TO (review2). */
        final List<Object> savepointDeferred = new ArrayList<>();
        boolean deferrable;
        boolean defaultDeferrable;
        /** idle_in_transaction_session_timeout in ms (0: off). */
        long idleTimeoutMs;

        /** The coordinator of the engine this transaction ran in (set at its first transaction statement). */
        Transactions coordinator;

        public boolean inBlock() {
            return state != IDLE;
        }

        /** review1: transaction blocks ended (COMMIT, ROLLBACK, ...) so far on this connection. */
        long ended;

        public long endedBlocks() {
            return ended;
        }

        /** Fails an open transaction (an error outside the engine: 25P02 until ROLLBACK). */
        public void fail() {
            if (state == OPEN) {
                state = FAILED;
            }
        }

        /** The connection closed: an open transaction rolls back. */
        public void connectionClosed() {
            if (coordinator != null) {
                coordinator.closed(this);
            }
        }

        public boolean failed() {
            return state == FAILED;
        }

        /** PostgreSQL's ReadyForQuery status: 'I', 'T' or 'E'. */
        public char status() {
            return state == IDLE ? 'I' : state == OPEN ? 'T' : 'E';
        }

        public long idleTimeoutMs() {
            return idleTimeoutMs;
        }

        void dropSavepointsFrom(int at) {
            while (savepointNames.size() > at) {
                savepointNames.remove(savepointNames.size() - 1);
                savepointMarks.removeLong(savepointMarks.size() - 1);
                savepointReadOnly.removeBoolean(savepointReadOnly.size() - 1);
                savepointDeferred.remove(savepointDeferred.size() - 1);
            }
        }

        void reset() {
            state = IDLE;
            block = null;
            started = false;
            readOnly = false;
            savepointNames.clear();
            savepointMarks.clear();
            savepointReadOnly.clear();
            savepointDeferred.clear();
            deferrable = false;
        }
    }
}
