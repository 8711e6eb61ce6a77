package io.respsql.command;

import java.util.ArrayList;
import java.util.List;

/** Command flags, as Redis reports them in {@code COMMAND INFO}. A command's flags are a bit set. */
public final class CommandFlags {
    public static final int WRITE = 1;
    public static final int READONLY = 1 << 1;
    public static final int DENYOOM = 1 << 2;
    public static final int ADMIN = 1 << 3;
    public static final int NOSCRIPT = 1 << 4;
    public static final int LOADING = 1 << 5;
    public static final int STALE = 1 << 6;
    public static final int FAST = 1 << 7;
    public static final int NO_AUTH = 1 << 8;
    /** Never written to the SLOWLOG. */
    public static final int SKIP_SLOWLOG = 1 << 9;
    /** Refused between MULTI and EXEC, failing the transaction (PSYNC: it hands the connection over). */
    public static final int NO_MULTI = 1 << 10;
    /**
     * May succeed without a reply (SHUTDOWN: the connection closes as the server stops). Internal:
     * not a Redis flag, so {@link #names} does not list it.
     */
    public static final int NO_REPLY = 1 << 30;
    /**
     * Runs at once even between MULTI and EXEC instead of being queued (MULTI, EXEC, DISCARD,
     * WATCH, QUIT, as in Redis). Internal: not listed by {@link #names}.
     */
    public static final int NOT_QUEUED = 1 << 29;

    /**
     * May run while a RESP2 client is subscribed (the (un)subscribe family, PING, QUIT, RESET).
     * Internal, like {@link #NO_REPLY}.
     */
    public static final int PUBSUB_CONTEXT = 1 << 28;

    private static final String[] NAMES = {
        "write", "readonly", "denyoom", "admin", "noscript", "loading", "stale", "fast", "no_auth", "skip_slowlog",
        "no_multi"
    };

    private CommandFlags() {
    }

    /** The names of the flags set in {@code flags}, in a fixed order. */
    public static List<String> names(int flags) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < NAMES.length; bit++) {
            if ((flags & (1 << bit)) != 0) {
                names.add(NAMES[bit]);
            }
        }
        return names;
    }
}
