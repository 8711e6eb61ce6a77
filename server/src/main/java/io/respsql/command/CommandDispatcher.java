package io.respsql.command;

import io.respsql.engine.SqlEngine;
import io.respsql.result.ReplyAbortedException;
import io.respsql.info.DeferredCall;
import io.respsql.info.MemoryAccounting;
import io.respsql.info.ServerStats;
import io.respsql.client.Session;
import io.respsql.client.Transaction;
import io.respsql.config.ServerConfig;
import io.respsql.protocol.RespWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one request: finds the command (and subcommand) in the table, checks arity, calls the
 * handler, and counts. It is the boundary where a failing handler is turned into an error reply,
 * so an exception never reaches the event loop and a client always gets exactly one reply.
 *
 * <p>Per command it counts calls, handler time, failed calls (error replies) and rejected calls
 * (wrong arity; an unknown subcommand is counted on its container), and feeds a latency
 * histogram. A subcommand is counted under its full name, e.g. {@code config|get}, as Redis does.
 * Commands at least {@code slowlog-log-slower-than} microseconds long go to the SLOWLOG.
 *
 * <p>A command whose reply comes later (a query run in the background) is recorded once, when
 * its reply is written, with its whole time ({@link #deferCall}).
 */
public final class CommandDispatcher {
    private static final Logger log = LoggerFactory.getLogger(CommandDispatcher.class);

    private final CommandTable table;
    private final ServerStats stats;
    private final ServerConfig config;
    /** Null: no maxmemory check (unit tests of the dispatcher). */
    private MemoryAccounting memory;

    public CommandDispatcher(CommandTable table, ServerStats stats) {
        this(table, stats, new ServerConfig());
    }

    public CommandDispatcher(CommandTable table, ServerStats stats, ServerConfig config) {
        this.table = table;
        this.stats = stats;
        this.config = config;
    }

    /** Told after each command flagged {@code write} ran (replication notes the client's stream offset for WAIT). */
    private java.util.function.Consumer<Session> afterWrite = s -> { };

    public CommandDispatcher afterWrite(java.util.function.Consumer<Session> hook) {
        this.afterWrite = hook == null ? s -> { } : hook;
        return this;
    }

    /**
     * Tells the write hook that {@code session} just wrote outside the per-command path: EXEC,
     * whose block reaches the replication stream only when it commits, after its queued commands ran.
     */
    public void noteWrite(Session session) {
        afterWrite.accept(session);
    }

    /** Why writes are refused now (-READONLY, -NOREPLICAS, -MISCONF), or null; asked while queueing in MULTI. */
    private java.util.function.Supplier<String> writeRefusal = () -> null;

    public CommandDispatcher writeRefusal(java.util.function.Supplier<String> refusal) {
        this.writeRefusal = refusal == null ? () -> null : refusal;
        return this;
    }

    /** Why a block whose queued commands include writes cannot run now, or null (asked by EXEC). */
    String writeRefusal() {
        return writeRefusal.get();
    }

    /** Whether the data set is loading (startup): commands not flagged {@code loading} are refused. */
    private java.util.function.BooleanSupplier loading = () -> false;

    /** Refuses every command not flagged {@code loading} with {@code -LOADING} while {@code loading} says so (as Redis). */
    public CommandDispatcher loading(java.util.function.BooleanSupplier loading) {
        this.loading = loading == null ? () -> false : loading;
        return this;
    }

    /** Refuses DENYOOM commands with {@code -OOM} while {@code memory} is over the limit. */
    public CommandDispatcher memory(MemoryAccounting memory) {
        this.memory = memory;
        return this;
    }

    public CommandTable table() {
        return table;
    }

    /** ACL users (null: no ACL checks, only requirepass; unit tests of the dispatcher). */
    private io.respsql.acl.Acl acl;

    public CommandDispatcher acl(io.respsql.acl.Acl acl) {
        this.acl = acl;
        return this;
    }

    /** Whether a new connection starts unauthenticated (requirepass, or the default user needs a password or is off). */
    public boolean authRequired() {
        return acl != null ? acl.authRequired() : config.passwordRequired();
    }

    /**
     * Whether the session's ACL user may run {@code spec} (the subcommand when there is one);
     * false with the NOPERM error written and the denial in ACL LOG. Costs a field read for an
     * unrestricted user (the default configuration's default user).
     */
    private boolean permitted(Session session, CommandSpec spec, CommandSpec top, Transaction tx, RespWriter out) {
        io.respsql.acl.AclUser u = session.user() != null ? session.user() : acl.defaultUser();
        if (u.unrestricted() || top.hasFlag(CommandFlags.NO_AUTH)) {
            return true;
        }
        if (u.mayRun(spec.fullName())) {
            return true;
        }
        acl.log("command", tx != null ? "multi" : "toplevel", spec.fullName(), u.name(), clientInfo(session));
        out.error(io.respsql.acl.Acl.commandDenied(u, spec.fullName()));
        return false;
    }

    /** The session whose command runs now (null between commands). */
    Session currentSession() {
        return callSession;
    }

    /** The CLIENT INFO line of a session, for ACL LOG. */
    public String clientInfo(Session session) {
        StringBuilder sb = new StringBuilder();
        session.appendInfoLine(sb, stats.clockMillis());
        return sb.toString();
    }

    /**
     * Executes {@code args} for {@code session}; the reply is appended to {@code out}'s target.
     * Returns the error the command replied (without '-'), or null when it did not fail (EXEC
     * decides on it).
     */
    public String dispatch(Session session, CommandArgs args, RespWriter out) {
        long start = out.mark();
        // Taken (and cleared) whatever this request turns out to be: a request answered without
        // executing (unknown, refused, queued in MULTI) is not timed, and must not be charged to
        // the next command either.
        boolean chainedClock = haveClockMark;
        haveClockMark = false;
        CommandSpec spec = table.lookup(args.get(0));
        Transaction tx = session.transaction();
        if (spec == null) {
            Replies.unknownCommand(out, args);
            failQueueing(tx);
        } else {
            if (spec.subcommands() != null && args.count() >= 2) {
                CommandSpec sub = spec.subcommands().lookup(args.get(1));
                if (sub == null) {
                    spec.rejectedCalls++;
                    Replies.unknownSubcommand(out, spec, args);
                    failQueueing(tx);
                    spec = null;
                } else {
                    spec = sub;
                }
            }
            if (spec != null) {
                CommandSpec top = spec.parent() != null ? spec.parent() : spec;
                if (!spec.arityAccepts(args.count())) {
                    spec.rejectedCalls++;
                    Replies.wrongArity(out, spec);
                    failQueueing(tx);
                } else if (!session.authenticated() && authRequired()
                        && !top.hasFlag(CommandFlags.NO_AUTH)) {
                    // As Redis: unknown commands and wrong arity are reported first, then the lock.
                    out.error("NOAUTH Authentication required.");
                    failQueueing(tx);
                } else if (acl != null && !permitted(session, spec, top, tx, out)) {
                    spec.rejectedCalls++;
                    failQueueing(tx);
                } else if (session.inPubSub() && session.protocol() == 2
                        && !top.hasFlag(CommandFlags.PUBSUB_CONTEXT)) {
                    // A RESP2 subscriber's stream carries messages: replies of other commands would mix with them.
                    spec.rejectedCalls++;
                    out.error("ERR Can't execute '" + spec.fullName() + "': only (P|S)SUBSCRIBE / "
                            + "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
                } else if (memory != null && spec.hasFlag(CommandFlags.DENYOOM) && memory.overLimit()) {
                    spec.rejectedCalls++;
                    out.error(SqlEngine.OOM_REPLY);
                    failQueueing(tx);
                } else if (!spec.hasFlag(CommandFlags.LOADING) && loading.getAsBoolean()) {
                    // As Redis: while the data set loads only commands flagged "loading" run (INFO,
                    // AUTH, HELLO, CONFIG, ...); clients know the LOADING prefix and retry.
                    spec.rejectedCalls++;
                    out.error(io.respsql.persist.LoadProgress.LOADING_REPLY);
                    failQueueing(tx);
                } else if (tx != null && top.hasFlag(CommandFlags.NO_MULTI)) {
                    spec.rejectedCalls++;
                    out.error("ERR Command not allowed inside a transaction");
                    failQueueing(tx);
                } else if (tx != null && !top.hasFlag(CommandFlags.NOT_QUEUED)) {
                    queue(tx, spec, top, args, out);
                } else {
                    execute(spec, session, args, out, start, chainedClock ? clockMark : System.nanoTime());
                }
            }
        }
        if (out.broken()) {
            return null; // part of the reply left and the rest cannot follow: the connection closes
        }
        if (out.nothingSince(start)) {
            if (spec != null && spec.hasFlag(CommandFlags.NO_REPLY) || session.isBlocked()) {
                return null; // a blocked client's reply comes later (WAIT, a query run in the background)
            }
            log.warn("command {} wrote no reply", spec);
            out.error("ERR internal error: no reply");
        }
        String error = out.errorAt(start);
        if (error != null) {
            stats.countErrorReply(error);
        }
        return error;
    }

    /** A command refused while the client is in MULTI makes its EXEC fail (Redis's flagTransaction). */
    private static void failQueueing(Transaction tx) {
        if (tx != null) {
            tx.fail();
        }
    }

    /**
     * Between MULTI and EXEC: keeps a copy of the command for EXEC and replies {@code +QUEUED}. A SQL
     * statement must parse now; one that does not is refused here and fails the transaction.
     */
    private void queue(Transaction tx, CommandSpec spec, CommandSpec top, CommandArgs args, RespWriter out) {
        String error = null;
        if ("sql".equals(top.group())) {
            error = SqlCommands.invalidText(top, args);
            String text = error == null ? SqlCommands.statementText(top, args) : null;
            Boolean dialect = text == null ? null : SessionSettings.dialectSet(text);
            if (dialect != null) {
                tx.postgres(dialect); // the statements queued after it run (and are checked) in that dialect
            } else if (text != null && !StatementTimeout.names(text)) { // SET statement_timeout: answered at EXEC
                boolean prior = io.respsql.sql.Dialect.set(tx.postgres());
                try {
                    error = SqlEngine.checkQueued(text, writeRefusal.get());
                } finally {
                    io.respsql.sql.Dialect.set(prior);
                }
            }
        } else if (spec.hasFlag(CommandFlags.WRITE) || top.hasFlag(CommandFlags.WRITE)) {
            error = writeRefusal.get(); // as Redis: FLUSHALL in MULTI on a read-only replica is refused now
        }
        if (error != null) {
            out.error(error);
            tx.fail();
            return;
        }
        byte[][] copy = new byte[args.count()][];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = args.bytes(i);
        }
        tx.add(copy, spec.flags() | top.flags());
        out.simple("QUEUED");
    }

    // Timing a batch of pipelined requests (one read's worth) with one clock read per command
    // instead of two: within a batch a command's time runs from the end of the one executed just
    // before it, so it also counts parsing and looking up its own request (tens of nanoseconds).
    // The first command of a batch, and one after anything else (a rejected or queued request, an
    // early write of replies), reads the clock itself. clock_gettime was ~7% of the serving
    // thread's samples for PING -P 16 (bench/wire-path/*-pingsys).
    private boolean batchClock;
    private boolean haveClockMark;
    private long clockMark;

    /** The requests of one read follow, served back to back (event loop; until {@link #endBatch}). */
    public void beginBatch() {
        batchClock = true;
        haveClockMark = false;
    }

    /** Something not part of the next request ran (replies were written): it reads the clock afresh. */
    public void breakBatchClock() {
        haveClockMark = false;
    }

    /** The batch is over: later commands read the clock at their start (blocked clients resumed, scripts, ...). */
    public void endBatch() {
        batchClock = false;
        haveClockMark = false;
    }

    // The call in progress, for deferCall (event loop; EXEC runs calls inside its own, so execute
    // saves and restores them).
    private CommandSpec callSpec;
    private Session callSession;
    private CommandArgs callArgs;
    private long callBegan;
    private boolean callDeferred;

    /**
     * Called by the handler running now when its reply will be written later (a query handed to a
     * worker, {@link io.respsql.engine.BackgroundQueries}): the dispatcher then records nothing for
     * this call, and the returned record does, once, when told the reply was written. Its time runs
     * from this call's start (as an inline command's) to that moment. The SLOWLOG arguments are
     * copied now, since the request's buffers are reused once the handler returns. Null when no
     * call is running.
     */
    public DeferredCall deferCall() {
        if (callSpec == null || callDeferred) {
            return null;
        }
        callDeferred = true;
        byte[][] args = skipsSlowlog(callSpec) ? null : io.respsql.info.SlowLog.capture(callArgs);
        return new Deferred(callSpec, callBegan, args, callSession.addr(), callSession.name());
    }

    private final class Deferred implements DeferredCall {
        private final CommandSpec spec;
        private final long began;
        private final byte[][] args;
        private final String addr;
        private final String name;
        private boolean done;

        Deferred(CommandSpec spec, long began, byte[][] args, String addr, String name) {
            this.spec = spec;
            this.began = began;
            this.args = args;
            this.addr = addr;
            this.name = name;
        }

        @Override
        public void complete(boolean failed) {
            if (done) {
                return;
            }
            done = true;
            long micros = record(spec, System.nanoTime() - began, failed);
            if (args != null && stats.slowLog.isSlow(micros)) {
                stats.slowLog.add(args, micros, addr, name);
            }
        }
    }

    private void execute(CommandSpec spec, Session session, CommandArgs args, RespWriter out, long start,
            long began) {
        session.commandStarted(spec.fullName(), stats.clockMillis());
        stats.totalCommandsProcessed++;
        CommandSpec outerSpec = callSpec;
        Session outerSession = callSession;
        CommandArgs outerArgs = callArgs;
        long outerBegan = callBegan;
        boolean outerDeferred = callDeferred;
        callSpec = spec;
        callSession = session;
        callArgs = args;
        callBegan = began;
        callDeferred = false;
        try {
            spec.handler().execute(session, args, out);
            if (spec.hasFlag(CommandFlags.WRITE)) {
                afterWrite.accept(session);
            }
        } catch (ReplyAbortedException e) {
            out.breakReply();
        } catch (Throwable t) {
            // Drop whatever part of a reply was written, then answer with one error (if none of
            // it left yet; otherwise the connection closes).
            if (out.discardReply(start)) {
                if (t instanceof OutOfMemoryError) {
                    log.warn("command {} ran out of memory for client {}", spec.fullName(), session.id());
                    out.error(SqlEngine.OOM_REPLY);
                } else {
                    String msg = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
                    log.warn("command {} failed for client {}", spec.fullName(), session.id(), t);
                    out.error("ERR internal error: " + msg);
                }
            }
        }
        long ended = System.nanoTime();
        long elapsed = ended - began;
        if (batchClock) {
            clockMark = ended;
            haveClockMark = true;
        }
        boolean deferred = callDeferred;
        callSpec = outerSpec;
        callSession = outerSession;
        callArgs = outerArgs;
        callBegan = outerBegan;
        callDeferred = outerDeferred;
        if (deferred) {
            return; // recorded when its reply is written (deferCall)
        }
        long micros = record(spec, elapsed, out.broken() || out.errorAt(start) != null);
        if (stats.slowLog.isSlow(micros) && !skipsSlowlog(spec) && !carriesPassword(spec, args)) {
            stats.slowLog.add(args, micros, session.addr(), session.name());
        }
    }

    /** Counts one call of {@code spec} that took {@code elapsedNanos}; returns its microseconds. */
    private long record(CommandSpec spec, long elapsedNanos, boolean failed) {
        spec.recordCall(elapsedNanos, failed);
        long micros = elapsedNanos / 1000;
        // As Redis: the latency monitor's "command" and "fast-command" events, in milliseconds.
        stats.latency.addIfNeeded(spec.hasFlag(CommandFlags.FAST) ? "fast-command" : "command", micros / 1000,
                stats.clockMillis());
        return micros;
    }

    /**
     * Whether a SQL request may carry a password (acl): a statement naming PASSWORD (CREATE/ALTER
     * USER) never reaches the SLOWLOG. (CONFIG SET requirepass/masterauth is logged redacted: SlowLog.)
     */
    static boolean carriesPassword(CommandSpec spec, CommandArgs args) {
        if (!"sql".equals(spec.group())) {
            return false;
        }
        for (int i = 0; i < args.count(); i++) {
            if (args.string(i).toLowerCase(java.util.Locale.ROOT).contains("password")) {
                return true;
            }
        }
        return false;
    }

    private static boolean skipsSlowlog(CommandSpec spec) {
        return spec.hasFlag(CommandFlags.SKIP_SLOWLOG)
                || (spec.parent() != null && spec.parent().hasFlag(CommandFlags.SKIP_SLOWLOG));
    }
}
