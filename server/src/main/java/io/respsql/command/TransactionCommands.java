package io.respsql.command;

import io.netty.buffer.Unpooled;
import io.respsql.client.Session;
import io.respsql.client.Transaction;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.RespWriter;

import java.util.List;

/**
 * MULTI, EXEC, DISCARD, WATCH and UNWATCH, with Redis's queueing (see
 * {@link CommandDispatcher}: between MULTI and EXEC commands are checked, copied and answered
 * {@code +QUEUED}) and one thing more for SQL: a block is atomic. EXEC runs the queued commands
 * one after the other on the event loop, so no other client's command comes between them, inside
 * a block of the SQL engine ({@link SqlEngine#beginBlock}); if a SQL statement fails, every change
 * the block made is taken back and EXEC replies one error naming the statement, instead of an
 * array. A block that succeeds is logged as one MULTI ... EXEC group.
 */
final class TransactionCommands {
    static final String EXECABORT = "EXECABORT Transaction discarded because of previous errors.";

    private final ServerContext ctx;

    private TransactionCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        TransactionCommands c = new TransactionCommands(ctx);
        int flags = CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE | CommandFlags.FAST;
        return List.of(
            CommandSpec.builder("multi", 1).flags(flags | CommandFlags.NOT_QUEUED).group("transactions")
                .summary("Starts a transaction.").handler(c::multi).build(),
            CommandSpec.builder("exec", 1).flags(CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE
                    | CommandFlags.SKIP_SLOWLOG | CommandFlags.NOT_QUEUED).group("transactions")
                .summary("Executes all commands in a transaction; SQL statements all or none.").handler(c::exec).build(),
            CommandSpec.builder("discard", 1).flags(flags | CommandFlags.NOT_QUEUED).group("transactions")
                .summary("Discards a transaction.").handler(c::discard).build(),
            CommandSpec.builder("watch", -2).flags(flags | CommandFlags.NOT_QUEUED).group("transactions")
                .summary("Monitors changes to tables to determine the execution of a transaction.").handler(c::watch).build(),
            CommandSpec.builder("unwatch", 1).flags(flags).group("transactions")
                .summary("Forgets about watched tables of a transaction.").handler(c::unwatch).build());
    }

    private void multi(Session s, CommandArgs a, RespWriter out) {
        if (s.transaction() != null) {
            out.error("ERR MULTI calls can not be nested");
            return;
        }
        if (s.sqlTxOrNull() != null && s.sqlTxOrNull().inBlock()) {
            out.error("ERR MULTI is not allowed inside a SQL transaction (BEGIN ... COMMIT)");
            return;
        }
        s.beginTransaction();
        out.ok();
    }

    private void discard(Session s, CommandArgs a, RespWriter out) {
        if (s.transaction() == null) {
            out.error("ERR DISCARD without MULTI");
            return;
        }
        s.endTransaction();
        s.unwatch();
        out.ok();
    }

    private void watch(Session s, CommandArgs a, RespWriter out) {
        if (s.transaction() != null) {
            out.error("ERR WATCH inside MULTI is not allowed");
            return;
        }
        Transaction.Watches w = s.watchesForUpdate();
        long now = ctx.sql().changeCounter();
        for (int i = 1; i < a.count(); i++) {
            w.add(a.string(i), now);
        }
        out.ok();
    }

    private void unwatch(Session s, CommandArgs a, RespWriter out) {
        s.unwatch();
        out.ok();
    }

    private void exec(Session s, CommandArgs a, RespWriter out) {
        if (s.transaction() != null && !ctx.sql().transactions().mayRun(null)) {
            // tx: another connection's transaction holds uncommitted writes; the block runs once it ends
            SqlCommands.park(s, a, ctx.sql().transactions());
            return;
        }
        Transaction tx = s.endTransaction();
        if (tx == null) {
            out.error("ERR EXEC without MULTI");
            return;
        }
        boolean watchedChanged = watchedChanged(s);
        s.unwatch();
        if (tx.failed()) {
            out.error(EXECABORT);
            return;
        }
        if (watchedChanged) {
            out.nullArray();
            return;
        }
        if (ctx.memory() != null && (tx.flags() & CommandFlags.DENYOOM) != 0 && ctx.memory().overLimit()) {
            out.error(SqlEngine.OOM_REPLY); // as Redis: a block that may grow memory is refused whole
            return;
        }
        CommandDispatcher dispatcher = ctx.dispatcher();
        SqlEngine sql = ctx.sql();
        List<byte[][]> queued = tx.queued();
        String refusal = (tx.flags() & CommandFlags.WRITE) != 0 ? dispatcher.writeRefusal() : null;
        if (refusal != null && writes(queued)) {
            // As Redis: writes became impossible since they were queued (REPLICAOF, min-replicas-to-write).
            out.error("EXECABORT Transaction discarded because of: " + refusal);
            return;
        }
        // The reply stays in the buffer until the block is done: if a statement fails, it is
        // replaced by one error, and no part of it may have left.
        RespWriter.Sink sink = out.suspendStreaming();
        long start = out.mark();
        CommandArgs args = new CommandArgs();
        boolean done = false;
        s.holdDeliveries();
        sql.beginBlock();
        io.respsql.exec.write.DeferredChecks deferred = new io.respsql.exec.write.DeferredChecks();
        io.respsql.exec.write.DeferredChecks.enter(deferred); // the block's deferred foreign keys (regress24)
        try {
            out.arrayHeader(queued.size());
            for (int i = 0; i < queued.size(); i++) {
                fill(args, queued.get(i));
                long mark = out.mark();
                String error = dispatcher.dispatch(s, args, out);
                if (out.nothingSince(mark)) {
                    out.ok(); // SHUTDOWN replies nothing on its own; the array needs an element
                }
                if (error != null) {
                    CommandSpec spec = ctx.commands().lookup(args.get(0));
                    if (spec != null && SqlCommands.isStatement(spec, args)) {
                        sql.rollbackBlock();
                        done = true;
                        out.discardReply(start);
                        out.error(abortMessage(i + 1, queued.size(), error));
                        return;
                    }
                }
            }
            try {
                deferred.checkPending(true); // as a transaction's COMMIT
            } catch (io.respsql.sql.SqlException e) {
                sql.rollbackBlock();
                done = true;
                out.discardReply(start);
                out.error("ERR EXEC aborted at its end: " + e.getMessage() + "; no change of this transaction was kept");
                return;
            }
            sql.commitBlock();
            done = true;
            dispatcher.noteWrite(s); // WAIT after EXEC waits for the whole block's records
        } finally {
            io.respsql.exec.write.DeferredChecks.leave();
            if (!done) {
                sql.rollbackBlock(); // a failure outside any statement: keep the all-or-nothing promise
            }
            args.clear();
            out.resumeStreaming(sink);
            s.releaseDeliveries();
        }
    }

    /** {@code args} become the queued command {@code q} (views of its bytes). */
    private static void fill(CommandArgs args, byte[][] q) {
        args.clear();
        for (byte[] arg : q) {
            args.add(Unpooled.wrappedBuffer(arg));
        }
    }

    /** Whether one of the queued commands writes: a write command, or a SQL statement that writes. */
    private boolean writes(List<byte[][]> queued) {
        CommandArgs args = new CommandArgs();
        try {
            for (byte[][] q : queued) {
                fill(args, q);
                CommandSpec top = ctx.commands().lookup(args.get(0));
                if (top == null) {
                    continue;
                }
                String text = SqlCommands.statementText(top, args);
                if (text != null ? SqlEngine.writes(text) : top.hasFlag(CommandFlags.WRITE)) {
                    return true;
                }
            }
            return false;
        } finally {
            args.clear();
        }
    }

    /**
     * Refuses a command that would take a snapshot of the data (SAVE, BGSAVE, BGREWRITEAOF,
     * SHUTDOWN, CONFIG SET appendonly) while a block runs: the image would hold part of a block
     * that may still be taken back. Returns true (and has replied the error) when refused.
     */
    static boolean refusedInsideBlock(ServerContext ctx, String command, RespWriter out) {
        if (!ctx.sql().inBlock()) {
            return false;
        }
        out.error("ERR " + command + " is not allowed inside MULTI: a snapshot would hold part of the transaction");
        return true;
    }

    /** The reply of a block whose statement {@code n} of {@code total} failed with {@code error}. */
    static String abortMessage(int n, int total, String error) {
        String cause = error.startsWith("ERR ") ? error.substring(4) : error;
        return "ERR EXEC aborted: statement " + n + " of " + total + " failed: " + cause
                + "; no change of this transaction was kept";
    }

    private boolean watchedChanged(Session s) {
        Transaction.Watches w = s.watches();
        if (w == null) {
            return false;
        }
        for (int i = 0; i < w.size(); i++) {
            if (ctx.sql().changedSince(w.table(i), w.since(i))) {
                return true;
            }
        }
        return false;
    }
}
