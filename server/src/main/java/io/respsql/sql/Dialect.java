package io.respsql.sql;

/**
 * Which meaning a statement's SQL has where SQLite's sqllogictest corpus and PostgreSQL 15
 * disagree (README, "PostgreSQL dialect"): the connection's {@code SET sql_dialect TO
 * postgresql|sqlite}, default sqlite (today's answers, which the corpus and the 2010 scripts rely
 * on). Read while a statement is parsed and bound, on the thread doing it; the bound expression
 * nodes carry the choice, so execution (also on a worker thread) never reads it. A thread-local
 * holding {@code Boolean} constants: nothing allocated per statement (as {@code plan.IndexUse}).
 */
public final class Dialect {
    private static final ThreadLocal<Boolean> POSTGRES = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private Dialect() {
    }

    /** True while this thread's statement is in PostgreSQL's dialect. */
    public static boolean postgres() {
        return POSTGRES.get();
    }

    /** Sets this thread's dialect for the statements that follow (false: the default, sqlite). */
    public static void postgres(boolean on) {
        POSTGRES.set(on ? Boolean.TRUE : Boolean.FALSE);
    }

    /**
     * Sets this thread's dialect for a body and returns the one it replaces, which the caller
     * puts back when the body is done, so a nested call (a replayed statement inside a loader, a
     * check inside a request) leaves its caller's dialect as it found it:
     * {@code boolean prior = Dialect.set(pg); try { ... } finally { Dialect.set(prior); }}.
     * A plain save/restore, not a lambda: nothing allocated on the per-statement path.
     */
    public static boolean set(boolean postgres) {
        boolean prior = POSTGRES.get();
        POSTGRES.set(postgres ? Boolean.TRUE : Boolean.FALSE);
        return prior;
    }
}
