package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.aggregate.AggregateSpec;
import io.respsql.exec.op.aggregate.HashAggregate;
import io.respsql.exec.op.distinct.Distinct;
import io.respsql.exec.op.join.HashJoin;
import io.respsql.exec.op.order.Sort;
import io.respsql.exec.op.order.SortKey;
import io.respsql.exec.op.setop.SetOperation;
import io.respsql.expr.Expression;
import io.respsql.sql.tree.Query;
import io.respsql.storage.Table;

import java.util.List;

/**
 * The one place the planner builds the blocking operators (aggregate, sort, distinct, set
 * operations, hash join), so their constructors' shape is known in one file.
 */
final class Blocking {
    private static final Expression[] NONE = new Expression[0];

    private Blocking() {
    }

    static Operator hashAggregate(Operator input, List<Expression> keys, List<AggregateSpec> aggs, Table output,
                                  int relation) {
        return new HashAggregate(input, keys.toArray(NONE), aggs.toArray(new AggregateSpec[0]), output, relation);
    }

    /** agg: GROUPING SETS / ROLLUP / CUBE, one hash aggregation per set into the one output table. */
    static Operator groupingSets(Operator input, List<Expression[]> sets, List<AggregateSpec> aggs, Table output, int relation) {
        HashAggregate[] each = new HashAggregate[sets.size()];
        AggregateSpec[] a = aggs.toArray(new AggregateSpec[0]);
        for (int i = 0; i < each.length; i++) {
            Expression[] keys = sets.get(i);
            boolean empty = true;
            for (int j = 0; j + 1 < keys.length; j++) {
                empty &= keys[j].isConstant();
            }
            each[i] = new HashAggregate(input, keys, a, output, relation).asGroupingSet(i == 0, empty);
        }
        return new io.respsql.exec.op.aggregate.GroupingSetsAggregate(each);
    }

    static Operator sort(Operator input, int[] carried, List<LogicalQuery.OrderKey> keys, long limit, long offset) {
        SortKey[] k = new SortKey[keys.size()];
        for (int i = 0; i < k.length; i++) {
            LogicalQuery.OrderKey o = keys.get(i);
            k[i] = new SortKey(io.respsql.expr.Expressions.orderKey(o.expr()), o.descending(), o.nullsFirst());
        }
        return new Sort(input, carried, k, limit, offset);
    }

    static Operator distinct(Operator input, List<Expression> keys) {
        return new Distinct(input, keys.toArray(NONE));
    }

    static Operator setOperation(Query.SetOpKind kind, Operator left, List<Expression> leftOutputs, Operator right,
                                 List<Expression> rightOutputs, Table output, int relation) {
        return new SetOperation(SetOperation.Kind.valueOf(kind.name()), left, leftOutputs.toArray(NONE), right,
                rightOutputs.toArray(NONE), output, relation);
    }

    /** A hash join (the probe side preserved by a LEFT join). */
    static Operator hashJoin(Operator build, int[] buildRelations, Expression[] buildKeys, Operator probe,
                             Expression[] probeKeys, boolean leftOuter, Expression residual) {
        return new HashJoin(build, buildRelations, buildKeys, probe, probeKeys, leftOuter, residual);
    }
}
