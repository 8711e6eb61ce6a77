package io.respsql.info;

import io.netty.buffer.ByteBuf;
import io.respsql.config.ServerConfig;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code SLOWLOG}: the newest commands that ran at least {@code slowlog-log-slower-than}
 * microseconds, at most {@code slowlog-max-len} of them, in a ring that drops the oldest. Event-loop
 * thread only. Arguments are copied (and capped as Redis caps them) only when an entry is logged.
 */
public final class SlowLog {
    /**
     * The arguments of the command being logged (the command layer's request arguments). Defined
     * here so this package need not know the command layer.
     */
    public interface Args {
        int count();

        ByteBuf get(int i);

        byte[] bytes(int i);

        /** Whether argument {@code i} is {@code word}, ignoring ASCII case. */
        boolean is(int i, String word);
    }

    /** At most this many arguments are kept; the last kept slot then says how many were left out. */
    public static final int MAX_ARGC = 32;
    /** Longer arguments keep this many bytes followed by {@code "... (N more bytes)"}. */
    public static final int MAX_ARG_LEN = 128;

    /** One logged command, as {@code SLOWLOG GET} returns it. */
    public record Entry(long id, long unixSeconds, long durationMicros, byte[][] args, String addr, String name) {
    }

    private final ServerConfig config;
    private Entry[] ring = new Entry[0];
    /** Index of the newest entry in {@link #ring}. */
    private int head = -1;
    private int size;
    private long nextId;

    public SlowLog(ServerConfig config) {
        this.config = config;
    }

    /** Whether a command that took {@code durationMicros} should be logged; allocates nothing. */
    public boolean isSlow(long durationMicros) {
        long threshold = config.slowlogLogSlowerThan();
        return threshold >= 0 && durationMicros >= threshold;
    }

    /** Logs a command; call only when {@link #isSlow(long)} said so. */
    public void add(Args args, long durationMicros, String addr, String clientName) {
        add(capture(args), durationMicros, addr, clientName);
    }

    /**
     * The arguments as an entry keeps them (capped, secrets redacted): for a command whose duration
     * is known only after its request's buffers are gone (a query run in the background).
     */
    public static byte[][] capture(Args args) {
        return copy(args);
    }

    /** Logs a command whose arguments were {@link #capture captured}; call only when {@link #isSlow(long)} said so. */
    public void add(byte[][] capturedArgs, long durationMicros, String addr, String clientName) {
        int maxLen = config.slowlogMaxLen();
        if (maxLen <= 0) {
            clear();
            return;
        }
        Entry e = new Entry(nextId++, System.currentTimeMillis() / 1000, durationMicros, capturedArgs, addr,
                clientName);
        resize(maxLen);
        head = (head + 1) % ring.length;
        ring[head] = e;
        if (size < ring.length) {
            size++;
        }
    }

    /** Entries newest first; {@code count < 0} means all of them. */
    public List<Entry> newest(long count) {
        int n = count < 0 || count > size ? size : (int) count;
        List<Entry> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(ring[Math.floorMod(head - k, ring.length)]);
        }
        return out;
    }

    public int size() {
        return size;
    }

    /** {@code SLOWLOG RESET}: drops every entry (ids keep counting up, as in Redis). */
    public void clear() {
        ring = new Entry[0];
        head = -1;
        size = 0;
    }

    /** Re-lays the ring when {@code slowlog-max-len} changed, keeping the newest entries. */
    private void resize(int capacity) {
        if (ring.length == capacity) {
            return;
        }
        List<Entry> keep = newest(capacity);
        Entry[] next = new Entry[capacity];
        int n = keep.size();
        for (int k = 0; k < n; k++) {
            next[n - 1 - k] = keep.get(k);
        }
        ring = next;
        size = n;
        head = n - 1;
        if (head < 0) {
            head = capacity - 1;
        }
    }

    private static byte[][] copy(Args args) {
        int argc = args.count();
        int kept = Math.min(argc, MAX_ARGC);
        byte[][] out = new byte[kept][];
        for (int i = 0; i < kept; i++) {
            if (kept < argc && i == kept - 1) {
                out[i] = ("... (" + (argc - kept + 1) + " more arguments)").getBytes(StandardCharsets.US_ASCII);
                break;
            }
            ByteBuf b = args.get(i);
            int len = b.readableBytes();
            if (len > MAX_ARG_LEN) {
                byte[] suffix = ("... (" + (len - MAX_ARG_LEN) + " more bytes)").getBytes(StandardCharsets.US_ASCII);
                byte[] v = new byte[MAX_ARG_LEN + suffix.length];
                b.getBytes(b.readerIndex(), v, 0, MAX_ARG_LEN);
                System.arraycopy(suffix, 0, v, MAX_ARG_LEN, suffix.length);
                out[i] = v;
            } else {
                out[i] = args.bytes(i);
            }
        }
        redactSecrets(args, out);
        return out;
    }

    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);

    /** {@code CONFIG SET requirepass <pw>}: the log keeps the command, never the password (as Redis does). */
    private static void redactSecrets(Args args, byte[][] out) {
        if (args.count() < 4 || !args.is(0, "config") || !args.is(1, "set")) {
            return;
        }
        for (int i = 2; i + 1 < out.length; i += 2) {
            if (args.is(i, "requirepass") || args.is(i, "masterauth")) {
                out[i + 1] = REDACTED;
            }
        }
    }
}
