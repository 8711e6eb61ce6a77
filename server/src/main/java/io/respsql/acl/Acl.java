package io.respsql.acl;

import io.respsql.sql.tree.Statement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Redis 7's access control lists with tables where Redis has keys: the users, their rules
 * ({@link #setUser}), the command universe their command rules range over, ACL LOG, and the ACL
 * file. Event-loop only (the PostgreSQL listener's connections run on it too).
 *
 * <p>The {@code default} user is {@code on nopass ~* &* +@all} until {@code requirepass} is set:
 * then its password is requirepass (as Redis), and a later {@code CONFIG SET requirepass} gives
 * it the new one.
 */
public final class Acl {
    public static final String DEFAULT = "default";
    /** Redis 7.2's texts. */
    public static final String NOPERM_KEY = "NOPERM No permissions to access a key";

    /** Redis's categories (without '@'), in Redis's order; the server's own groups are added to them. */
    private static final List<String> REDIS_CATEGORIES = List.of("keyspace", "read", "write", "set", "sortedset", "list",
            "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
            "dangerous", "connection", "transaction", "scripting");

    private final TreeMap<String, AclUser> users = new TreeMap<>();
    private AclUser defaultUser;
    /** Command full name ({@code config|get}) to its categories (without '@'). */
    private final Map<String, List<String>> universe = new LinkedHashMap<>();
    /** Container command to its subcommands' full names. */
    private final Map<String, List<String>> containers = new LinkedHashMap<>();
    private final Supplier<String> requirePass;
    private String appliedRequirePass = "";
    private String aclFile;
    /** Newest first. */
    private final Deque<LogEntry> log = new ArrayDeque<>();
    private long nextEntryId;
    private int logMaxLen = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    public Acl(Supplier<String> requirePass) {
        this.requirePass = requirePass;
        for (Map.Entry<String, List<String>> v : SqlVerbs.VERBS.entrySet()) {
            universe.put(v.getKey(), v.getValue());
        }
        defaultUser = freshDefault();
        users.put(DEFAULT, defaultUser);
        syncRequirePass();
    }

    private static AclUser freshDefault() {
        AclUser u = new AclUser(DEFAULT);
        u.enabled = true;
        u.nopass = true;
        u.patterns.add(new AclUser.Pattern("*", AclUser.READ | AclUser.WRITE));
        u.channels.add("*");
        u.commandRules.clear();
        u.commandRules.add("+@all");
        u.allCommands = true;
        u.changed();
        return u;
    }

    // ---- the command universe -------------------------------------------------------------------

    /** Adds a command (a container's subcommands listed with it) and its categories (with or without '@'). */
    public void addCommand(String fullName, List<String> categories, List<String> subcommands) {
        List<String> cats = new ArrayList<>();
        for (String c : categories) {
            cats.add(c.startsWith("@") ? c.substring(1) : c);
        }
        universe.put(fullName, cats);
        if (subcommands != null && !subcommands.isEmpty()) {
            containers.put(fullName, List.copyOf(subcommands));
        }
    }

    /** Every category: Redis's, then the server's own ({@code sql}, {@code server}, ...). */
    public List<String> categories() {
        List<String> out = new ArrayList<>(REDIS_CATEGORIES);
        TreeSet<String> more = new TreeSet<>();
        for (List<String> cats : universe.values()) {
            for (String c : cats) {
                if (!out.contains(c)) {
                    more.add(c);
                }
            }
        }
        out.addAll(more);
        return out;
    }

    /** The commands of category {@code cat} (full names), or null when there is no such category. */
    public List<String> commandsIn(String cat) {
        if (!categories().contains(cat)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : universe.entrySet()) {
            if (e.getValue().contains(cat)) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    // ---- users ------------------------------------------------------------------------------------

    public AclUser defaultUser() {
        if (requirePass.get() != appliedRequirePass) {
            syncRequirePass();
        }
        return defaultUser;
    }

    /** CONFIG SET requirepass: the default user's password is requirepass (none: nopass), as Redis. */
    private void syncRequirePass() {
        String pw = requirePass.get();
        appliedRequirePass = pw;
        if (pw == null) {
            return;
        }
        AclUser d = users.get(DEFAULT);
        if (d == null) {
            return;
        }
        d.passwords.clear();
        d.scram.clear();
        if (pw.isEmpty()) {
            d.nopass = true;
        } else {
            d.nopass = false;
            addPassword(d, pw);
        }
        d.changed();
    }

    /** Whether a new connection starts unauthenticated: the default user needs a password or is off. */
    public boolean authRequired() {
        AclUser d = defaultUser();
        return !d.enabled || !d.nopass;
    }

    public AclUser user(String name) {
        return name.equals(DEFAULT) ? defaultUser() : users.get(name);
    }

    public Collection<AclUser> users() {
        defaultUser();
        return users.values();
    }

    /** Whether any user besides an unrestricted nopass default exists (pgwire then asks named users for passwords). */
    public boolean hasNamedUsers() {
        return users.size() > 1;
    }

    /** What ACL GETUSER shows of a user: never a password, only hashes. */
    public record UserView(List<String> flags, List<String> passwords, String commands, String keys, String channels) {
    }

    public UserView view(AclUser u) {
        return new UserView(u.flags(), new ArrayList<>(u.passwords), u.commandsText(), u.keysText(), u.channelsText());
    }

    /** The user {@code name} if {@code password} is one of its and it is on; null otherwise. */
    public AclUser authenticate(String name, byte[] password) {
        AclUser u = user(name);
        if (u == null || !u.enabled || !u.checkPassword(password)) {
            return null;
        }
        return u;
    }

    /**
     * {@code ACL SETUSER name rule ...}: the rules apply in order to the user (created when new),
     * all or none: a bad rule leaves the user as it was. Throws with Redis's error text.
     */
    public AclUser setUser(String name, List<String> rules) throws AclException {
        if (name.isEmpty() || name.contains(" ")) {
            throw new AclException("ERR Usernames can't contain spaces or null characters");
        }
        AclUser existing = name.equals(DEFAULT) ? defaultUser() : users.get(name);
        AclUser work = existing == null ? new AclUser(name) : copy(existing);
        for (String rule : rules) {
            try {
                apply(work, rule);
            } catch (AclException e) {
                throw new AclException("ERR Error in ACL SETUSER modifier '" + rule + "': " + e.getMessage());
            }
        }
        work.changed();
        if (existing == null) {
            users.put(name, work);
            return work;
        }
        copyInto(work, existing); // the same object: connections authenticated as it see the change at once
        existing.changed();
        return existing;
    }

    private static AclUser copy(AclUser u) {
        AclUser c = new AclUser(u.name);
        copyInto(u, c);
        return c;
    }

    private static void copyInto(AclUser from, AclUser to) {
        to.enabled = from.enabled;
        to.nopass = from.nopass;
        to.passwords.clear();
        to.passwords.addAll(from.passwords);
        to.scram.clear();
        to.scram.putAll(from.scram);
        to.commandRules.clear();
        to.commandRules.addAll(from.commandRules);
        to.allowed.clear();
        to.allowed.addAll(from.allowed);
        to.allCommands = from.allCommands;
        to.patterns.clear();
        to.patterns.addAll(from.patterns);
        to.channels.clear();
        to.channels.addAll(from.channels);
    }

    private java.util.function.Consumer<List<AclUser>> onDelete = removed -> { };

    /** Told the users ACL DELUSER, DROP USER or ACL LOAD removed (their connections are closed). */
    public void onDelete(java.util.function.Consumer<List<AclUser>> listener) {
        this.onDelete = listener;
    }

    /** {@code ACL DELUSER}: the number removed; the default user cannot be. */
    public List<AclUser> deleteUsers(List<String> names) throws AclException {
        for (String n : names) {
            if (n.equals(DEFAULT)) {
                throw new AclException("ERR The 'default' user cannot be removed");
            }
        }
        List<AclUser> removed = new ArrayList<>();
        for (String n : names) {
            AclUser u = users.remove(n);
            if (u != null) {
                u.deleted = true; // a connection still holding it can do nothing more
                u.changed();
                removed.add(u);
            }
        }
        if (!removed.isEmpty()) {
            onDelete.accept(removed);
        }
        return removed;
    }

    private void addPassword(AclUser u, String clear) {
        String hash = AclUser.sha256Hex(clear.getBytes(StandardCharsets.UTF_8));
        u.passwords.add(hash);
        u.scram.put(hash, ScramVerifier.derive(clear));
        u.nopass = false;
    }

    private void apply(AclUser u, String rule) throws AclException {
        String lower = rule.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "on" -> u.enabled = true;
            case "off" -> u.enabled = false;
            case "nopass" -> {
                u.passwords.clear();
                u.scram.clear();
                u.nopass = true;
            }
            case "resetpass" -> {
                u.passwords.clear();
                u.scram.clear();
                u.nopass = false;
            }
            case "allkeys" -> addPattern(u, "*", AclUser.READ | AclUser.WRITE);
            case "resetkeys" -> u.patterns.clear();
            case "allchannels" -> {
                u.channels.clear();
                u.channels.add("*");
            }
            case "resetchannels" -> u.channels.clear();
            case "allcommands", "+@all" -> allCommands(u);
            case "nocommands", "-@all" -> noCommands(u);
            case "reset" -> {
                u.passwords.clear();
                u.scram.clear();
                u.nopass = false;
                u.patterns.clear();
                u.channels.clear();
                noCommands(u);
                u.enabled = false;
            }
            case "clearselectors", "sanitize-payload", "skip-sanitize-payload" -> {
                // no selectors to clear; payloads are not sanitized: accepted, as Redis does
            }
            default -> applyComplex(u, rule);
        }
    }

    private void applyComplex(AclUser u, String rule) throws AclException {
        char c = rule.isEmpty() ? ' ' : rule.charAt(0);
        if (c == '>') {
            addPassword(u, rule.substring(1));
        } else if (c == '<') {
            String hash = AclUser.sha256Hex(rule.substring(1).getBytes(StandardCharsets.UTF_8));
            if (!u.passwords.remove(hash)) {
                throw new AclException("The password you are trying to remove from the user does not exist");
            }
            u.scram.remove(hash);
        } else if (c == '#') {
            String hash = rule.substring(1);
            if (!AclUser.isHashHex(hash)) {
                throw new AclException("The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters");
            }
            u.passwords.add(hash);
            u.nopass = false;
        } else if (c == '!') {
            String hash = rule.substring(1);
            if (!AclUser.isHashHex(hash)) {
                throw new AclException("The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters");
            }
            if (!u.passwords.remove(hash)) {
                throw new AclException("The password you are trying to remove from the user does not exist");
            }
            u.scram.remove(hash);
        } else if (rule.regionMatches(true, 0, "scram:", 0, 6)) {
            // scram:<sha256 hex>:<SCRAM-SHA-256 verifier>: RespSQL's own rule, written by ACL SAVE / ACL LIST
            int colon = rule.indexOf(':', 6);
            String hash = colon < 0 ? "" : rule.substring(6, colon);
            String verifier = colon < 0 ? "" : rule.substring(colon + 1);
            if (!AclUser.isHashHex(hash) || ScramVerifier.parse(verifier) == null) {
                throw new AclException("Syntax error");
            }
            u.scram.put(hash, verifier);
        } else if (c == '~') {
            addPattern(u, rule.substring(1), AclUser.READ | AclUser.WRITE);
        } else if (c == '%') {
            int tilde = rule.indexOf('~');
            if (tilde < 2) {
                throw new AclException("Syntax error");
            }
            int flags = 0;
            for (int i = 1; i < tilde; i++) {
                char f = Character.toUpperCase(rule.charAt(i));
                if (f == 'R') {
                    flags |= AclUser.READ;
                } else if (f == 'W') {
                    flags |= AclUser.WRITE;
                } else {
                    throw new AclException("Syntax error");
                }
            }
            addPattern(u, rule.substring(tilde + 1), flags);
        } else if (c == '&') {
            if (u.channels.contains("*")) {
                throw new AclException("Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels");
            }
            u.channels.add(rule.substring(1));
        } else if (c == '+' || c == '-') {
            commandRule(u, rule);
        } else if (c == '(') {
            throw new AclException("selectors are not supported by this server");
        } else {
            throw new AclException("Syntax error");
        }
    }

    private static void addPattern(AclUser u, String glob, int flags) throws AclException {
        for (AclUser.Pattern p : u.patterns) {
            if (p.glob().equals("*") && (p.flags() & flags) == flags) {
                throw new AclException("Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does "
                        + "not have any effect. Try 'resetkeys' to start with an empty list of patterns");
            }
        }
        u.patterns.add(new AclUser.Pattern(glob, flags));
    }

    private void allCommands(AclUser u) {
        u.allCommands = true;
        u.allowed.clear();
        u.allowed.addAll(universe.keySet());
        for (List<String> subs : containers.values()) {
            u.allowed.addAll(subs);
        }
        u.commandRules.clear();
        u.commandRules.add("+@all");
    }

    private static void noCommands(AclUser u) {
        u.allCommands = false;
        u.allowed.clear();
        u.commandRules.clear();
        u.commandRules.add("-@all");
    }

    private void commandRule(AclUser u, String rule) throws AclException {
        boolean add = rule.charAt(0) == '+';
        String what = rule.substring(1).toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        if (what.startsWith("@")) {
            List<String> in = commandsIn(what.substring(1));
            if (in == null) {
                throw new AclException("Unknown command or category name in ACL");
            }
            for (String n : in) {
                names.add(n);
                List<String> subs = containers.get(n);
                if (subs != null) {
                    for (String s : subs) {
                        if (universe.getOrDefault(s, List.of()).contains(what.substring(1))) {
                            names.add(s);
                        }
                    }
                }
            }
        } else if (universe.containsKey(what)) {
            names.add(what);
            List<String> subs = containers.get(what);
            if (subs != null) {
                names.addAll(subs);
            }
        } else {
            throw new AclException("Unknown command or category name in ACL");
        }
        if (add) {
            u.allowed.addAll(names);
        } else {
            if (u.allCommands) {
                u.allCommands = false; // a minus rule after +@all: from now on the explicit set decides
            }
            names.forEach(u.allowed::remove);
        }
        u.commandRules.add((add ? "+" : "-") + what);
    }

    // ---- GRANT / REVOKE (AclSql) ----------------------------------------------------------------

    /** Redis's glob matching a table name literally ({@code *?[]\} escaped). */
    static String literalGlob(String table) {
        StringBuilder sb = new StringBuilder();
        for (char ch : table.toCharArray()) {
            if (ch == '*' || ch == '?' || ch == '[' || ch == ']' || ch == '\\') {
                sb.append('\\');
            }
            sb.append(ch);
        }
        return sb.toString();
    }

    /** GRANT: the verbs, and {@code flags} on each table's own pattern. */
    void grant(String name, List<String> verbs, List<String> tables, int flags) throws AclException {
        AclUser u = user(name);
        for (String v : verbs) {
            if (!u.mayRun(v) && universe.containsKey(v)) {
                commandRule(u, "+" + v);
            }
        }
        for (String t : tables) {
            String glob = literalGlob(t);
            boolean done = false;
            for (int i = 0; i < u.patterns.size(); i++) {
                AclUser.Pattern p = u.patterns.get(i);
                if (p.glob().equals(glob)) {
                    u.patterns.set(i, new AclUser.Pattern(glob, p.flags() | flags));
                    done = true;
                    break;
                }
            }
            if (!done && !u.mayAccess(t, flags)) {
                u.patterns.add(new AclUser.Pattern(glob, flags));
            }
        }
        u.changed();
    }

    /** REVOKE: takes {@code flags} off each table's own pattern (dropped when none is left). */
    void revoke(String name, List<String> tables, int flags) {
        AclUser u = user(name);
        for (String t : tables) {
            String glob = literalGlob(t);
            for (int i = 0; i < u.patterns.size(); i++) {
                AclUser.Pattern p = u.patterns.get(i);
                if (p.glob().equals(glob)) {
                    int left = p.flags() & ~flags;
                    if (left == 0) {
                        u.patterns.remove(i);
                    } else {
                        u.patterns.set(i, new AclUser.Pattern(glob, left));
                    }
                    break;
                }
            }
        }
        u.changed();
    }

    // ---- checks ---------------------------------------------------------------------------------

    /** The NOPERM error for a command {@code u} may not run. */
    public static String commandDenied(AclUser u, String fullName) {
        return "NOPERM User " + u.name + " has no permissions to run the '" + fullName + "' command";
    }

    /**
     * Whether {@code u} may run statement {@code st}: null when it may, else the error (with
     * {@code denied} told the reason, "command" or "key", and the object, for ACL LOG).
     * {@code indexOwner}: the table an index belongs to.
     */
    public String checkStatement(AclUser u, Statement st, Function<String, String> indexOwner, Denial denied) {
        String verb = StatementTables.verb(st);
        if (!u.mayRun(verb)) {
            denied.deny("command", verb);
            return commandDenied(u, verb);
        }
        if (isUserStatement(st) && !u.mayRun("acl|setuser")) {
            denied.deny("command", "acl|setuser");
            return commandDenied(u, "acl|setuser");
        }
        StatementTables t = StatementTables.of(st, indexOwner);
        for (Map.Entry<String, Integer> e : t.tables().entrySet()) {
            if (!u.mayAccess(e.getKey(), e.getValue())) {
                denied.deny("key", e.getKey());
                return NOPERM_KEY;
            }
        }
        if (!t.known() && !SqlVerbs.TABLELESS.contains(verb) && !u.mayAccess("*", AclUser.READ | AclUser.WRITE)) {
            // a statement kind whose targets are not known here: only a user of every table may run it
            denied.deny("key", verb);
            return NOPERM_KEY;
        }
        return null;
    }

    /**
     * The engine's check of one statement for {@code u}, or null when {@code u} is unrestricted
     * (nothing to check). {@code postgres}: errors in PostgreSQL's words ({@code permission denied
     * for table t}), else Redis's ({@code NOPERM ...}). Denials go to ACL LOG with {@code clientInfo}.
     */
    public io.respsql.engine.StatementAccess access(AclUser u, boolean postgres, Function<String, String> indexOwner,
                                                     Supplier<String> clientInfo) {
        if (u.unrestricted()) {
            return null;
        }
        return new io.respsql.engine.StatementAccess() {
            @Override
            public String check(Statement st) {
                String[] why = new String[2];
                String denied = checkStatement(u, st, indexOwner, (reason, object) -> {
                    why[0] = reason;
                    why[1] = object;
                });
                return denied == null ? null : refuse(u, why[0], why[1], denied, postgres, clientInfo);
            }

            @Override
            public String checkVerb(String verb, String table, boolean write) {
                if (!u.mayRun(verb)) {
                    return refuse(u, "command", verb, commandDenied(u, verb), postgres, clientInfo);
                }
                if (table != null && !u.mayAccess(table.toLowerCase(Locale.ROOT), write ? AclUser.WRITE : AclUser.READ)) {
                    return refuse(u, "key", table.toLowerCase(Locale.ROOT), NOPERM_KEY, postgres, clientInfo);
                }
                return null;
            }
        };
    }

    private String refuse(AclUser u, String reason, String object, String redisText, boolean postgres,
                          Supplier<String> clientInfo) {
        log(reason, "toplevel", object, u.name, clientInfo.get());
        if (!postgres) {
            return redisText;
        }
        return "key".equals(reason) ? "ERR permission denied for table " + object
                : "ERR permission denied to run " + object.toUpperCase(Locale.ROOT) + ": user " + u.name
                        + " has no permissions to run the '" + object + "' command";
    }

    /** CREATE/ALTER/DROP USER|ROLE, GRANT, REVOKE: they need {@code acl|setuser} too. */
    static boolean isUserStatement(Statement st) {
        return st.getClass().getSimpleName().contains("User") || st.getClass().getSimpleName().contains("Role")
                || st.getClass().getSimpleName().startsWith("Grant") || st.getClass().getSimpleName().startsWith("Revoke");
    }

    /** Told why a check failed. */
    public interface Denial {
        void deny(String reason, String object);
    }

    // ---- ACL LOG --------------------------------------------------------------------------------

    /** One entry of ACL LOG (repeated denials within 60 s are counted on one). */
    public static final class LogEntry {
        public long count;
        public final String reason;
        public final String context;
        public final String object;
        public final String username;
        public String clientInfo;
        public final long entryId;
        public final long created;
        public long updated;

        LogEntry(String reason, String context, String object, String username, String clientInfo, long id, long now) {
            this.count = 1;
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.username = username;
            this.clientInfo = clientInfo;
            this.entryId = id;
            this.created = now;
            this.updated = now;
        }
    }

    private java.util.function.IntSupplier logMaxLenSource;

    /** Where {@code acllog-max-len} is read (live). */
    public void logMaxLen(java.util.function.IntSupplier n) {
        logMaxLenSource = n;
    }

    /** Records a denial ({@code reason}: command, key, auth) as Redis's ACL LOG does. */
    public void log(String reason, String context, String object, String username, String clientInfo) {
        long now = System.currentTimeMillis();
        for (LogEntry e : log) {
            if (e.reason.equals(reason) && e.context.equals(context) && e.object.equals(object)
                    && e.username.equals(username) && now - e.updated < 60_000) {
                e.count++;
                e.updated = now;
                e.clientInfo = clientInfo;
                log.remove(e);
                log.addFirst(e);
                return;
            }
        }
        log.addFirst(new LogEntry(reason, context, object, username, clientInfo, nextEntryId++, now));
        int max = logMaxLenSource != null ? logMaxLenSource.getAsInt() : logMaxLen;
        while (log.size() > max) {
            log.removeLast();
        }
    }

    public List<LogEntry> logEntries(int max) {
        List<LogEntry> out = new ArrayList<>();
        for (LogEntry e : log) {
            if (out.size() >= max) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    public void resetLog() {
        log.clear();
    }

    // ---- ACL file -------------------------------------------------------------------------------

    public void aclFile(String path) {
        this.aclFile = path == null || path.isEmpty() ? null : path;
    }

    public String aclFile() {
        return aclFile;
    }

    private static final String NO_FILE = "ERR This Redis instance is not configured to use an ACL file. You may want to "
            + "specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis "
            + "configuration file set) in order to store users in the Redis configuration.";

    /** Every user as an ACL file line (hashes only). */
    public List<String> list() {
        List<String> out = new ArrayList<>();
        for (AclUser u : users()) {
            out.add(u.describe());
        }
        return out;
    }

    /** ACL SAVE: writes every user to the ACL file (a temporary file renamed over it). */
    public void save() throws AclException {
        if (aclFile == null) {
            throw new AclException(NO_FILE);
        }
        Path p = Path.of(aclFile);
        try {
            Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
            Files.write(tmp, list(), StandardCharsets.UTF_8);
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new AclException("ERR There was an error trying to save the ACLs. Please check the server logs for more information");
        }
    }

    /** ACL LOAD (and startup): replaces every user by the file's, or changes nothing when a line is bad. */
    public void load() throws AclException {
        if (aclFile == null) {
            throw new AclException(NO_FILE);
        }
        List<String> lines;
        try {
            lines = Files.exists(Path.of(aclFile)) ? Files.readAllLines(Path.of(aclFile), StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new AclException("ERR Error loading ACLs, opening file '" + aclFile + "': " + e.getMessage());
        }
        loadLines(lines, aclFile);
    }

    /** Replaces the users by {@code user ...} lines, all or none; {@code where} names their source in errors. */
    public void loadLines(List<String> lines, String where) throws AclException {
        TreeMap<String, AclUser> saved = new TreeMap<>(users);
        Map<String, AclUser> savedCopies = new LinkedHashMap<>();
        for (Map.Entry<String, AclUser> e : users.entrySet()) {
            savedCopies.put(e.getKey(), copy(e.getValue()));
        }
        users.clear();
        // the default user is the default one unless the file says otherwise (kept as the same object)
        AclUser d = saved.get(DEFAULT);
        copyInto(freshDefault(), d);
        d.changed();
        users.put(DEFAULT, d);
        int lineNo = 0;
        boolean definedDefault = false;
        try {
            for (String raw : lines) {
                lineNo++;
                String line = raw.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] w = line.split("\\s+");
                if (!w[0].equals("user") || w.length < 2) {
                    throw new AclException("ERR " + where + ":" + lineNo + ": should start with user keyword");
                }
                definedDefault |= w[1].equals(DEFAULT);
                List<String> rules = new ArrayList<>(List.of(w).subList(2, w.length));
                rules.add(0, "reset");
                try {
                    AclUser existing = saved.get(w[1]);
                    if (existing != null && users.get(w[1]) == null) {
                        users.put(w[1], existing); // keep the object authenticated connections hold
                    }
                    setUser(w[1], rules);
                } catch (AclException e) {
                    throw new AclException("ERR " + where + ":" + lineNo + ": " + e.getMessage().replaceFirst("^ERR ", ""));
                }
            }
        } catch (AclException e) {
            users.clear();
            for (Map.Entry<String, AclUser> s : saved.entrySet()) {
                copyInto(savedCopies.get(s.getKey()), s.getValue());
                s.getValue().changed();
                users.put(s.getKey(), s.getValue());
            }
            throw e;
        }
        List<AclUser> removed = new ArrayList<>();
        for (Map.Entry<String, AclUser> s : saved.entrySet()) {
            if (!users.containsKey(s.getKey())) {
                s.getValue().deleted = true; // removed by the file: its connections can do nothing more
                s.getValue().changed();
                removed.add(s.getValue());
            }
        }
        if (!removed.isEmpty()) {
            onDelete.accept(removed);
        }
        if (definedDefault) {
            appliedRequirePass = requirePass.get(); // the file's default user stands until requirepass changes
        } else {
            syncRequirePass(); // the default user as the configuration makes it: requirepass is its password
        }
    }

    /** ACL GENPASS [bits]: hex of {@code bits} random bits (rounded up to a multiple of 4). */
    public static String genpass(int bits) {
        int chars = (bits + 3) / 4;
        byte[] b = new byte[(chars + 1) / 2];
        RANDOM.nextBytes(b);
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return sb.substring(0, chars);
    }

    /** An ACL error, its message the whole reply text ({@code ERR ...}) or a modifier's reason. */
    public static final class AclException extends Exception {
        public AclException(String message) {
            super(message, null, false, false);
        }
    }
}
