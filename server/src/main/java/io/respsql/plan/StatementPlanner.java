package io.respsql.plan;

import io.respsql.exec.op.Operator;
import io.respsql.expr.Expression;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.storage.Catalog;
import io.respsql.storage.ReadableCatalog;

import java.util.List;

/**
 * Planning's entry for queries: the one binder and planner serve SELECT, INSERT ... SELECT and
 * views alike; {@link WritePlanner} plans INSERT, UPDATE and DELETE with the same binder and
 * access planner. Called by the engine (and the write planner), never by execution: plan
 * depends on exec, not the other way round.
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
        LogicalQuery bound = binder.bindQuery(query, null);
        QueryPlanner.Planned p = shownAsChar(QueryPlanner.plan(bound), bound.shownAsChar);
        PlannedQuery planned = new PlannedQuery(p, binder.relationCount(), () -> {
            QueryBinder b = new QueryBinder(catalog, sql, true);
            return QueryPlanner.plan(b.bindQuery(query, null)).explain();
        });
        planned.tablesRead(binder.tablesRead());
        planned.systemRelations(binder.systemRelations());
        planned.readsCatalogOids(binder.readsCatalogOids());
        planned.subqueryPlans(binder.subqueryPlans());
        return planned;
    }

    /** charn: the result's char(n) outputs blank-padded to n as PostgreSQL shows them (expr.Bpchar). */
    private static QueryPlanner.Planned shownAsChar(QueryPlanner.Planned p, int[] shown) {
        if (shown == null || shown.length != p.outputs().size()) {
            return p;
        }
        List<io.respsql.expr.Expression> outs = new java.util.ArrayList<>(p.outputs());
        for (int i = 0; i < shown.length; i++) {
            if (shown[i] > 0 && outs.get(i).type() == io.respsql.expr.SqlType.TEXT) {
                outs.set(i, io.respsql.expr.Bpchar.pad(outs.get(i), shown[i]));
            }
        }
        return new QueryPlanner.Planned(p.root(), outs, p.names(), p.carried(), p.outerRefs(), p.explain(),
                p.countStarOnly(), p.countInput(), p.countTable());
    }

    /**
     * A query whose WITH has data-modifying statements, already run: {@code rows} holds each one's
     * RETURNING rows, which references to its name read. Built for the one run (never cached).
     */
    public static PlannedQuery planWithModified(Catalog catalog, Query query, String sql, java.util.Map<Query.Modifying, io.respsql.storage.Table> rows) {
        QueryBinder binder = new QueryBinder(catalog, sql);
        binder.modified(rows);
        QueryPlanner.Planned p = QueryPlanner.plan(binder.bindQuery(query, null));
        PlannedQuery planned = new PlannedQuery(p, binder.relationCount(), () -> {
            QueryBinder b = new QueryBinder(catalog, sql, true);
            b.modified(rows);
            return QueryPlanner.plan(b.bindQuery(query, null)).explain();
        });
        planned.tablesRead(binder.tablesRead());
        planned.subqueryPlans(binder.subqueryPlans());
        return planned;
    }

    /**
     * {@link #plan(ReadableCatalog, Query, String)} of a statement in PostgreSQL's dialect or not
     * (a query planned again on a worker thread, whose own dialect is not the client's): the
     * thread's dialect is set for the planning and then put back.
     */
    public static PlannedQuery plan(ReadableCatalog catalog, Query query, String sql, boolean postgres) {
        boolean prior = io.respsql.sql.Dialect.set(postgres);
        try {
            return plan(catalog, query, sql);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
    }

    /** Binds an expression that reads no table (a DEFAULT, a VALUES entry): constants and functions. */
    public static Expression bindConstant(Expr e, String sql) {
        return new QueryBinder(null, sql).constant(e);
    }

    /**
     * Binds a VALUES entry of an INSERT: no table of its own, but a subquery in it reads the
     * catalog's tables ({@code (SELECT max(i) FROM t)}).
     */
    public static Expression bindValue(ReadableCatalog catalog, Expr e, String sql) {
        return new QueryBinder(catalog, sql).constant(e);
    }
}
