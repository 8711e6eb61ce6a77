package io.respsql.config;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private int port = DEFAULT_PORT;
    private String bind = DEFAULT_BIND;
    private int maxClients = DEFAULT_MAXCLIENTS;
    private String requirePass = "";
    private boolean protectedMode = true;
    private final Map<String, String> renamedCommands = new LinkedHashMap<>();
    private Path configFile;
    private long slowlogLogSlowerThan = 10_000;
    private int slowlogMaxLen = 128;
    private String dir = ".";
    private boolean appendOnly;
    private String appendFilename = "appendonly.aof";
    private FsyncPolicy appendFsync = FsyncPolicy.EVERYSEC;
    /** Applies a live change of {@code appendonly} (opens or closes the log); null before the server runs. */
    private AppendOnlySwitch appendOnlySwitch;

    private final Map<String, ConfigOption> options = new LinkedHashMap<>();

    public ServerConfig() {
        add(ConfigOption.ofInt("port", "TCP port to listen on; 0 picks a free port", false, 0, 65535,
                () -> port, v -> port = v));
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
        add(ConfigOption.ofInt("maxclients", "maximum number of connected clients", true, 1, 1_000_000,
                () -> maxClients, v -> maxClients = v));
        add(ConfigOption.ofLong("slowlog-log-slower-than",
                "SLOWLOG threshold in microseconds (0 logs every command, negative disables)", true,
                Long.MIN_VALUE, Long.MAX_VALUE, () -> slowlogLogSlowerThan, v -> slowlogLogSlowerThan = v));
        add(ConfigOption.ofInt("slowlog-max-len", "entries kept by SLOWLOG (oldest dropped first)", true,
                0, Integer.MAX_VALUE, () -> slowlogMaxLen, v -> slowlogMaxLen = v));
        add(ConfigOption.ofString("requirepass", "<password>",
                "password clients must give with AUTH before other commands (empty: none)", true,
                () -> requirePass, v -> requirePass = v));
        add(ConfigOption.ofString("protected-mode", "<yes|no>",
                "with no requirepass and a non-loopback bind, refuse clients that are not on loopback", true,
                () -> protectedMode ? "yes" : "no", v -> protectedMode = parseYesNo(v)));
        add(ConfigOption.fixed("maxmemory", "0", "memory limit (no limit: the JVM heap, -Xmx, bounds it)"));
        add(ConfigOption.fixed("databases", "1", "number of databases (only database 0 exists)"));
        add(ConfigOption.fixed("save", "", "snapshot schedule (persistence is not available)"));
        add(ConfigOption.ofString("dir", "<path>", "directory of the persistence files", false,
                () -> dir, v -> {
                    if (v.isBlank()) {
                        throw new ConfigException("dir needs a directory");
                    }
                    dir = v;
                }));
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

    public int port() {
        return port;
    }

    public ServerConfig port(int port) {
        if (port < 0 || port > 65535) {
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

    public int maxClients() {
        return maxClients;
    }

    public ServerConfig maxClients(int maxClients) {
        this.maxClients = maxClients;
        return this;
    }

    /** SLOWLOG threshold in microseconds; 0 logs everything, negative logs nothing. */
    public long slowlogLogSlowerThan() {
        return slowlogLogSlowerThan;
    }

    /** How many SLOWLOG entries are kept. */
    public int slowlogMaxLen() {
        return slowlogMaxLen;
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
