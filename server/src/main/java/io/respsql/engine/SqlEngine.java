package io.respsql.engine;

import io.respsql.exec.Headroom;
import io.respsql.exec.write.DeleteOperator;
import io.respsql.exec.write.InsertOperator;
import io.respsql.exec.write.SchemaReport;
import io.respsql.exec.write.TableDdl;
import io.respsql.exec.write.TableDump;
import io.respsql.exec.write.UpdateOperator;
import io.respsql.exec.write.ViewDdl;
import io.respsql.plan.StatementPlanner;
import io.respsql.plan.WritePlanner;
import io.respsql.result.Outcome;
import io.respsql.result.ReplyAbortedException;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Entry point of the SQL pipeline: text → tokens → statement → plan → execution → outcome.
 * Runs on the event-loop thread only. A statement's result rows stream to the caller's
 * {@link ResultSink}; everything else it did comes back as one {@link Outcome} (rows changed, OK,
 * an integer, lines, or an error with its SQLSTATE), which the caller's protocol encodes. A
 * statement that fails leaves the data as it was. Nothing here knows a wire protocol.
 */
public final class SqlEngine implements io.respsql.info.PlanCacheStats {
    private static final Logger LOG = LoggerFactory.getLogger(SqlEngine.class);
    /** Above this many row slots the reusable buffer is released after the statement. */
    private static final int KEEP_BUFFER = 1 << 20;
    /** Redis's reply when a write is refused for memory; also the reply when the heap ran out. */
    public static final String OOM_REPLY = "OOM command not allowed when used memory > 'maxmemory'.";

    private final Catalog catalog;
    /** Row slots matched by the current statement, reused across statements. */
    private IntArrayList rows = new IntArrayList();
    private CommitListener listener = CommitListener.NONE;
    private final Headroom headroom = new Headroom();
    private WriteGuard writeGuard;
    /** Non-null while a block (MULTI/EXEC) runs: what to take back if one of its statements fails. */
    private UndoLog undo;
    /** The block's writes, told to the listener as one group when the block commits. */
    private List<String> blockWrites = new ArrayList<>();
    private LongArrayList blockChanges = new LongArrayList();
    /** Per write of the block: whether it ran in PostgreSQL's dialect (a block may mix dialects: SET sql_dialect inside MULTI). */
    private BooleanArrayList blockPostgres = new BooleanArrayList();
    /** Tables the block changed, marked changed (for WATCH) when it commits. */
    private List<String> blockTouched = new ArrayList<>();
    private final TableVersions versions = new TableVersions();
    /** Plans of text statements by their literal-free text, and the scratch of a lookup. */
    private final PlanCache cache = new PlanCache();
    private final LiteralScan scan = new LiteralScan();
    private final PreparedStatements prepared;
    private io.respsql.config.ServerConfig cacheConfig;
    private final io.respsql.expr.ParamValues params = new io.respsql.expr.ParamValues(16);
    /** Set only for the statement being executed by {@link #execute(CharSequence, ResultSink, Offload)}. */
    private Offload offload;
    /**
     * The running read's stop on the event loop, re-armed for every statement with two deadlines:
     * the statement timeout (an error) and the event-loop bound (loop-statement-max-ms: the read
     * moves to a worker, or inside MULTI/EXEC fails).
     */
    private final io.respsql.expr.Cancellation stop = new io.respsql.expr.Cancellation();
    /** Told by the reply's writer when its first chunk leaves: from then on the loop bound is off. */
    private final Runnable replyLeaving = stop::replyStarted;
    /**
     * A write's stop: the statement timeout only (a write cannot move to a worker, and a big
     * UPDATE must not fail for taking its time), checked while it looks for its rows, before its
     * first change, so a stopped write changed nothing.
     */
    private final io.respsql.expr.Cancellation writeStop = new io.respsql.expr.Cancellation();
    /** ALTER TABLE, DROP TABLE (PostgreSQL's), TRUNCATE, CREATE TABLE AS. */
    private final SchemaChanges schemaChanges;
    /** Where the bounds come from (null: none, as in unit tests and log replay). */
    private io.respsql.config.ServerConfig limits;
    /** The requesting connection's statement timeout (ms; -1: query-timeout-ms), for the next statement only. */
    private long sessionTimeoutMs = -1;
    /**
     * Log replay and a replica's applied writes: no statement timeout and no event-loop bound (only
     * client requests are limited; a logged statement that took long once must still load).
     */
    private boolean unlimited;
    /** The read overran the event-loop bound in the cached path: the plain path hands it to a worker. */
    private boolean moveOff;

    public SqlEngine(Catalog catalog) {
        this.catalog = catalog;
        this.schemaChanges = new SchemaChanges(catalog, headroom, writeStop,
                () -> limits == null || unlimited ? 0 : limits.loopWriteMaxMs());
        this.prepared = new PreparedStatements(catalog);
        this.sequences = new io.respsql.storage.SequenceScope(catalog, ownSession, this::writeRefusal);
        this.transactions = new Transactions(this);
        this.partitions = new Partitions(catalog, this::runUnrouted); // partition
        // mend: an autocommit COPY under way has uncommitted rows in its table too: no snapshot holds
        // them (SHUTDOWN takes them back before its final save, as the connection's end would)
        catalog.uncommittedCheck(() -> transactions.uncommitted() || !openCopies.isEmpty(), () -> {
            for (CopyIn in : new ArrayList<>(openCopies)) {
                in.abort();
            }
            transactions.rollbackOwner();
        }, () -> openCopies.isEmpty() ? transactions.committedImage() : null);
    }

    /** mend: the COPY FROM STDINs outside a transaction still under way (their rows written, not committed). */
    private final java.util.Set<CopyIn> openCopies = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    /** mend: a COPY ended (committed or taken back). */
    void copyEnded(CopyIn in) {
        openCopies.remove(in);
    }

    /** Interactive transactions (tx): the connections' BEGIN ... COMMIT blocks. */
    private final Transactions transactions;

    public Transactions transactions() {
        return transactions;
    }

    /**
     * tx: the committed image the next statement (a query) reads instead of the live tables, while
     * another connection's transaction holds uncommitted writes; null: the live catalog.
     */
    private io.respsql.storage.ReadView readFrom;
    /** txfix: the shared image {@link #readFrom} belongs to (a worker running the query takes a reference). */
    private Transactions.SharedView readFromShared;

    /**
     * Makes the next {@link #execute} read {@code view} (a query only; not cached; a worker it
     * moves to reads the same image); null: back to live.
     */
    void readFrom(Transactions.SharedView view) {
        this.readFromShared = view;
        this.readFrom = view == null ? null : view.view;
    }

    /** txfix: the running block is an interactive transaction's ({@link #resumeBlock}), not MULTI/EXEC's. */
    private boolean txBlock;

    /**
     * txfix: the read view a worker running the current query reads (its owner releases it, on
     * the event loop): the image the query was planned against ({@link #readFrom}: a transaction's
     * snapshot or another transaction's committed image, shared by reference count), else a
     * capture of the live tables it reads now. Inside a transaction holding uncommitted writes
     * the live tables are its own writes over the committed data (the write token keeps every
     * other writer out), exactly what its query must see; the capture is copy-on-write, so the
     * transaction's later writes or rollback (after the statement, or when its connection
     * closes meanwhile) copy the chunks the view shares and the view stays as captured.
     */
    private io.respsql.storage.ReadView workerView(java.util.Collection<Table> tablesRead) {
        if (readFromShared != null) {
            return readFromShared.lease();
        }
        return catalog.readView(tablesRead);
    }

    private final java.util.function.Function<java.util.Collection<Table>, io.respsql.storage.ReadView> workerViews = this::workerView;

