package io.respsql.command;

import io.netty.buffer.ByteBuf;
import org.HdrHistogram.Histogram;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * One entry of the command table, like Redis's {@code redisCommand}: name, arity, flags, handler,
 * and for container commands (CLIENT, CONFIG, COMMAND) a table of subcommands.
 *
 * <p>Arity counts the command name itself. A positive arity is exact; a negative one {@code -n}
 * means "at least n".
 */
public final class CommandSpec {
    private final String name;
    private String fullName;
    private final byte[] nameBytes;
    private final int arity;
    private final int flags;
    private final String group;
    private final String summary;
    private final String since;
    private final List<CommandArg> arguments;
    private final CommandHandler handler;
    private final CommandTable subcommands;
    private CommandSpec parent;

    // ---- INFO commandstats / latencystats: event-loop only, reset by CONFIG RESETSTAT ----------
    /** Highest latency (nanoseconds, one hour) the histogram tracks; longer calls are recorded as this. */
    private static final long HIST_MAX_NANOS = 3_600_000_000_000L;
    long calls;
    long nanos;
    long failedCalls;
    long rejectedCalls;
    private Histogram latency;

    private CommandSpec(Builder b) {
        this.name = b.name;
        this.nameBytes = b.name.getBytes(StandardCharsets.US_ASCII);
        this.arity = b.arity;
        this.flags = b.flags;
        this.group = b.group;
        this.summary = b.summary;
        this.since = b.since;
        this.arguments = List.copyOf(b.arguments);
        this.handler = b.handler;
        this.subcommands = b.subcommands.isEmpty() ? null : new CommandTable(b.subcommands);
        if (subcommands != null) {
            for (CommandSpec sub : subcommands.all()) {
                sub.parent = this;
            }
        }
    }

    private CommandSpec(CommandSpec original, String newName) {
        this.name = newName;
        // As in Redis, replies and statistics keep the original name; only lookup uses the new one.
        this.fullName = original.fullName();
        this.nameBytes = newName.getBytes(StandardCharsets.UTF_8);
        this.arity = original.arity;
        this.flags = original.flags;
        this.group = original.group;
        this.summary = original.summary;
        this.since = original.since;
        this.arguments = original.arguments;
        this.handler = original.handler;
        this.subcommands = original.subcommands;
    }

    /** The same command under another (lower-case) name, for {@code rename-command}. */
    CommandSpec renamed(String newName) {
        return new CommandSpec(this, newName.toLowerCase(Locale.ROOT));
    }

    public static Builder builder(String name, int arity) {
        return new Builder(name, arity);
    }

    /** Lower-case name, e.g. {@code setname}. */
    public String name() {
        return name;
    }

    /** Name including the container, e.g. {@code client|setname}; the plain name otherwise. */
    public String fullName() {
        if (fullName == null) {
            fullName = parent == null ? name : parent.fullName() + "|" + name;
        }
        return fullName;
    }

    public int arity() {
        return arity;
    }

    public boolean arityAccepts(int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }

    public int flags() {
        return flags;
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    public String group() {
        return group;
    }

    public String summary() {
        return summary;
    }

    public String since() {
        return since;
    }

    /** The arguments after the name (and subcommand), for {@code COMMAND DOCS}; empty if none. */
    public List<CommandArg> arguments() {
        return arguments;
    }

    public CommandHandler handler() {
        return handler;
    }

    /** The container this is a subcommand of, or {@code null}. */
    public CommandSpec parent() {
        return parent;
    }

    /** Subcommands, or {@code null} if this is not a container command. */
    public CommandTable subcommands() {
        return subcommands;
    }

    /** Counts one executed call that took {@code elapsedNanos}; allocates only on the first call. */
    void recordCall(long elapsedNanos, boolean failed) {
        calls++;
        nanos += elapsedNanos;
        if (failed) {
            failedCalls++;
        }
        if (latency == null) {
            latency = new Histogram(1, HIST_MAX_NANOS, 2);
        }
        latency.recordValue(Math.max(1, Math.min(elapsedNanos, HIST_MAX_NANOS)));
    }

    public long calls() {
        return calls;
    }

    /** Total time spent in the handler, in microseconds. */
    public long usec() {
        return nanos / 1000;
    }

    public long failedCalls() {
        return failedCalls;
    }

    /** Calls refused before running: wrong arity, or an unknown subcommand (counted on the container). */
    public long rejectedCalls() {
        return rejectedCalls;
    }

    /**
     * The latency distribution as Redis's {@code LATENCY HISTOGRAM} reports it: buckets growing by
     * powers of two from 1024 ns, each given as its upper bound in microseconds and the cumulative
     * number of calls up to it; only buckets that add calls are passed to {@code bucket}.
     */
    public void latencyBuckets(java.util.function.LongBinaryOperator bucket) {
        if (latency == null || latency.getTotalCount() == 0) {
            return;
        }
        long previous = 0;
        for (org.HdrHistogram.HistogramIterationValue v : latency.logarithmicBucketValues(1024, 2)) {
            long cumulative = v.getTotalCountToThisValue();
            if (cumulative > previous) {
                bucket.applyAsLong(v.getValueIteratedTo() / 1000, cumulative);
            }
            previous = cumulative;
        }
    }

    /** Latency percentile in microseconds, or 0 before the first call. */
    public double latencyPercentileMicros(double percentile) {
        return latency == null ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
    }

    /** {@code CONFIG RESETSTAT}: zeroes this command's counters and histogram. */
    public void resetStats() {
        calls = 0;
        nanos = 0;
        failedCalls = 0;
        rejectedCalls = 0;
        if (latency != null) {
            latency.reset();
        }
    }

    /** Whether the readable bytes of {@code b} spell this command's name, ignoring ASCII case. */
    boolean nameEquals(ByteBuf b) {
        int len = b.readableBytes();
        if (len != nameBytes.length) {
            return false;
        }
        int base = b.readerIndex();
        for (int i = 0; i < len; i++) {
            byte c = b.getByte(base + i);
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != nameBytes[i]) {
                return false;
            }
        }
        return true;
    }

