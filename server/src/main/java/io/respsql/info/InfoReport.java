package io.respsql.info;

import io.respsql.config.Version;
import io.respsql.config.ServerConfig;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Renders {@code INFO}: {@code # Section} headers followed by {@code field:value} lines, separated
 * by CRLF, the way Redis formats it. Event-loop thread only.
 */
public final class InfoReport {
    /** Sections in output order. */
    public static final List<String> SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "tables", "commandstats", "errorstats", "latencystats", "keyspace");
    /** What {@code INFO} and {@code INFO default} print: all but the per-command sections, as in Redis. */
    public static final List<String> DEFAULT_SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "tables", "errorstats", "keyspace");

    private final ServerConfig config;
    private final ServerStats stats;
    private final Catalog catalog;
    private final MemoryAccounting memory;
    private final long startMillis = System.currentTimeMillis();
    private final String runId;
    private final String javaGc;
    private int port;
    private String transport = "";
    /** Fills the persistence section; none until persistence is wired. */
    private Consumer<StringBuilder> persistence = sb -> { };
    /**
     * Fills the replication section. Until replication exists, what a standalone master says:
     * Sentinel needs {@code role:master} here to monitor a server (it reads roles only from INFO).
     */
    private Consumer<StringBuilder> replication = this::standaloneMaster;

    /** The plan cache the Stats section reports (the SQL engine's); null: none. */
    private PlanCacheStats engine;

    public void engine(PlanCacheStats engine) {
        this.engine = engine;
    }

    public InfoReport(ServerConfig config, ServerStats stats, Catalog catalog) {
        this.config = config;
        this.stats = stats;
        this.catalog = catalog;
        this.memory = new MemoryAccounting(config, stats, catalog);
        byte[] id = new byte[20];
        new SecureRandom().nextBytes(id);
        this.runId = HexFormat.of().formatHex(id);
        List<String> gcs = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(gc.getName());
        }
        this.javaGc = String.join(",", gcs);
    }

    /** Called once the server listens: the bound port and the transport ({@code nio}, {@code epoll}). */
    public void listening(int port, String transport) {
        this.port = port;
        this.transport = transport;
    }

    /** Who writes the fields of {@code # Persistence}. */
    public void persistence(Consumer<StringBuilder> fields) {
        this.persistence = fields;
    }

    /** Who writes the fields of {@code # Replication} (after the heading). */
    public void replication(Consumer<StringBuilder> fields) {
        this.replication = fields;
    }

    /** Redis 7's fields for a master without replicas. */
    private void standaloneMaster(StringBuilder sb) {
        field(sb, "role", "master");
        field(sb, "connected_slaves", 0);
        field(sb, "master_failover_state", "no-failover");
        field(sb, "master_replid", runId);
        field(sb, "master_replid2", "0000000000000000000000000000000000000000");
        field(sb, "master_repl_offset", 0);
        field(sb, "second_repl_offset", -1);
        field(sb, "repl_backlog_active", 0);
        field(sb, "repl_backlog_size", 1048576);
        field(sb, "repl_backlog_first_byte_offset", 0);
        field(sb, "repl_backlog_histlen", 0);
    }

    public String runId() {
        return runId;
    }

    /**
     * Writes a per-command section ({@code commandstats}, {@code latencystats}), heading included.
     * The command layer provides it: the statistics live on its command table, which this
     * package does not know.
     */
    @FunctionalInterface
    public interface CommandSections {
        void write(String section, StringBuilder sb);
    }

    /** {@link #render(List, CommandSections)} without per-command sections. */
    public String render(List<String> requested) {
        return render(requested, null);
    }

    /**
     * The report for the requested sections: none or {@code default} mean the default sections,
     * {@code all} or {@code everything} every section (including {@code commandstats} and
     * {@code latencystats}); unknown names are ignored, as Redis does.
     */
    public String render(List<String> requested, CommandSections commands) {
        boolean all = false;
        List<String> wanted = new ArrayList<>();
        if (requested.isEmpty()) {
            wanted.addAll(DEFAULT_SECTIONS);
        }
        for (String r : requested) {
            String s = r.toLowerCase(Locale.ROOT);
            if (s.equals("all") || s.equals("everything")) {
                all = true;
            } else if (s.equals("default")) {
                wanted.addAll(DEFAULT_SECTIONS);
            } else {
                wanted.add(s);
            }
        }
        StringBuilder sb = new StringBuilder(1024);
        for (String section : SECTIONS) {
            if (!all && !wanted.contains(section)) {
                continue;
            }
            if (commands == null && (section.equals("commandstats") || section.equals("latencystats"))) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append("\r\n");
            }
            switch (section) {
                case "server" -> server(sb);
                case "clients" -> clients(sb);
                case "memory" -> memory(sb);
                case "persistence" -> {
                    sb.append("# Persistence\r\n");
                    persistence.accept(sb);
                }
                case "stats" -> stats(sb);
                case "cpu" -> ProcessCpu.write(sb);
                case "replication" -> {
                    sb.append("# Replication\r\n");
                    replication.accept(sb);
                }
                case "tables" -> tables(sb);
                case "keyspace" -> keyspace(sb);
                case "commandstats", "latencystats" -> commands.write(section, sb);
                case "errorstats" -> errorStats(sb);
                default -> throw new IllegalStateException(section);
            }
        }
        return sb.toString();
    }

    private void server(StringBuilder sb) {
        long now = System.currentTimeMillis();
        long uptime = (now - startMillis) / 1000;
        Path file = config.configFile();
        sb.append("# Server\r\n");
        field(sb, "redis_version", Version.REDIS_COMPAT_VERSION);
        field(sb, "respsql_version", Version.VERSION);
        field(sb, "redis_mode", "standalone");
        field(sb, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        field(sb, "arch_bits", System.getProperty("sun.arch.data.model", "64"));
        field(sb, "multiplexing_api", transport);
        field(sb, "process_id", ProcessHandle.current().pid());
        field(sb, "run_id", runId);
        field(sb, "tcp_port", port);
        field(sb, "server_time_usec", now * 1000);
        field(sb, "uptime_in_seconds", uptime);
        field(sb, "uptime_in_days", uptime / 86400);
        field(sb, "config_file", file == null ? "" : file.toString());
        field(sb, "java_version", System.getProperty("java.version"));
        field(sb, "java_vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        field(sb, "java_gc", javaGc);
        field(sb, "executable", ProcessHandle.current().info().command().orElse(""));
    }

    private void clients(StringBuilder sb) {
        sb.append("# Clients\r\n");
        field(sb, "connected_clients", stats.connectedClients - stats.replicaClients);
        field(sb, "maxclients", config.maxClients());
        field(sb, "client_recent_max_input_buffer", stats.clientRecentMaxInputBuffer);
        field(sb, "client_recent_max_output_buffer", stats.clientRecentMaxOutputBuffer);
        field(sb, "blocked_clients", stats.blockedClients);
    }

    /**
     * {@code used_memory} is what {@code maxmemory} is checked against (see {@link MemoryAccounting}):
     * table data and indexes plus client buffers. The JVM's own view is in the {@code jvm_heap_} fields.
     */
    private void memory(StringBuilder sb) {
        Runtime rt = Runtime.getRuntime();
        long tableBytes = memory.tableBytes();
        long used = tableBytes + stats.clientBufferBytes;
        long peak = stats.notePeak(used);
        long heapUsed = rt.totalMemory() - rt.freeMemory();
        long max = config.maxMemory();
        long effective = config.effectiveMaxMemory();
        sb.append("# Memory\r\n");
        field(sb, "used_memory", used);
        field(sb, "used_memory_human", human(used));
        field(sb, "used_memory_peak", peak);
        field(sb, "used_memory_peak_human", human(peak));
        field(sb, "used_memory_clients", stats.clientBufferBytes);
        field(sb, "jvm_heap_used", heapUsed);
        field(sb, "jvm_heap_used_human", human(heapUsed));
        field(sb, "jvm_heap_committed", rt.totalMemory());
        field(sb, "jvm_heap_committed_human", human(rt.totalMemory()));
        field(sb, "jvm_heap_max", rt.maxMemory());
        field(sb, "jvm_heap_max_human", human(rt.maxMemory()));
        field(sb, "maxmemory", max);
        field(sb, "maxmemory_human", human(max));
        field(sb, "maxmemory_effective", effective);
        field(sb, "maxmemory_effective_human", human(effective));
        field(sb, "maxmemory_policy", "noeviction");
        field(sb, "table_bytes", tableBytes);
        field(sb, "table_bytes_human", human(tableBytes));
    }

    private void stats(StringBuilder sb) {
        sb.append("# Stats\r\n");
        field(sb, "total_connections_received", stats.totalConnectionsReceived);
        field(sb, "total_commands_processed", stats.totalCommandsProcessed);
        field(sb, "instantaneous_ops_per_sec", stats.instantaneousOpsPerSec());
        field(sb, "total_net_input_bytes", stats.totalNetInputBytes);
        field(sb, "total_net_output_bytes", stats.totalNetOutputBytes);
        field(sb, "rejected_connections", stats.rejectedConnections);
        field(sb, "total_error_replies", stats.totalErrorReplies);
        field(sb, "client_query_buffer_limit_disconnections", stats.clientQueryBufferLimitDisconnections);
        field(sb, "client_output_buffer_limit_disconnections", stats.clientOutputBufferLimitDisconnections);
        field(sb, "sync_full", stats.syncFull);
        field(sb, "sync_partial_ok", stats.syncPartialOk);
        field(sb, "sync_partial_err", stats.syncPartialErr);
        if (engine != null) {
            field(sb, "plan_cache_hits", engine.planCacheHits());
            field(sb, "plan_cache_misses", engine.planCacheMisses());
            field(sb, "plan_cache_entries", engine.planCacheEntries());
            field(sb, "plan_cache_bytes", engine.planCacheBytes());
            field(sb, "tx_parked_statements", engine.txParkedNow());
            field(sb, "tx_parked_total", engine.txParkedTotal());
            field(sb, "tx_uncommitted", engine.txUncommitted());
            field(sb, "pg_prepared_plan_runs", engine.preparedPlanRuns());
            field(sb, "pg_prepared_plans_made", engine.preparedPlansMade());
        }
        background.accept(sb);
    }

    /** Writes the background-query fields of {@code # Stats} (queries in flight, capture memory). */
    private java.util.function.Consumer<StringBuilder> background = sb -> { };

    public void background(java.util.function.Consumer<StringBuilder> fields) {
        this.background = fields == null ? sb -> { } : fields;
    }

    /** Error replies by code, as Redis 7: {@code errorstat_ERR:count=3}. */
    private void errorStats(StringBuilder sb) {
        sb.append("# Errorstats\r\n");
        for (java.util.Map.Entry<String, long[]> e : stats.errorsByType().entrySet()) {
            sb.append("errorstat_").append(e.getKey()).append(":count=").append(e.getValue()[0]).append("\r\n");
        }
    }

    /**
     * One line per table, keyed {@code table_<name>} so that every INFO parser (they keep one value
     * per key) sees every table. Names may hold characters INFO parsers split on ({@code :}) or
     * that are not ASCII, so the key escapes them: see {@link #tableKey}.
     */
    private void tables(StringBuilder sb) {
        sb.append("# Tables\r\n");
        List<Table> tables = new ArrayList<>(catalog.tables());
        tables.sort(Comparator.comparing(Table::name));
        for (Table t : tables) {
            long rows = t.rowCount();
            long data = t.dataBytes();
            long index = t.indexBytes();
            double perRow = rows == 0 ? 0 : (double) (data + index) / rows;
            appendTableKey(sb, t.name());
            sb.append(":rows=").append(rows)
              .append(",data_bytes=").append(data)
              .append(",index_bytes=").append(index)
              .append(",bytes_per_row=").append(String.format(Locale.ROOT, "%.2f", perRow))
              .append(",indexes=").append(t.indexes().size())
              .append("\r\n");
        }
    }

    /** {@code table_} and the name with every byte outside {@code [A-Za-z0-9_]} as {@code %XX} (UTF-8). */
    public static String tableKey(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 8);
        appendTableKey(sb, name);
        return sb.toString();
    }

    private static void appendTableKey(StringBuilder sb, String name) {
        sb.append("table_");
        for (byte b : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                  .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
    }

    /**
     * As Redis: {@code db0} (the only database) with the number of keys, here tables, so that
     * {@code redis-cli --stat} and exporters count them; no line while there are none. Nothing expires.
     */
    private void keyspace(StringBuilder sb) {
        sb.append("# Keyspace\r\n");
        int n = catalog.tables().size();
        if (n > 0) {
            sb.append("db0:keys=").append(n).append(",expires=0,avg_ttl=0\r\n");
        }
    }

    private static void field(StringBuilder sb, String name, Object value) {
        sb.append(name).append(':').append(value).append("\r\n");
    }

    private static void field(StringBuilder sb, String name, long value) {
        sb.append(name).append(':').append(value).append("\r\n");
    }

    /** Bytes as Redis prints them: {@code 512B}, {@code 1.50K}, {@code 2.00M}, ... */
    public static String human(long n) {
        if (n < 1024) {
            return n + "B";
        }
        String[] units = {"K", "M", "G", "T", "P", "E"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f%s", v, units[u]);
    }
}
