package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.info.LatencyMonitor;
import io.respsql.protocol.RespWriter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code LATENCY HISTOGRAM | LATEST | HISTORY | RESET | DOCTOR | GRAPH | HELP}. The histograms are
 * the per-command latency statistics the dispatcher keeps (those of {@code INFO latencystats});
 * {@code LATEST}, {@code HISTORY}, {@code RESET} and {@code GRAPH} read the latency monitor
 * ({@link io.respsql.info.LatencyMonitor}: the {@code command} and {@code fast-command} events
 * at or above {@code latency-monitor-threshold} ms; off by default, as in Redis).
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
                .summary("Returns the latest latency samples for all events.").handler(c::latest).build())
            .subcommand(CommandSpec.builder("history", 3).flags(flags).group("server").since("2.8.13")
                .summary("Returns timestamp-latency samples for an event.").args(event)
                .handler(c::history).build())
            .subcommand(CommandSpec.builder("reset", -2).flags(flags).group("server").since("2.8.13")
                .summary("Resets the latency data for one or more events.").args(event.optional().multiple())
                .handler(c::reset).build())
            .subcommand(CommandSpec.builder("graph", 3).flags(flags).group("server").since("2.8.13")
                .summary("Returns a latency graph for an event.").args(event)
                .handler(c::graph).build())
            .subcommand(CommandSpec.builder("doctor", 2).flags(flags).group("server").since("2.8.13")
                .summary("Returns a human-readable latency analysis report.").handler(c::doctor).build())
            .subcommand(CommandSpec.builder("help", 2).flags(CommandFlags.LOADING | CommandFlags.STALE).group("server")
                .summary("Returns helpful text about the different subcommands.").handler(LatencyCommands::help).build())
            .build());
    }

    /** Per event: name, Unix time of the latest sample, its latency and the event's maximum (ms). */
    private void latest(Session s, CommandArgs a, RespWriter out) {
        List<LatencyMonitor.Latest> latest = ctx.stats().latency.latest();
        out.arrayHeader(latest.size());
        for (LatencyMonitor.Latest l : latest) {
            out.arrayHeader(4);
            out.bulk(l.event());
            out.integer(l.time());
            out.integer(l.latencyMs());
            out.integer(l.maxMs());
        }
    }

    /** The event's samples, oldest first, each {@code [time, latency ms]}; empty for an unknown event. */
    private void history(Session s, CommandArgs a, RespWriter out) {
        List<LatencyMonitor.Sample> samples = ctx.stats().latency.history(a.string(2));
        out.arrayHeader(samples.size());
        for (LatencyMonitor.Sample sample : samples) {
            out.arrayHeader(2);
            out.integer(sample.time());
            out.integer(sample.latencyMs());
        }
    }

    private void reset(Session s, CommandArgs a, RespWriter out) {
        List<String> names = new ArrayList<>();
        for (int i = 2; i < a.count(); i++) {
            names.add(a.string(i));
        }
        out.integer(ctx.stats().latency.reset(names));
    }

    /** A plain-text graph: one line per sample with its time, latency and a bar scaled to the maximum. */
    private void graph(Session s, CommandArgs a, RespWriter out) {
        String event = a.string(2);
        List<LatencyMonitor.Sample> samples = ctx.stats().latency.history(event);
        if (samples.isEmpty()) {
            out.error("ERR No samples available for event '" + event + "'");
            return;
        }
        long max = 1;
        long min = Long.MAX_VALUE;
        for (LatencyMonitor.Sample sample : samples) {
            max = Math.max(max, sample.latencyMs());
            min = Math.min(min, sample.latencyMs());
        }
        StringBuilder sb = new StringBuilder();
        sb.append(event).append(" - high ").append(max).append(" ms, low ").append(min).append(" ms\n");
        java.time.format.DateTimeFormatter hms = java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")
                .withZone(java.time.ZoneOffset.UTC);
        for (LatencyMonitor.Sample sample : samples) {
            int bar = (int) Math.max(1, sample.latencyMs() * 40 / max);
            sb.append(hms.format(java.time.Instant.ofEpochSecond(sample.time()))).append(' ')
              .append(String.format(Locale.ROOT, "%8d ms ", sample.latencyMs())).append("#".repeat(bar)).append('\n');
        }
        out.verbatim(sb.toString()); // text for people: a RESP3 verbatim string, as Redis
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
        out.mapHeader(selected.size());
        long[] buckets = new long[2 * 64];
        for (CommandSpec spec : selected) {
            int[] n = {0};
            spec.latencyBuckets((usec, cumulative) -> {
                buckets[n[0]++] = usec;
                buckets[n[0]++] = cumulative;
                return 0;
            });
            out.bulk(spec.fullName());
            out.mapHeader(2);
            out.bulk("calls");
            out.integer(spec.calls());
            out.bulk("histogram_usec");
            out.mapHeader(n[0] / 2);
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

    /** What is known about latency here: the monitor's events, the slowest commands by p99, where to look further. */
    private void doctor(Session s, CommandArgs a, RespWriter out) {
        List<CommandSpec> called = new ArrayList<>();
        for (CommandSpec spec : ctx.commands().all()) {
            addWithSubcommands(spec, called);
        }
        called.sort(Comparator.comparingDouble((CommandSpec c) -> c.latencyPercentileMicros(99)).reversed());
        StringBuilder sb = new StringBuilder();
        long threshold = ctx.config().latencyMonitorThreshold();
        List<LatencyMonitor.Latest> events = ctx.stats().latency.latest();
        if (threshold == 0) {
            sb.append("The latency monitor is off: CONFIG SET latency-monitor-threshold <milliseconds> turns it on.\n");
        } else {
            sb.append("Latency monitor threshold: ").append(threshold).append(" ms. ");
            sb.append(events.isEmpty() ? "No event reached it.\n" : "Events that reached it:\n");
        }
        for (LatencyMonitor.Latest e : events) {
            List<LatencyMonitor.Sample> h = ctx.stats().latency.history(e.event());
            long sum = 0;
            for (LatencyMonitor.Sample sample : h) {
                sum += sample.latencyMs();
            }
            sb.append(String.format(Locale.ROOT, "- %s: %d samples, latest %d ms, average %d ms, all-time max %d ms%n",
                    e.event(), h.size(), e.latencyMs(), sum / h.size(), e.maxMs()));
        }
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
        sb.append("More: LATENCY HISTOGRAM [command ...], LATENCY LATEST, INFO latencystats, SLOWLOG GET.\n");
        out.verbatim(sb.toString()); // text for people: a RESP3 verbatim string, as Redis
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "LATENCY", List.of(
            "DOCTOR",
            "    Return a human readable latency analysis report.",
            "GRAPH <event>",
            "    Return an ASCII latency graph for the <event> class.",
            "HISTORY <event>",
            "    Return time-latency samples for the <event> class.",
            "LATEST",
            "    Return the latest latency samples for all events.",
            "RESET [<event> ...]",
            "    Reset latency data of one or more <event> classes.",
            "    (default: reset all data for all event classes)",
            "HISTOGRAM [COMMAND ...]",
            "    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
            "    If no commands are specified then all histograms are replied."));
    }
}
