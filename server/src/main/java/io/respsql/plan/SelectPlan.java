package io.respsql.plan;

import io.respsql.expr.BoundExpr;
import io.respsql.result.ResultColumns;
import io.respsql.sql.Expr.AggregateFn;

import java.util.List;

/** Everything SELECT needs at run time: where rows come from, what to output, in which order. */
public final class SelectPlan {
    public final Scope scope;
    /** Single-table source, or null for a join. */
    public final AccessPath path;
    /** Join steps in execution order, or null for a single table. */
    public final List<JoinStep> join;
    public final List<BoundExpr> outputs;
    /** Non-null when the select list is aggregates only: one function per output. */
    public final List<AggregateFn> aggregates;
    public final List<BoundExpr> orderBy;
    public final boolean[] descending;
    /** Rows already arrive in ORDER BY order: no sort, and LIMIT can stop the read early. */
    public final boolean presorted;
    public final long limit;
    public final long offset;
    /** Names and types of the outputs, for reply forms that send them. */
    public final ResultColumns columns;

    public SelectPlan(Scope scope, AccessPath path, List<JoinStep> join, List<BoundExpr> outputs, List<AggregateFn> aggregates,
                      List<BoundExpr> orderBy, boolean[] descending, boolean presorted, long limit, long offset,
                      ResultColumns columns) {
        this.scope = scope;
        this.path = path;
        this.join = join;
        this.outputs = outputs;
        this.aggregates = aggregates;
        this.orderBy = orderBy;
        this.descending = descending;
        this.presorted = presorted;
        this.limit = limit;
        this.offset = offset;
        this.columns = columns;
    }

    /** A lone COUNT(*) keeps the 2010 integer reply. */
    public boolean isCountStar() {
        return aggregates != null && aggregates.size() == 1 && aggregates.get(0) == AggregateFn.COUNT && outputs.get(0) == null;
    }
}