    /** Whether {@code sql} is a query (SELECT, VALUES, ... : a {@link Statement.QueryStatement}) that writes nothing. */
    /**
     * mend: whether {@code sql} reads the schema only, never a row, and writes nothing: DESC /
     * DESCRIBE, SHOW TABLES, SHOW INDEXES, EXPLAIN (a plan, never run). Inside a REPEATABLE READ
     * transaction it needs neither its snapshot nor the write token (so never 40001).
     */
    public static boolean readsSchemaOnly(CharSequence sql) {
        if (PreparedStatements.verb(sql.toString()) != null) {
            return false;
        }
        try {
            Statement st = SqlParser.parse(sql.toString());
            return st instanceof Statement.Describe || st instanceof Statement.ShowTables
                    || st instanceof Statement.ShowIndexes || st instanceof Statement.Explain;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * mend: whether {@code sql} is {@code EXECUTE <name>} of a prepared statement that is a query
     * writing nothing (it may then read a transaction's snapshot or the committed image, as a query does).
     */
    public boolean executesQuery(CharSequence sql) {
        if (!"EXECUTE".equals(PreparedStatements.verb(sql.toString()))) {
            return false;
        }
        String name = PreparedStatements.nameAndRest(sql.toString(), "EXECUTE")[0];
        io.respsql.storage.PreparedDef def = catalog.prepared(name);
        if (def == null) {
            return false;
        }
        StringBuilder probe = new StringBuilder(def.text());
        for (int i = 0; i < def.paramCount(); i++) {
            probe.setCharAt(def.mark(i), '0'); // as PREPARE parsed it
        }
        return isQuery(probe);
    }

    public static boolean isQuery(CharSequence sql) {
        try {
            Statement st = SqlParser.parse(sql.toString());
            return st instanceof Statement.QueryStatement && !isWrite(st);
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public long txParkedNow() {
        return transactions.parkedNow();
    }

    @Override
    public long txParkedTotal() {
        return transactions.parkedTotal();
    }

    @Override
    public long txUncommitted() {
        return transactions.uncommitted() ? 1 : 0;
    }

    // ---- sequences (seq helper) ----

    /** The session of statements run for no connection (the log loader, a replica's apply). */
    private final io.respsql.storage.SequenceSession ownSession = new io.respsql.storage.SequenceSession();
    private final io.respsql.storage.SequenceScope sequences;
    /** Sequences moved inside the running block: logged at rollback too (a value handed out stays handed out). */
    private List<io.respsql.storage.Sequence> blockSequences = new ArrayList<>();

    /**
     * The connection the next {@link #execute} runs for (its currval/lastval); null: none. Reset
     * after each statement, as the session timeout.
     */
    public void sequenceSession(io.respsql.storage.SequenceSession session) {
        sequences.session = session == null ? ownSession : session;
    }

    /**
     * After a statement that moved sequences (nextval, setval), whatever its outcome: their state
     * goes to the log and the replicas as {@code SELECT setval(...)} (a PGSQL record), after the
     * statement's own record, so a replay or a replica never hands out a value again (a read or a
     * failed statement is not logged, and a replay need not call nextval as often as the run did).
     */
    private void logMovedSequences() {
        List<io.respsql.storage.Sequence> moved = sequences.moved();
        if (moved.isEmpty()) {
            return;
        }
        for (io.respsql.storage.Sequence q : moved) {
            if (catalog.sequence(q.name()) != q) {
                continue; // dropped since
            }
            String text = setvalText(q);
            if (undo != null) {
                blockWrites.add(text);
                blockChanges.add(1);
                blockPostgres.add(true);
                if (!blockSequences.contains(q)) {
                    blockSequences.add(q);
                }
            } else {
                listener.committed(text, 1, true);
            }
        }
        sequences.clearMoved();
    }

    /** The statement that puts {@code q}'s state back: {@code SELECT setval('name', last_value, is_called)}. */
    public static String setvalText(io.respsql.storage.Sequence q) {
        return "SELECT setval('" + q.name().replace("'", "''") + "', " + q.lastValue + ", " + q.isCalled + ")";
    }

    /** Who is told of each write that took effect (persistence); {@link CommitListener#NONE} by default. */
    public void commitListener(CommitListener listener) {
        this.listener = listener == null ? CommitListener.NONE : listener;
    }

    /** Adds a listener, told after those already installed (the log, a save rule's change counter, ...). */
    public void addCommitListener(CommitListener l) {
        this.listener = listener == CommitListener.NONE ? l : CommitListener.both(listener, l);
    }

    /** The listener told of writes now (so a loader can switch it off while replaying). */
    public CommitListener commitListener() {
        return listener;
    }

    /**
     * Asked before every write statement; a non-null answer refuses the write with that error
     * (persistence that can no longer record writes). Null: writes are never refused.
     */
    public void writeGuard(WriteGuard guard) {
        this.writeGuard = guard;
    }

    /** Why writes are refused now (the error reply without its leading '-'), or null. */
    public String writeRefusal() {
        return writeGuard == null ? null : writeGuard.refusal();
    }

    /** Drops every table (FLUSHALL) and tells the commit listener. */
    public void flushAll() {
        List<String> dropped = new ArrayList<>();
        for (Table t : catalog.tables()) {
            dropped.add(t.name());
        }
        if (undo != null) {
            undo.catalogChanging();
            blockWrites.add(null); // null: FLUSHALL
            blockChanges.add(0);
            blockPostgres.add(false);
            blockTouched.addAll(dropped);
        } else {
            for (String name : dropped) {
                versions.changed(name);
            }
        }
        catalog.clear();
        if (undo == null) {
            listener.flushedAll();
        }
    }

    // ---- blocks (MULTI/EXEC) ---------------------------------------------------------------------

    /**
     * Starts a block: until {@link #commitBlock()} or {@link #rollbackBlock()}, every change is
     * recorded in an undo log, and the commit listener hears nothing (the block is logged as one
     * group when it commits).
     */
    public void beginBlock() {
        if (undo != null) {
            throw new IllegalStateException("a block is already running");
        }
        undo = new UndoLog(catalog);
        blockMicros = io.respsql.expr.StatementTime.wallMicros();
    }

    /** When the running block began: its statements' now() (PostgreSQL's transaction time). */
    private long blockMicros;

    public boolean inBlock() {
        return undo != null;
    }

    /** Keeps the block's changes: tells the listener of its writes as one group, and marks its tables changed. */
    public void commitBlock() {
        undo = null;
        txBlock = false;
        try {
            if (!blockWrites.isEmpty()) {
                listener.blockBegun();
                for (int i = 0; i < blockWrites.size(); i++) {
                    String sql = blockWrites.get(i);
                    if (sql == null) {
                        listener.flushedAll();
                    } else {
                        listener.committed(sql, blockChanges.getLong(i), blockPostgres.getBoolean(i));
                    }
                }
                listener.blockEnded();
            }
            for (String name : blockTouched) {
                versions.changed(name);
            }
        } finally {
            clearBlock();
        }
    }

    /** Takes back every change of the block; nothing of it is logged or marked changed. */
    public void rollbackBlock() {
        catalog.schemaChanged(); // the rollback may restore tables or indexes: no cached plan survives it
        UndoLog log = undo;
        undo = null;
        txBlock = false;
        List<io.respsql.storage.Sequence> moved = new ArrayList<>(blockSequences);
        clearBlock();
        if (log != null) {
            log.rollback();
        }
        for (io.respsql.storage.Sequence q : moved) { // values handed out in the block stay handed out
            if (catalog.sequence(q.name()) == q) {
                listener.committed(setvalText(q), 1, true);
            }
        }
    }

    // ---- interactive transactions (tx) ----------------------------------------------------------

    /**
     * A block held apart from the engine between the statements of an interactive transaction
     * (BEGIN ... COMMIT): its undo log and its queued writes. The engine has one running block at a
     * time; a session's transaction is put in with {@link #resumeBlock} before each of its
     * statements and taken out with {@link #suspendBlock} after, so blocks of different sessions
     * never mix. Event loop only.
     */
    public static final class Block {
        UndoLog undo;
        List<String> writes = new ArrayList<>();
        LongArrayList changes = new LongArrayList();
        BooleanArrayList postgres = new BooleanArrayList();
        List<String> touched = new ArrayList<>();
        List<io.respsql.storage.Sequence> sequences = new ArrayList<>();
        long micros;
        /** The transaction's deferred constraint checks (regress24). */
        final io.respsql.exec.write.DeferredChecks deferred = new io.respsql.exec.write.DeferredChecks();

        public io.respsql.exec.write.DeferredChecks deferred() {
            return deferred;
        }

        /** Whether the transaction changed anything that a rollback takes back (rows, schema, ...). */
        public boolean changed() {
            return !undo.isEmpty();
        }

        /** A point to come back to (a savepoint, the start of a statement). */
        public long mark() {
            return ((long) undo.size() << 32) | writes.size();
        }
    }

    /** Starts a block for an interactive transaction, held apart from the engine (not running). */
    public Block newBlock() {
        Block b = new Block();
        b.undo = new UndoLog(catalog);
        b.micros = io.respsql.expr.StatementTime.wallMicros();
        return b;
    }

    /** Makes {@code b} the running block (no block may be running). */
    public void resumeBlock(Block b) {
        if (undo != null) {
            throw new IllegalStateException("a block is already running");
        }
        undo = b.undo;
        txBlock = true;
        blockWrites = b.writes;
        blockChanges = b.changes;
        blockPostgres = b.postgres;
        blockTouched = b.touched;
        blockSequences = b.sequences;
        blockMicros = b.micros;
        io.respsql.exec.write.DeferredChecks.enter(b.deferred);
    }

    /** Takes the running block (resumed with {@link #resumeBlock}) out of the engine again. */
    public void suspendBlock() {
        io.respsql.exec.write.DeferredChecks.leave();
        undo = null;
        txBlock = false;
        blockWrites = new ArrayList<>(0);
        blockChanges = new LongArrayList(0);
        blockPostgres = new BooleanArrayList(0);
        blockTouched = new ArrayList<>(0);
        blockSequences = new ArrayList<>(0);
    }

    /** Commits a held block: its writes go to the listener as one group (as EXEC's). */
    public void commitBlock(Block b) {
        resumeBlock(b);
        commitBlock();
        suspendBlock();
    }

    /** Rolls a held block back whole. */
    public void rollbackBlock(Block b) {
        resumeBlock(b);
        try {
            rollbackBlock();
        } finally {
            suspendBlock();
        }
    }

    /**
     * Takes back what the held block did after {@code mark} ({@link Block#mark}): a savepoint's
     * ROLLBACK TO, or a failed statement of a transaction. Sequences keep their values (as
     * PostgreSQL's): their state is queued again so that the commit logs it.
     */
    public void rollbackTo(Block b, long mark) {
        int undoMark = (int) (mark >>> 32);
        int writesMark = (int) mark;
        if (b.undo.size() == undoMark && b.writes.size() == writesMark) {
            return;
        }
        catalog.schemaChanged();
        b.undo.rollbackTo(undoMark);
        while (b.writes.size() > writesMark) {
            int last = b.writes.size() - 1;
            b.writes.remove(last);
            b.changes.removeLong(last);
            b.postgres.removeBoolean(last);
        }
        for (io.respsql.storage.Sequence q : b.sequences) {
            if (catalog.sequence(q.name()) == q) {
                b.writes.add(setvalText(q));
                b.changes.add(1);
                b.postgres.add(true);
            }
        }
    }

    private void clearBlock() {
        blockWrites.clear();
        blockChanges.clear();
        blockPostgres.clear();
        blockTouched.clear();
        blockSequences.clear();
    }

    // ---- COPY FROM STDIN (pgwire) ----------------------------------------------------------------

    /**
     * Starts {@code COPY table [(columns)] FROM STDIN} (columns null or empty: all, in order): rows
     * are written a batch at a time, logged as one block at {@link CopyIn#commit}. Not inside a block.
     */
    public CopyIn copyIn(String table, List<String> columns) {
        return copyIn(table, columns, null);
    }

    /** As {@link #copyIn(String, List)}, inside interactive transaction block {@code txBlock} (null: none). */
    public CopyIn copyIn(String table, List<String> columns, Block txBlock) {
        if (undo != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY FROM STDIN cannot run inside a block");
        }
        Outcome refused = refusedWrite();
        if (refused != null) {
            throw new SqlException(refused.sqlState(), refused.error());
        }
        CopyIn in = new CopyIn(this, catalog, table, columns);
        if (txBlock != null) {
            in.inBlock(txBlock);
        } else {
            openCopies.add(in); // mend
        }
        return in;
    }

    Headroom headroom() {
        return headroom;
    }

    /** A COPY's rows are in: its statements go to the listener as one group, and its table is marked changed. */
    void copyCommitted(List<String> statements, LongArrayList counts, String table, long rows) {
        if (statements.isEmpty()) {
            logMovedSequences(); // values handed out by a batch that failed
            return;
        }
        listener.blockBegun();
        for (int i = 0; i < statements.size(); i++) {
            listener.committed(statements.get(i), counts.getLong(i), true);
        }
        listener.blockEnded();
        // after the block: its INSERTs replay their nextval DEFAULTs, then the sequences' state
        logMovedSequences();
        if (rows > 0) {
            versions.changed(table);
        }
    }

    /** A COPY inside a transaction is in: its statements are queued in the block (logged at its COMMIT). */
    void copyCommittedInBlock(Block b, List<String> statements, LongArrayList counts, String table, long rows) {
        resumeBlock(b);
        try {
            for (int i = 0; i < statements.size(); i++) {
                blockWrites.add(statements.get(i));
                blockChanges.add(counts.getLong(i));
                blockPostgres.add(true);
            }
            if (rows > 0) {
                blockTouched.add(table);
            }
            logMovedSequences();
        } finally {
            suspendBlock();
        }
    }

    /** A COPY inside a transaction failed: its rows are taken back through the block's undo log. */
    void copyAbortedInBlock(Block b, long mark) {
        resumeBlock(b);
        try {
            logMovedSequences();
        } finally {
            suspendBlock();
        }
        rollbackTo(b, mark);
    }

    /** A COPY that wrote nothing kept: the sequence values its batches took stay taken (as PostgreSQL's). */
    void copyAborted() {
        logMovedSequences();
    }

    /** Enters the engine's sequence scope for a COPY batch's write (its nextval DEFAULTs); returns the prior one. */
    io.respsql.storage.SequenceScope enterSequences() {
        return io.respsql.storage.SequenceScope.enter(sequences);
    }

    /** Leaves the scope {@link #enterSequences} entered, back to {@code prior}. */
    void leaveSequences(io.respsql.storage.SequenceScope prior) {
        io.respsql.storage.SequenceScope.enter(prior);
        sequences.session = ownSession;
    }

    /** A point in the history of changes, for {@link #changedSince} (WATCH). */
    public long changeCounter() {
        return versions.now();
    }

    /** Whether table {@code name} (it need not exist) changed after {@code point}: a write, DROP, FLUSHALL. */
    public boolean changedSince(String name, long point) {
        return versions.changedSince(name, point);
    }

    public Catalog catalog() {
        return catalog;
    }

    // ---- acl ----
    /** The ACL check of the next statement (null: none; reset after each statement). */
    private StatementAccess access;

    /**
     * The ACL check of the connection whose statement runs next (null: unrestricted); applies to
     * that one statement. A checked statement does not take the plan cache: it is parsed, so
     * its tables can be read from its tree.
     */
    public void access(StatementAccess access) {
        this.access = access;
    }

    /** CREATE USER, GRANT, ... (null: refused as not supported). */
    private UserStatements userStatements;

    public void userStatements(UserStatements u) {
        this.userStatements = u;
    }

    /** The table the index {@code index} belongs to (its name as the catalog keeps it), or null. */
    public String indexOwner(String index) {
        Table owner = catalog.indexOwner(index);
        return owner == null ? null : owner.name();
    }

    /**
     * Executes one statement; its result rows (a query's) go to {@code results}, and the rest is
     * the returned {@link Outcome}. When it fails after part of its rows left, {@code results}
     * cannot take them back: the outcome is the error, and the caller's reply is broken (the
     * connection closes). Inside a block ({@link #beginBlock}) its changes are recorded for a
     * rollback and told to the commit listener only when the block commits.
     */
    public Outcome execute(CharSequence sql, ResultSink results) {
        return execute(sql, results, null);
    }

    /** {@link #execute(CharSequence, ResultSink)} for a caller that wants no rows (the log loader, a replica). */
    public Outcome execute(String sql) {
        return execute(sql, ResultSink.NONE, null);
    }

    /**
     * Decides, once a query is planned on the event loop, whether it runs elsewhere (a worker
     * against a read view, {@link BackgroundQueries}); true: it took the statement and will
     * write its reply later, so nothing is written now.
     */
    public interface Offload {
        boolean offer(Statement.QueryStatement q, String sql, io.respsql.plan.PlannedQuery plan);

        /** Whether {@link #offer} would take this plan (a cached plan then goes the plain way, which offers it). */
        boolean wouldOffload(io.respsql.plan.PlannedQuery plan, io.respsql.expr.ParamValues params);

        /**
         * {@link #offer}, and with {@code moved} whatever the estimate: the query overran the
         * event-loop bound inline (nothing of its reply was sent) and runs again on a worker.
         */
        default boolean offer(Statement.QueryStatement q, String sql, io.respsql.plan.PlannedQuery plan, boolean moved) {
            return !moved && offer(q, sql, plan);
        }

        /**
         * txfix: {@link #offer(Statement.QueryStatement, String, io.respsql.plan.PlannedQuery, boolean)}
         * whose worker reads {@code views.apply(plan.tablesRead())} (taken only when it takes the
         * statement; released by it on the event loop once the worker is done): the engine's
         * choice of image (a transaction's snapshot, or the live tables it reads).
         */
        default boolean offer(Statement.QueryStatement q, String sql, io.respsql.plan.PlannedQuery plan, boolean moved,
                              java.util.function.Function<java.util.Collection<Table>, io.respsql.storage.ReadView> views) {
            return offer(q, sql, plan, moved);
        }
    }

    /**
     * {@link #execute(CharSequence, ResultSink)}; a query may go to {@code offload} (null: always
     * inline; never inside a block). An offloaded query writes nothing here and returns
     * {@link Outcome#later()}: the worker replies.
     * {@code sql} is a String or a request's bytes viewed as text ({@link AsciiText}): a plan-cache
     * hit runs from the view, and the String is made only where one is needed (a miss, a block).
     */
    public Outcome execute(CharSequence sql, ResultSink results, Offload offload) {
        io.respsql.storage.SequenceScope priorScope = io.respsql.storage.SequenceScope.enter(sequences);
        try {
            return executeInScope(sql, results, offload);
        } finally {
            try {
                logMovedSequences();
            } finally {
                io.respsql.storage.SequenceScope.enter(priorScope);
                sequences.session = ownSession;
            }
        }
    }

    private Outcome executeInScope(CharSequence sql, ResultSink results, Offload offload) {
        // the statement's time (now(), CURRENT_DATE, 'today'): a logged statement replays with the time it logged
        long pinned = io.respsql.expr.StatementTime.pinnedBy(sql);
        io.respsql.expr.StatementTime.current().begin(pinned == 0 && undo != null ? blockMicros : pinned);
        // MULTI/EXEC (and a pgwire Query's implicit block) is atomic: its reads stay on the loop;
        // an interactive transaction's query may move (txfix: the worker reads what it must see, workerView)
        this.offload = undo == null || txBlock ? offload : null;
        parsed = null;
        parsedText = null;
        moveOff = false;
        armStop();
        results.onLeaving(replyLeaving);
        try {
            if (cacheConfig != null) {
                followCacheConfig();
            }
            // a plan made with indexes switched off (SET use_indexes = off) or in PostgreSQL's dialect (its
            // nodes differ for the same text) is neither cached nor taken from the cache
            if (access == null && cache.enabled() && readFrom == null && !io.respsql.plan.IndexUse.off() && !io.respsql.sql.Dialect.postgres()
                    && PlanCache.candidate(sql)) {
                Outcome o = executeCached(sql, results);
                if (o != null) {
                    return o;
                }
            }
            return executeText(sql.toString(), results);
        } finally {
            results.onLeaving(null);
            this.offload = null;
            parsed = null;
            parsedText = null;
            sessionTimeoutMs = -1;
            access = null;
            moveOff = false;
        }
    }

    /**
     * Runs the following statements with no limits (true) or with the configured ones again
     * (false): for the append-only file's replay and a replica's applied writes, which must not
     * fail for taking long (they already took effect once).
     */
    public void unlimited(boolean on) {
        this.unlimited = on;
        sequences.replaying = on; // a logged setval puts the state back as it was, in or out of today's bounds
    }

    /** Where the event-loop bound and query-timeout-ms are read, for every statement. */
    public void statementLimits(io.respsql.config.ServerConfig config) {
        this.limits = config;
    }

    /**
     * The statement timeout of the connection whose statement runs next (its {@code SET
     * statement_timeout}, ms; 0: none; -1: the server's query-timeout-ms); applies to that one
     * statement.
     */
    public void sessionTimeout(long ms) {
        this.sessionTimeoutMs = ms;
    }

    /** The statement timeout in force for the next statement (ms, 0: none). */
    private long timeoutMs() {
        return sessionTimeoutMs >= 0 ? sessionTimeoutMs : limits == null ? 0 : limits.queryTimeoutMs();
    }

    /** Arms {@link #stop} with the statement timeout and the event-loop bound. */
    private void armStop() {
        long bound = limits == null || unlimited ? 0 : limits.loopStatementMaxMs();
        long writeBound = limits == null || unlimited ? 0 : limits.loopWriteMaxMs();
        long timeout = unlimited ? 0 : timeoutMs();
        if (bound <= 0 && writeBound <= 0 && timeout <= 0) {
            stop.disarm();
            writeStop.disarm();
            return;
        }
        long now = System.nanoTime();
        String timeoutWhy = timeout > 0 ? reason(TIMEOUT, timeout) : null;
        long timeoutAt = io.respsql.expr.Cancellation.deadline(now, timeout);
        // A write cannot move to a worker (writes are serialized on the loop): past its own bound
        // it is stopped, which happens only while it looks for its rows, before any change.
        writeStop.arm(timeoutAt, timeoutWhy, io.respsql.expr.Cancellation.deadline(now, writeBound),
                writeBound > 0 ? reason(WRITE_BOUND, writeBound) : null);
        stop.arm(timeoutAt, timeoutWhy, io.respsql.expr.Cancellation.deadline(now, bound),
                bound > 0 ? reason(LOOP_BOUND, bound) : null);
    }

    private static final int TIMEOUT = 0;
    private static final int WRITE_BOUND = 1;
    private static final int LOOP_BOUND = 2;
    /** Each limit's error text, made again only when its value changes: arming allocates nothing per statement. */
    private final String[] reasonText = new String[3];
    private final long[] reasonMs = {-1, -1, -1};

    private String reason(int kind, long ms) {
        if (reasonMs[kind] != ms || reasonText[kind] == null) {
            reasonMs[kind] = ms;
            reasonText[kind] = switch (kind) {
                case TIMEOUT -> timeoutReason(ms);
                case WRITE_BOUND -> writeBoundReason(ms);
                default -> "query cancelled: ran on the event loop for more than " + ms
                        + " ms (loop-statement-max-ms) and cannot move to a worker inside MULTI/EXEC;"
                        + " raise loop-statement-max-ms (0: no bound)";
            };
        }
        return reasonText[kind];
    }

    /**
     * Stops the statement running inline now, if any, and every later one (SIGTERM, from any
     * thread): they fail with {@code why}. Sticky: re-arming for the next statement keeps it.
     */
    public void cancelRunning(String why) {
        stop.shutDown(why);
        writeStop.shutDown(why);
    }

    /** The error of a write stopped by loop-write-max-ms. */
    public static String writeBoundReason(long ms) {
        return "query cancelled: the write searched for its rows on the event loop for more than " + ms
                + " ms (loop-write-max-ms) and changed nothing; raise loop-write-max-ms (0: no bound)";
    }

    /** The error of a statement stopped by its timeout (inline or on a worker). */
    public static String timeoutReason(long ms) {
        return "query cancelled: statement timeout of " + ms + " ms";
    }

    // ---- the plan cache --------------------------------------------------------------------------

    /** Sets the plan cache's bounds ({@code plan-cache-max-entries}: 0 turns it off; {@code plan-cache-max-bytes}). */
    public void planCacheLimits(int maxEntries, long maxBytes) {
        cache.maxEntries(maxEntries);
        cache.maxBytes(maxBytes);
    }

    /** Takes the plan cache's bounds from {@code config} now and whenever CONFIG SET changes them. */
    public void planCacheConfig(io.respsql.config.ServerConfig config) {
        this.cacheConfig = config;
        followCacheConfig();
    }

    private void followCacheConfig() {
        int entries = cacheConfig.planCacheMaxEntries();
        long bytes = cacheConfig.planCacheMaxBytes();
        if (entries != cache.maxEntries() || bytes != cache.maxBytes()) {
            planCacheLimits(entries, bytes);
        }
    }

    /** INFO's figures: hits, misses, entries, estimated bytes. */
    @Override
    public long planCacheHits() {
        return cache.hits;
    }

    @Override
    public long planCacheMisses() {
        return cache.misses;
    }

    @Override
    public int planCacheEntries() {
        cache.validate(catalog.schemaVersion());
        return cache.size();
    }

    @Override
    public long planCacheBytes() {
        cache.validate(catalog.schemaVersion());
        return cache.bytes();
    }

    /**
     * Runs {@code sql} through a cached plan (made now on a miss); null when the plain path must
     * answer: the text cannot be cached, does not parse, or its cached run failed (a failed
     * statement changes nothing, so the plain path then gives the exact reply, error or not).
     */
    private Outcome executeCached(CharSequence sql, ResultSink results) {
        // An INSERT is scanned once whatever its size: a few literals take the cache, more are streamed.
        boolean insert = LiteralScan.wordIs(sql, firstWord(sql), "INSERT");
        if (!scan.scan(sql, insert ? MAX_BULK_LITERALS : LiteralScan.MAX_LITERALS)) {
            cache.misses++;
            return null;
        }
        if (insert && scan.count > LiteralScan.MAX_INSERT_LITERALS) {
            cache.misses++;
            return executeBulk(sql.toString());
        }
        cache.validate(catalog.schemaVersion());
        PlanCache.Entry e = cache.find(scan);
        boolean fresh = e == null;
        if (fresh) {
            e = cacheEntry(sql.toString());
            if (e == null) {
                cache.misses++;
                return null;
            }
            if (e.plan == null && e.write && parsed instanceof Statement.Insert) {
                // Not kept: an INSERT whose values are not all parameters has them in its key, so a
                // negative entry would match this one text only. The plain path reuses the parse.
                cache.misses++;
                return null;
            }
            cache.put(e);
        }
        boolean filled = e.plan != null && scan.fill(params); // before the offload check: a range's estimate reads its bounds
        if (e.plan == null || !filled
                || (offload != null && e.plan instanceof io.respsql.plan.PlannedQuery q && offload.wouldOffload(q, params))) {
            cache.misses++;
            return null;
        }
        Outcome refused = e.write ? refusedWrite() : null;
        if (refused != null) {
            return refused;
        }
        try {
            Outcome o = runPlan(e.plan, params, results);
            if (fresh) {
                cache.misses++; // planned now: the next text of this shape is the hit
            } else {
                cache.hits++;
            }
            return took(o, sql, e.touched);
        } catch (RuntimeException | OutOfMemoryError x) {
            if (writeStop.cancelled()) {
                // stopped before its first change: nothing to take back
                return Outcome.failed(SqlState.QUERY_CANCELED, "ERR " + writeStop.reason());
            }
            if (stop.cancelled()) {
                // Stopped, not failed: running it again inline would only overrun again.
                if (stop.loopBoundHit() && offload != null && results.retract()) {
                    moveOff = true; // the plain path plans it again and hands it to a worker
                    return null;
                }
                return Outcome.failed(SqlState.QUERY_CANCELED, "ERR " + stop.reason());
            }
            if (cacheMayBeTheReason(x) && results.retract()) {
                // Nothing changed (a failed statement takes itself back) and nothing was sent:
                // the plain path plans it afresh and gives the exact reply.
                cache.misses++;
                return null;
            }
            // The statement's own failure (a unique or NOT NULL violation, a stopped read):
            // planning it again would fail the same way, so the cached run answers.
            if (fresh) {
                cache.misses++;
            } else {
                cache.hits++;
            }
            return failure(x, sql);
        } finally {
            if (rows.elements().length > KEEP_BUFFER) {
                rows = new IntArrayList();
            }
        }
    }

    /**
     * Whether a cached run's failure may come from the cache rather than the statement: a value's
     * error (SQLSTATE class 22) names the value as the cache's parameter holds it ({@code .5}
     * read as 0.5, a string where the plan took a number), and a failure that is no SQL error at
     * all may be a parameter of a kind the plan did not expect. Any other error is the statement's.
     */
    private static boolean cacheMayBeTheReason(Throwable x) {
        if (x instanceof SqlException e) {
            return e.sqlState() != null && e.sqlState().startsWith("22");
        }
        return !(x instanceof ReplyAbortedException || x instanceof OutOfMemoryError);
    }

    // ---- bulk INSERT ... VALUES ------------------------------------------------------------------

    /** More literals than this in one INSERT: the plain path (its text is then hundreds of megabytes). */
    private static final int MAX_BULK_LITERALS = 1 << 26;
    private final InsertOperator.Bulk bulk = new InsertOperator.Bulk();
    private long bulkInserts;
    private final BulkValues values = new BulkValues(scan);

    /** Bulk INSERTs whose rows were read straight from the text ({@link #executeBulk}). */
    public long bulkInsertsStreamed() {
        return bulkInserts;
    }

    private static int firstWord(CharSequence sql) {
        return io.respsql.sql.Lexer.skipBlank(sql, 0); // a leading comment is not the first word
    }

    /**
     * An INSERT with more literals than a cached plan takes (a bulk load's thousand rows), scanned
     * whole by {@link #executeCached}: when every
     * row is a list of literals (signed numbers, strings, NULL), only the statement up to its first
     * row is parsed (table, columns) and the rows are read from the scan's literals straight into
     * pending rows, converted as the plain path converts those literals. Null when the plain path
     * must answer: another shape anywhere (an expression, unquoted text, RETURN SIZE), or a value
     * refused (nothing was written; the plain path gives the exact error).
     */
    private Outcome executeBulk(String sql) {
        try {
            int prefix = values.firstRowEnd(sql);
            if (prefix < 0) {
                return null;
            }
            Statement st;
            try {
                st = SqlParser.parse(sql.substring(0, prefix));
            } catch (RuntimeException e) {
                return null;
            }
            if (!(st instanceof Statement.Insert ins) || ins.rows() == null || ins.rows().size() != 1
                    || hasIdentity(ins.table()) // an identity column's rules: the plain path
                    || routed(ins.table()) // review1: a partition tree's rows are routed by the plain path
                    || !WritePlanner.startBulk(catalog, ins, bulk) || bulk.width() != values.width() || !values.readRows(sql, bulk)) {
                return null;
            }
            Outcome refused = refusedWrite();
            if (refused != null) {
                return refused;
            }
            long changes = bulk.write(catalog, headroom, undo);
            bulkInserts++;
            return took(Outcome.ok(changes), sql, ins.table());
        } catch (RuntimeException | OutOfMemoryError x) {
            return null; // nothing was written (a failed write changes nothing): the plain path answers, error or not
        } finally {
            bulk.release();
            scan.trim();
        }
    }

    /** Whether the text may name a system relation (pg_catalog's, information_schema's): then its plan is not cached. */
    private static boolean readsSystemRelations(String sql) {
        return indexOfIgnoreCase(sql, "pg_") >= 0 || indexOfIgnoreCase(sql, "information_schema") >= 0;
    }

    private static int indexOfIgnoreCase(String s, String word) {
        int n = word.length();
        for (int i = 0; i + n <= s.length(); i++) {
            if (s.regionMatches(true, i, word, 0, n)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The statement {@link #cacheEntry} parsed, and its text: when the cache cannot take it, the
     * plain path runs this parse rather than parsing again (syntax trees are not changed by planning).
     */
    private Statement parsed;
    private String parsedText;

    /** Parses and plans the scanned text with its literals as parameters; a negative entry when it cannot be cached. */
    private PlanCache.Entry cacheEntry(String sql) {
        Statement st;
        try {
            st = SqlParser.parse(sql);
        } catch (RuntimeException e) {
            return null; // the plain path replies with the error
        }
        parsed = st;
        parsedText = sql;
        String key = scan.key();
        if (readsSystemRelations(sql)) {
            // pg_catalog / information_schema relations are built from the catalog when planned: never reused
            return new PlanCache.Entry(key, scan.hash, null, false, null);
        }
        int seqCalls = io.respsql.storage.SequenceScope.boundCount();
        io.respsql.sql.Parameterizer.Literals literals = scan.literals();
        if (st instanceof Statement.Insert ins) {
            InsertOperator plan;
            try {
                plan = io.respsql.exec.write.SequenceDdl.identityInsert(catalog, ins) != ins || routed(ins.table()) ? null
                        : WritePlanner.planCachedInsert(catalog, ins, sql, literals);
            } catch (RuntimeException e) {
                plan = null; // no such table or column, an identity column's value: the plain path replies
            }
            return new PlanCache.Entry(key, scan.hash, plan, true, ins.table());
        }
        Statement p = io.respsql.sql.Parameterizer.rewrite(st, literals);
        if (p == null) {
            return new PlanCache.Entry(key, scan.hash, null, false, null);
        }
        Object plan;
        try {
            if (p instanceof Statement.QueryStatement q) {
                plan = StatementPlanner.plan(catalog, q.query(), sql);
            } else if (p instanceof Statement.Update u) {
                plan = WritePlanner.planUpdate(catalog, u, sql);
            } else {
                plan = WritePlanner.planDelete(catalog, (Statement.Delete) p, sql);
            }
        } catch (RuntimeException e) {
            return new PlanCache.Entry(key, scan.hash, null, false, null); // e.g. '5' read as a number: literal only
        }
        if (io.respsql.storage.SequenceScope.boundCount() != seqCalls
                || (p instanceof Statement.Update u && (hasIdentity(u.table()) || routed(u.table())))
                || (p instanceof Statement.Delete d && routed(d.table()))) {
            return new PlanCache.Entry(key, scan.hash, null, false, null); // nextval(...) or an identity column: planned each time
        }
        return new PlanCache.Entry(key, scan.hash, plan, isWrite(p), touchedTable(p));
    }

    // ---- prepared: pgwire's Parse'd statements, planned once (BoundPlan) ----

    private long boundRuns;
    private long boundPlans;

    @Override
    public long preparedPlanRuns() {
        return boundRuns;
    }

    @Override
    public long preparedPlansMade() {
        return boundPlans;
    }

    /**
     * The plan of a pgwire prepared statement, made now for {@code template} (its text with each
     * {@code $n} written as the literal 0 at {@code spans}: start, end, n - 1) in the caller's
     * dialect; null when it cannot have one (it then runs as text).
     */
    public BoundPlan planBound(String template, List<int[]> spans, int parameters) {
        if (readsSystemRelations(template)) {
            return null;
        }
        io.respsql.storage.SequenceScope priorScope = io.respsql.storage.SequenceScope.enter(sequences);
        try {
            Statement st;
            try {
                st = SqlParser.parse(template);
            } catch (RuntimeException e) {
                return null;
            }
            if (!ModifyingWith.of(st).isEmpty()) {
                return null;
            }
            int[] starts = new int[spans.size()];
            int[] ends = new int[spans.size()];
            int[] numbers = new int[spans.size()];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = spans.get(i)[0];
                ends[i] = spans.get(i)[1];
                numbers[i] = spans.get(i)[2];
            }
            io.respsql.sql.tree.Expr.LiteralKind[] kinds = new io.respsql.sql.tree.Expr.LiteralKind[parameters];
            boolean[] int4 = new boolean[parameters];
            Statement p = BoundPlan.parameterize(catalog, st, starts, ends, numbers, kinds, int4);
            if (p == null) {
                return null;
            }
            long version = catalog.schemaVersion();
            int seqCalls = io.respsql.storage.SequenceScope.boundCount();
            Object plan;
            try {
                if (p instanceof Statement.QueryStatement q) {
                    io.respsql.plan.PlannedQuery pq = StatementPlanner.plan(catalog, q.query(), template);
                    if (pq.readsCatalogOids()) {
                        return null;
                    }
                    plan = pq;
                } else if (p instanceof Statement.Update u) {
                    if (hasIdentity(u.table()) || routed(u.table())) {
                        return null;
                    }
                    plan = WritePlanner.planUpdate(catalog, u, template);
                } else {
                    if (routed(((Statement.Delete) p).table())) {
                        return null;
                    }
                    plan = WritePlanner.planDelete(catalog, (Statement.Delete) p, template);
                }
            } catch (RuntimeException e) {
                return null; // the text path gives the error
            }
            if (io.respsql.storage.SequenceScope.boundCount() != seqCalls) {
                return null; // nextval(...): planned each time
            }
            boundPlans++;
            return new BoundPlan(plan, isWrite(p), touchedTable(p), version, kinds, int4);
        } finally {
            io.respsql.storage.SequenceScope.enter(priorScope);
            sequences.session = ownSession;
        }
    }

    /**
     * Runs a pgwire prepared statement's kept plan with {@code params} (its Bind's values); {@code
     * sql} is its text with the values written in (what a write logs, what an error names). As
     * {@link #execute(CharSequence, ResultSink, Offload)}; null when the text path must run it
     * instead (the plan is stale or the engine's state asks for a plan of its own: a committed
     * image to read, ACL checks, indexes switched off; a worker would take the query; or its run
     * failed in a way a fresh plan may not, with nothing changed or sent), and then nothing was done.
     */
    public Outcome executeBound(BoundPlan b, io.respsql.expr.ParamValues params, CharSequence sql, ResultSink results,
                                Offload offload) {
        if (cacheConfig != null) {
            followCacheConfig();
        }
        if (access != null || readFrom != null || !cache.enabled() || io.respsql.plan.IndexUse.off() || !b.current(catalog)) {
            return null;
        }
        io.respsql.storage.SequenceScope priorScope = io.respsql.storage.SequenceScope.enter(sequences);
        Outcome o = null;
        try {
            long pinned = io.respsql.expr.StatementTime.pinnedBy(sql);
            io.respsql.expr.StatementTime.current().begin(pinned == 0 && undo != null ? blockMicros : pinned);
            this.offload = undo == null || txBlock ? offload : null;
            parsed = null;
            parsedText = null;
            moveOff = false;
            armStop();
            results.onLeaving(replyLeaving);
            try {
                o = runBound(b, params, sql, results);
                return o;
            } finally {
                results.onLeaving(null);
                this.offload = null;
                moveOff = false;
                if (o != null) {
                    sessionTimeoutMs = -1; // the text path (o == null) reads them next
                    access = null;
                }
            }
        } finally {
            try {
                logMovedSequences();
            } finally {
                io.respsql.storage.SequenceScope.enter(priorScope);
                sequences.session = ownSession;
            }
        }
    }

    private Outcome runBound(BoundPlan b, io.respsql.expr.ParamValues params, CharSequence sql, ResultSink results) {
        if (offload != null && b.plan instanceof io.respsql.plan.PlannedQuery q && offload.wouldOffload(q, params)) {
            return null; // the text path hands it to a worker
        }
        Outcome refused = b.write ? refusedWrite() : null;
        if (refused != null) {
            return refused;
        }
        try {
            Outcome o = runPlan(b.plan, params, results);
            boundRuns++;
            return took(o, sql, b.touched);
        } catch (RuntimeException | OutOfMemoryError x) {
            if (writeStop.cancelled()) {
                return Outcome.failed(SqlState.QUERY_CANCELED, "ERR " + writeStop.reason());
            }
            if (stop.cancelled()) {
                if (stop.loopBoundHit() && offload != null && results.retract()) {
                    return null; // the text path plans it again and hands it to a worker
                }
                return Outcome.failed(SqlState.QUERY_CANCELED, "ERR " + stop.reason());
            }
            if (cacheMayBeTheReason(x) && results.retract()) {
                return null; // nothing changed, nothing sent: the text path gives the exact reply
            }
            return failure(x, sql);
        } finally {
            if (rows.elements().length > KEEP_BUFFER) {
                rows = new IntArrayList();
            }
        }
    }

    // ---- prepared statements ---------------------------------------------------------------------

    /**
     * {@code PREPARE <name> <statement>} and {@code DEALLOCATE <name>} as statement texts: logged
     * (and replicated) like writes, so prepared statements survive a restart and reach replicas.
     * EXECUTE comes through {@link #executePrepared}.
     */
    private Outcome prepareOrDeallocate(String verb, String sql) {
        try {
            String[] nr = PreparedStatements.nameAndRest(sql, verb);
            if (verb.equals("EXECUTE")) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "EXECUTE takes its values as separate arguments: EXECUTE <name> [value ...]");
            }
            String denied = access == null ? null : access.checkVerb(verb.toLowerCase(java.util.Locale.ROOT), null, true);
            if (denied != null) {
                return Outcome.failed(SqlState.INSUFFICIENT_PRIVILEGE, denied);
            }
            Outcome refused = refusedWrite();
            if (refused != null) {
                return refused;
            }
            // inside a block the change is recorded in the undo log, so a rollback takes it back
            if (verb.equals("PREPARE")) {
                prepared.prepare(nr[0], nr[1], undo);
            } else {
                if (!nr[1].isEmpty()) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "DEALLOCATE takes one name, not '" + nr[0] + " " + nr[1] + "'");
                }
                if (!prepared.deallocate(nr[0], undo)) {
                    throw new SqlException(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement '" + nr[0] + "' does not exist");
                }
            }
            return took(Outcome.ok(1), sql, null);
        } catch (SqlException e) {
            return failed(e);
        }
    }

    /**
     * {@code EXECUTE <name> [value ...]}: the prepared statement with the values checked and in
     * place, run as text; as {@link #execute(CharSequence, ResultSink, Offload)}.
     */
    public Outcome executePrepared(String name, List<String> values, ResultSink results, Offload offload) {
        String sql;
        try {
            sql = prepared.bind(name, values);
        } catch (SqlException e) {
            sessionTimeoutMs = -1;
            access = null;
            return failed(e);
        }
        return execute(sql, results, offload);
    }

    /** The prepared statements as PREPARE texts, in the order they were first prepared. */
    public List<String> preparedStatements() {
        List<String> out = new ArrayList<>();
        for (io.respsql.storage.PreparedDef p : catalog.preparedStatements()) {
            out.add("PREPARE " + p.name() + " " + p.text());
        }
        return out;
    }

    /**
     * After a statement ran: tells the listener of a write (or queues it in a block), with the
     * dialect it ran in (a replay must run it in the same), and marks its table changed.
     */
    private Outcome took(Outcome o, CharSequence sql, String touched) {
        long changes = o.changes();
        if (changes >= 0) {
            io.respsql.expr.StatementTime time = io.respsql.expr.StatementTime.current();
            if (time.used() && io.respsql.expr.StatementTime.pinnedBy(sql) == 0) {
                // A write that read the statement's time is logged (and replicated) with that time, so a
                // replay or a replica computes the same values: the text is prefixed by a comment
                // naming it, which the engine reads back as the statement's time (StatementTime.pinnedBy).
                sql = io.respsql.expr.StatementTime.logged(sql, time.micros());
            }
            boolean changedData = changes > 0; // an UPDATE that matched nothing, a DDL no-op (IF [NOT] EXISTS): WATCH sees no change
            if (undo != null) {
                blockWrites.add(sql.toString()); // kept until EXEC: the text, not a view of a request
                blockChanges.add(changes);
                blockPostgres.add(io.respsql.sql.Dialect.postgres());
                if (changedData) {
                    blockTouched.add(touched);
                }
            } else {
                listener.committedText(sql, changes, io.respsql.sql.Dialect.postgres());
                if (changedData) {
                    versions.changed(touched);
                }
            }
        }
        return o;
    }

    private static Outcome failed(SqlException e) {
        return Outcome.failed(e.sqlState(), "ERR " + e.getMessage());
    }

    /** The client could not take more of the reply: the writer is broken already, the connection closes. */
    private static Outcome aborted() {
        return Outcome.failed(SqlState.CONNECTION_FAILURE, "ERR reply aborted: the client could not take more of it");
    }

    private Outcome executeText(String sql, ResultSink results) {
        String verb = PreparedStatements.verb(sql);
        if (verb != null) {
            return prepareOrDeallocate(verb, sql);
        }
        try {
            Statement st = parsedText == sql && parsed != null ? parsed : SqlParser.parse(sql);
            parsed = null;
            parsedText = null;
            if (readFrom != null && !(st instanceof Statement.QueryStatement)) {
                // tx: only a query may read the committed image (the caller checked); never the live tables
                throw new IllegalStateException("a statement other than a query was sent to a committed image");
            }
            String denied = access == null ? null : access.check(st);
            if (denied != null) {
                return Outcome.failed(SqlState.INSUFFICIENT_PRIVILEGE, denied);
            }
            if (UserStatements.is(st)) {
                // users live in the ACL (and its file), not in the data: never logged, never replicated
                return userStatements == null
                        ? Outcome.failed(SqlState.FEATURE_NOT_SUPPORTED, "ERR users are not available here")
                        : userStatements.run(st);
            }
            Outcome refused = isWrite(st) ? refusedWrite() : null;
            if (refused != null) {
                return refused;
            }
            String touched = touchedTable(st);
            if (isWrite(st) && !(st instanceof Statement.Insert || st instanceof Statement.Update
                    || st instanceof Statement.Delete)) {
                catalog.schemaChanged(); // DDL: cached plans go, whatever the DDL does to the catalog
            }
            return took(run(st, sql, results), sql, touched);
        } catch (RuntimeException | OutOfMemoryError x) {
            return failure(x, sql);
        } finally {
            if (rows.elements().length > KEEP_BUFFER) {
                rows = new IntArrayList();
            }
        }
    }

    /** The outcome of a statement that threw {@code x}; it changed nothing (a failed write takes itself back). */
    private Outcome failure(Throwable x, CharSequence sql) {
        if (x instanceof SqlException e) {
            return failed(e);
        } else if (x instanceof ReplyAbortedException) {
            return aborted(); // the client may not be sent more; only reads stream, so no data changed
        } else if (x instanceof OutOfMemoryError) {
            rows = new IntArrayList(); // let the row buffer go before replying
            LOG.warn("statement ran out of memory (JVM max heap {} MB): {}", Runtime.getRuntime().maxMemory() >> 20,
                    abbreviate(sql.toString()));
            return Outcome.failed(SqlState.OUT_OF_MEMORY, OOM_REPLY);
        }
        LOG.error("statement failed: {}", abbreviate(sql.toString()), x);
        return Outcome.failed(SqlState.INTERNAL_ERROR, "ERR internal error: " + x);
    }

    /** A write refused now by the {@link WriteGuard} (-READONLY on a replica, -MISCONF, -NOREPLICAS), or null. */
    private Outcome refusedWrite() {
        String refusal = writeGuard == null ? null : writeGuard.refusal();
        return refusal == null ? null : Outcome.failed(refusal.startsWith("READONLY")
                ? SqlState.READ_ONLY_SQL_TRANSACTION : SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, refusal);
    }

    /**
     * Checks a statement sent inside MULTI before it is queued: it must parse. Names are not
     * bound here, because an earlier statement of the same block may create the table.
     * Returns the error reply (without '-') or null.
     */
    public static String checkQueued(String sql) {
        return checkQueued(sql, null);
    }

    /**
     * As {@link #checkQueued(String)}, and a statement that writes is refused with
     * {@code writeRefusal} when that is not null: as Redis, a write that could not run now
     * (-READONLY on a replica, -NOREPLICAS) is refused at queue time, not at EXEC.
     */
    public static String checkQueued(String sql, String writeRefusal) {
        if (PreparedStatements.verb(sql) != null) {
            return writeRefusal; // PREPARE/DEALLOCATE are logged like writes; EXECUTE's statement is checked when it runs
        }
        try {
            Statement st = SqlParser.parse(sql);
            return writeRefusal != null && isWrite(st) ? writeRefusal : null;
        } catch (SqlException e) {
            return "ERR " + e.getMessage();
        } catch (RuntimeException e) {
            return "ERR " + e;
        }
    }

    /** Whether {@code sql} parses to a statement that writes (false when it does not parse). */
    public static boolean writes(String sql) {
        String verb = PreparedStatements.verb(sql);
        if (verb != null) {
            return !verb.equals("EXECUTE");
        }
        try {
            return isWrite(SqlParser.parse(sql));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The table (or view) a write statement changes (its name as written), for WATCH; null for reads. */
    private String touchedTable(Statement st) {
        List<io.respsql.sql.tree.Query.Modifying> modifying = ModifyingWith.of(st); // with: its first changed table
        if (!modifying.isEmpty()) {
            return ModifyingWith.target(modifying.get(0));
        }
        if (st instanceof Statement.Insert s) {
            return s.table();
        } else if (st instanceof Statement.Update s) {
            return s.table();
        } else if (st instanceof Statement.Delete s) {
            return s.table();
        } else if (st instanceof Statement.CreateTable s) {
            return s.table();
        } else if (st instanceof Statement.CreateIndex s) {
            return s.table();
        } else if (st instanceof Statement.DropTable s) {
            return s.table();
        } else if (st instanceof Statement.CreateView s) {
            return s.view();
        } else if (st instanceof Statement.DropView s) {
            return s.view();
        } else if (st instanceof Statement.AlterTable s) {
            return s.table();
        } else if (st instanceof Statement.DropIndex s) {
            Table owner = catalog.indexOwner(s.index());
            return owner == null ? null : owner.name();
        } else if (st instanceof Statement.AlterTable s) {
            return s.table();
        } else if (st instanceof Statement.Truncate s) {
            return s.tables().get(0);
        } else if (st instanceof Statement.CreateTableAs s) {
            return s.table();
        } else if (st instanceof Statement.CreatePartitioned s) { // partition
            return s.table().table();
        } else if (st instanceof Statement.CreatePartitionOf s) {
            return s.table();
        }
        return null;
    }

    private static String abbreviate(String sql) {
        if (sql.toLowerCase(java.util.Locale.ROOT).contains("password")) {
            return "(a statement naming a password, not shown)"; // acl: a password never reaches the log
        }
        return sql.length() <= 200 ? sql : sql.substring(0, 200) + "... (" + sql.length() + " chars)";
    }

    /**
     * review1: whether a write to {@code table} goes through the partition routing step (a
     * partitioned table or a partition: {@link Partitions#handles}); a kept plan would skip it.
     */
    private boolean routed(String table) {
        io.respsql.storage.Table t = catalog.table(table);
        return t != null && t.partitioning != null;
    }

    private boolean hasIdentity(String table) {
        if (catalog.sequences().isEmpty()) {
            return false;
        }
        for (io.respsql.storage.Sequence q : catalog.sequencesOwnedBy(table)) {
            if (q.identity != 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWrite(Statement st) {
        return st instanceof Statement.CreateSequence || st instanceof Statement.AlterSequence
                || st instanceof Statement.DropSequence
                || st instanceof Statement.Insert || st instanceof Statement.Update || st instanceof Statement.Delete
                || st instanceof Statement.CreateTable || st instanceof Statement.CreateIndex
                || st instanceof Statement.CreateView || st instanceof Statement.DropTable
                || st instanceof Statement.DropIndex || st instanceof Statement.DropView
                || st instanceof Statement.AlterTable || st instanceof Statement.Truncate
                || st instanceof Statement.CreateTableAs
                || st instanceof Statement.CreatePartitioned || st instanceof Statement.CreatePartitionOf // partition
                || !ModifyingWith.of(st).isEmpty(); // with: a SELECT whose WITH changes rows
    }

    // ---- constraints (ALTER TABLE ... ADD/DROP CONSTRAINT) ----

    private io.respsql.exec.write.Constraints.CheckBinder checkBinder() {
        return def -> WritePlanner.bindCheck(catalog, def);
    }

    // ---- partition ----

    /** PARTITION BY / PARTITION OF, and the routing step in front of a write to a partition tree. */
    private final Partitions partitions;

    /** Runs {@code st} without the routing step, its changes in {@code log} (partition). */
    private Outcome runUnrouted(Statement st, String sql, ResultSink sink, UndoLog log) {
        UndoLog saved = undo;
        Offload savedOffload = offload;
        boolean savedMove = moveOff;
        undo = log;
        offload = null; // a routing step's own queries run here, never on a worker (which would reply to the client)
        moveOff = false;
        try {
            return run(st, sql, sink);
        } finally {
            undo = saved;
            offload = savedOffload;
            moveOff = savedMove;
        }
    }

    /** Runs the statement; a query's rows go to {@code results}. */
    private Outcome run(Statement st, String sql, ResultSink results) {
        if (partitions.handles(st)) {
            // partition: a write or DDL of a partition tree runs statements of its own on the event loop; like
            // any write it cannot move to a worker, so the loop bound (for reads that can) does not cut it
            stop.replyStarted();
            return partitions.run(st, sql, results, undo);
        }
        List<io.respsql.sql.tree.Query.Modifying> modifying = ModifyingWith.of(st); // with: a data-modifying WITH
        if (!modifying.isEmpty()) {
            return Outcome.rowsWritten(ModifyingWith.run(catalog, (io.respsql.sql.tree.Query.With) ((Statement.QueryStatement) st).query(),
                    modifying, sql, results, headroom, rows, undo, writeStop, stop));
        }
        if (st instanceof Statement.QueryStatement q) {
            int seqCalls = io.respsql.storage.SequenceScope.boundCount();
            io.respsql.plan.PlannedQuery p = StatementPlanner.plan(readFrom != null ? readFrom : catalog, q.query(), sql);
            if (io.respsql.storage.SequenceScope.boundCount() != seqCalls) {
                offload = null; // nextval(...) moves a sequence: on the event loop only, never run twice
                moveOff = false;
                stop.replyStarted(); // so the loop bound cannot stop it half-way (the statement timeout still does)
            }
            if (p.readsCatalogOids()) {
                // 'name'::regclass, oid::regclass, pg_get_indexdef number every relation of the live
                // catalog; a worker's view holds the plan's tables only: on the event loop (its bound applies)
                offload = null;
                moveOff = false;
            }
            if (moveOff && offload.offer(q, sql, p, true, workerViews)) {
                return Outcome.later();
            }
            if (offload != null && offload.offer(q, sql, p, false, workerViews)) {
                return Outcome.later();
            }
            try {
                return runPlan(p, null, results);
            } catch (SqlException e) {
                // Over the event-loop bound with nothing of the reply sent: a worker runs it
                // again from the start (the data cannot have changed: the loop was busy with it).
                if (stop.loopBoundHit() && offload != null && results.retract() && offload.offer(q, sql, p, true, workerViews)) {
                    return Outcome.later();
                }
                throw e;
            }
        } else if (st instanceof Statement.Insert s) {
            return runPlan(WritePlanner.planInsert(catalog, io.respsql.exec.write.SequenceDdl.identityInsert(catalog, s), sql), null, results);
        } else if (st instanceof Statement.Update s) {
            io.respsql.exec.write.SequenceDdl.identityUpdate(catalog, s);
            return runPlan(WritePlanner.planUpdate(catalog, s, sql), null, results);
        } else if (st instanceof Statement.Delete s) {
            return runPlan(WritePlanner.planDelete(catalog, s, sql), null, results);
        } else if (st instanceof Statement.CreateTable s) {
            io.respsql.exec.write.SequenceDdl.Expanded serials = io.respsql.exec.write.SequenceDdl.expand(catalog, s);
            if (serials == null) {
                return schemaChange(TableDdl.createTable(catalog, s, sql, undo, WritePlanner::defaultValue, checkBinder()));
            }
            boolean created = TableDdl.createTable(catalog, serials.table(), sql, undo, WritePlanner::defaultValue, checkBinder());
            if (created) { // a rollback's saved names (taken by createTable) hold none of these
                for (io.respsql.storage.Sequence q : serials.sequences()) {
                    catalog.addSequence(q);
                }
            }
            return schemaChange(created);
        } else if (st instanceof Statement.DiscardSequences) {
            sequences.session.clear();
            return Outcome.ok(-1);
        } else if (st instanceof Statement.CreateSequence s) {
            return schemaChange(io.respsql.exec.write.SequenceDdl.create(catalog, s, undo));
        } else if (st instanceof Statement.AlterSequence s) {
            return schemaChange(io.respsql.exec.write.SequenceDdl.alter(catalog, s, undo));
        } else if (st instanceof Statement.DropSequence s) {
            return schemaChange(io.respsql.exec.write.SequenceDdl.drop(catalog, s, undo) > 0);
        } else if (st instanceof Statement.CreateIndex s) {
            return schemaChange(TableDdl.createIndex(catalog, s, undo));
        } else if (st instanceof Statement.DropTable s) {
            long dropped = io.respsql.sql.Dialect.postgres() ? schemaChanges.dropTables(s, undo)
                    : TableDdl.dropTable(catalog, s, undo); // -1: IF EXISTS found none
            if (dropped >= 0 && !catalog.sequences().isEmpty()) {
                for (String t : s.tables()) {
                    if (catalog.table(t) == null) {
                        io.respsql.exec.write.SequenceDdl.tableDropped(catalog, t); // its SERIAL/identity sequences
                    }
                }
            }
            return dropped < 0 ? Outcome.integer(0, 0) : Outcome.integer(dropped, 1);
        } else if (st instanceof Statement.AlterTable s) {
            return schemaChange(schemaChanges.alter(s, sql, undo));
        } else if (st instanceof Statement.Truncate s) {
            schemaChanges.truncate(s, undo);
            return Outcome.ok(1);
        } else if (st instanceof Statement.CreateTableAs s) {
            long n = schemaChanges.createTableAs(s, sql, undo); // -1: IF NOT EXISTS found the table
            return n < 0 ? Outcome.ok(0) : Outcome.ok(Math.max(n, 1));
        } else if (st instanceof Statement.DropIndex s) {
            return schemaChange(TableDdl.dropIndex(catalog, s, undo));
        } else if (st instanceof Statement.CreateView s) {
            return schemaChange(ViewDdl.createView(catalog, s,
                    () -> StatementPlanner.planQuery(catalog, s.query(), sql).outputs().size(), undo));
        } else if (st instanceof Statement.DropView s) {
            return schemaChange(ViewDdl.dropView(catalog, s, undo));
        } else if (st instanceof Statement.Maintenance s) { // regress25: ANALYZE / VACUUM
            for (int i = 0; i < s.tables().size(); i++) {
                String t = s.tables().get(i);
                io.respsql.storage.Table table = catalog.table(t);
                if (table == null && catalog.view(t) == null) {
                    throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + t + "\" does not exist");
                }
                for (String c : s.columns().get(i)) {
                    if (table != null && table.column(c) == null) {
                        throw new SqlException(SqlState.UNDEFINED_COLUMN,
                                "column \"" + c + "\" of relation \"" + t + "\" does not exist");
                    }
                }
            }
            return Outcome.ok(0);
        } else if (st instanceof Statement.Describe s) {
            return Outcome.lines(SchemaReport.describe(catalog, s));
        } else if (st instanceof Statement.Dump s) {
            return Outcome.lines(TableDump.dump(catalog, s));
        } else if (st instanceof Statement.ShowTables) {
            return Outcome.lines(SchemaReport.showTables(catalog));
        } else if (st instanceof Statement.ShowIndexes s) {
            return Outcome.lines(SchemaReport.showIndexes(catalog, s));
        } else if (st instanceof Statement.Explain s) {
            return Outcome.lines(explain(s.statement(), sql));
        }
        throw new IllegalStateException("no way to run " + st.getClass().getSimpleName());
    }

    /**
     * Runs a plan, cached ({@code params}: its parameters' values) or made for this text (null):
     * the one place a query, INSERT, UPDATE or DELETE plan runs and becomes an outcome.
     */
    private Outcome runPlan(Object plan, io.respsql.expr.ParamValues params, ResultSink results) {
        if (plan instanceof io.respsql.plan.PlannedQuery q) {
            q.runOnLoop(results, params, stop);
            return Outcome.rows();
        }
        if (plan instanceof InsertOperator ins ? ins.returnsRows() || ins.hasConflictClause()
                : plan instanceof UpdateOperator u ? u.returnsRows() : ((DeleteOperator) plan).returnsRows()) {
            return runAtomic(plan, params, results);
        }
        if (plan instanceof InsertOperator ins) {
            long n = ins.run(catalog, headroom, undo, params, writeStop);
            return ins.returnsSize() ? Outcome.integer(ins.tableBytes(), n) : Outcome.ok(n);
        } else if (plan instanceof UpdateOperator u) {
            return Outcome.count(u.run(catalog, rows, headroom, undo, params, writeStop));
        }
        return Outcome.count(((DeleteOperator) plan).run(rows, undo, params, writeStop));
    }

    /**
     * A write that replies rows (RETURNING) or may do more than one kind of change (ON CONFLICT):
     * outside a block it records its changes in an undo log of its own, so a failure after the
     * first change (a RETURNING expression's error, a conflict's UPDATE refused) takes all back.
     */
    private Outcome runAtomic(Object plan, io.respsql.expr.ParamValues params, ResultSink results) {
        UndoLog log = undo != null ? undo : new UndoLog(catalog);
        try {
            if (plan instanceof InsertOperator ins) {
                long n = ins.run(catalog, headroom, log, params, writeStop, results);
                return ins.returnsRows() ? Outcome.rowsWritten(n) : ins.returnsSize() ? Outcome.integer(ins.tableBytes(), n) : Outcome.ok(n);
            } else if (plan instanceof UpdateOperator u) {
                return Outcome.rowsWritten(u.run(catalog, rows, headroom, log, params, writeStop, results));
            }
            return Outcome.rowsWritten(((DeleteOperator) plan).run(rows, log, params, writeStop, results));
        } catch (RuntimeException | OutOfMemoryError e) {
            if (log != undo) {
                log.rollback();
            }
            throw e;
        }
    }

    /** DDL replies OK; it changed the catalog (1) or IF [NOT] EXISTS made it a no-op (0). */
    private static Outcome schemaChange(boolean changed) {
        return Outcome.ok(changed ? 1 : 0);
    }

    /** The plan a statement would use, without running it. */
    private List<String> explain(Statement st, String sql) {
        if (st instanceof Statement.Update s) {
            return WritePlanner.explainUpdate(catalog, s, sql);
        } else if (st instanceof Statement.Delete s) {
            return WritePlanner.explainDelete(catalog, s, sql);
        } else if (st instanceof Statement.Insert s) {
            return WritePlanner.explainInsert(catalog, s, sql);
        } else if (st instanceof Statement.QueryStatement q) {
            return StatementPlanner.planQuery(catalog, q.query(), sql).explain();
        }
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN supports SELECT, UPDATE, DELETE and INSERT");
    }
}
