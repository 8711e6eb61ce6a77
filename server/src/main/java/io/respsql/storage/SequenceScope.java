package io.respsql.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The sequences a statement may use while it runs on this thread: the engine's catalog, the
 * session of the connection it runs for, and the sequences its nextval/setval calls moved (so the
 * engine logs their state after the statement, whatever its outcome: a value handed out is never
 * handed out again after a restart or on a replica). Set by the engine around each statement
 * ({@link #enter}); a thread without one (a background worker) runs no sequence function.
 */
public final class SequenceScope {
    private static final ThreadLocal<SequenceScope> CURRENT = new ThreadLocal<>();
    /** Sequence functions bound on this thread so far (the engine compares counts around planning). */
    private static final ThreadLocal<int[]> BOUND = ThreadLocal.withInitial(() -> new int[1]);

    public final Catalog catalog;
    /** The session of the running statement (the engine's own for the log loader and a replica's apply). */
    public SequenceSession session;
    /** Why nextval/setval may not run now (a read-only replica), or null. */
    private final Supplier<String> refusal;
    private final List<Sequence> moved = new ArrayList<>();
    /**
     * Statements that already took effect are being replayed (the log loader, a replica's apply):
     * setval restores the logged state without checking it against the options of now.
     */
    public boolean replaying;

    public SequenceScope(Catalog catalog, SequenceSession session, Supplier<String> refusal) {
        this.catalog = catalog;
        this.session = session;
        this.refusal = refusal;
    }

    /** The scope of this thread's statement, or null. */
    public static SequenceScope current() {
        return CURRENT.get();
    }

    /** Makes {@code s} this thread's scope; returns the one it replaces, which the caller puts back. */
    public static SequenceScope enter(SequenceScope s) {
        SequenceScope prior = CURRENT.get();
        CURRENT.set(s);
        return prior;
    }

    /** Counts a sequence function bound on this thread. */
    public static void bound() {
        BOUND.get()[0]++;
    }

    /** Sequence functions bound on this thread so far. */
    public static int boundCount() {
        return BOUND.get()[0];
    }

    /** Why a sequence may not move now, or null. */
    public String refusal() {
        return refusal == null ? null : refusal.get();
    }

    /** {@code s} moved (nextval, setval). */
    public void moved(Sequence s) {
        for (int i = 0; i < moved.size(); i++) {
            if (moved.get(i) == s) {
                return;
            }
        }
        moved.add(s);
    }

    /** The sequences moved since {@link #clearMoved()}. */
    public List<Sequence> moved() {
        return moved;
    }

    public void clearMoved() {
        moved.clear();
    }
}
