package io.respsql.exec;

import io.respsql.plan.StatementPlanner;
import io.respsql.protocol.RespWriter;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;

import java.util.List;

/**
 * Queries (SELECT, set operations, VALUES, and EXPLAIN of them) through the new pipeline:
 * {@link SqlParser} to a syntax tree, {@link StatementPlanner} to operators, rows into the
 * result sink. Every other statement still takes the old parser's path until the write side
 * of issue 10 moves it.
 */
final class QueryPipeline {
    private QueryPipeline() {
    }

    /** The statement when it is a query the new pipeline runs, else null (the old parser handles it). */
    static Statement parseQuery(String sql) {
        Statement st;
        try {
            st = SqlParser.parse(sql);
        } catch (SqlException | UnsupportedOperationException e) {
            return null;
        }
        Statement inner = st instanceof Statement.Explain e ? e.statement() : st;
        return inner instanceof Statement.QueryStatement ? st : null;
    }

    /** Runs a statement {@link #parseQuery} returned: the rows into {@code results}, EXPLAIN's lines into {@code out}. */
    static void run(Catalog catalog, Statement st, String sql, RespWriter out, ResultSink results) {
        if (st instanceof Statement.Explain e) {
            List<String> lines = StatementPlanner.plan(catalog, ((Statement.QueryStatement) e.statement()).query(), sql).explain();
            out.arrayHeader(lines.size());
            for (String l : lines) {
                out.bulk(l);
            }
            return;
        }
        StatementPlanner.plan(catalog, ((Statement.QueryStatement) st).query(), sql).run(results);
    }
}
