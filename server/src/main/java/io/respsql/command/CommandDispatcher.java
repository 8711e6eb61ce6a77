package io.respsql.command;

import io.respsql.exec.SqlEngine;
import io.respsql.protocol.ReplyAbortedException;
import io.respsql.info.MemoryAccounting;
import io.respsql.info.ServerStats;
import io.respsql.client.Session;
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

    /** Refuses DENYOOM commands with {@code -OOM} while {@code memory} is over the limit. */
    public CommandDispatcher memory(MemoryAccounting memory) {
        this.memory = memory;
        return this;
    }

    public CommandTable table() {
        return table;
    }

    /** Executes {@code args} for {@code session}; the reply is appended to {@code out}'s target. */
    public void dispatch(Session session, CommandArgs args, RespWriter out) {
        long start = out.mark();
        CommandSpec spec = table.lookup(args.get(0));
        if (spec == null) {
            Replies.unknownCommand(out, args);
        } else {
            if (spec.subcommands() != null && args.count() >= 2) {
                CommandSpec sub = spec.subcommands().lookup(args.get(1));
                if (sub == null) {
                    spec.rejectedCalls++;
                    Replies.unknownSubcommand(out, spec, args);
                    spec = null;
                } else {
                    spec = sub;
                }
            }
            if (spec != null) {
                if (!spec.arityAccepts(args.count())) {
                    spec.rejectedCalls++;
                    Replies.wrongArity(out, spec);
                } else if (!session.authenticated() && config.passwordRequired()
                        && !(spec.parent() != null ? spec.parent() : spec).hasFlag(CommandFlags.NO_AUTH)) {
                    // As Redis: unknown commands and wrong arity are reported first, then the lock.
                    out.error("NOAUTH Authentication required.");
                } else if (session.inPubSub() && session.protocol() == 2
                        && !(spec.parent() != null ? spec.parent() : spec).hasFlag(CommandFlags.PUBSUB_CONTEXT)) {
                    // A RESP2 subscriber's stream carries messages: replies of other commands would mix with them.
                    spec.rejectedCalls++;
                    out.error("ERR Can't execute '" + spec.fullName() + "': only (P|S)SUBSCRIBE / "
                            + "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
                } else if (memory != null && spec.hasFlag(CommandFlags.DENYOOM) && memory.overLimit()) {
                    spec.rejectedCalls++;
                    out.error(SqlEngine.OOM_REPLY);
                } else {
                    execute(spec, session, args, out, start);
                }
            }
        }
        if (out.broken()) {
            return; // part of the reply left and the rest cannot follow: the connection closes
        }
        if (out.nothingSince(start)) {
            if (spec != null && spec.hasFlag(CommandFlags.NO_REPLY)) {
                return;
            }
            log.warn("command {} wrote no reply", spec);
            out.error("ERR internal error: no reply");
        }
        if (out.errorSince(start)) {
            stats.countError(out.target(), (int) start);
        }
    }

    private void execute(CommandSpec spec, Session session, CommandArgs args, RespWriter out, long start) {
        session.commandStarted(spec.fullName(), stats.clockMillis());
        stats.totalCommandsProcessed++;
        long began = System.nanoTime();
        try {
            spec.handler().execute(session, args, out);
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
        long elapsed = System.nanoTime() - began;
        spec.recordCall(elapsed, out.broken() || out.errorSince(start));
        long micros = elapsed / 1000;
        if (stats.slowLog.isSlow(micros) && !(spec.parent() != null ? spec.parent() : spec).hasFlag(CommandFlags.SKIP_SLOWLOG)) {
            stats.slowLog.add(args, micros, session.addr(), session.name());
        }
    }
}
