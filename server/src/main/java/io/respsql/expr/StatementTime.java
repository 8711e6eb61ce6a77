package io.respsql.expr;

/**
 * The time of the statement running on this thread, for now(), CURRENT_TIMESTAMP, CURRENT_DATE,
 * 'now' and 'today': read once per statement (the first reader takes the clock), the same for
 * every row and every call in it, as PostgreSQL's statement-stable functions.
 *
 * <p>The engine starts each statement with {@link #begin}: with 0 the clock is read when first
 * needed; with a value (a logged statement replayed: the append-only file or a replica) that
 * value is the statement's time, so a write that read the clock replays to the same values.
 * {@link #used} tells the engine that the statement read it, so the log records its time with
 * the text ({@code SqlEngine}). A plan keeps no time: a cached plan reads this per run.
 *
 * <p>One holder per thread (the event loop, each worker), made once; reading allocates nothing.
 */
public final class StatementTime {
    private static final ThreadLocal<StatementTime> CURRENT = ThreadLocal.withInitial(StatementTime::new);

    private long micros;
    private long pinned;
    private boolean used;

    private StatementTime() {
    }

    public static StatementTime current() {
        return CURRENT.get();
    }

    /** A new statement on this thread: {@code pinned} its time (µs since the epoch), or 0 for the clock's. */
    public void begin(long pinned) {
        this.pinned = pinned;
        this.micros = 0;
        this.used = false;
    }

    /** The statement's time (µs since the epoch, UTC), the same for the whole statement. */
    public long micros() {
        used = true;
        if (micros == 0) {
            micros = pinned != 0 ? pinned : wallMicros();
        }
        return micros;
    }

    /** Whether the running statement read its time. */
    public boolean used() {
        return used;
    }

    /**
     * clock_timestamp(): the wall clock, or while a logged statement replays its logged time (a
     * replay cannot know the wall clock of the original run; the statement's time is the nearest).
     */
    public long clock() {
        used = true;
        return pinned != 0 ? pinned : wallMicros();
    }

    /** The wall clock in microseconds. */
    public static long wallMicros() {
        return System.currentTimeMillis() * 1000;
    }

    /** The statement time the prefix {@code /*respsql:now=<µs>*}{@code /} of a logged statement pins, or 0. */
    public static long pinnedBy(CharSequence sql) {
        int n = sql.length();
        if (n < PREFIX.length() + 3 || sql.charAt(0) != '/' || sql.charAt(1) != '*') {
            return 0;
        }
        for (int i = 0; i < PREFIX.length(); i++) {
            if (sql.charAt(i) != PREFIX.charAt(i)) {
                return 0;
            }
        }
        long v = 0;
        int i = PREFIX.length();
        boolean neg = i < n && sql.charAt(i) == '-';
        if (neg) {
            i++;
        }
        int start = i;
        while (i < n && sql.charAt(i) >= '0' && sql.charAt(i) <= '9' && i - start < 19) {
            v = v * 10 + (sql.charAt(i++) - '0');
        }
        if (i == start || i + 1 >= n || sql.charAt(i) != '*' || sql.charAt(i + 1) != '/') {
            return 0;
        }
        return neg ? -v : v;
    }

    /** The prefix a logged statement that read the time carries: a comment, so the text still parses. */
    public static final String PREFIX = "/*respsql:now=";

    /** {@code sql} as logged when it read the statement time {@code micros}. */
    public static String logged(CharSequence sql, long micros) {
        return PREFIX + micros + "*/ " + sql;
    }
}