    byte[] nameBytes() {
        return nameBytes;
    }

    /** ACL categories as Redis derives them from flags and group, for {@code COMMAND INFO}. */
    public List<String> aclCategories() {
        List<String> cats = new ArrayList<>();
        List<String> verb = "sql".equals(group) ? io.respsql.acl.SqlVerbs.categories(fullName()) : null;
        if (verb != null) { // a SQL verb: the ACL's categories of the verb (acl/SqlVerbs)
            for (String c : verb) {
                cats.add("@" + c);
            }
            return cats;
        }
        if (hasFlag(CommandFlags.WRITE)) {
            cats.add("@write");
        }
        if (hasFlag(CommandFlags.READONLY)) {
            cats.add("@read");
        }
        if (hasFlag(CommandFlags.ADMIN)) {
            cats.add("@admin");
            cats.add("@dangerous");
        }
        cats.add(hasFlag(CommandFlags.FAST) ? "@fast" : "@slow");
        // Redis's names of the groups: @transaction, @keyspace
        cats.add("@" + (group.equals("transactions") ? "transaction" : group.equals("generic") ? "keyspace" : group));
        for (String extra : REDIS_EXTRA_CATEGORIES.getOrDefault(fullName(), List.of())) {
            if (!cats.contains(extra)) {
                cats.add(extra);
            }
        }
        return cats;
    }

    /** Categories Redis 7 gives these commands beyond what their flags say (FLUSHALL is @dangerous, ...). */
    private static final java.util.Map<String, List<String>> REDIS_EXTRA_CATEGORIES = java.util.Map.of(
        "flushall", List.of("@keyspace", "@dangerous"),
        "flushdb", List.of("@keyspace", "@dangerous"),
        "info", List.of("@dangerous"),
        "role", List.of("@admin", "@dangerous"),
        "lastsave", List.of("@admin", "@dangerous"),
        "shutdown", List.of("@admin", "@dangerous"),
        "dbsize", List.of("@keyspace"),
        "memory|usage", List.of("@keyspace"));

    @Override
    public String toString() {
        return fullName();
    }

    public static final class Builder {
        private final String name;
        private final int arity;
        private int flags;
        private String group = "server";
        private String summary = "";
        private String since = "0.1.0";
        private final List<CommandArg> arguments = new ArrayList<>();
        private CommandHandler handler;
        private final List<CommandSpec> subcommands = new ArrayList<>();

        private Builder(String name, int arity) {
            this.name = name.toLowerCase(Locale.ROOT);
            this.arity = arity;
        }

        public Builder flags(int flags) {
            this.flags = flags;
            return this;
        }

        public Builder group(String group) {
            this.group = group;
            return this;
        }

        public Builder summary(String summary) {
            this.summary = summary;
            return this;
        }

        public Builder since(String since) {
            this.since = since;
            return this;
        }

        /** The arguments {@code COMMAND DOCS} lists, in order. */
        public Builder args(CommandArg... args) {
            arguments.addAll(List.of(args));
            return this;
        }

        public Builder handler(CommandHandler handler) {
            this.handler = handler;
            return this;
        }

        public Builder subcommand(CommandSpec sub) {
            subcommands.add(sub);
            return this;
        }

        public Builder subcommands(Collection<CommandSpec> subs) {
            subcommands.addAll(subs);
            return this;
        }

        public CommandSpec build() {
            if (handler == null) {
                throw new IllegalStateException("command " + name + " has no handler");
            }
            return new CommandSpec(this);
        }
    }
}
