package io.respsql.engine;

/**
 * Plans of text statements, keyed by the text with its literals taken out ({@link LiteralScan}),
 * so statements that differ only in their numbers and strings skip the parser, binder and planner.
 * Bounded by entries and by an estimate of bytes; least recently used goes first. Every entry is
 * dropped when the catalog's schema version moves (DDL, FLUSHALL, a snapshot load). Event loop only.
 *
 * <p>A key whose statement cannot be cached (a literal where its value shapes the plan) is kept
 * too, as a negative entry, so it is not tried again.
 */
final class PlanCache {
    /** What a plan costs beside its key, for the byte bound: operators, expressions, names (a rough mean). */
    static final int PLAN_BYTES = 4096;
    /** What each parameter adds to a plan, for the byte bound (see {@link Entry#bytes}). */
    static final int PARAM_BYTES = 96;
    static final int DEFAULT_MAX_ENTRIES = 1000;
    static final long DEFAULT_MAX_BYTES = 32L << 20;

    /** A cached plan: what SqlEngine needs to run it without the statement. */
    static final class Entry {
        final String key;
        /** The key's bytes when it is all ASCII (a text that came as bytes is matched against them), else null. */
        final byte[] keyAscii;
        final int hash;
        /** Null for a negative entry. */
        final Object plan;
        final boolean write;
        /** The table a write changes (WATCH), as written. */
        final String touched;
        private final long bytes;
        Entry next; // bucket chain
        Entry newer;
        Entry older;

        Entry(String key, int hash, Object plan, boolean write, String touched) {
            this.key = key;
            this.keyAscii = ascii(key);
            this.hash = hash;
            this.plan = plan;
            this.write = write;
            this.touched = touched;
            this.bytes = estimate();
        }

        long bytes() {
            return bytes;
        }

        private static byte[] ascii(String key) {
            for (int i = 0; i < key.length(); i++) {
                if (key.charAt(i) >= 0x80) {
                    return null;
                }
            }
            return key.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }

        // A literal costs about PARAM_BYTES in the plan beside its marker (its Parameter and, in
        // an IN list, its probe), so a long IN list counts what it holds.
        private long estimate() {
            return 64 + 3L * key.length() + (plan == null ? 0 : PLAN_BYTES + PARAM_BYTES * (long) literals());
        }

        private int literals() {
            int n = 0;
            for (int i = 0; i < key.length(); i++) {
                char c = key.charAt(i);
                n += c == LiteralScan.INTEGER || c == LiteralScan.DECIMAL || c == LiteralScan.STRING ? 1 : 0;
            }
            return n;
        }
    }

    private Entry[] buckets = new Entry[64];
    private Entry newest;
    private Entry oldest;
    private int size;
    private long bytes;
    private int maxEntries = DEFAULT_MAX_ENTRIES;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private long version = -1;
    long hits;
    long misses;

    /** Whether the text starts with SELECT, UPDATE, DELETE or INSERT: the statements a plan is cached for. */
    static boolean candidate(CharSequence sql) {
        int i = io.respsql.sql.Lexer.skipBlank(sql, 0);
        return LiteralScan.wordIs(sql, i, "SELECT") || LiteralScan.wordIs(sql, i, "UPDATE")
                || LiteralScan.wordIs(sql, i, "DELETE") || LiteralScan.wordIs(sql, i, "INSERT");
    }

    boolean enabled() {
        return maxEntries > 0;
    }

    void maxEntries(int n) {
        maxEntries = Math.max(0, n);
        trim();
    }

    void maxBytes(long n) {
        maxBytes = Math.max(0, n);
        trim();
    }

    int maxEntries() {
        return maxEntries;
    }

    long maxBytes() {
        return maxBytes;
    }

    int size() {
        return size;
    }

    long bytes() {
        return bytes;
    }

    /** Drops every entry when the schema is not the one the entries were planned under. */
    void validate(long schemaVersion) {
        if (schemaVersion != version) {
            clear();
            version = schemaVersion;
        }
    }

    void clear() {
        java.util.Arrays.fill(buckets, null);
        newest = oldest = null;
        size = 0;
        bytes = 0;
    }

    /** The entry of the scanned text, or null; a found entry becomes the most recently used. */
    Entry find(LiteralScan scan) {
        int h = scan.hash;
        for (Entry e = buckets[h & (buckets.length - 1)]; e != null; e = e.next) {
            if (e.hash == h && scan.matches(e.key, e.keyAscii)) {
                if (e != newest) {
                    unlink(e);
                    linkNewest(e);
                }
                return e;
            }
        }
        return null;
    }

    void put(Entry e) {
        if (!enabled() || e.bytes() > maxBytes) {
            return;
        }
        if (size >= buckets.length * 3 / 4) {
            grow();
        }
        int b = e.hash & (buckets.length - 1);
        e.next = buckets[b];
        buckets[b] = e;
        linkNewest(e);
        size++;
        bytes += e.bytes();
        trim();
    }

    private void trim() {
        while (oldest != null && (size > maxEntries || bytes > maxBytes)) {
            remove(oldest);
        }
    }

    private void remove(Entry e) {
        int b = e.hash & (buckets.length - 1);
        Entry prev = null;
        for (Entry x = buckets[b]; x != null; prev = x, x = x.next) {
            if (x == e) {
                if (prev == null) {
                    buckets[b] = x.next;
                } else {
                    prev.next = x.next;
                }
                break;
            }
        }
        unlink(e);
        size--;
        bytes -= e.bytes();
    }

    private void grow() {
        Entry[] old = buckets;
        buckets = new Entry[old.length * 2];
        for (Entry head : old) {
            for (Entry e = head; e != null; ) {
                Entry next = e.next;
                int b = e.hash & (buckets.length - 1);
                e.next = buckets[b];
                buckets[b] = e;
                e = next;
            }
        }
    }

    private void linkNewest(Entry e) {
        e.older = newest;
        e.newer = null;
        if (newest != null) {
            newest.newer = e;
        }
        newest = e;
        if (oldest == null) {
            oldest = e;
        }
    }

    private void unlink(Entry e) {
        if (e.newer != null) {
            e.newer.older = e.older;
        } else {
            newest = e.older;
        }
        if (e.older != null) {
            e.older.newer = e.newer;
        } else {
            oldest = e.newer;
        }
        e.newer = e.older = null;
    }
}
