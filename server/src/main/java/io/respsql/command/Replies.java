package io.respsql.command;

import io.respsql.protocol.RespWriter;

import java.util.List;
import java.util.Locale;

/** Error and help replies with Redis's exact wording. */
final class Replies {
    private Replies() {
    }

    static void wrongArity(RespWriter out, CommandSpec spec) {
        out.error("ERR wrong number of arguments for '" + spec.fullName() + "' command");
    }

    static void syntaxError(RespWriter out) {
        out.error("ERR syntax error");
    }

    static void notInteger(RespWriter out) {
        out.error("ERR value is not an integer or out of range");
    }

    /** {@code ERR unknown command 'foo', with args beginning with: 'a' 'b' }, capped like Redis. */
    static void unknownCommand(RespWriter out, CommandArgs args) {
        StringBuilder a = new StringBuilder();
        for (int i = 1; i < args.count() && a.length() < 128; i++) {
            String part = args.string(i, 128 - a.length());
            a.append('\'').append(part).append("' ");
        }
        out.error("ERR unknown command '" + args.string(0, 128) + "', with args beginning with: " + a);
    }

    static void unknownSubcommand(RespWriter out, CommandSpec container, CommandArgs args) {
        out.error("ERR unknown subcommand '" + args.string(1, 128) + "'. Try "
                + container.name().toUpperCase(Locale.ROOT) + " HELP.");
    }

    /** Redis's help layout: a heading, the entries, then the HELP entry itself. */
    static void help(RespWriter out, String command, List<String> lines) {
        out.arrayHeader(lines.size() + 3);
        out.simple(command + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (String line : lines) {
            out.simple(line);
        }
        out.simple("HELP");
        out.simple("    Print this help.");
    }
}
