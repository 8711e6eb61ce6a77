package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.info.SlowLog;
import io.respsql.protocol.RespWriter;

import java.util.List;

/** SLOWLOG GET / LEN / RESET / HELP over {@link SlowLog}. */
final class SlowlogCommands {
    private final ServerContext ctx;

    private SlowlogCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        SlowlogCommands c = new SlowlogCommands(ctx);
        int flags = CommandFlags.ADMIN | CommandFlags.LOADING | CommandFlags.STALE;
        return List.of(CommandSpec.builder("slowlog", -2).group("server")
            .summary("A container for slow log commands.")
            .handler((s, a, out) -> Replies.wrongArity(out, ctx.commands().lookup("slowlog")))
            .subcommand(CommandSpec.builder("get", -2).flags(flags).group("server")
                .summary("Returns the slow log's entries.").handler(c::get).build())
            .subcommand(CommandSpec.builder("len", 2).flags(flags).group("server")
                .summary("Returns the number of entries in the slow log.").handler(c::len).build())
            .subcommand(CommandSpec.builder("reset", 2).flags(flags).group("server")
                .summary("Clears all entries from the slow log.").handler(c::reset).build())
            .subcommand(CommandSpec.builder("help", 2).flags(CommandFlags.LOADING | CommandFlags.STALE).group("server")
                .summary("Returns helpful text about the different subcommands.").handler(SlowlogCommands::help).build())
            .build());
    }

    /** {@code SLOWLOG GET [count]}: newest first; count defaults to 10, -1 means all. */
    private void get(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 3) {
            Replies.wrongArity(out, ctx.commands().lookup("slowlog").subcommands().lookup("get"));
            return;
        }
        long count = 10;
        if (a.count() == 3) {
            if (!a.isLong(2) || a.longValue(2) < -1) {
                out.error("ERR count should be greater than or equal to -1");
                return;
            }
            count = a.longValue(2);
        }
        List<SlowLog.Entry> entries = ctx.stats().slowLog.newest(count);
        out.arrayHeader(entries.size());
        for (SlowLog.Entry e : entries) {
            out.arrayHeader(6);
            out.integer(e.id());
            out.integer(e.unixSeconds());
            out.integer(e.durationMicros());
            out.arrayHeader(e.args().length);
            for (byte[] arg : e.args()) {
                out.bulk(arg);
            }
            out.bulk(e.addr());
            out.bulk(e.name());
        }
    }

    private void len(Session s, CommandArgs a, RespWriter out) {
        out.integer(ctx.stats().slowLog.size());
    }

    private void reset(Session s, CommandArgs a, RespWriter out) {
        ctx.stats().slowLog.clear();
        out.ok();
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "SLOWLOG", List.of(
            "GET [<count>]",
            "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
            "    Entries are made of:",
            "    id, timestamp, time in microseconds, arguments array, client IP and port,",
            "    client name",
            "LEN",
            "    Return the length of the slowlog.",
            "RESET",
            "    Reset the slowlog."));
    }
}
