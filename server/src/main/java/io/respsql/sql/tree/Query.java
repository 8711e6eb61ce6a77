package io.respsql.sql.tree;

import java.util.List;

/** A query: something that yields rows (a SELECT, a set operation, a VALUES list). */
public sealed interface Query {

    enum NullsOrder { DEFAULT, FIRST, LAST }

    /** {@code ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST]}; an integer literal is an ordinal. */
    record OrderItem(Expr expr, boolean descending, NullsOrder nulls) {
    }

    /** A select-list entry. */
    sealed interface SelectItem {
    }

    /** {@code *} ({@code qualifier} null) or {@code t.*}. */
    record Star(String qualifier, int start, int end) implements SelectItem {
    }

    /** {@code expr [[AS] alias]}; {@code alias} is null when not written. */
    record Item(Expr expr, String alias) implements SelectItem {
    }

    /** An entry of FROM. */
    sealed interface FromItem {
    }

    /** A table or view by name; {@code alias} null when not written. */
    record TableRef(String name, String alias, int start, int end) implements FromItem {
    }

    /**
     * {@code (SELECT ...) [AS] alias [(column, ...)]}; the alias may be null (SQLite allows that);
     * {@code columns} (PostgreSQL's column aliases, naming the first columns) empty when not written.
     */
    record Derived(Query query, String alias, List<String> columns, int start, int end) implements FromItem {
        public Derived(Query query, String alias, int start, int end) {
            this(query, alias, List.of(), start, end);
        }
    }

    enum JoinKind { INNER, LEFT, RIGHT, FULL, CROSS }

    /**
     * {@code left [kind] JOIN right ON cond} / {@code USING (cols)}. A comma join is
     * {@code CROSS} with no condition. {@code on} is null and {@code using} empty when absent;
     * {@code natural} for NATURAL JOIN.
     */
    record Join(JoinKind kind, FromItem left, FromItem right, Expr on, List<String> using, boolean natural)
            implements FromItem {
    }

    /**
     * {@code SELECT [DISTINCT] items [FROM from] [WHERE] [GROUP BY] [HAVING] [ORDER BY] [LIMIT [OFFSET]]}.
     * {@code from} is null for a SELECT without FROM; a comma list is a left-deep tree of CROSS joins.
     * {@code where}, {@code having}, {@code limit}, {@code offset} are null when absent; lists are empty.
     * {@code scan} marks the 2010 SCANSELECT (same meaning; kept for EXPLAIN).
     */
    record Select(boolean distinct, List<SelectItem> items, FromItem from, Expr where, List<Expr> groupBy,
                  Expr having, List<OrderItem> orderBy, Expr limit, Expr offset, boolean scan,
                  int start, int end) implements Query {
    }

    enum SetOpKind { UNION, UNION_ALL, INTERSECT, EXCEPT }

    /**
     * {@code left op right}, then ORDER BY / LIMIT over the combined rows (empty / null when absent).
     * Left-associative; INTERSECT binds tighter than UNION and EXCEPT, as in the standard.
     */
    record SetOp(SetOpKind kind, Query left, Query right, List<OrderItem> orderBy, Expr limit, Expr offset,
                 int start, int end) implements Query {
    }

    /** One {@code name [(column, ...)] AS (query)} of WITH; {@code columns} empty when not written. */
    record Cte(String name, List<String> columns, Query query) {
    }

    /**
     * {@code WITH [RECURSIVE] cte, ... body} (PostgreSQL's dialect): each CTE is visible to the ones
     * after it and to the body, where a reference reads its rows as a derived table would.
     */
    record With(List<Cte> ctes, boolean recursive, Query body, int start, int end) implements Query {
    }

    /** {@code VALUES (..), (..)} used as a query. */
    record Values(List<List<Expr>> rows, int start, int end) implements Query {
    }

    // ---- with ----
    /** A set-returning function in FROM ({@code generate_series(a, b) AS g(x)}); {@code columns} empty when not written. */
    record FunctionRef(Expr.Function call, String alias, List<String> columns, int start, int end) implements FromItem {
    }
}
