package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.persist.Persistence;
import io.respsql.protocol.RespWriter;

import java.io.IOException;
import java.util.List;

/** SAVE, BGSAVE, LASTSAVE and SHUTDOWN, with Redis's replies; the work is done in {@link Persistence}. */
final class PersistenceCommands {
    private static final String IN_PROGRESS = "ERR Background save already in progress";

    private final ServerContext ctx;

    private PersistenceCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        PersistenceCommands c = new PersistenceCommands(ctx);
        int admin = CommandFlags.ADMIN | CommandFlags.NOSCRIPT;
        return List.of(
            CommandSpec.builder("save", 1).flags(admin).group("server")
                .summary("Synchronously saves the database(s) to disk.").handler(c::save).build(),
            CommandSpec.builder("bgsave", -1).flags(admin).group("server")
                .summary("Asynchronously saves the database(s) to disk.").handler(c::bgsave).build(),
            CommandSpec.builder("lastsave", 1).flags(CommandFlags.LOADING | CommandFlags.STALE | CommandFlags.FAST)
                .group("server").summary("Returns the Unix timestamp of the last successful save to disk.")
                .handler(c::lastsave).build(),
            CommandSpec.builder("shutdown", -1)
                .flags(admin | CommandFlags.LOADING | CommandFlags.STALE | CommandFlags.NO_REPLY)
                .group("server").summary("Synchronously saves the database(s) to disk and shuts down the server.")
                .handler(c::shutdown).build());
    }

    private void save(Session s, CommandArgs a, RespWriter out) {
        if (TransactionCommands.refusedInsideBlock(ctx, "SAVE", out)) {
            return;
        }
        Persistence p = ctx.persistence();
        if (p.backgroundSaveInProgress()) {
            out.error(IN_PROGRESS);
            return;
        }
        try {
            p.save();
            out.ok();
        } catch (IOException e) {
            out.error("ERR saving the snapshot failed: " + e.getMessage());
        } catch (IllegalStateException e) {
            out.error("ERR " + e.getMessage()); // a log rewrite holds the one capture
        }
    }

    /** {@code BGSAVE [SCHEDULE]}. */
    private void bgsave(Session s, CommandArgs a, RespWriter out) {
        if (TransactionCommands.refusedInsideBlock(ctx, "BGSAVE", out)) {
            return;
        }
        boolean schedule = false;
        if (a.count() == 2 && a.is(1, "schedule")) {
            schedule = true;
        } else if (a.count() > 1) {
            Replies.syntaxError(out);
            return;
        }
        Persistence p = ctx.persistence();
        if (p.backgroundSaveInProgress()) {
            if (schedule) {
                p.scheduleBackgroundSave();
                out.simple("Background saving scheduled");
            } else {
                out.error(IN_PROGRESS);
            }
            return;
        }
        try {
            p.startBackgroundSave();
        } catch (IllegalStateException e) {
            out.error("ERR " + e.getMessage()); // a log rewrite holds the one capture
            return;
        }
        out.simple("Background saving started");
    }

    private void lastsave(Session s, CommandArgs a, RespWriter out) {
        out.integer(ctx.persistence().lastSaveSeconds());
    }

    /**
     * {@code SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE]}: saves as asked (by default when save rules are
     * configured), then stops the server without a reply, as Redis does. When the save fails the
     * server keeps running and replies an error, unless FORCE is given. NOW is accepted for
     * compatibility (there are no replicas to wait for).
     */
    private void shutdown(Session s, CommandArgs a, RespWriter out) {
        if (TransactionCommands.refusedInsideBlock(ctx, "SHUTDOWN", out)) {
            return;
        }
        Persistence.ShutdownSave mode = Persistence.ShutdownSave.DEFAULT;
        boolean force = false;
        for (int i = 1; i < a.count(); i++) {
            if (a.is(i, "nosave") && mode == Persistence.ShutdownSave.DEFAULT) {
                mode = Persistence.ShutdownSave.NOSAVE;
            } else if (a.is(i, "save") && mode == Persistence.ShutdownSave.DEFAULT) {
                mode = Persistence.ShutdownSave.SAVE;
            } else if (a.is(i, "force")) {
                force = true;
            } else if (!a.is(i, "now")) {
                Replies.syntaxError(out);
                return;
            }
        }
        String refusal = ctx.persistence().prepareShutdown(mode);
        if (refusal != null && !force) {
            out.error("ERR " + refusal);
            return;
        }
        // Nothing after SHUTDOWN runs on this connection: earlier replies go out, then it closes.
        s.closeAfterReply();
        ctx.stopServer().run();
    }
}
