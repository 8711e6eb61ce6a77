package io.respsql.command;

import io.respsql.config.ConfigException;
import io.respsql.config.ConfigOption;
import io.respsql.config.ConfigRewrite;
import io.respsql.config.Glob;
import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** CONFIG GET / SET / REWRITE / RESETSTAT / HELP over the keys of {@link io.respsql.config.ServerConfig}. */
final class ConfigCommands {
    private final ServerContext ctx;

    private ConfigCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        ConfigCommands c = new ConfigCommands(ctx);
        int flags = CommandFlags.ADMIN | CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE;
        return List.of(CommandSpec.builder("config", -2).group("server")
            .summary("A container for server configuration commands.")
            .handler((s, a, out) -> out.error("ERR wrong number of arguments for 'config' command"))
            .subcommand(CommandSpec.builder("get", -3).flags(flags).group("server")
                .summary("Returns the effective values of configuration parameters.").handler(c::get).build())
            .subcommand(CommandSpec.builder("set", -4).flags(flags).group("server")
                .summary("Sets configuration parameters in-flight.").handler(c::set).build())
            .subcommand(CommandSpec.builder("rewrite", 2).flags(flags).group("server")
                .summary("Persists the effective configuration to file.").handler(c::rewrite).build())
            .subcommand(CommandSpec.builder("resetstat", 2).flags(flags).group("server")
                .summary("Resets the server's statistics.").handler(c::resetStat).build())
            .subcommand(CommandSpec.builder("help", 2).flags(CommandFlags.LOADING | CommandFlags.STALE).group("server")
                .summary("Returns helpful text about the different subcommands.").handler(ConfigCommands::help).build())
            .build());
    }

    /** {@code CONFIG GET pattern [pattern ...]}: a name/value map (RESP2: a flat array), each key once. */
    private void get(Session s, CommandArgs a, RespWriter out) {
        Set<ConfigOption> matched = new LinkedHashSet<>();
        for (int i = 2; i < a.count(); i++) {
            String pattern = a.string(i);
            for (ConfigOption o : ctx.config().options()) {
                if (Glob.matches(pattern, o.name(), true)) {
                    matched.add(o);
                }
            }
        }
        out.mapHeader(matched.size());
        for (ConfigOption o : matched) {
            out.bulk(o.name());
            // a password is never shown (acl): only whether one is set
            out.bulk(io.respsql.config.ServerConfig.secret(o.name()) && !o.get().isEmpty() ? "********" : o.get());
        }
    }

    /**
     * {@code CONFIG SET name value [name value ...]}: all or nothing. Values are applied in order;
     * if one is refused, those already applied are restored.
     */
    private void set(Session s, CommandArgs a, RespWriter out) {
        if ((a.count() - 2) % 2 != 0) {
            // Named in full rather than looked up: rename-command may have renamed CONFIG.
            out.error("ERR wrong number of arguments for 'config|set' command");
            return;
        }
        List<ConfigOption> options = new ArrayList<>();
        for (int i = 2; i < a.count(); i += 2) {
            ConfigOption o = ctx.config().option(a.string(i));
            if (o == null || options.contains(o)) {
                out.error("ERR Unknown option or number of arguments for CONFIG SET - '" + a.string(i) + "'");
                return;
            }
            if (!o.mutable()) {
                out.error("ERR CONFIG SET failed (possibly related to argument '" + a.string(i)
                        + "') - can't set immutable config");
                return;
            }
            if (o.name().equals("appendonly") && TransactionCommands.refusedInsideBlock(ctx, "CONFIG SET appendonly", out)) {
                return;
            }
            options.add(o);
        }
        List<String> previous = new ArrayList<>();
        for (int k = 0; k < options.size(); k++) {
            ConfigOption o = options.get(k);
            previous.add(o.get());
            try {
                o.set(a.string(3 + 2 * k));
            } catch (ConfigException e) {
                for (int r = k - 1; r >= 0; r--) {
                    try {
                        options.get(r).set(previous.get(r));
                    } catch (ConfigException restoreFailed) {
                        throw new IllegalStateException("cannot restore " + options.get(r).name(), restoreFailed);
                    }
                }
                out.error("ERR CONFIG SET failed (possibly related to argument '" + a.string(2 + 2 * k) + "') - "
                        + e.getMessage());
                return;
            }
        }
        try {
            // Keys applied together (a TLS certificate and its key) take effect once all are set.
            ctx.config().applyLive(options);
        } catch (ConfigException e) {
            for (int r = options.size() - 1; r >= 0; r--) {
                try {
                    options.get(r).set(previous.get(r));
                } catch (ConfigException restoreFailed) {
                    throw new IllegalStateException("cannot restore " + options.get(r).name(), restoreFailed);
                }
            }
            out.error("ERR CONFIG SET failed (possibly related to argument '" + a.string(2) + "') - " + e.getMessage());
            return;
        }
        out.ok();
    }

    /** {@code CONFIG REWRITE}: the running configuration back into the file the server was started with. */
    private void rewrite(Session s, CommandArgs a, RespWriter out) {
        if (ctx.config().configFile() == null) {
            out.error("ERR The server is running without a config file");
            return;
        }
        try {
            ConfigRewrite.rewrite(ctx.config());
            out.ok();
        } catch (java.io.IOException e) {
            org.slf4j.LoggerFactory.getLogger(ConfigCommands.class).warn("CONFIG REWRITE failed: {}", e.toString());
            out.error("ERR Rewriting config file: " + e.getMessage());
        }
    }

    private void resetStat(Session s, CommandArgs a, RespWriter out) {
        ctx.stats().reset();
        for (CommandSpec spec : ctx.commands().all()) {
            spec.resetStats();
            if (spec.subcommands() != null) {
                for (CommandSpec sub : spec.subcommands().all()) {
                    sub.resetStats();
                }
            }
        }
        out.ok();
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "CONFIG", List.of(
            "GET <pattern> [<pattern> ...]",
            "    Return parameters matching the glob-like <pattern> and their values.",
            "SET <directive> <value> [<directive> <value> ...]",
            "    Set the configuration <directive> to <value>.",
            "RESETSTAT",
            "    Reset statistics reported by the INFO command.",
            "REWRITE",
            "    Rewrite the configuration file."));
    }
}
