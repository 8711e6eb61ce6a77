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
}
