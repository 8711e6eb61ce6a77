package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Query;
import io.respsql.storage.Table;

import java.util.List;

/**
 * The one place the planner builds the blocking operators (aggregate, sort, distinct, set
 * operations, hash join), so their constructors' shape is known in one file.
 */
final class Blocking {
    private Blocking() {
    }

    static Operator hashAggregate(Operator input, List<Expression> keys, List<LogicalQuery.AggCall> aggs, Table output,
                                  int relation) {
        throw new SqlException("GROUP BY and aggregates are not built yet");
    }

    static Operator sort(Operator input, int[] carried, List<LogicalQuery.OrderKey> keys, long limit, long offset) {
        throw new SqlException("ORDER BY is not built yet");
    }

    static Operator distinct(Operator input, List<Expression> keys) {
        throw new SqlException("DISTINCT is not built yet");
    }

    static Operator setOperation(Query.SetOpKind kind, Operator left, List<Expression> leftOutputs, Operator right,
                                 List<Expression> rightOutputs, Table output, int relation) {
        throw new SqlException("UNION, INTERSECT and EXCEPT are not built yet");
    }

    /** A hash join, or null when none can be built (the caller then joins by nested loops). */
    static Operator hashJoin(Operator build, int[] buildRelations, Expression[] buildKeys, Operator probe,
                             Expression[] probeKeys, boolean leftOuter, Expression residual) {
        return null;
    }
}
