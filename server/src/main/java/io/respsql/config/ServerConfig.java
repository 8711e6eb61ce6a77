package io.respsql.config;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Server configuration. Values come from defaults, then an optional redis.conf-style file
 * ({@code name value} lines, {@code #} comments), then {@code --name value} flags.
 *
 * <p>Every key is a {@link ConfigOption} in {@link #options()}: adding a key there makes it
 * available to the command line, the file and {@code CONFIG GET/SET} at once.
 */
public final class ServerConfig {
    public static final int DEFAULT_PORT = 6379;
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_MAXCLIENTS = 10000;
    /**
     * One argument at most 32 MB: a statement is held as bytes, then as text, then parsed into
     * syntax trees and value arrays several times its size, so one maximal statement stays in the
     * low hundreds of MB of a 2 GB heap. (Redis allows 512 MB.)
     */
    public static final long DEFAULT_PROTO_MAX_BULK_LEN = 32L << 20;
    /** Twice the largest argument, so a maximal argument and its command name fit. (Redis: 1 GB.) */
    public static final long DEFAULT_CLIENT_QUERY_BUFFER_LIMIT = 64L << 20;
    /** The largest bulk netty's RESP decoder accepts. */
    public static final long MAX_PROTO_MAX_BULK_LEN = 512L << 20;
    private static final String[] OUTPUT_CLASSES = {"normal", "replica", "pubsub"};
    public static final String DEFAULT_DBFILENAME = "dump.rsql";
    /** Redis's default schedule: after 1 hour and 1 change, 5 minutes and 100, 1 minute and 10000. */
    public static final String DEFAULT_SAVE = "3600 1 300 100 60 10000";

    private int port = DEFAULT_PORT;
    private String bind = DEFAULT_BIND;
    /** {@code io-transport}: auto (native epoll where available, else NIO), epoll or nio. */
    private String ioTransport = "auto";
    private int maxClients = DEFAULT_MAXCLIENTS;
    private String requirePass = "";
    private boolean protectedMode = true;
    private final Map<String, String> renamedCommands = new LinkedHashMap<>();
    private Path configFile;
    private long slowlogLogSlowerThan = 10_000;
    private long bgQueryMinRows = 100_000;
    // ---- parallel ----
    /**
     * Background statements estimated under this many rows run on the short lane: workers at the
     * event loop's priority instead of nice 19, so a few-millisecond scan is not starved by other
     * processes of a busy host (issue 27: Q02/Q05 waited 5-500 ms for a nice-19 worker).
     */
    private long bgQueryShortRows = 1_000_000;
    /** Row slots per morsel when a statement is split (exec.op.Morsels): a storage chunk; lowered by tests. */
    private int bgQueryMorselRows = io.respsql.storage.Chunks.SIZE;
    /**
     * As many as the machine has cores (issue 27): one long statement is split over every worker
     * ({@code exec.op.Morsels}: a scan with its grouping, stripe by stripe); the workers run at
     * nice 19, so the event loop still takes a core the moment it has work. Before the split, one
     * core fewer (bench/blocking/workers-2conns: two analytic connections on 2 cores, point p99
     * 488 us with 2 workers, 83-92 us with 1).
     */
    private int bgQueryThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
    private long queryTimeoutMs;
    private long loopStatementMaxMs = 50;
    /** PostgreSQL wire protocol listener: -1 off, 0 any free port (tests). */
    private int pgPort = -1;
    private String pgAuth = "scram-sha-256";
    private long loopWriteMaxMs = 1000;
    private int slowlogMaxLen = 128;
    private int planCacheMaxEntries = 1000;
    private long planCacheMaxBytes = 32L << 20;
    private long latencyMonitorThreshold;
    private long protoMaxBulkLen = DEFAULT_PROTO_MAX_BULK_LEN;
    private long clientQueryBufferLimit = DEFAULT_CLIENT_QUERY_BUFFER_LIMIT;
    /**
     * {@code client-output-buffer-limit} per class: normal, replica, pubsub; each hard, soft, seconds.
     * The normal soft limit is also how far a background query's streamed reply runs ahead of a slow
     * reader (BackgroundQueries.Job#waitForReader): 16 MB keeps such a reader's cost in server memory
     * (pooled direct buffers) within issue 22's 64 MB of RSS growth (bench/slow-reader/).
     */
    private final long[][] outputBufferLimits = {
        {256L << 20, 16L << 20, 60},
        {256L << 20, 64L << 20, 60},
        {32L << 20, 8L << 20, 60},
    };
    private long maxMemory;
    private boolean appendOnly;
    private String appendFilename = "appendonly.aof";
    private FsyncPolicy appendFsync = FsyncPolicy.EVERYSEC;
    /** Applies a live change of {@code appendonly} (opens or closes the log); null before the server runs. */
    private AppendOnlySwitch appendOnlySwitch;
    private String dir = ".";
    private String dbFilename = DEFAULT_DBFILENAME;
    private SaveRules saveRules = SaveRules.of(DEFAULT_SAVE);
    /** {@code replicaof}: the master's host and port, or null when this server is a master. */
    private String masterHost;
    private int masterPort;
    private String masterAuth = "";
    // ---- acl ----
    private String masterUser = "";
    private String aclFile = "";
    private int aclLogMaxLen = 128;
    /** {@code user <name> <rules...>} lines of the config file and {@code --user} flags, in order. */
    private final List<String> userLines = new ArrayList<>();
    private boolean replicaReadOnly = true;
    private long replBacklogSize = 1L << 20;
    private int minReplicasToWrite;
    private int minReplicasMaxLag = 10;
    private int replicaPriority = 100;
    private int replTimeout = 60;
    private int replPingReplicaPeriod = 10;

    /** {@code tls-port}: 0 off; {@link #ANY_PORT} (Java API only) a free port, written back once bound. */
    private int tlsPort;
    private String tlsCertFile = "";
    private String tlsKeyFile = "";
    private String tlsKeyFilePass = "";
    private String tlsCaCertFile = "";
    private String tlsAuthClients = "yes";
    private String tlsProtocols = "";
    private String tlsCiphers = "";
    private String tlsCiphersuites = "";
    private boolean tlsReplication;
    private boolean tlsCluster;
    private long tlsHandshakeTimeoutMs = 10_000;
    // ---- pgtls ----
    private String tlsClientCertFile = "";
    private String tlsClientKeyFile = "";
    private String tlsClientKeyFilePass = "";
    private boolean pgTlsRequired;
    /** Rebuilds the TLS context after CONFIG SET of tls-* keys; null while no TLS listener runs. */
    private TlsReload tlsReload;

    private final Map<String, ConfigOption> options = new LinkedHashMap<>();

    public ServerConfig() {
        add(ConfigOption.ofInt("port", "TCP port to listen on; 0 picks a free port (with a tls-port: no plain listener, TLS only)", false, 0, 65535,
                () -> port, v -> port = v));
        add(ConfigOption.ofInt("pg-port", "TCP port of the PostgreSQL wire protocol listener (-1: off; 0 picks a free port)",
                false, -1, 65535, () -> pgPort, v -> pgPort = v));
        add(ConfigOption.ofString("pg-auth", "<scram-sha-256|password>",
                "how PostgreSQL clients prove requirepass: SCRAM-SHA-256, or the cleartext password", true,
                () -> pgAuth, v -> {
                    String m = v.trim().toLowerCase(java.util.Locale.ROOT);
                    if (!m.equals("scram-sha-256") && !m.equals("password")) {
                        throw new ConfigException("pg-auth must be scram-sha-256 or password");
                    }
                    pgAuth = m;
                }));
        add(ConfigOption.ofString("bind", "<addr>", "address to listen on (* for all interfaces)", false,
                () -> bind, v -> {
                    String trimmed = v.trim();
                    if (trimmed.isEmpty()) {
                        throw new ConfigException("bind needs an address");
                    }
                    if (trimmed.indexOf(' ') >= 0) {
                        throw new ConfigException("only one bind address is supported");
                    }
                    bind = trimmed;
                }));
        add(ConfigOption.ofString("io-transport", "<auto|epoll|nio>",
                "socket transport: netty's native epoll (Linux) or Java NIO; auto picks epoll where it loads (fixed at start)",
                false, () -> ioTransport, v -> {
                    String t = v.trim().toLowerCase(java.util.Locale.ROOT);
                    if (!t.equals("auto") && !t.equals("epoll") && !t.equals("nio")) {
                        throw new ConfigException("io-transport must be auto, epoll or nio");
                    }
                    ioTransport = t;
                }));
        add(ConfigOption.ofInt("maxclients", "maximum number of connected clients", true, 1, 1_000_000,
                () -> maxClients, v -> maxClients = v));
        add(ConfigOption.ofLong("slowlog-log-slower-than",
                "SLOWLOG threshold in microseconds (0 logs every command, negative disables)", true,
                Long.MIN_VALUE, Long.MAX_VALUE, () -> slowlogLogSlowerThan, v -> slowlogLogSlowerThan = v));
        add(ConfigOption.ofLong("bg-query-min-rows",
                "queries whose scans visit at least this many rows run on worker threads against a read view"
                        + " (0: none by estimate; one over loop-statement-max-ms still moves)",
                true, 0, Long.MAX_VALUE, () -> bgQueryMinRows, v -> bgQueryMinRows = v));
        add(ConfigOption.ofLong("bg-query-short-rows",
                "background queries estimated under this many rows run on workers at the event loop's priority"
                        + " (the short lane) instead of the lowest one (0: every one at the lowest)",
                true, 0, Long.MAX_VALUE, () -> bgQueryShortRows, v -> bgQueryShortRows = v));
        add(ConfigOption.ofInt("bg-query-morsel-rows",
                "row slots per morsel when a background query's scan is split over the workers (tests lower it)",
                true, 64, 1 << 24, () -> bgQueryMorselRows, v -> bgQueryMorselRows = v));
        add(ConfigOption.ofInt("bg-query-threads", "worker threads for background queries (fixed at start)", false,
                1, 1024, () -> bgQueryThreads, v -> bgQueryThreads = v));
        add(ConfigOption.ofLong("query-timeout-ms",
                "a query running longer than this many milliseconds, inline or in the background, is cancelled"
                        + " (0: no limit; a client's SET statement_timeout replaces it for its connection)", true,
                0, Long.MAX_VALUE, () -> queryTimeoutMs, v -> queryTimeoutMs = v));
        add(ConfigOption.ofLong("loop-statement-max-ms",
                "a query running on the event loop longer than this many milliseconds moves to a worker"
                        + " (inside MULTI/EXEC, where it cannot, it is cancelled) (0: no bound)", true,
                0, Long.MAX_VALUE, () -> loopStatementMaxMs, v -> loopStatementMaxMs = v));
        add(ConfigOption.ofLong("loop-write-max-ms",
                "a write (INSERT ... SELECT, UPDATE, DELETE) still looking for its rows on the event loop after"
                        + " this many milliseconds is cancelled before its first change (0: no bound)", true,
                0, Long.MAX_VALUE, () -> loopWriteMaxMs, v -> loopWriteMaxMs = v));
        add(ConfigOption.ofInt("slowlog-max-len", "entries kept by SLOWLOG (oldest dropped first)", true,
                0, Integer.MAX_VALUE, () -> slowlogMaxLen, v -> slowlogMaxLen = v));
        add(ConfigOption.ofInt("plan-cache-max-entries",
                "plans of text statements kept by the plan cache (0 turns the cache off)", true,
                0, Integer.MAX_VALUE, () -> planCacheMaxEntries, v -> planCacheMaxEntries = v));
        add(ConfigOption.ofBytes("plan-cache-max-bytes", "estimated memory the plan cache may hold", true,
                0, Long.MAX_VALUE, () -> planCacheMaxBytes, v -> planCacheMaxBytes = v));
        add(ConfigOption.ofLong("latency-monitor-threshold",
                "latency monitor threshold in milliseconds: events at least this long are recorded (0: off)", true,
                0, Long.MAX_VALUE, () -> latencyMonitorThreshold, v -> latencyMonitorThreshold = v));
        add(ConfigOption.ofString("requirepass", "<password>",
                "password clients must give with AUTH before other commands (empty: none)", true,
                () -> requirePass, v -> requirePass = v));
        add(ConfigOption.ofString("protected-mode", "<yes|no>",
                "with no requirepass and a non-loopback bind, refuse clients that are not on loopback", true,
                () -> protectedMode ? "yes" : "no", v -> protectedMode = parseYesNo(v)));
        add(ConfigOption.ofBytes("proto-max-bulk-len", "largest argument a request may carry", true,
                1024, MAX_PROTO_MAX_BULK_LEN, () -> protoMaxBulkLen, v -> protoMaxBulkLen = v));
        add(ConfigOption.ofBytes("client-query-buffer-limit",
                "most bytes of one unfinished request a client may have buffered before it is disconnected", true,
                1024, Long.MAX_VALUE, () -> clientQueryBufferLimit, v -> clientQueryBufferLimit = v));
        add(ConfigOption.ofString("client-output-buffer-limit", "<class hard soft seconds>",
                "disconnect a client whose unsent replies exceed hard, or soft for longer than seconds "
                        + "(the normal and pubsub classes apply)", true, this::outputBufferLimitText, this::parseOutputBufferLimit));
        add(ConfigOption.ofBytes("maxmemory",
                "refuse writes (-OOM) above this many bytes of table data, indexes and client buffers "
                        + "(0: 70% of the JVM max heap)", true, 0, Long.MAX_VALUE, () -> maxMemory, v -> maxMemory = v));
        add(ConfigOption.fixed("maxmemory-policy", "noeviction", "what happens at maxmemory (writes are refused)"));
        add(ConfigOption.fixed("databases", "1", "number of databases (only database 0 exists)"));
        add(ConfigOption.ofString("dir", "<path>", "directory of the snapshot and append-only files (must exist and be writable)", true,
                () -> dir, v -> dir = checkDirectory(v)));
        add(ConfigOption.ofString("dbfilename", "<name>", "snapshot file name inside dir", true,
                () -> dbFilename, v -> dbFilename = checkFileName(v)));
        add(ConfigOption.ofString("save", "<seconds changes ...>",
                "take a background snapshot after <seconds> if at least <changes> rows changed (\"\" disables)", true,
                () -> saveRules.toString(), v -> saveRules = SaveRules.parse(v)));
        add(ConfigOption.ofString("appendonly", "<yes|no>",
                "log every write to the append-only file and load it at startup", true,
                () -> appendOnly ? "yes" : "no", v -> {
                    boolean on = parseYesNo(v);
                    if (appendOnlySwitch != null && on != appendOnly) {
                        appendOnlySwitch.apply(on); // throws when the log cannot be opened: value unchanged
                    }
                    appendOnly = on;
                }));
        add(ConfigOption.ofString("appendfilename", "<name>", "name of the append-only file inside dir", false,
                () -> appendFilename, v -> {
                    if (v.isBlank() || v.contains("/")) {
                        throw new ConfigException("appendfilename must be a file name without '/'");
                    }
                    appendFilename = v;
                }));
        add(ConfigOption.ofString("appendfsync", "<always|everysec|no>",
                "when the append-only file is fsynced: before each reply, once a second, or when the OS decides", true,
                () -> appendFsync.configName(), v -> appendFsync = FsyncPolicy.parse(v)));
        add(ConfigOption.ofString("replicaof", "<host port>",
                "replicate the master at <host> <port> (\"\" or \"no one\": be a master; live through REPLICAOF)", false,
                () -> masterHost == null ? "" : masterHost + " " + masterPort, this::parseReplicaOf));
        add(ConfigOption.ofString("masterauth", "<password>", "password a replica sends its master with AUTH", true,
                () -> masterAuth, v -> masterAuth = v));
        add(ConfigOption.ofString("masteruser", "<username>",
                "ACL user a replica authenticates as with its master (AUTH masteruser masterauth; empty: default)", true,
                () -> masterUser, v -> masterUser = v));
        add(ConfigOption.ofString("aclfile", "<path>",
                "file of ACL users (user <name> <rules>), loaded at start and by ACL LOAD, written by ACL SAVE", false,
                () -> aclFile, v -> aclFile = v));
        add(ConfigOption.ofInt("acllog-max-len", "entries kept by ACL LOG (oldest dropped first)", true,
                0, Integer.MAX_VALUE, () -> aclLogMaxLen, v -> aclLogMaxLen = v));
        add(ConfigOption.ofString("replica-read-only", "<yes|no>",
                "a replica refuses writes from its clients (-READONLY)", true,
                () -> replicaReadOnly ? "yes" : "no", v -> replicaReadOnly = parseYesNo(v)));
        add(ConfigOption.ofBytes("repl-backlog-size",
                "bytes of the replication stream kept for replicas that reconnect (partial resync)", true,
                16 * 1024, 1L << 30, () -> replBacklogSize, v -> replBacklogSize = v));
        add(ConfigOption.ofInt("min-replicas-to-write",
                "refuse writes (-NOREPLICAS) unless this many replicas acknowledged within min-replicas-max-lag (0: off)",
                true, 0, Integer.MAX_VALUE, () -> minReplicasToWrite, v -> minReplicasToWrite = v));
        add(ConfigOption.ofInt("min-replicas-max-lag", "seconds since its last acknowledgement a replica counts as good",
                true, 0, Integer.MAX_VALUE, () -> minReplicasMaxLag, v -> minReplicasMaxLag = v));
        add(ConfigOption.ofInt("repl-timeout", "seconds without data from the master before a replica drops the link",
                true, 1, Integer.MAX_VALUE, () -> replTimeout, v -> replTimeout = v));
        add(ConfigOption.ofInt("repl-ping-replica-period", "seconds between the PINGs a master sends its replicas",
                true, 1, Integer.MAX_VALUE, () -> replPingReplicaPeriod, v -> replPingReplicaPeriod = v));
        addTlsOptions();
        add(ConfigOption.ofInt("replica-priority", "Sentinel promotes replicas with a lower priority first (0: never)",
                true, 0, Integer.MAX_VALUE, () -> replicaPriority, v -> replicaPriority = v));
    }

    /**
     * Redis 7's TLS keys. The files are only stored here; the server loads them when it starts (a
     * bad file ends startup) and again after CONFIG SET of any tls-* key ({@link #applyLive}).
     */
    private void addTlsOptions() {
        add(ConfigOption.ofInt("tls-port", "TCP port of the TLS listener (0: none; with port 0, TLS only)", false,
                0, 65535, () -> tlsPort, v -> tlsPort = v));
        add(ConfigOption.ofString("tls-cert-file", "<file>", "server certificate (chain), PEM", true,
                () -> tlsCertFile, v -> tlsCertFile = v.trim()));
        add(ConfigOption.ofString("tls-key-file", "<file>", "private key of tls-cert-file, PEM (PKCS#8 or PKCS#1 RSA)", true,
                () -> tlsKeyFile, v -> tlsKeyFile = v.trim()));
        add(ConfigOption.ofString("tls-key-file-pass", "<password>", "password of an encrypted tls-key-file", true,
                () -> tlsKeyFilePass, v -> tlsKeyFilePass = v));
        add(ConfigOption.ofString("tls-ca-cert-file", "<file>", "CA certificates that sign client certificates, PEM",
                true, () -> tlsCaCertFile, v -> tlsCaCertFile = v.trim()));
        add(ConfigOption.ofString("tls-auth-clients", "<yes|no|optional>",
                "whether TLS clients must present a certificate signed by tls-ca-cert-file", true,
                () -> tlsAuthClients, v -> {
                    String t = v.trim().toLowerCase(java.util.Locale.ROOT);
                    if (!t.equals("yes") && !t.equals("no") && !t.equals("optional")) {
                        throw new ConfigException("argument must be 'yes', 'no' or 'optional'");
                    }
                    tlsAuthClients = t;
                }));
        add(ConfigOption.ofString("tls-protocols", "<protocols>", "TLS versions accepted (\"\": TLSv1.2 TLSv1.3)", true,
                () -> tlsProtocols, v -> {
                    for (String p : v.trim().split("\\s+")) {
                        if (!p.isEmpty() && !java.util.Set.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3").contains(p)) {
                            throw new ConfigException("unknown TLS protocol '" + p + "' (TLSv1, TLSv1.1, TLSv1.2, TLSv1.3)");
                        }
                    }
                    tlsProtocols = v.trim();
                }));
        add(ConfigOption.ofString("tls-ciphers", "<list>",
                "TLSv1.2 cipher suites, ':'-separated OpenSSL or IANA names (\"\": the JDK's defaults)", true,
                () -> tlsCiphers, v -> tlsCiphers = v.trim()));
        add(ConfigOption.ofString("tls-ciphersuites", "<list>",
                "TLSv1.3 cipher suites, ':'-separated (\"\": the JDK's defaults)", true,
                () -> tlsCiphersuites, v -> tlsCiphersuites = v.trim()));
        add(ConfigOption.ofLong("tls-handshake-timeout-ms",
                "a TLS client that has not finished its handshake after this many milliseconds is disconnected", true,
                1, Long.MAX_VALUE, () -> tlsHandshakeTimeoutMs, v -> tlsHandshakeTimeoutMs = v));
        add(ConfigOption.ofString("tls-replication", "<yes|no>",
                "a replica connects to its master over TLS (trusting tls-ca-cert-file) and announces its tls-port", true,
                () -> tlsReplication ? "yes" : "no", v -> tlsReplication = parseYesNo(v)));
        // ---- pgtls ----
        add(ConfigOption.ofString("tls-client-cert-file", "<file>",
                "certificate a replica presents to its master (\"\": tls-cert-file), PEM", true,
                () -> tlsClientCertFile, v -> tlsClientCertFile = v.trim()));
        add(ConfigOption.ofString("tls-client-key-file", "<file>", "private key of tls-client-cert-file, PEM", true,
                () -> tlsClientKeyFile, v -> tlsClientKeyFile = v.trim()));
        add(ConfigOption.ofString("tls-client-key-file-pass", "<password>", "password of an encrypted tls-client-key-file",
                true, () -> tlsClientKeyFilePass, v -> tlsClientKeyFilePass = v));
        add(ConfigOption.ofString("pg-tls-required", "<yes|no>",
                "pg-port refuses a client that did not upgrade to TLS by SSLRequest (PostgreSQL's hostssl); "
                        + "needs tls-cert-file and tls-key-file", false,
                () -> pgTlsRequired ? "yes" : "no", v -> pgTlsRequired = parseYesNo(v)));
        add(ConfigOption.ofString("tls-cluster", "<yes|no>", "accepted for Redis configuration files (no cluster bus)",
                true, () -> tlsCluster ? "yes" : "no", v -> tlsCluster = parseYesNo(v)));
    }

    /** {@code replicaof <host> <port>}, or {@code ""} / {@code no one} for a master. */
    private void parseReplicaOf(String v) throws ConfigException {
        String[] w = v.trim().split("\\s+");
        if (v.isBlank() || (w.length == 2 && w[0].equalsIgnoreCase("no") && w[1].equalsIgnoreCase("one"))) {
            masterHost = null;
            masterPort = 0;
            return;
        }
        if (w.length != 2) {
            throw new ConfigException("replicaof needs <host> <port>");
        }
        int p;
        try {
            p = Integer.parseInt(w[1]);
        } catch (NumberFormatException e) {
            throw new ConfigException("Invalid master port");
        }
        if (p < 1 || p > 65535) {
            throw new ConfigException("Invalid master port");
        }
        masterHost = w[0];
        masterPort = p;
    }

    // ---- replication ---------------------------------------------------------------------

    /** The master to replicate ({@code replicaof}), or null when this server is a master. */
    public String masterHost() {
        return masterHost;
    }

    public int masterPort() {
        return masterPort;
    }

    /** Records the master this server replicates (REPLICAOF); null host: a master. */
    public void replicaOf(String host, int port) {
        this.masterHost = host;
        this.masterPort = host == null ? 0 : port;
    }

    public String masterAuth() {
        return masterAuth;
    }

    /** The ACL user a replica authenticates as (empty: the default user, {@code AUTH masterauth}). */
    public String masterUser() {
        return masterUser;
    }

    public String aclFile() {
        return aclFile;
    }

    public ServerConfig aclFile(String path) {
        this.aclFile = path == null ? "" : path;
        return this;
    }

    public int aclLogMaxLen() {
        return aclLogMaxLen;
    }

    /** The {@code user} lines of the config file and {@code --user} flags ({@code name rules...}), in order. */
    public List<String> userLines() {
        return Collections.unmodifiableList(userLines);
    }

    public ServerConfig addUserLine(String line) {
        userLines.add(line);
        return this;
    }

    /** Whether CONFIG GET must not show the key's value (a password). */
    public static boolean secret(String name) {
        return name.equals("requirepass") || name.equals("masterauth");
    }

    public boolean replicaReadOnly() {
        return replicaReadOnly;
    }

    public long replBacklogSize() {
        return replBacklogSize;
    }

    public int minReplicasToWrite() {
        return minReplicasToWrite;
    }

    public int minReplicasMaxLag() {
        return minReplicasMaxLag;
    }

    public int replTimeout() {
        return replTimeout;
    }

    public int replPingReplicaPeriod() {
        return replPingReplicaPeriod;
    }

    public int replicaPriority() {
        return replicaPriority;
    }

    /** Hard output limit of replica connections in bytes; 0 for none. */
    public long replicaOutputHardLimit() {
        return outputBufferLimits[1][0];
    }

    private String outputBufferLimitText() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < OUTPUT_CLASSES.length; i++) {
            long[] l = outputBufferLimits[i];
            sb.append(i == 0 ? "" : " ").append(OUTPUT_CLASSES[i]).append(' ')
              .append(l[0]).append(' ').append(l[1]).append(' ').append(l[2]);
        }
        return sb.toString();
    }

    /** {@code <class> <hard> <soft> <seconds>} repeated; classes normal, replica (slave), pubsub. */
    private void parseOutputBufferLimit(String value) throws ConfigException {
        String[] w = value.trim().split("\\s+");
        if (w.length == 0 || w.length % 4 != 0) {
            throw new ConfigException("wrong number of arguments: expected <class> <hard> <soft> <seconds> groups");
        }
        long[][] parsed = new long[OUTPUT_CLASSES.length][];
        for (int g = 0; g < w.length; g += 4) {
            String cls = w[g].toLowerCase(java.util.Locale.ROOT);
            int index = switch (cls) {
                case "normal" -> 0;
                case "replica", "slave" -> 1;
                case "pubsub" -> 2;
                default -> throw new ConfigException("invalid client class '" + w[g] + "'");
            };
            long hard = ConfigOption.parseBytes(w[g + 1]);
            long soft = ConfigOption.parseBytes(w[g + 2]);
            long seconds;
            try {
                seconds = Long.parseLong(w[g + 3]);
            } catch (NumberFormatException e) {
                throw new ConfigException("invalid soft limit seconds '" + w[g + 3] + "'");
            }
            if (seconds < 0) {
                throw new ConfigException("invalid soft limit seconds '" + w[g + 3] + "'");
            }
            parsed[index] = new long[] {hard, soft, seconds};
        }
        // Applied only once every group parsed: a bad value changes nothing.
        for (int i = 0; i < parsed.length; i++) {
            if (parsed[i] != null) {
                outputBufferLimits[i] = parsed[i];
            }
        }
    }

    private static String checkDirectory(String v) throws ConfigException {
        if (v.isEmpty()) {
            throw new ConfigException("dir needs a directory");
        }
        Path p;
        try {
            p = Path.of(v);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException("invalid path '" + v + "'");
        }
        if (!Files.isDirectory(p)) {
            throw new ConfigException("no such directory '" + v + "'");
        }
        if (!Files.isWritable(p)) {
            throw new ConfigException("directory '" + v + "' is not writable");
        }
        return v;
    }

    private static String checkFileName(String v) throws ConfigException {
        if (v.isEmpty() || v.equals(".") || v.equals("..") || v.indexOf('/') >= 0 || v.indexOf('\\') >= 0
                || v.indexOf('\0') >= 0) {
            throw new ConfigException("dbfilename must be a file name without path separators");
        }
        return v;
    }

    private static boolean parseYesNo(String v) throws ConfigException {
        String t = v.trim();
        if (t.equalsIgnoreCase("yes")) {
            return true;
        }
        if (t.equalsIgnoreCase("no")) {
            return false;
        }
        throw new ConfigException("argument must be 'yes' or 'no'");
    }

    private void add(ConfigOption option) {
        options.put(option.name(), option);
    }

    // ---- typed access ----------------------------------------------------------------------

    /** The PostgreSQL listener's port: -1 off, 0 any free port (written back once bound). */
    public int pgPort() {
        return pgPort;
    }

    public ServerConfig pgPort(int port) {
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException("pg-port out of range: " + port);
        }
        this.pgPort = port;
        return this;
    }

    /** {@code scram-sha-256} or {@code password} (cleartext). */
    public String pgAuth() {
        return pgAuth;
    }

    /** @throws IllegalArgumentException for another method than scram-sha-256 or password */
    public ServerConfig pgAuth(String method) {
        try {
            options.get("pg-auth").set(method);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return this;
    }

    public int port() {
        return port;
    }

    /** 0: a free port (with a TLS port: no plain listener, as Redis); {@link #ANY_PORT}: a free port. */
    public ServerConfig port(int port) {
        if (port < ANY_PORT || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        this.port = port;
        return this;
    }

    public String bind() {
        return bind;
    }

    public ServerConfig bind(String bind) {
        this.bind = bind;
        return this;
    }

    /** {@code auto}, {@code epoll} or {@code nio}. */
    public String ioTransport() {
        return ioTransport;
    }

    public ServerConfig ioTransport(String transport) {
        if (!transport.equals("auto") && !transport.equals("epoll") && !transport.equals("nio")) {
            throw new IllegalArgumentException("io-transport must be auto, epoll or nio: " + transport);
        }
        this.ioTransport = transport;
        return this;
    }

    public int maxClients() {
        return maxClients;
    }

    public ServerConfig maxClients(int maxClients) {
        this.maxClients = maxClients;
        return this;
    }

    /** SLOWLOG threshold in microseconds; 0 logs everything, negative logs nothing. */
    public long bgQueryMinRows() {
        return bgQueryMinRows;
    }

    /** Background statements estimated under this many rows run on the short lane (normal priority). */
    public long bgQueryShortRows() {
        return bgQueryShortRows;
    }

    /** Row slots per morsel of a split scan (bg-query-morsel-rows). */
    public int bgQueryMorselRows() {
        return bgQueryMorselRows;
    }

    public int bgQueryThreads() {
        return bgQueryThreads;
    }

    public long loopStatementMaxMs() {
        return loopStatementMaxMs;
    }

    public long loopWriteMaxMs() {
        return loopWriteMaxMs;
    }

    public long queryTimeoutMs() {
        return queryTimeoutMs;
    }

    public long slowlogLogSlowerThan() {
        return slowlogLogSlowerThan;
    }

    /** Latency monitor threshold in milliseconds; 0 turns the monitor off. */
    public long latencyMonitorThreshold() {
        return latencyMonitorThreshold;
    }

    /** How many plans the plan cache keeps; 0: no cache. */
    public int planCacheMaxEntries() {
        return planCacheMaxEntries;
    }

    /** The plan cache's memory bound (an estimate per plan). */
    public long planCacheMaxBytes() {
        return planCacheMaxBytes;
    }

    /** How many SLOWLOG entries are kept. */
    public int slowlogMaxLen() {
        return slowlogMaxLen;
    }

    /** Largest bulk string (argument) a request may carry, in bytes. */
    public long protoMaxBulkLen() {
        return protoMaxBulkLen;
    }

    /** Most bytes one client's unfinished request may hold before the client is disconnected. */
    public long clientQueryBufferLimit() {
        return clientQueryBufferLimit;
    }

    /** Hard output limit of normal clients in bytes; 0 for none. */
    public long outputHardLimit() {
        return outputBufferLimits[0][0];
    }

    /** Soft output limit of normal clients in bytes; 0 for none. */
    public long outputSoftLimit() {
        return outputBufferLimits[0][1];
    }

    /** Seconds a normal client may stay above the soft limit. */
    public long outputSoftSeconds() {
        return outputBufferLimits[0][2];
    }

    /** Hard output limit of clients in Pub/Sub mode in bytes; 0 for none. */
    public long pubsubOutputHardLimit() {
        return outputBufferLimits[2][0];
    }

    /** Soft output limit of clients in Pub/Sub mode in bytes; 0 for none. */
    public long pubsubOutputSoftLimit() {
        return outputBufferLimits[2][1];
    }

    /** Seconds a client in Pub/Sub mode may stay above its soft limit. */
    public long pubsubOutputSoftSeconds() {
        return outputBufferLimits[2][2];
    }

    /** The configured {@code maxmemory} in bytes; 0 when not set (see {@link #effectiveMaxMemory()}). */
    public long maxMemory() {
        return maxMemory;
    }

    public ServerConfig maxMemory(long bytes) {
        this.maxMemory = bytes;
        return this;
    }

    /**
     * The limit writes are checked against: {@code maxmemory}, or when it is 0, 70% of the JVM's
     * max heap. The rest of the heap is for what the accounting does not see: statements in
     * flight, their replies, garbage not yet collected.
     */
    public long effectiveMaxMemory() {
        return maxMemory > 0 ? maxMemory : Runtime.getRuntime().maxMemory() / 10 * 7;
    }

    /** The password of the default user; empty when none is required. */
    public String requirePass() {
        return requirePass;
    }

    public ServerConfig requirePass(String password) {
        this.requirePass = password == null ? "" : password;
        return this;
    }

    /** Whether clients must authenticate before running commands. */
    public boolean passwordRequired() {
        return !requirePass.isEmpty();
    }

    public boolean protectedMode() {
        return protectedMode;
    }

    public ServerConfig protectedMode(boolean on) {
        this.protectedMode = on;
        return this;
    }

    /**
     * Commands renamed by {@code rename-command old new} lines of the configuration file, keyed by
     * the lower-case original name; an empty new name disables the command.
     */
    public Map<String, String> renamedCommands() {
        return Collections.unmodifiableMap(renamedCommands);
    }

    /** Renames command {@code from} to {@code to} when the server starts; an empty {@code to} disables it. */
    public ServerConfig renameCommand(String from, String to) {
        renamedCommands.put(ConfigOption.normalize(from), ConfigOption.normalize(to));
        return this;
    }

    /** The configuration file the values were read from, or {@code null}. */
    public Path configFile() {
        return configFile;
    }

    /** Directory of the persistence files. */
    public Path dir() {
        return Path.of(dir);
    }

    public ServerConfig dir(Path dir) {
        this.dir = dir.toString();
        return this;
    }

    public boolean appendOnly() {
        return appendOnly;
    }

    public ServerConfig appendOnly(boolean on) {
        this.appendOnly = on;
        return this;
    }

    public String appendFilename() {
        return appendFilename;
    }

    public ServerConfig appendFilename(String name) {
        this.appendFilename = name;
        return this;
    }

    /** The append-only file: {@code dir/appendfilename}. */
    public Path appendOnlyPath() {
        return dir().resolve(appendFilename);
    }

    public FsyncPolicy appendFsync() {
        return appendFsync;
    }

    public ServerConfig appendFsync(FsyncPolicy policy) {
        this.appendFsync = policy;
        return this;
    }

    /** Installed by the server: what {@code CONFIG SET appendonly} does besides storing the value. */
    public void appendOnlySwitch(AppendOnlySwitch s) {
        this.appendOnlySwitch = s;
    }

    /** Opens or closes the append-only file when {@code appendonly} changes at runtime. */
    @FunctionalInterface
    public interface AppendOnlySwitch {
        void apply(boolean on) throws ConfigException;
    }

    /** Snapshot file name inside {@link #dir()}. */
    public String dbFilename() {
        return dbFilename;
    }

    public ServerConfig dbFilename(String name) {
        try {
            this.dbFilename = checkFileName(name);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        return this;
    }

    /** The snapshot file, {@code dir/dbfilename}. */
    public Path snapshotPath() {
        return dir().resolve(dbFilename);
    }

    /** When background snapshots are taken ({@code save}); empty when they are not. */
    public SaveRules saveRules() {
        return saveRules;
    }

    /** Sets {@code save} as written in the configuration file, e.g. {@code "60 1000"} or {@code ""}. */
    public ServerConfig save(String rules) {
        this.saveRules = SaveRules.of(rules);
        return this;
    }

    // ---- TLS -----------------------------------------------------------------------------

    /** For the Java API: {@code port} or {@code tls-port} bound to any free port, written back once bound. */
    public static final int ANY_PORT = -1;

    public int tlsPort() {
        return tlsPort;
    }

    /** 0: no TLS listener; {@link #ANY_PORT}: one on a free port. */
    public ServerConfig tlsPort(int port) {
        if (port < ANY_PORT || port > 65535) {
            throw new IllegalArgumentException("tls-port out of range: " + port);
        }
        this.tlsPort = port;
        return this;
    }

    /** Whether a TLS listener is configured. */
    public boolean tlsEnabled() {
        return tlsPort != 0;
    }

    /** Whether the plain listener is configured: {@code port 0} with a TLS port means TLS only (as Redis). */
    public boolean plainEnabled() {
        return port != 0 || tlsPort == 0;
    }

    public String tlsCertFile() {
        return tlsCertFile;
    }

    public String tlsKeyFile() {
        return tlsKeyFile;
    }

    public String tlsKeyFilePass() {
        return tlsKeyFilePass;
    }

    public String tlsCaCertFile() {
        return tlsCaCertFile;
    }

    /** {@code yes}, {@code no} or {@code optional}. */
    public String tlsAuthClients() {
        return tlsAuthClients;
    }

    /** Space-separated; empty for the default (TLSv1.2 TLSv1.3). */
    public String tlsProtocols() {
        return tlsProtocols;
    }

    public String tlsCiphers() {
        return tlsCiphers;
    }

    public String tlsCiphersuites() {
        return tlsCiphersuites;
    }

    public boolean tlsReplication() {
        return tlsReplication;
    }

    public long tlsHandshakeTimeoutMs() {
        return tlsHandshakeTimeoutMs;
    }

    // ---- pgtls ----

    public String tlsClientCertFile() {
        return tlsClientCertFile;
    }

    public String tlsClientKeyFile() {
        return tlsClientKeyFile;
    }

    public String tlsClientKeyFilePass() {
        return tlsClientKeyFilePass;
    }

    /** Whether the PostgreSQL listener offers TLS: pg-port on and a server certificate configured. */
    public boolean pgTlsEnabled() {
        return pgPort >= 0 && !tlsCertFile.isEmpty() && !tlsKeyFile.isEmpty();
    }

    /** {@code pg-tls-required yes}: pg-port refuses clients that did not upgrade to TLS. */
    public boolean pgTlsRequired() {
        return pgTlsRequired;
    }

    public ServerConfig pgTlsRequired(boolean required) {
        this.pgTlsRequired = required;
        return this;
    }

    /** Sets a tls-* key by name as a configuration line would (for the Java API and tests). */
    public ServerConfig tls(String name, String value) {
        ConfigOption o = option(name);
        if (o == null || !o.name().startsWith("tls-")) {
            throw new IllegalArgumentException("not a TLS option: " + name);
        }
        try {
            o.set(value);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
        return this;
    }

    /** The keys the TLS context is built from: a change of any of them rebuilds it. */
    private static final java.util.Set<String> TLS_CONTEXT_KEYS = java.util.Set.of("tls-cert-file", "tls-key-file",
            "tls-key-file-pass", "tls-ca-cert-file", "tls-auth-clients", "tls-protocols", "tls-ciphers", "tls-ciphersuites",
            "tls-replication", "tls-client-cert-file", "tls-client-key-file", "tls-client-key-file-pass");

    /** Installed by the server while its TLS listener runs. */
    public void tlsReload(TlsReload reload) {
        this.tlsReload = reload;
    }

    /** Loads the TLS files again after a live change; throws (naming the file) when they do not load. */
    @FunctionalInterface
    public interface TlsReload {
        void reload() throws ConfigException;
    }

    /**
     * What CONFIG SET does once every value of one call is stored: keys applied together (the TLS
     * certificate and its key, as Redis 7) are applied once here. Throws when they cannot be; the
     * caller then restores the previous values.
     */
    public void applyLive(Collection<ConfigOption> changed) throws ConfigException {
        if (tlsReload == null) {
            return;
        }
        for (ConfigOption o : changed) {
            if (TLS_CONTEXT_KEYS.contains(o.name())) {
                tlsReload.reload();
                return;
            }
        }
    }

    // ---- generic access --------------------------------------------------------------------

    /** Every key, in a stable order. */
    public Collection<ConfigOption> options() {
        return Collections.unmodifiableCollection(options.values());
    }

    /** The key named {@code name} (case-insensitive), or {@code null}. */
    public ConfigOption option(String name) {
        return options.get(ConfigOption.normalize(name));
    }

    // ---- sources ---------------------------------------------------------------------------

    /**
     * Parses {@code [config-file] [--name value ...]}. {@code --help} and {@code --version} end
     * parsing with a {@link ConfigException} whose exit status is 0 and whose message is the text
     * to print.
     */
    public static ServerConfig fromArgs(String... args) throws ConfigException {
        ServerConfig config = new ServerConfig();
        int i = 0;
        for (String arg : args) {
            if (arg.equals("-h") || arg.equals("--help")) {
                throw new ConfigException(usage(), 0);
            }
            if (arg.equals("-v") || arg.equals("--version")) {
                throw new ConfigException("respsql-server " + Version.VERSION, 0);
            }
        }
        if (args.length > 0 && !args[0].startsWith("-")) {
            config.loadFile(Path.of(args[0]));
            i = 1;
        }
        while (i < args.length) {
            String arg = args[i++];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new ConfigException("Unexpected argument '" + arg + "' (try --help)");
            }
            String name = arg.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else {
                value = null;
            }
            if (name.equals("user")) { // --user "alice on >pw ~t* +@read": one ACL user, as a config file's line
                if (value == null) {
                    if (i >= args.length) {
                        throw new ConfigException("Option --user needs a value (try --help)");
                    }
                    value = args[i++];
                }
                config.userLines.add(value.strip());
                continue;
            }
            ConfigOption option = config.option(name);
            if (option == null) {
                throw new ConfigException("Unknown option --" + name + " (try --help)");
            }
            if (value == null) {
                if (i >= args.length) {
                    throw new ConfigException("Option --" + name + " needs a value (try --help)");
                }
                value = args[i++];
            }
            try {
                option.set(value);
            } catch (ConfigException e) {
                throw new ConfigException("Bad value '" + value + "' for --" + option.name() + ": " + e.getMessage());
            }
        }
        return config;
    }

    /** Reads {@code name value} lines; blank lines and lines starting with {@code #} are skipped. */
    public void loadFile(Path file) throws ConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("Cannot read config file " + file + ": " + e.getMessage());
        }
        int lineNo = 0;
        for (String raw : lines) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<byte[]> words = SplitArgs.split(line.getBytes(StandardCharsets.UTF_8));
            if (words == null) {
                throw new ConfigException(where(file, lineNo) + "unbalanced quotes");
            }
            String name = new String(words.get(0), StandardCharsets.UTF_8);
            if (name.equalsIgnoreCase("rename-command")) {
                if (words.size() != 3) {
                    throw new ConfigException(where(file, lineNo) + "rename-command needs a command and a new name");
                }
                renameCommand(new String(words.get(1), StandardCharsets.UTF_8),
                        new String(words.get(2), StandardCharsets.UTF_8));
                continue;
            }
            if (name.equalsIgnoreCase("user")) {
                if (words.size() < 2) {
                    throw new ConfigException(where(file, lineNo) + "user needs a name");
                }
                StringBuilder rules = new StringBuilder();
                for (int w = 1; w < words.size(); w++) {
                    rules.append(w > 1 ? " " : "").append(new String(words.get(w), StandardCharsets.UTF_8));
                }
                userLines.add(rules.toString());
                continue;
            }
            ConfigOption option = option(name);
            if (option == null) {
                throw new ConfigException(where(file, lineNo) + "unknown directive '" + name + "'");
            }
            StringBuilder value = new StringBuilder();
            for (int w = 1; w < words.size(); w++) {
                if (w > 1) {
                    value.append(' ');
                }
                value.append(new String(words.get(w), StandardCharsets.UTF_8));
            }
            try {
                option.set(value.toString());
            } catch (ConfigException e) {
                throw new ConfigException(where(file, lineNo) + "bad value for '" + option.name() + "': " + e.getMessage());
            }
        }
        configFile = file.toAbsolutePath();
    }

    private static String where(Path file, int line) {
        return file + ":" + line + ": ";
    }

    public static String usage() {
        StringBuilder sb = new StringBuilder();
        sb.append("Usage: respsql-server [/path/to/respsql.conf] [--name value ...]\n");
        sb.append("       respsql-server -h | --help\n");
        sb.append("       respsql-server -v | --version\n\n");
        sb.append("Options (also accepted as \"name value\" lines in the config file):\n");
        ServerConfig defaults = new ServerConfig();
        StringBuilder fixed = new StringBuilder();
        for (ConfigOption o : defaults.options()) {
            if (o.valueHint() == null) {
                fixed.append(fixed.length() == 0 ? "" : ", ").append(o.name()).append(' ').append(quoteIfEmpty(o.get()));
                continue;
            }
            String flag = "--" + o.name() + " " + o.valueHint();
            sb.append(String.format("  %-18s %s (default %s)%n", flag, o.description(), quoteIfEmpty(o.get())));
        }
        sb.append("\nConfig file only: rename-command <command> <new-name>  (\"\" as the new name disables the command)\n");
        sb.append("Config file or flag: user <name> <ACL rules ...>  (--user \"alice on >pw ~orders* +@read\"; repeatable)\n");
        sb.append("\nFixed in this version (accepted only with these values): ").append(fixed).append('\n');
        sb.append("\nExamples:\n");
        sb.append("  respsql-server --port 7777\n");
        sb.append("  respsql-server /etc/respsql.conf --bind 0.0.0.0\n");
        return sb.toString();
    }

    private static String quoteIfEmpty(String s) {
        return s.isEmpty() ? "\"\"" : s;
    }
}
