package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.expr.Expression;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.storage.Catalog;
import io.respsql.storage.ReadableCatalog;
import io.respsql.storage.Table;

import java.util.List;

/**
 * What the statement executors ask of planning: the one binder and planner serve SELECT,
 * INSERT ... SELECT, UPDATE and DELETE alike (issue 10: "UPDATE and DELETE are planned in
 * plan/ like SELECT"). Contract between the query side (binder, planner, operators) and the
 * write side (INSERT/UPDATE/DELETE/DDL executors, SqlEngine). 
 */
public final class StatementPlanner {
    private StatementPlanner() {
    }

    /**
     * A planned query: its operator tree, the output expressions evaluated per tuple it pushes,
     * their names and types, and the context to run it with (relations numbered, EvalContext sized).
     */
    public interface QueryPlan {
        Operator root();

        /** One per output column, evaluated in {@link #newContext()} for each tuple {@link #root()} pushes. */
        List<Expression> outputs();

        List<String> outputNames();

        /** A context with room for every relation of the statement (subqueries included). */
        io.respsql.expr.EvalContext newContext();

        /** EXPLAIN lines. */
        List<String> explain();
    }

    /** Plans a query (a SELECT, a set operation, VALUES); {@code sql} is the statement text (errors quote it). */
    public static QueryPlan planQuery(Catalog catalog, Query query, String sql) {
        return plan(catalog, query, sql);
    }

    /** {@link #planQuery} with the planner's own type, which can also write its rows into a result sink. */
    public static PlannedQuery plan(Catalog catalog, Query query, String sql) {
        return plan((ReadableCatalog) catalog, query, sql);
    }

    /**
     * {@link #plan(Catalog, Query, String)} against any catalog: the live one or a {@link
     * io.respsql.storage.ReadView} (no indexes there, so the plan scans). The result knows the
     * tables it reads ({@link PlannedQuery#tablesRead()}).
     */
    public static PlannedQuery plan(ReadableCatalog catalog, Query query, String sql) {
        QueryBinder binder = new QueryBinder(catalog, sql);
        QueryPlanner.Planned p = QueryPlanner.plan(binder.bindQuery(query, null));
        PlannedQuery planned = new PlannedQuery(p, binder.relationCount(), () -> {
            QueryBinder b = new QueryBinder(catalog, sql, true);
            return QueryPlanner.plan(b.bindQuery(query, null)).explain();
        });
        planned.tablesRead(binder.tablesRead());
        planned.subqueryPlans(binder.subqueryPlans());
        return planned;
    }

    /**
     * The rows of {@code table} that match {@code where} (null: every row), for UPDATE and DELETE:
     * an operator that sets the slot of relation 0 (the table) for each matching row, using the
     * best access path (primary key, index equality/IN/range, or a scan). Subqueries in
     * {@code where} are allowed (they get relation numbers above 0).
     */
    public static RowsPlan planRows(Catalog catalog, Table table, Expr where, String sql) {
        return planRows(catalog, table, where, sql, false);
    }

    private static RowsPlan planRows(Catalog catalog, Table table, Expr where, String sql, boolean explain) {
        QueryBinder binder = new QueryBinder(catalog, sql, explain);
        Relation r = binder.tableRelation(table);
        BlockScope scope = new BlockScope(null);
        scope.add(r);
        List<Conjunct> conds = new java.util.ArrayList<>();
        if (where != null) {
            for (Expr e : QueryBinder.splitAnd(where)) {
                conds.add(binder.conjunct(e, scope));
            }
        }
        AccessPlanner.Access access = AccessPlanner.choose(r, conds, null);
        return new RowsPlan() {
            @Override
            public Operator root() {
                return access.op();
            }

            /** Reused by {@link #context()}: kept with the plan, which the cache runs for every request. */
            private io.respsql.expr.EvalContext kept;

            @Override
            public io.respsql.expr.EvalContext newContext() {
                return new io.respsql.expr.EvalContext(QueryBinder.MAX_RELATIONS);
            }

            @Override
            public io.respsql.expr.EvalContext context() {
                io.respsql.expr.EvalContext c = kept;
                if (c == null) {
                    return kept = newContext();
                }
                c.reset();
                return c;
            }

            @Override
            public Expression bindRowExpression(Expr e) {
                return binder.bind(e, scope);
            }

            @Override
            public List<String> explain() {
                if (!explain) { // planned to run, without descriptions: plan again to describe
                    return planRows(catalog, table, where, sql, true).explain();
                }
                List<String> lines = new java.util.ArrayList<>();
                lines.add(access.description());
                lines.addAll(scope.subplans);
                return lines;
            }
        };
    }

    /** The plan of {@link #planRows}: run {@link #root()} in {@link #newContext()}; the table's slot is {@code slots[0]}. */
    public interface RowsPlan {
        Operator root();

        io.respsql.expr.EvalContext newContext();

        /**
         * A context for one run of this plan, the same instance each time (as {@link #newContext()}
         * made it): UPDATE and DELETE run on the event loop only and a run never re-enters its own
         * plan, so a cached point UPDATE allocates no context (64 slots) per request.
         */
        io.respsql.expr.EvalContext context();

        /**
         * Binds an expression over the table's row (relation 0) in this statement's scope: SET
         * values, so they may read the row and contain subqueries. Returns null when {@code e}
         * is a bare name that is no column (the 2010 dialect then takes it as unquoted text).
         */
        Expression bindRowExpression(Expr e);

        List<String> explain();
    }

    /** Binds an expression that reads no table (a DEFAULT, a VALUES entry): constants and functions. */
    public static Expression bindConstant(Expr e, String sql) {
        return new QueryBinder(null, sql).constant(e);
    }
}
