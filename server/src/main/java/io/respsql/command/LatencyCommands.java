package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code LATENCY HISTOGRAM | LATEST | HISTORY | RESET | DOCTOR | GRAPH | HELP}. The histograms are
 * the per-command latency statistics the dispatcher keeps (those of {@code INFO latencystats}).
 * Redis's latency monitor (events such as {@code command} or {@code aof-fsync-always} above
 * {@code latency-monitor-threshold}) is not kept: {@code LATEST} and {@code HISTORY} answer what
 * Redis answers while that monitor is off, an empty array, so monitoring tools find nothing to report.
 */
final class LatencyCommands {
    private final ServerContext ctx;

    private LatencyCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        LatencyCommands c = new LatencyCommands(ctx);
        int flags = CommandFlags.ADMIN | CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE;
        CommandArg event = CommandArg.string("event");
        return List.of(CommandSpec.builder("latency", -2).group("server").since("2.8.13")
            .summary("A container for latency diagnostics commands.")
            .handler((s, a, out) -> Replies.wrongArity(out, ctx.commands().lookup("latency")))
            .subcommand(CommandSpec.builder("histogram", -2).flags(flags).group("server").since("7.0.0")
                .summary("Returns the cumulative distribution of latencies of a subset of commands or all.")
                .args(CommandArg.string("command").optional().multiple())
                .handler(c::histogram).build())
            .subcommand(CommandSpec.builder("latest", 2).flags(flags).group("server").since("2.8.13")
                .summary("Returns the latest latency samples for all events.").handler(LatencyCommands::empty).build())
            .subcommand(CommandSpec.builder("history", 3).flags(flags).group("server").since("2.8.13")
                .summary("Returns timestamp-latency samples for an event.").args(event)
                .handler(LatencyCommands::empty).build())
            .subcommand(CommandSpec.builder("reset", -2).flags(flags).group("server").since("2.8.13")
                .summary("Resets the latency data for one or more events.").args(event.optional().multiple())
                .handler((s, a, out) -> out.integer(0)).build())
            .subcommand(CommandSpec.builder("graph", 3).flags(flags).group("server").since("2.8.13")
                .summary("Returns a latency graph for an event.").args(event)
                .handler((s, a, out) -> out.error("ERR No samples available for event '" + a.string(2) + "'")).build())
            .subcommand(CommandSpec.builder("doctor", 2).flags(flags).group("server").since("2.8.13")
                .summary("Returns a human-readable latency analysis report.").handler(c::doctor).build())
            .subcommand(CommandSpec.builder("help", 2).flags(CommandFlags.LOADING | CommandFlags.STALE).group("server")
                .summary("Returns helpful text about the different subcommands.").handler(LatencyCommands::help).build())
            .build());
    }

    /** No latency monitor events are kept (see the class comment). */
    private static void empty(Session s, CommandArgs a, RespWriter out) {
        out.arrayHeader(0);
    }

    /**
     * {@code LATENCY HISTOGRAM [command ...]}: for each command called since the last
     * {@code CONFIG RESETSTAT} (all of them, or those named; a container names itself and its
     * subcommands; unknown names are skipped, as Redis does) its name, then
     * {@code calls <n> histogram_usec [<bucket> <cumulative calls> ...]}. RESP2 has no maps, so
     * both maps are flat arrays of keys and values.
     */
    private void histogram(Session s, CommandArgs a, RespWriter out) {
        List<CommandSpec> selected = new ArrayList<>();
        if (a.count() == 2) {
            for (CommandSpec spec : ctx.commands().all()) {
                addWithSubcommands(spec, selected);
            }
            selected.sort(Comparator.comparing(CommandSpec::fullName));
        } else {
            for (int i = 2; i < a.count(); i++) {
                CommandSpec spec = CommandCommands.find(ctx.commands(), a.string(i));
                if (spec != null) {
                    addWithSubcommands(spec, selected);
                }
            }
        }
        out.arrayHeader(selected.size() * 2L);
        long[] buckets = new long[2 * 64];
        for (CommandSpec spec : selected) {
            int[] n = {0};
            spec.latencyBuckets((usec, cumulative) -> {
                buckets[n[0]++] = usec;
                buckets[n[0]++] = cumulative;
                return 0;
            });
            out.bulk(spec.fullName());
            out.arrayHeader(4);
            out.bulk("calls");
            out.integer(spec.calls());
            out.bulk("histogram_usec");
            out.arrayHeader(n[0]);
            for (int i = 0; i < n[0]; i++) {
                out.integer(buckets[i]);
            }
        }
    }

    private static void addWithSubcommands(CommandSpec spec, List<CommandSpec> into) {
        if (spec.calls() > 0 && !into.contains(spec)) {
            into.add(spec);
        }
        if (spec.subcommands() != null) {
            for (CommandSpec sub : spec.subcommands().all()) {
                if (sub.calls() > 0 && !into.contains(sub)) {
                    into.add(sub);
                }
            }
        }
    }

    /** What is known about latency here: the slowest commands by p99, and where to look further. */
    private void doctor(Session s, CommandArgs a, RespWriter out) {
        List<CommandSpec> called = new ArrayList<>();
        for (CommandSpec spec : ctx.commands().all()) {
            addWithSubcommands(spec, called);
        }
        called.sort(Comparator.comparingDouble((CommandSpec c) -> c.latencyPercentileMicros(99)).reversed());
        StringBuilder sb = new StringBuilder();
        sb.append("RespSQL keeps no latency monitor events (Redis's latency-monitor-threshold is off), ")
          .append("so LATENCY LATEST and LATENCY HISTORY are empty.\n");
        if (called.isEmpty()) {
            sb.append("No command has been called since the last CONFIG RESETSTAT.\n");
        } else {
            sb.append("Slowest commands by p99 latency since the last CONFIG RESETSTAT:\n");
            for (CommandSpec c : called.subList(0, Math.min(5, called.size()))) {
                sb.append(String.format(Locale.ROOT, "- %s: %d calls, p50 %.3f us, p99 %.3f us, p99.9 %.3f us%n",
                        c.fullName(), c.calls(), c.latencyPercentileMicros(50), c.latencyPercentileMicros(99),
                        c.latencyPercentileMicros(99.9)));
            }
        }
        sb.append("More: LATENCY HISTOGRAM [command ...], INFO latencystats, INFO commandstats, SLOWLOG GET.\n");
        out.bulk(sb.toString());
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "LATENCY", List.of(
            "DOCTOR",
            "    Return a human readable latency analysis report.",
            "GRAPH <event>",
            "    Return an ASCII latency graph for the <event> class (no events are kept: an error).",
            "HISTORY <event>",
            "    Return time-latency samples for the <event> class (none are kept: empty).",
            "LATEST",
            "    Return the latest latency samples for all events (none are kept: empty).",
            "RESET [<event> ...]",
            "    Reset latency data of one or more <event> classes (none are kept: 0).",
            "HISTOGRAM [COMMAND ...]",
            "    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
            "    If no commands are specified then all histograms are replied."));
    }
}
