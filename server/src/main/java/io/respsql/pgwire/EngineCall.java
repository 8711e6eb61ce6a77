package io.respsql.pgwire;

import io.respsql.engine.SqlEngine;
import io.respsql.plan.StatementPlanner;
import io.respsql.result.Outcome;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;

import java.util.List;

/**
 * The one place pgwire calls the SQL engine: rows stream to pgwire's sink, everything else
 * (counts, OK, errors with their SQLSTATE, the lines of DESC, SHOW TABLES, EXPLAIN) comes back
 * in the engine's {@link Outcome}. Event loop only (one instance per listener).
 */
final class EngineCall {
    private final SqlEngine engine;

    EngineCall(SqlEngine engine) {
        this.engine = engine;
    }

    SqlEngine engine() {
        return engine;
    }

    /**
     * Runs one statement: rows to {@code rows}, a long query possibly to {@code offload}; with
     * {@code timeoutMs} as its statement timeout (-1: the server's). A reply with content that
     * is not rows is added to {@code lines} (one string per line).
     */
    Outcome execute(CharSequence sql, boolean postgres, ResultSink rows, SqlEngine.Offload offload, long timeoutMs,
                    List<String> lines) {
        engine.sessionTimeout(timeoutMs);
        boolean prior = io.respsql.sql.Dialect.set(postgres);
        Outcome o;
        try {
            o = engine.execute(sql, rows, offload);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
        if (o.reply() == Outcome.Reply.LINES && lines != null) {
            lines.addAll(o.lines());
        }
        return o;
    }

    /**
     * prepared: runs a Parse'd statement's kept plan with {@code params} ({@code sql}: its text
     * with the values in, for the log and errors); null when the text path must run it instead.
     */
    Outcome executeBound(io.respsql.engine.BoundPlan plan, io.respsql.expr.ParamValues params, CharSequence sql,
                         ResultSink rows, SqlEngine.Offload offload, long timeoutMs) {
        engine.sessionTimeout(timeoutMs);
        boolean prior = io.respsql.sql.Dialect.set(true);
        try {
            return engine.executeBound(plan, params, sql, rows, offload);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
    }

    /** The columns a query would give, planned (not run); null when it is not a query. */
    ResultColumns describe(String sql, boolean postgres, io.respsql.engine.StatementAccess access) {
        boolean prior = io.respsql.sql.Dialect.set(postgres);
        try {
            Statement st = SqlParser.parse(sql);
            String denied = access == null ? null : access.check(st); // mend: as Execute would refuse it
            if (denied != null) {
                throw new io.respsql.sql.SqlException(io.respsql.sql.SqlState.INSUFFICIENT_PRIVILEGE,
                        denied.startsWith("ERR ") ? denied.substring(4) : denied);
            }
            if (!io.respsql.engine.ModifyingWith.of(st).isEmpty()) { // with: a data-modifying WITH's columns
                return io.respsql.engine.ModifyingWith.describe(engine.catalog(), st, sql);
            }
            if (st instanceof Statement.QueryStatement q) {
                return StatementPlanner.plan(engine.catalog(), q.query(), sql).columns();
            }
            return io.respsql.plan.WritePlanner.returningColumns(engine.catalog(), st, sql);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
    }

    /** The error text of an outcome as a client should see it: without RESP's {@code ERR } prefix. */
    static String message(Outcome o) {
        String e = o.error();
        if (e == null) {
            return "";
        }
        return e.startsWith("ERR ") ? e.substring(4) : e;
    }
}
