package io.respsql.command;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** {@code INFO commandstats} and {@code INFO latencystats}, from the counters of the command table. */
final class CommandStatsReport {
    private CommandStatsReport() {
    }

    /** Writes {@code section} ("commandstats" or "latencystats"), heading included. */
    static void write(String section, StringBuilder sb, CommandTable commands) {
        if (section.equals("commandstats")) {
            commandStats(sb, commands);
        } else if (section.equals("latencystats")) {
            latencyStats(sb, commands);
        } else {
            throw new IllegalArgumentException(section);
        }
    }

    /** Every command and subcommand called (or rejected) since the last reset, sorted by full name. */
    private static List<CommandSpec> used(CommandTable commands) {
        List<CommandSpec> used = new ArrayList<>();
        for (CommandSpec spec : commands.all()) {
            if (spec.calls() > 0 || spec.rejectedCalls() > 0) {
                used.add(spec);
            }
            if (spec.subcommands() != null) {
                for (CommandSpec sub : spec.subcommands().all()) {
                    if (sub.calls() > 0 || sub.rejectedCalls() > 0) {
                        used.add(sub);
                    }
                }
            }
        }
        used.sort(Comparator.comparing(CommandSpec::fullName));
        return used;
    }

    private static void commandStats(StringBuilder sb, CommandTable commands) {
        sb.append("# Commandstats\r\n");
        for (CommandSpec spec : used(commands)) {
            long calls = spec.calls();
            double perCall = calls == 0 ? 0 : (double) spec.usec() / calls;
            sb.append("cmdstat_").append(spec.fullName())
              .append(":calls=").append(calls)
              .append(",usec=").append(spec.usec())
              .append(",usec_per_call=").append(String.format(Locale.ROOT, "%.2f", perCall))
              .append(",rejected_calls=").append(spec.rejectedCalls())
              .append(",failed_calls=").append(spec.failedCalls())
              .append("\r\n");
        }
    }

    private static void latencyStats(StringBuilder sb, CommandTable commands) {
        sb.append("# Latencystats\r\n");
        for (CommandSpec spec : used(commands)) {
            if (spec.calls() == 0) {
                continue;
            }
            sb.append("latency_percentiles_usec_").append(spec.fullName())
              .append(":p50=").append(String.format(Locale.ROOT, "%.3f", spec.latencyPercentileMicros(50)))
              .append(",p99=").append(String.format(Locale.ROOT, "%.3f", spec.latencyPercentileMicros(99)))
              .append(",p99.9=").append(String.format(Locale.ROOT, "%.3f", spec.latencyPercentileMicros(99.9)))
              .append("\r\n");
        }
    }

}
