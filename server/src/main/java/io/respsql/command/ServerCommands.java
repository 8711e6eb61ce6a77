package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** DBSIZE, FLUSHALL, FLUSHDB, TIME, INFO, BGREWRITEAOF. */
final class ServerCommands {
    private final ServerContext ctx;

    private ServerCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        ServerCommands c = new ServerCommands(ctx);
        return List.of(
            CommandSpec.builder("dbsize", 1).flags(CommandFlags.READONLY | CommandFlags.FAST).group("server")
                .summary("Returns the number of tables.").handler(c::dbsize).build(),
            CommandSpec.builder("flushall", -1).flags(CommandFlags.WRITE).group("server")
                .summary("Drops every table.").handler(c::flush).build(),
            CommandSpec.builder("flushdb", -1).flags(CommandFlags.WRITE).group("server")
                .summary("Drops every table of the current database (there is only database 0).").handler(c::flush).build(),
            CommandSpec.builder("time", 1).flags(CommandFlags.FAST | CommandFlags.LOADING | CommandFlags.STALE)
                .group("server").summary("Returns the server time.").handler(ServerCommands::time).build(),
            CommandSpec.builder("bgrewriteaof", 1).flags(CommandFlags.ADMIN | CommandFlags.NOSCRIPT).group("server")
                .summary("Asynchronously rewrites the append-only file to disk.").handler(c::bgrewriteaof).build(),
            CommandSpec.builder("info", -1).flags(CommandFlags.LOADING | CommandFlags.STALE).group("server")
                .summary("Returns information and statistics about the server.").handler(c::info).build());
    }

    private void dbsize(Session s, CommandArgs a, RespWriter out) {
        out.integer(ctx.sql().transactions().keyspace(s.sqlTxOrNull()).tables().size()); // mend: committed tables
    }

    /** {@code FLUSHALL [ASYNC|SYNC]}: the catalog is cleared at once either way. */
    private void flush(Session s, CommandArgs a, RespWriter out) {
        if (s.sqlTxOrNull() != null && s.sqlTxOrNull().inBlock()) {
            out.error("ERR FLUSHALL is not allowed inside a SQL transaction (BEGIN ... COMMIT)");
            return;
        }
        if (!ctx.sql().transactions().mayRun(s.sqlTxOrNull())) {
            SqlCommands.park(s, a, ctx.sql().transactions()); // tx: after the open transaction ends
            return;
        }
        if (a.count() > 2 || (a.count() == 2 && !a.is(1, "async") && !a.is(1, "sync"))) {
            Replies.syntaxError(out);
            return;
        }
        String refusal = ctx.sql().writeRefusal();
        if (refusal != null) {
            out.error(refusal);
            return;
        }
        ctx.sql().flushAll();
        out.ok();
    }

    private void bgrewriteaof(Session s, CommandArgs a, RespWriter out) {
        if (TransactionCommands.refusedInsideBlock(ctx, "BGREWRITEAOF", out)) {
            return;
        }
        String refusal = ctx.appendOnlyFile().rewriteInBackground();
        if (refusal != null) {
            out.error(refusal);
        } else {
            out.simple("Background append only file rewriting started");
        }
    }

    private static void time(Session s, CommandArgs a, RespWriter out) {
        Instant now = Instant.now();
        out.arrayHeader(2);
        out.bulk(now.getEpochSecond());
        out.bulk(now.getNano() / 1000);
    }

    private void info(Session s, CommandArgs a, RespWriter out) {
        List<String> sections = new ArrayList<>();
        for (int i = 1; i < a.count(); i++) {
            sections.add(a.string(i));
        }
        CommandTable table = ctx.commands();
        out.verbatim(ctx.info().render(sections,
                table == null ? null : (section, sb) -> CommandStatsReport.write(section, sb, table)));
    }
}
