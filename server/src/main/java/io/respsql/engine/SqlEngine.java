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
import io.respsql.protocol.ReplyAbortedException;
import io.respsql.protocol.RespWriter;
import io.respsql.protocol.Rows2010;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;
import io.respsql.storage.UndoLog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Entry point of the SQL pipeline: text → tokens → statement → plan → execution → reply.
 * Runs on the event-loop thread only. Every outcome is exactly one reply; a statement that
 * fails replies {@code -ERR ...} and leaves the data as it was.
 */
public final class SqlEngine {
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
    private final List<String> blockWrites = new ArrayList<>();
    private final LongArrayList blockChanges = new LongArrayList();
    /** Tables the block changed, marked changed (for WATCH) when it commits. */
    private final List<String> blockTouched = new ArrayList<>();
    private final TableVersions versions = new TableVersions();
    /** Result rows in the 2010 form, for callers that do not choose a form. */
    private final Rows2010 rows2010 = new Rows2010();
    /** Plans of text statements by their literal-free text, and the scratch of a lookup. */
    private final PlanCache cache = new PlanCache();
    private final LiteralScan scan = new LiteralScan();
    private final PreparedStatements prepared;
    private io.respsql.config.ServerConfig cacheConfig;
    private final io.respsql.expr.ParamValues params = new io.respsql.expr.ParamValues(16);
    /** Set only for the statement being executed by {@link #execute(CharSequence, RespWriter, ResultSink, Offload)}. */
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
        this.prepared = new PreparedStatements(catalog);
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
    }

    public boolean inBlock() {
        return undo != null;
    }

    /** Keeps the block's changes: tells the listener of its writes as one group, and marks its tables changed. */
    public void commitBlock() {
        undo = null;
        try {
            if (!blockWrites.isEmpty()) {
                listener.blockBegun();
                for (int i = 0; i < blockWrites.size(); i++) {
                    String sql = blockWrites.get(i);
                    if (sql == null) {
                        listener.flushedAll();
                    } else {
                        listener.committed(sql, blockChanges.getLong(i));
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
        clearBlock();
        if (log != null) {
            log.rollback();
        }
    }

    private void clearBlock() {
        blockWrites.clear();
        blockChanges.clear();
        blockTouched.clear();
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

    /**
     * Executes one statement and writes exactly one reply (a result or an {@code -ERR}). When a
     * failure comes after part of a streamed reply already left, no error can be appended: the
     * writer is left broken and the connection closes ({@link RespWriter#discardReply}).
     * Returns what it did ({@link Outcome}: rows changed, or the error). Inside a block ({@link #beginBlock}) its changes
     * are recorded for a rollback and told to the commit listener only when the block commits.
     */
    public Outcome execute(String sql, RespWriter out) {
        return execute(sql, out, rows2010.on(out));
    }

    /**
     * {@link #execute(String, RespWriter)} with the result rows of a SELECT going to
     * {@code results}, a sink encoding into {@code out} (the 2010 rows or the typed form).
     * Every other reply (counts, OK, errors, DESC, EXPLAIN) is written to {@code out} as always.
     */
    public Outcome execute(String sql, RespWriter out, ResultSink results) {
        return execute(sql, out, results, null);
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
    }

    /**
     * {@link #execute(String, RespWriter, ResultSink)}; a query may go to {@code offload} (null:
     * always inline; never inside a block). An offloaded query writes nothing here and returns READ.
     * {@code sql} is a String or a request's bytes viewed as text ({@link AsciiText}): a plan-cache
     * hit runs from the view, and the String is made only where one is needed (a miss, a block).
     */
    public Outcome execute(CharSequence sql, RespWriter out, ResultSink results, Offload offload) {
        this.offload = undo == null ? offload : null;
        parsed = null;
        parsedText = null;
        moveOff = false;
        armStop();
        out.onReplyLeaving(replyLeaving);
        try {
            if (cacheConfig != null) {
                followCacheConfig();
            }
            // a plan made with indexes switched off (SET use_indexes = off) is neither cached nor taken from the cache
            if (cache.enabled() && !io.respsql.plan.IndexUse.off() && PlanCache.candidate(sql)) {
                Outcome o = executeCached(sql, out, results);
                if (o != null) {
                    return o;
                }
            }
            return executeText(sql.toString(), out, results);
        } finally {
            out.onReplyLeaving(null);
            this.offload = null;
            parsed = null;
            parsedText = null;
            sessionTimeoutMs = -1;
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
    public long planCacheHits() {
        return cache.hits;
    }

    public long planCacheMisses() {
        return cache.misses;
    }

    public int planCacheEntries() {
        cache.validate(catalog.schemaVersion());
        return cache.size();
    }

    public long planCacheBytes() {
        cache.validate(catalog.schemaVersion());
        return cache.bytes();
    }

    /**
     * Runs {@code sql} through a cached plan (made now on a miss); null when the plain path must
     * answer: the text cannot be cached, does not parse, or its cached run failed (a failed
     * statement changes nothing, so the plain path then gives the exact reply, error or not).
     */
    private Outcome executeCached(CharSequence sql, RespWriter out, ResultSink results) {
        // An INSERT is scanned once whatever its size: a few literals take the cache, more are streamed.
        boolean insert = LiteralScan.wordIs(sql, firstWord(sql), "INSERT");
        if (!scan.scan(sql, insert ? MAX_BULK_LITERALS : LiteralScan.MAX_LITERALS)) {
            cache.misses++;
            return null;
        }
        if (insert && scan.count > LiteralScan.MAX_INSERT_LITERALS) {
            cache.misses++;
            return executeBulk(sql.toString(), out);
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
        long mark = out.mark();
        if (writeGuard != null && e.write) {
            String refusal = writeGuard.refusal();
            if (refusal != null) {
                out.error(refusal);
                return refused(refusal);
            }
        }
        try {
            long changes;
            if (e.plan instanceof io.respsql.plan.PlannedQuery q) {
                q.runOnLoop(results, params, stop);
                changes = -1;
            } else if (e.plan instanceof InsertOperator ins) {
                changes = inserted(ins, ins.run(catalog, headroom, undo, params, null), out);
            } else if (e.plan instanceof UpdateOperator u) {
                changes = u.run(catalog, rows, headroom, undo, params, writeStop);
                out.integer(changes);
            } else {
                changes = ((DeleteOperator) e.plan).run(rows, undo, params, writeStop);
                out.integer(changes);
            }
            if (fresh) {
                cache.misses++; // planned now: the next text of this shape is the hit
            } else {
                cache.hits++;
            }
            return took(changes, sql, e.touched);
        } catch (ReplyAbortedException x) {
            out.breakReply();
            return Outcome.failed(SqlState.CONNECTION_FAILURE, "ERR reply aborted: the client could not take more of it");
        } catch (RuntimeException | OutOfMemoryError x) {
            if (x instanceof OutOfMemoryError) {
                rows = new IntArrayList(); // as the plain path: let the row buffer go; it replies -OOM if it runs out too
            }
            if (writeStop.cancelled()) {
                String error = "ERR " + writeStop.reason(); // stopped before its first change: nothing to take back
                fail(out, mark, error);
                return Outcome.failed(SqlState.QUERY_CANCELED, error);
            }
            if (stop.cancelled()) {
                // Stopped, not failed: running it again inline would only overrun again.
                if (stop.loopBoundHit() && offload != null && out.discardReply(mark)) {
                    moveOff = true; // the plain path plans it again and hands it to a worker
                    return null;
                }
                String error = "ERR " + stop.reason();
                fail(out, mark, error);
                return Outcome.failed(SqlState.QUERY_CANCELED, error);
            }
            if (out.discardReply(mark)) {
                cache.misses++;
                return null;
            }
            LOG.error("statement failed: {}", abbreviate(sql.toString()), x);
            return Outcome.failed(SqlState.INTERNAL_ERROR, "ERR internal error: " + x);
        } finally {
            if (rows.elements().length > KEEP_BUFFER) {
                rows = new IntArrayList();
            }
        }
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
    private Outcome executeBulk(String sql, RespWriter out) {
        long mark = out.mark();
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
                    || !WritePlanner.startBulk(catalog, ins, bulk) || bulk.width() != values.width() || !values.readRows(sql, bulk)) {
                return null;
            }
            if (writeGuard != null) {
                String refusal = writeGuard.refusal();
                if (refusal != null) {
                    out.error(refusal);
                    return refused(refusal);
                }
            }
            long changes = bulk.write(catalog, headroom, undo);
            out.ok();
            bulkInserts++;
            return took(changes, sql, ins.table());
        } catch (RuntimeException | OutOfMemoryError x) {
            if (out.discardReply(mark)) {
                return null; // nothing was written: the plain path answers, error or not
            }
            LOG.error("statement failed: {}", abbreviate(sql), x);
            return Outcome.failed(SqlState.INTERNAL_ERROR, "ERR internal error: " + x);
        } finally {
            bulk.release();
            scan.trim();
        }
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
        if (st instanceof Statement.Insert ins) {
            InsertOperator plan;
            try {
                plan = WritePlanner.planCachedInsert(catalog, ins, sql, this::parameterOf, scan.count);
            } catch (RuntimeException e) {
                plan = null; // no such table or column: the plain path replies
            }
            return new PlanCache.Entry(key, scan.hash, plan, true, ins.table());
        }
        Statement p = Parameterizer.rewrite(st, scan);
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
        return new PlanCache.Entry(key, scan.hash, plan, isWrite(p), touchedTable(p));
    }

    /** The parameter a literal of the scanned text becomes (-1: the scan saw it otherwise). */
    private int parameterOf(io.respsql.sql.tree.Expr.Literal l) {
        int i = scan.literalAt(l.start(), l.end());
        return i >= 0 && LiteralScan.kindOf(scan.kinds[i]) == l.kind() ? i : -1;
    }

    // ---- prepared statements ---------------------------------------------------------------------

    /**
     * {@code PREPARE <name> <statement>} and {@code DEALLOCATE <name>} as statement texts: logged
     * (and replicated) like writes, so prepared statements survive a restart and reach replicas.
     * EXECUTE comes through {@link #executePrepared}.
     */
    private Outcome prepareOrDeallocate(String verb, String sql, RespWriter out) {
        try {
            String[] nr = PreparedStatements.nameAndRest(sql, verb);
            if (verb.equals("EXECUTE")) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "EXECUTE takes its values as separate arguments: EXECUTE <name> [value ...]");
            }
            if (writeGuard != null) {
                String refusal = writeGuard.refusal();
                if (refusal != null) {
                    out.error(refusal);
                    return refused(refusal);
                }
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
            out.ok();
            return took(1, sql, null);
        } catch (SqlException e) {
            out.error("ERR " + e.getMessage());
            return Outcome.failed(e);
        }
    }

    /** {@code EXECUTE <name> [value ...]}: the prepared statement with the values checked and in place, run as text. */
    public Outcome executePrepared(String name, List<String> values, RespWriter out, ResultSink results) {
        return executePrepared(name, values, out, results, null);
    }

    /** {@link #executePrepared(String, List, RespWriter, ResultSink)}; a query may go to {@code offload}. */
    public Outcome executePrepared(String name, List<String> values, RespWriter out, ResultSink results, Offload offload) {
        String sql;
        try {
            sql = prepared.bind(name, values);
        } catch (SqlException e) {
            sessionTimeoutMs = -1;
            out.error("ERR " + e.getMessage());
            return Outcome.failed(e);
        }
        return execute(sql, out, results, offload);
    }

    public Outcome executePrepared(String name, List<String> values, RespWriter out) {
        return executePrepared(name, values, out, rows2010.on(out));
    }

    /** The prepared statements as PREPARE texts, in the order they were first prepared. */
    public List<String> preparedStatements() {
        List<String> out = new ArrayList<>();
        for (io.respsql.storage.PreparedDef p : catalog.preparedStatements()) {
            out.add("PREPARE " + p.name() + " " + p.text());
        }
        return out;
    }

    /** After a statement ran: tells the listener of a write (or queues it in a block), marks its table changed. */
    private Outcome took(long changes, CharSequence sql, String touched) {
        if (changes >= 0) {
            boolean changedData = changes > 0; // an UPDATE that matched nothing, a DDL no-op (IF [NOT] EXISTS): WATCH sees no change
            if (undo != null) {
                blockWrites.add(sql.toString()); // kept until EXEC: the text, not a view of a request
                blockChanges.add(changes);
                if (changedData) {
                    blockTouched.add(touched);
                }
            } else {
                listener.committedText(sql, changes);
                if (changedData) {
                    versions.changed(touched);
                }
            }
        }
        return changes >= 0 ? Outcome.wrote(changes) : Outcome.READ;
    }

    private Outcome executeText(String sql, RespWriter out, ResultSink results) {
        long mark = out.mark();
        String error;
        String code;
        String verb = PreparedStatements.verb(sql);
        if (verb != null) {
            return prepareOrDeallocate(verb, sql, out);
        }
        try {
            Statement st = parsedText == sql && parsed != null ? parsed : SqlParser.parse(sql);
            parsed = null;
            parsedText = null;
            if (writeGuard != null && isWrite(st)) {
                String refusal = writeGuard.refusal();
                if (refusal != null) {
                    out.error(refusal);
                    return refused(refusal);
                }
            }
            String touched = touchedTable(st);
            if (isWrite(st) && !(st instanceof Statement.Insert || st instanceof Statement.Update
                    || st instanceof Statement.Delete)) {
                catalog.schemaChanged(); // DDL: cached plans go, whatever the DDL does to the catalog
            }
            long changes = run(st, sql, out, results);
            return took(changes, sql, touched);
        } catch (SqlException e) {
            error = "ERR " + e.getMessage();
            code = e.sqlState();
        } catch (ReplyAbortedException e) {
            out.breakReply(); // the client may not be sent more; only reads stream, so no data changed
            return Outcome.failed(SqlState.CONNECTION_FAILURE, "ERR reply aborted: the client could not take more of it");
        } catch (OutOfMemoryError e) {
            rows = new IntArrayList(); // let the row buffer go before replying
            LOG.warn("statement ran out of memory (JVM max heap {} MB): {}", Runtime.getRuntime().maxMemory() >> 20,
                    abbreviate(sql));
            error = OOM_REPLY;
            code = SqlState.OUT_OF_MEMORY;
        } catch (RuntimeException e) {
            LOG.error("statement failed: {}", abbreviate(sql), e);
            error = "ERR internal error: " + e;
            code = SqlState.INTERNAL_ERROR;
        } finally {
            if (rows.elements().length > KEEP_BUFFER) {
                rows = new IntArrayList();
            }
        }
        fail(out, mark, error);
        return Outcome.failed(code, error);
    }

    /** A write refused by the {@link WriteGuard} (-READONLY on a replica, -MISCONF, -NOREPLICAS). */
    private static Outcome refused(String refusal) {
        return Outcome.failed(refusal.startsWith("READONLY") ? SqlState.READ_ONLY_SQL_TRANSACTION
                : SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, refusal);
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
        } else if (st instanceof Statement.DropIndex s) {
            Table owner = catalog.indexOwner(s.index());
            return owner == null ? null : owner.name();
        }
        return null;
    }

    /** Replaces the partial reply with {@code error}, unless part of it already left. */
    private static void fail(RespWriter out, long mark, String error) {
        if (out.discardReply(mark)) {
            out.error(error);
        }
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 200 ? sql : sql.substring(0, 200) + "... (" + sql.length() + " chars)";
    }

    private static boolean isWrite(Statement st) {
        return st instanceof Statement.Insert || st instanceof Statement.Update || st instanceof Statement.Delete
                || st instanceof Statement.CreateTable || st instanceof Statement.CreateIndex
                || st instanceof Statement.CreateView || st instanceof Statement.DropTable
                || st instanceof Statement.DropIndex || st instanceof Statement.DropView;
    }

    /**
     * Runs the statement; returns the rows it changed for a write (1 for a schema change, 0 for
     * one IF [NOT] EXISTS made a no-op), -1 for a read.
     */
    private long run(Statement st, String sql, RespWriter out, ResultSink results) {
        if (st instanceof Statement.QueryStatement q) {
            io.respsql.plan.PlannedQuery p = StatementPlanner.plan(catalog, q.query(), sql);
            if (moveOff && offload.offer(q, sql, p, true)) {
                return -1;
            }
            if (offload == null || !offload.offer(q, sql, p)) {
                long mark = out.mark();
                try {
                    p.runOnLoop(results, null, stop);
                } catch (SqlException e) {
                    // Over the event-loop bound with nothing of the reply sent: a worker runs it
                    // again from the start (the data cannot have changed: the loop was busy with it).
                    if (stop.loopBoundHit() && offload != null && out.discardReply(mark)
                            && offload.offer(q, sql, p, true)) {
                        return -1;
                    }
                    throw e;
                }
            }
        } else if (st instanceof Statement.Insert s) {
            InsertOperator ins = WritePlanner.planInsert(catalog, s, sql);
            return inserted(ins, ins.run(catalog, headroom, undo, null, writeStop), out);
        } else if (st instanceof Statement.Update s) {
            long n = WritePlanner.planUpdate(catalog, s, sql).run(catalog, rows, headroom, undo, null, writeStop);
            out.integer(n);
            return n;
        } else if (st instanceof Statement.Delete s) {
            long n = WritePlanner.planDelete(catalog, s, sql).run(rows, undo, null, writeStop);
            out.integer(n);
            return n;
        } else if (st instanceof Statement.CreateTable s) {
            return TableDdl.createTable(catalog, s, sql, undo, out, WritePlanner::defaultValue) ? 1 : 0;
        } else if (st instanceof Statement.CreateIndex s) {
            return TableDdl.createIndex(catalog, s, undo, out) ? 1 : 0;
        } else if (st instanceof Statement.DropTable s) {
            return TableDdl.dropTable(catalog, s, undo, out) ? 1 : 0;
        } else if (st instanceof Statement.DropIndex s) {
            return TableDdl.dropIndex(catalog, s, undo, out) ? 1 : 0;
        } else if (st instanceof Statement.CreateView s) {
            return ViewDdl.createView(catalog, s, () -> StatementPlanner.planQuery(catalog, s.query(), sql).outputs().size(),
                    undo, out) ? 1 : 0;
        } else if (st instanceof Statement.DropView s) {
            return ViewDdl.dropView(catalog, s, undo, out) ? 1 : 0;
        } else if (st instanceof Statement.Describe s) {
            SchemaReport.describe(catalog, s, out);
        } else if (st instanceof Statement.Dump s) {
            TableDump.dump(catalog, s, out);
        } else if (st instanceof Statement.ShowTables) {
            SchemaReport.showTables(catalog, out);
        } else if (st instanceof Statement.ShowIndexes s) {
            SchemaReport.showIndexes(catalog, s, out);
        } else if (st instanceof Statement.Explain s) {
            List<String> lines = explain(s.statement(), sql);
            out.arrayHeader(lines.size());
            for (String l : lines) {
                out.bulk(l);
            }
        }
        return -1;
    }

    /** An INSERT's reply, as it was always written: the table's size for RETURN SIZE, else OK. Returns {@code n}. */
    private static long inserted(InsertOperator ins, long n, RespWriter out) {
        if (ins.returnsSize()) {
            out.integer(ins.tableBytes());
        } else {
            out.ok();
        }
        return n;
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
