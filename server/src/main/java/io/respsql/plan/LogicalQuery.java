package io.respsql.plan;

import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;

import java.util.ArrayList;
import java.util.List;

/**
 * A bound query, before physical planning: names resolved to numbered relations, expressions
 * typed. A SELECT block, a set operation, or a VALUES list; each yields its {@link #outputs()}.
 */
abstract class LogicalQuery {
    final List<Expression> outputs = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    /** ORDER BY keys (over this query's relations, or its output relation). */
    final List<OrderKey> order = new ArrayList<>();
    long limit = -1;
    long offset;
    /** Relations of enclosing blocks read inside (bits): non-zero makes it a correlated subquery. */
    long outerRefs;
    /** Planned for EXPLAIN: descriptions are built only then. */
    boolean explain;
    /** EXPLAIN lines of subqueries in this query's expressions. */
    final List<String> subplans = new ArrayList<>();
    /** The text the source spans point into (the statement, or a view's query text). */
    String sql;
    /** charn: per output, n when the result shows it as character(n) (blank-padded), else 0; null for none. */
    int[] shownAsChar;

    List<SqlType> types() {
        List<SqlType> t = new ArrayList<>();
        for (Expression e : outputs) {
            t.add(e.type());
        }
        return t;
    }

    /** {@code column}/{@code relation}: set when the key is a plain column of the block (an index may give the order). */
    record OrderKey(Expression expr, boolean descending, boolean nullsFirst, Relation relation,
                    io.respsql.storage.Column column) {
    }

    /** A SELECT block. */
    static final class Block extends LogicalQuery {
        /** FROM relations in the order written. */
        final List<Relation> relations = new ArrayList<>();
        final List<Conjunct> where = new ArrayList<>();
        boolean distinct;
        boolean scan;
        /** GROUP BY or aggregates present: outputs, HAVING and ORDER BY read the group relation. */
        boolean aggregate;
        final List<Expression> groupKeys = new ArrayList<>();
        final List<io.respsql.exec.op.aggregate.AggregateSpec> aggregates = new ArrayList<>();
        /** Window functions, one step per distinct window, evaluated after grouping and HAVING. */
        final List<WindowStep> windows = new ArrayList<>();
        Relation group;
        Expression having;
        /** The select list is one COUNT(*) and nothing else (the 2010 bare-integer reply). */
        boolean countStarOnly;
        /** Set when the grouping may run below the join to a dimension's unique key ({@link EagerAggregation}). */
        EagerAggregation.Shape eager;
        // ---- agg ----
        /**
         * GROUPING SETS / ROLLUP / CUBE: per set, the keys the aggregation groups by (every GROUP BY
         * key, a typed NULL where the set rolls it up, then the set's mask as the hidden grouping
         * column); null for a plain GROUP BY.
         */
        List<io.respsql.expr.Expression[]> groupingSets;
    }

    /** The calls over one window (partitioning and ordering): their values are columns of {@code output}. */
    record WindowStep(Expression[] partitionKeys, io.respsql.exec.op.window.WindowSortKey[] orderKeys,
                      io.respsql.exec.op.window.WindowFunctionSpec[] functions, Relation output) {
    }

    /** UNION [ALL] / INTERSECT / EXCEPT; outputs are columns of {@link #output}. */
    static final class SetOp extends LogicalQuery {
        io.respsql.sql.tree.Query.SetOpKind kind;
        LogicalQuery left;
        LogicalQuery right;
        Relation output;
    }

    /** VALUES rows, written into the work table of {@link #output} on each run. */
    static final class ValuesList extends LogicalQuery {
        final List<List<Expression>> rows = new ArrayList<>();
        Relation output;
    }

    // ---- with ----
    /**
     * {@code WITH RECURSIVE name AS (initial UNION [ALL] recursive)}: outputs are columns of {@link #output};
     * the recursive term's one reference to the name scans {@link #working}.
     */
    static final class Recursive extends LogicalQuery {
        String name;
        boolean distinct;
        LogicalQuery initial;
        LogicalQuery recursive;
        io.respsql.storage.Table working;
        Relation output;
    }

    /** {@code generate_series(start, stop [, step])} in FROM: one column, {@link #output}'s, of type {@link #kind}'s. */
    static final class Series extends LogicalQuery {
        io.respsql.exec.op.scan.SeriesScan.Kind kind;
        io.respsql.expr.Expression start;
        io.respsql.expr.Expression stop;
        io.respsql.expr.Expression step;
        Relation output;
    }
}
