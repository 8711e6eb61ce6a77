package io.respsql.result;

/**
 * The one text form of a FLOAT everywhere (replies, EXPLAIN, DUMP, error messages): whole values
 * without a fraction ("5", not "5.0"), anything else in Java's round-trip form; -0.0 keeps its
 * sign. Here, apart from any wire form, so the executor (DUMP's rows) and the reply encoders
 * share it without the executor knowing the protocol.
 */
public final class FloatText {
    private FloatText() {
    }

    public static String text(double v) {
        return isPlainIntegral(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** Whether {@link #text} writes {@code v} as a whole number (the encoders then format its long without allocating). */
    public static boolean isPlainIntegral(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 && !(v == 0 && 1 / v < 0);
    }
}
