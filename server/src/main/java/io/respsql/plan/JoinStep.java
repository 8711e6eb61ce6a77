package io.respsql.plan;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.Predicate;
import io.respsql.storage.TableIndex;

/**
 * One table of a nested-loop join. The first step reads its {@link #path}; each later step
 * either probes {@link #probeIndex} with a key computed from rows already bound
 * ({@link #probeKey}), or reads its own path. {@link #filter} holds every condition that can be
 * checked once this step's row is bound.
 */
public final class JoinStep {
    public final int tableIndex;
    public final AccessPath path;
    public final TableIndex probeIndex;
    public final BoundExpr probeKey;
    public final Predicate filter;

    public JoinStep(int tableIndex, AccessPath path, TableIndex probeIndex, BoundExpr probeKey, Predicate filter) {
        this.tableIndex = tableIndex;
        this.path = path;
        this.probeIndex = probeIndex;
        this.probeKey = probeKey;
        this.filter = filter;
    }

    public String describe() {
        String how = probeIndex != null
                ? (probeIndex.isPrimary() ? "primary key probe" : "index probe") + " on " + path.table.name() + " using "
                        + probeIndex.name() + " (" + probeIndex.column().name() + " = " + probeKey.describe() + ")"
                : path.describe();
        return filter == Predicate.TRUE ? how : how + "; filter " + filter.describe();
    }
}
