package io.respsql.exec.op.scan;

import io.respsql.expr.EvalContext;

/**
 * The key bounds of an index range, as probes evaluated when a run starts: the tightest of the
 * lower bounds and of the upper bounds ({@code fk = 7} is the range [7, 7]). Part of a plan, so
 * it holds no values of a run: {@link #eval} writes them into the caller's array. Shared by
 * {@link IndexRange} and the write side's key-range row source (the planner gives both the same
 * bounds, so an UPDATE need not ask the operator for them).
 */
public final class KeyBounds {
    private final KeyProbe[] lows;
    private final KeyProbe[] highs;
    /** One equality key: evaluated once, both ends. */
    private final KeyProbe key;

    private KeyBounds(KeyProbe[] lows, KeyProbe[] highs, KeyProbe key) {
        this.lows = lows;
        this.highs = highs;
        this.key = key;
    }

    /** Between the tightest of {@code lows} and of {@code highs} (none: that end is open). */
    public static KeyBounds range(KeyProbe[] lows, KeyProbe[] highs) {
        return new KeyBounds(lows, highs, null);
    }

    /** Exactly the key of {@code eq} (an {@link KeyProbe.Bound#EQ} probe). */
    public static KeyBounds single(KeyProbe eq) {
        return new KeyBounds(new KeyProbe[] {eq}, new KeyProbe[] {eq}, eq);
    }

    /** Whether any bound is given (none: the whole index). */
    public boolean bounded() {
        return lows.length > 0 || highs.length > 0;
    }

    /**
     * This run's bounds into {@code into[0]..into[1]} (inclusive); false when no key can be in
     * range (a NULL bound, bounds that cross).
     */
    public boolean eval(EvalContext ctx, long[] into) {
        if (key != null) {
            long k = key.key(ctx);
            if (KeyProbe.none(ctx)) {
                return false;
            }
            into[0] = k;
            into[1] = k;
            return true;
        }
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        for (KeyProbe p : lows) {
            long k = p.key(ctx);
            if (KeyProbe.none(ctx)) {
                return false;
            }
            lo = Math.max(lo, k);
        }
        for (KeyProbe p : highs) {
            long k = p.key(ctx);
            if (KeyProbe.none(ctx)) {
                return false;
            }
            hi = Math.min(hi, k);
        }
        into[0] = lo;
        into[1] = hi;
        return lo <= hi;
    }
}
