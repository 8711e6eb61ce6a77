package io.respsql.command;

import io.respsql.config.Glob;
import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.ArrayList;
import java.util.List;

/** COMMAND, COMMAND COUNT / LIST / INFO / DOCS / HELP: introspection of the command table. */
final class CommandCommands {
    private final ServerContext ctx;

    private CommandCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        CommandCommands c = new CommandCommands(ctx);
        int flags = CommandFlags.LOADING | CommandFlags.STALE;
        return List.of(CommandSpec.builder("command", -1).flags(flags).group("server")
            .summary("Returns detailed information about all commands.").handler(c::all)
            .subcommand(CommandSpec.builder("count", 2).flags(flags).group("server")
                .summary("Returns a count of commands.").handler(c::count).build())
            .subcommand(CommandSpec.builder("list", -2).flags(flags).group("server")
                .summary("Returns a list of command names.").handler(c::list).build())
            .subcommand(CommandSpec.builder("info", -2).flags(flags).group("server")
                .summary("Returns information about one, multiple or all commands.").handler(c::info).build())
            .subcommand(CommandSpec.builder("docs", -2).flags(flags).group("server")
                .summary("Returns documentary information about one, multiple or all commands.").handler(c::docs).build())
            .subcommand(CommandSpec.builder("help", 2).flags(flags).group("server")
                .summary("Returns helpful text about the different subcommands.").handler(CommandCommands::help).build())
            .build());
    }

    private void all(Session s, CommandArgs a, RespWriter out) {
        List<CommandSpec> all = ctx.commands().all();
        out.arrayHeader(all.size());
        for (CommandSpec spec : all) {
            writeInfo(out, spec);
        }
    }

    private void count(Session s, CommandArgs a, RespWriter out) {
        out.integer(ctx.commands().size());
    }

    /** {@code COMMAND LIST [FILTERBY PATTERN p | ACLCAT c | MODULE m]}. */
    private void list(Session s, CommandArgs a, RespWriter out) {
        List<CommandSpec> everything = new ArrayList<>();
        for (CommandSpec spec : ctx.commands().all()) {
            everything.add(spec);
            if (spec.subcommands() != null) {
                everything.addAll(spec.subcommands().all());
            }
        }
        List<CommandSpec> selected = everything;
        if (a.count() > 2) {
            if (a.count() != 5 || !a.is(2, "filterby")) {
                Replies.syntaxError(out);
                return;
            }
            String value = a.string(4);
            selected = new ArrayList<>();
            if (a.is(3, "pattern")) {
                for (CommandSpec spec : everything) {
                    if (Glob.matches(value, spec.fullName(), true)) {
                        selected.add(spec);
                    }
                }
            } else if (a.is(3, "aclcat")) {
                for (CommandSpec spec : everything) {
                    if (spec.aclCategories().contains("@" + value.toLowerCase(java.util.Locale.ROOT))) {
                        selected.add(spec);
                    }
                }
            } else if (!a.is(3, "module")) {
                Replies.syntaxError(out);
                return;
            }
        }
        out.arrayHeader(selected.size());
        for (CommandSpec spec : selected) {
            out.bulk(spec.fullName());
        }
    }

    private void info(Session s, CommandArgs a, RespWriter out) {
        if (a.count() == 2) {
            all(s, a, out);
            return;
        }
        out.arrayHeader(a.count() - 2);
        for (int i = 2; i < a.count(); i++) {
            CommandSpec spec = find(a.string(i));
            if (spec == null) {
                out.nullBulk();
            } else {
                writeInfo(out, spec);
            }
        }
    }

    private void docs(Session s, CommandArgs a, RespWriter out) {
        List<CommandSpec> selected = new ArrayList<>();
        if (a.count() == 2) {
            selected.addAll(ctx.commands().all());
        } else {
            for (int i = 2; i < a.count(); i++) {
                CommandSpec spec = find(a.string(i));
                if (spec != null) {
                    selected.add(spec);
                }
            }
        }
        out.mapHeader(selected.size());
        for (CommandSpec spec : selected) {
            out.bulk(spec.fullName());
            writeDocs(out, spec);
        }
    }

    private CommandSpec find(String name) {
        return find(ctx.commands(), name);
    }

    /** A command by name, or a subcommand as {@code container|sub}. */
    static CommandSpec find(CommandTable commands, String name) {
        int bar = name.indexOf('|');
        if (bar < 0) {
            return commands.lookup(name);
        }
        CommandSpec container = commands.lookup(name.substring(0, bar));
        if (container == null || container.subcommands() == null) {
            return null;
        }
        return container.subcommands().lookup(name.substring(bar + 1));
    }

    /**
     * Redis 7's ten-element command description. Flags, ACL categories, tips and key specs are
     * sets, and so is an absent subcommand list; present subcommands are an array (as Redis 7.0).
     */
    private static void writeInfo(RespWriter out, CommandSpec spec) {
        out.arrayHeader(10);
        out.bulk(spec.fullName());
        out.integer(spec.arity());
        List<String> flags = CommandFlags.names(spec.flags());
        out.setHeader(flags.size());
        for (String f : flags) {
            out.simple(f);
        }
        out.integer(0);
        out.integer(0);
        out.integer(0);
        List<String> cats = spec.aclCategories();
        out.setHeader(cats.size());
        for (String c : cats) {
            out.simple(c);
        }
        out.setHeader(0); // tips
        out.setHeader(0); // key specs
        if (spec.subcommands() == null) {
            out.setHeader(0);
        } else {
            out.arrayHeader(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands().all()) {
                writeInfo(out, sub);
            }
        }
    }

    /** The {@code COMMAND DOCS} map of one command (flattened under RESP2); subcommands a map too. */
    private static void writeDocs(RespWriter out, CommandSpec spec) {
        boolean subs = spec.subcommands() != null;
        boolean args = !spec.arguments().isEmpty();
        out.mapHeader(3 + (args ? 1 : 0) + (subs ? 1 : 0));
        out.bulk("summary");
        out.bulk(spec.summary());
        out.bulk("since");
        out.bulk(spec.since());
        out.bulk("group");
        out.bulk(spec.group());
        if (args) {
            out.bulk("arguments");
            writeArgs(out, spec.arguments());
        }
        if (subs) {
            out.bulk("subcommands");
            out.mapHeader(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands().all()) {
                out.bulk(sub.fullName());
                writeDocs(out, sub);
            }
        }
    }

    /** Each argument as Redis 7 shapes it: name, type, then token, since, flags, nested arguments if any. */
    private static void writeArgs(RespWriter out, List<CommandArg> args) {
        out.arrayHeader(args.size());
        for (CommandArg arg : args) {
            boolean flags = arg.isOptional() || arg.isMultiple();
            boolean nested = !arg.arguments().isEmpty();
            out.mapHeader(2 + (arg.token() != null ? 1 : 0) + (arg.since() != null ? 1 : 0)
                    + (flags ? 1 : 0) + (nested ? 1 : 0));
            out.bulk("name");
            out.bulk(arg.name());
            out.bulk("type");
            out.bulk(arg.type());
            if (arg.token() != null) {
                out.bulk("token");
                out.bulk(arg.token());
            }
            if (arg.since() != null) {
                out.bulk("since");
                out.bulk(arg.since());
            }
            if (flags) {
                out.bulk("flags");
                out.setHeader((arg.isOptional() ? 1 : 0) + (arg.isMultiple() ? 1 : 0));
                if (arg.isOptional()) {
                    out.simple("optional");
                }
                if (arg.isMultiple()) {
                    out.simple("multiple");
                }
            }
            if (nested) {
                out.bulk("arguments");
                writeArgs(out, arg.arguments());
            }
        }
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "COMMAND", List.of(
            "(no subcommand)",
            "    Return details about all commands.",
            "COUNT",
            "    Return the total number of commands in this server.",
            "LIST [FILTERBY (MODULE <module-name>|ACLCAT <category>|PATTERN <pattern>)]",
            "    Return a list of all commands in this server.",
            "INFO [<command-name> ...]",
            "    Return details about multiple commands.",
            "    If no command names are given, documentation details for all",
            "    commands are returned.",
            "DOCS [<command-name> ...]",
            "    Return documentation details about multiple commands.",
            "    If no command names are given, documentation details for all",
            "    commands are returned."));
    }
}
