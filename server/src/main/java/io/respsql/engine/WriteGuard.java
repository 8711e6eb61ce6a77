package io.respsql.engine;

/** Decides whether write statements may run now (see {@link SqlEngine#writeGuard}). */
@FunctionalInterface
public interface WriteGuard {
    /** The error reply (without '-') refusing writes now, or null when writes may run. */
    String refusal();
}
