package io.respsql.info;

/**
 * The plan cache's figures INFO reports. Defined here and implemented by the SQL engine, so
 * {@code info} does not depend on {@code engine} (the engine depends on {@code info} for its
 * stats and deferred calls): no package cycle.
 */
public interface PlanCacheStats {
    long planCacheHits();

    long planCacheMisses();

    int planCacheEntries();

    long planCacheBytes();

    // ---- tx: interactive transactions ----
    /** Statements parked now, waiting for another connection's transaction to end. */
    default long txParkedNow() {
        return 0;
    }

    /** Statements parked so far. */
    default long txParkedTotal() {
        return 0;
    }

    /** Whether a transaction holds uncommitted writes now (1) or not (0). */
    default long txUncommitted() {
        return 0;
    }

    // ---- prepared: pgwire's Parse'd statements with kept plans ----
    /** Executes that ran a prepared statement's kept plan. */
    default long preparedPlanRuns() {
        return 0;
    }

    /** Kept plans made (a statement's first Describe/Execute, and again after DDL). */
    default long preparedPlansMade() {
        return 0;
    }
}
