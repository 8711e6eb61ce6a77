package io.respsql.storage;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What one connection saw of the sequences (PostgreSQL's session state): the last value its
 * {@code nextval} (or {@code setval}) gave per sequence, for {@code currval}, and the sequence of
 * its last {@code nextval}, for {@code lastval}. Event loop only.
 */
public final class SequenceSession {
    /** One long[1] per sequence this session used: updated in place, so a nextval allocates nothing after the first. */
    private final Map<Sequence, long[]> current = new IdentityHashMap<>();
    private Sequence last;
    private long lastValue;

    /** {@code nextval} of {@code s} gave {@code v}. */
    public void nextval(Sequence s, long v) {
        set(s, v);
        last = s;
        lastValue = v;
    }

    /**
     * {@code setval} of {@code s} set {@code v} (currval then answers it, and lastval too when
     * {@code s} is the sequence of this session's last nextval, as in PostgreSQL).
     */
    public void set(Sequence s, long v) {
        if (last == s) {
            lastValue = v;
        }
        long[] c = current.get(s);
        if (c == null) {
            current.put(s, new long[]{v});
        } else {
            c[0] = v;
        }
    }

    /** DISCARD SEQUENCES: nothing seen. */
    public void clear() {
        current.clear();
        last = null;
    }

    /** This session's currval of {@code s}, or null when it never called nextval on it. */
    public long[] currval(Sequence s) {
        return current.get(s);
    }

    /** The sequence of this session's last nextval, or null. */
    public Sequence last() {
        return last;
    }

    public long lastValue() {
        return lastValue;
    }
}
