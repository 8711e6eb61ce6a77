package io.respsql.acl;

import io.respsql.config.Glob;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One ACL user, as Redis 7 keeps it: on/off, passwords (SHA-256, hex), the commands it may run
 * and the table patterns (Redis's key patterns) it may read ({@code %R~}), write ({@code %W~}) or
 * both ({@code ~}). Changed only through {@link Acl#setUser}; read on the event loop.
 */
public final class AclUser {
    /** Read and write flags of a table pattern. */
    public static final int READ = 1;
    public static final int WRITE = 2;

    record Pattern(String glob, int flags) {
        String text() {
            return (flags == (READ | WRITE) ? "~" : flags == READ ? "%R~" : "%W~") + glob;
        }
    }

    final String name;
    boolean enabled;
    /**
     * Removed by ACL DELUSER or ACL LOAD: a connection still holding it may do nothing more. (A
     * user turned {@code off} keeps its authenticated connections working, as Redis.)
     */
    boolean deleted;
    boolean nopass;
    /** SHA-256 hex of each password, in the order given. */
    final LinkedHashSet<String> passwords = new LinkedHashSet<>();
    /** SCRAM-SHA-256 verifiers by password hash (known when the password was given in clear, or loaded). */
    final Map<String, String> scram = new LinkedHashMap<>();
    /** The command rules as given since the last reset of commands, for ACL GETUSER/LIST ({@code +@all -debug}). */
    final List<String> commandRules = new ArrayList<>();
    /** Full names ({@code config|get}) of the commands allowed now, over the ACL's command universe. */
    final Set<String> allowed = new HashSet<>();
    /** +@all / allcommands with no later minus rule: every command, future ones too. */
    boolean allCommands;
    final List<Pattern> patterns = new ArrayList<>();
    /** Pub/Sub channel patterns: kept and shown for clients that send them, not enforced. */
    final List<String> channels = new ArrayList<>();
    /** Whether nothing is restricted: the per-statement check is skipped. */
    private boolean unrestricted;
    /** Bumped on every change, so a cached decision knows it is stale. */
    long version;

    AclUser(String name) {
        this.name = name;
        commandRules.add("-@all");
    }

    public String name() {
        return name;
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean nopass() {
        return nopass;
    }

    /**
     * Whether this user may run every command on every table: then no check runs for its
     * statements (the default user of the default configuration).
     */
    public boolean unrestricted() {
        return unrestricted;
    }

    void changed() {
        version++;
        boolean allKeys = false;
        for (Pattern p : patterns) {
            if (p.glob.equals("*") && p.flags == (READ | WRITE)) {
                allKeys = true;
            }
        }
        unrestricted = !deleted && allCommands && allKeys;
    }

    /** Whether a table named {@code table} may be accessed for {@code flags} (READ, WRITE or both). */
    public boolean mayAccess(String table, int flags) {
        if (deleted) {
            return false;
        }
        int granted = 0;
        for (Pattern p : patterns) {
            if ((granted & flags) == flags) {
                break;
            }
            if ((p.flags & flags & ~granted) != 0 && Glob.matches(p.glob, table, true)) {
                granted |= p.flags;
            }
        }
        return (granted & flags) == flags;
    }

    /** Whether the command (full name, {@code config|get}) may run. */
    public boolean mayRun(String fullName) {
        return !deleted && (allCommands || allowed.contains(fullName));
    }

    /** Whether {@code password} is one of this user's (or any password, with nopass). */
    public boolean checkPassword(byte[] password) {
        if (nopass) {
            return true;
        }
        String hash = sha256Hex(password);
        boolean found = false;
        for (String p : passwords) {
            // compare every one in constant time: which one matched is not observable
            found |= MessageDigest.isEqual(p.getBytes(StandardCharsets.US_ASCII), hash.getBytes(StandardCharsets.US_ASCII));
        }
        return found;
    }

    /** The SCRAM-SHA-256 verifier ({@code SCRAM-SHA-256$4096:salt$StoredKey:ServerKey}) of a password, or null. */
    public String scramVerifier() {
        for (String p : passwords) {
            String v = scram.get(p);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** The flags of ACL GETUSER: on/off, nopass, ... */
    List<String> flags() {
        List<String> f = new ArrayList<>();
        f.add(enabled ? "on" : "off");
        if (nopass) {
            f.add("nopass");
        }
        return f;
    }

    String commandsText() {
        if (allCommands && commandRules.size() == 1) {
            return "+@all";
        }
        return String.join(" ", commandRules);
    }

    String keysText() {
        List<String> k = new ArrayList<>();
        for (Pattern p : patterns) {
            k.add(p.text());
        }
        return String.join(" ", k);
    }

    String channelsText() {
        List<String> k = new ArrayList<>();
        for (String c : channels) {
            k.add("&" + c);
        }
        return String.join(" ", k);
    }

    /** The user as an ACL LIST line / ACL file line: hashes only, never a password. */
    String describe() {
        StringBuilder sb = new StringBuilder("user ").append(name);
        for (String f : flags()) {
            sb.append(' ').append(f);
        }
        for (String p : passwords) {
            sb.append(" #").append(p);
        }
        for (String p : passwords) {
            String v = scram.get(p);
            if (v != null) {
                sb.append(" scram:").append(p).append(':').append(v);
            }
        }
        String keys = keysText();
        sb.append(keys.isEmpty() ? " resetkeys" : " " + keys);
        String ch = channelsText();
        sb.append(ch.isEmpty() ? " resetchannels" : " " + ch);
        sb.append(' ').append(commandsText());
        return sb.toString();
    }

    static String sha256Hex(byte[] password) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(password);
            StringBuilder sb = new StringBuilder(64);
            for (byte b : d) {
                sb.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean isHashHex(String s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false; // as Redis: lower-case hex only
            }
        }
        return true;
    }
}
