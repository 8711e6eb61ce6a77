package io.respsql.plan;

import io.respsql.exec.op.aggregate.AggregateSpec;
import io.respsql.exec.subquery.ExistsSubquery;
import io.respsql.exec.subquery.InSubquery;
import io.respsql.exec.subquery.ScalarSubquery;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.storage.ReadableCatalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves the names of a query against the catalog and builds its {@link LogicalQuery}: one
 * binder per statement, so relations are numbered once across every query block (subqueries,
 * derived tables, views, group outputs). Subqueries in expressions are planned as they are
 * bound ({@link QueryPlanner}) and become expression nodes holding their plan.
 *
 * <p>The 2010 dialect: a bare name that is no column, compared with a TEXT value (or listed in
 * an IN, or a BETWEEN bound, beside one), is unquoted text ({@code WHERE name = marie}); integer
 * literals with leading zeros are decimal.
 */
public final class QueryBinder {
    /** Relations a statement may number: {@link Expression#relations()} is a 64-bit mask. */
    static final int MAX_RELATIONS = 64;
    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "TOTAL", "GROUP_CONCAT",
            // agg (issue 25): PostgreSQL's aggregates (aggregateKind)
            "STRING_AGG", "VAR_POP", "VAR_SAMP", "VARIANCE", "STDDEV_POP", "STDDEV_SAMP", "STDDEV", "COVAR_POP", "COVAR_SAMP",
            "CORR", "REGR_COUNT", "REGR_SXX", "REGR_SYY", "REGR_SXY", "REGR_AVGX", "REGR_AVGY", "REGR_R2", "REGR_SLOPE",
            "REGR_INTERCEPT", "BOOL_AND", "BOOL_OR", "EVERY", "BIT_AND", "BIT_OR", "BIT_XOR", "PERCENTILE_CONT",
            "PERCENTILE_DISC", "MODE",
            "ARRAY_AGG"); // arrays
    /** agg: the hypothetical-set aggregates, aggregates only with WITHIN GROUP (window functions otherwise). */
    private static final Set<String> HYPOTHETICAL = Set.of("RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST");

    private final ReadableCatalog catalog;
    /** Every base table FROM names (views expanded), in order: what a background run captures, and its cost. */
    private final List<Table> tablesRead = new ArrayList<>();
    private final Map<String, Table> systemRelations = new java.util.HashMap<>();
    /** A relation's OID by name or a name by OID (regclass, pg_get_indexdef): numbered from the whole catalog. */
    private boolean readsCatalogOids;
    /** The plan of every subquery bound (they sit in expressions, not in the operator tree): for estimates. */
    private final List<io.respsql.exec.op.Operator> subqueryPlans = new ArrayList<>();
    private String sql;
    private int relations;
    private int viewDepth;

    private final boolean explain;

    public QueryBinder(ReadableCatalog catalog, String sql) {
        this(catalog, sql, false);
    }

    /** {@code explain}: the plan is for EXPLAIN, so its descriptions are built. */
    public QueryBinder(ReadableCatalog catalog, String sql, boolean explain) {
        this.catalog = catalog;
        this.sql = sql;
        this.explain = explain;
    }

    /** Relations numbered so far (a context needs this many slots). */
    public int relationCount() {
        return relations;
    }

    Relation newRelation(Relation.Kind kind, String name, Table table, List<String> columnNames) {
        if (relations >= MAX_RELATIONS) {
            throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "a statement may use at most " + MAX_RELATIONS + " tables, subqueries and groupings");
        }
        Relation r = new Relation(relations++, kind, name, table, columnNames);
        r.explain = explain;
        return r;
    }

    /** A relation for a table in a scope of its own (UPDATE/DELETE's table, relation 0 when numbered first). */
    Relation tableRelation(Table t) {
        return newRelation(Relation.Kind.TABLE, t.name(), t, columnNames(t));
    }

    /** {@link #tableRelation(Table)} named {@code alias} (null: the table's name). */
    Relation tableRelation(Table t, String alias) {
        return newRelation(Relation.Kind.TABLE, alias != null ? alias : t.name(), t, columnNames(t));
    }

    /** A FROM item (UPDATE ... FROM, DELETE ... USING) flattened into {@code scope}; its join conditions into {@code where}. */
    void fromItem(Query.FromItem f, BlockScope scope, List<Conjunct> where) {
        LogicalQuery.Block b = new LogicalQuery.Block();
        flatten(f, scope, b);
        where.addAll(b.where);
    }

    /** The table's column names, as a view (no copy per statement). */
    private static List<String> columnNames(Table t) {
        return new java.util.AbstractList<>() {
            @Override
            public String get(int i) {
                return t.column(i).name();
            }

            @Override
            public int size() {
                return t.columnCount();
            }
        };
    }

    // ---- queries ----------------------------------------------------------------------------------

    LogicalQuery bindQuery(Query q, BlockScope parent) {
        LogicalQuery lq;
        if (q instanceof Query.Select s) {
            lq = bindSelect(s, parent);
        } else if (q instanceof Query.SetOp s) {
            lq = bindSetOp(s, parent);
        } else if (q instanceof Query.With w) {
            lq = bindWith(w, parent);
        } else if (q instanceof Query.Modifying) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a data-modifying statement is only supported as a WITH query");
        } else {
            lq = bindValues((Query.Values) q, parent);
        }
        lq.explain = explain;
        return lq;
    }

    // ---- WITH ------------------------------------------------------------------------------------

    /**
     * A CTE in scope: a reference to its name binds its query as a derived table with only the
     * CTEs before it visible ({@code prev}), so a CTE never expands into itself. Each reference
     * reads the query anew (no shared work table).
     */
    private record CteFrame(Query.Cte cte, CteFrame prev, boolean recursive) {
    }

    /** The CTEs visible where binding is; null: none. */
    private CteFrame ctes;

    private LogicalQuery bindWith(Query.With w, BlockScope parent) {
        CteFrame saved = ctes;
        try {
            for (Query.Cte c : w.ctes()) {
                if (c.query() instanceof Query.Modifying m && !modified.containsKey(m)) {
                    // never bound without having run: a data-modifying query nobody reads must still run (PostgreSQL)
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "a data-modifying statement in WITH is supported only in"
                            + " the WITH of a top-level SELECT (not before INSERT, UPDATE or DELETE, nor in a subquery)");
                }
                ctes = new CteFrame(c, ctes, w.recursive());
            }
            return bindQuery(w.body(), parent);
        } finally {
            ctes = saved;
        }
    }

    /** The innermost CTE called {@code name} (case-insensitive, as unquoted names), or null. */
    private CteFrame cte(String name) {
        for (CteFrame f = ctes; f != null; f = f.prev) {
            if (f.cte.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        return null;
    }

    /** Whether {@code q} reads a table called {@code name} in a FROM (its own, its set operations', its derived tables'). */
    private static boolean readsTable(Query q, String name) {
        if (q instanceof Query.Select s) {
            return s.from() != null && readsTable(s.from(), name);
        } else if (q instanceof Query.SetOp o) {
            return readsTable(o.left(), name) || readsTable(o.right(), name);
        } else if (q instanceof Query.With w) {
            for (Query.Cte c : w.ctes()) {
                if (readsTable(c.query(), name)) {
                    return true;
                }
            }
            return readsTable(w.body(), name);
        }
        return false;
    }

    private static boolean readsTable(Query.FromItem f, String name) {
        if (f instanceof Query.TableRef t) {
            return t.name().equalsIgnoreCase(name);
        } else if (f instanceof Query.Join j) {
            return readsTable(j.left(), name) || readsTable(j.right(), name);
        }
        return f instanceof Query.Derived d && readsTable(d.query(), name);
    }

    // ---- with ----

    /** The recursive term being bound: its one reference to the CTE's name reads {@link #working}. */
    private static final class SelfRef {
        final String name;
        final Table working;
        final List<String> names;
        final int sublinkDepth;
        final int nullableDepth;
        final int exceptDepth;
        Relation relation;

        SelfRef(String name, Table working, List<String> names, int sublinkDepth, int nullableDepth, int exceptDepth) {
            this.name = name;
            this.working = working;
            this.names = names;
            this.sublinkDepth = sublinkDepth;
            this.nullableDepth = nullableDepth;
            this.exceptDepth = exceptDepth;
        }
    }

    /**
     * The rows each data-modifying WITH query returned (its RETURNING; null without one), filled by the
     * engine before binding, once it ran them: a key for each that ran.
     */
    private java.util.Map<Query.Modifying, Table> modified = java.util.Map.of();

    /** Sets what {@link #modifyingCte} reads. */
    public void modified(java.util.Map<Query.Modifying, Table> rows) {
        this.modified = rows;
    }

    private Relation modifyingCte(Query.Cte cte, Query.Modifying m, String alias) {
        Table rows = modified.get(m);
        if (rows == null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "WITH query \"" + cte.name() + "\" does not have a RETURNING clause");
        }
        return newRelation(Relation.Kind.TABLE, alias, rows, columnNames(rows));
    }

    private SelfRef selfRef;
    /** Expression subqueries, nullable sides of outer joins and right sides of EXCEPT being bound (PostgreSQL's 42P19 places). */
    private int sublinkDepth;
    private int nullableDepth;
    private int exceptDepth;

    private Relation nullableLeaf(Query.FromItem f, BlockScope scope) {
        nullableDepth++;
        try {
            return leaf(f, scope);
        } finally {
            nullableDepth--;
        }
    }

    private Relation selfReference(Query.TableRef t) {
        SelfRef s = selfRef;
        String q = "recursive reference to query \"" + s.name + "\" must not appear ";
        if (sublinkDepth != s.sublinkDepth) {
            throw new SqlException(SqlState.INVALID_RECURSION, q + "within a subquery");
        }
        if (nullableDepth != s.nullableDepth) {
            throw new SqlException(SqlState.INVALID_RECURSION, q + "within an outer join");
        }
        if (exceptDepth != s.exceptDepth) {
            throw new SqlException(SqlState.INVALID_RECURSION, q + "within EXCEPT");
        }
        if (s.relation != null) {
            throw new SqlException(SqlState.INVALID_RECURSION, q + "more than once");
        }
        s.relation = newRelation(Relation.Kind.TABLE, t.alias() != null ? t.alias() : s.name, s.working, s.names);
        return s.relation;
    }

    /**
     * A reference to a recursive CTE: {@code initial UNION [ALL] recursive}, the recursive term's one
     * self-reference reading the previous step's rows; a derived table over {@link LogicalQuery.Recursive}.
     */
    private Relation recursiveCte(Query.Cte cte, String alias, BlockScope scope) {
        String name = cte.name();
        if (!(cte.query() instanceof Query.SetOp so) || (so.kind() != Query.SetOpKind.UNION && so.kind() != Query.SetOpKind.UNION_ALL)) {
            throw new SqlException(SqlState.INVALID_RECURSION, "recursive query \"" + name
                    + "\" does not have the form non-recursive-term UNION [ALL] recursive-term");
        }
        if (readsTable(so.left(), name)) {
            throw new SqlException(SqlState.INVALID_RECURSION, "recursive reference to query \"" + name + "\" must not appear within its non-recursive term");
        }
        if (!so.orderBy().isEmpty()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "ORDER BY in a recursive query is not implemented");
        }
        if (so.offset() != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "OFFSET in a recursive query is not implemented");
        }
        if (so.limit() != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "LIMIT in a recursive query is not implemented");
        }
        LogicalQuery init = bindQuery(so.left(), scope.parent);
        int n = init.outputs.size();
        List<String> names = new ArrayList<>(init.names);
        if (cte.columns().size() > n) {
            throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "table \"" + alias + "\" has " + n
                    + " columns available but " + cte.columns().size() + " columns specified");
        }
        for (int i = 0; i < cte.columns().size(); i++) {
            names.set(i, cte.columns().get(i));
        }
        List<ColumnSpec> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SqlType t = init.outputs.get(i).type();
            specs.add(new ColumnSpec(names.get(i), SqlTypes.storageOf(t == SqlType.NULL ? SqlType.TEXT : t), false, null));
        }
        SelfRef self = new SelfRef(name, Table.workTable(name, specs), names, sublinkDepth, nullableDepth, exceptDepth);
        SelfRef saved = selfRef;
        selfRef = self;
        LogicalQuery rec;
        try {
            rec = bindQuery(so.right(), scope.parent);
        } finally {
            selfRef = saved;
        }
        if (rec.outputs.size() != n) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "each UNION query must have the same number of columns (" + n + " and "
                    + rec.outputs.size() + ")");
        }
        for (int i = 0; i < n; i++) {
            SqlType l = init.outputs.get(i).type();
            SqlType r = rec.outputs.get(i).type();
            if (l != r && r != SqlType.NULL) {
                SqlType c = Expressions.commonType(l, r);
                if (c == null) {
                    throw new SqlException(SqlState.DATATYPE_MISMATCH, "UNION types " + l.sqlName() + " and " + r.sqlName() + " cannot be matched");
                }
                if (c != l) {
                    throw new SqlException(SqlState.DATATYPE_MISMATCH, "recursive query \"" + name + "\" column " + (i + 1) + " has type "
                            + l.sqlName() + " in non-recursive term but type " + c.sqlName() + " overall");
                }
            }
            rec.outputs.set(i, coerce(rec.outputs.get(i), l));
        }
        LogicalQuery.Recursive q = new LogicalQuery.Recursive();
        q.sql = sql;
        q.explain = explain;
        q.name = name;
        q.distinct = so.kind() == Query.SetOpKind.UNION;
        q.initial = init;
        q.recursive = rec;
        q.working = self.working;
        q.output = newRelation(Relation.Kind.SETOP, null, Table.workTable(name, specs), names);
        for (int i = 0; i < n; i++) {
            q.outputs.add(Expressions.column(q.output.table.column(i), q.output.number, names.get(i)));
            q.names.add(names.get(i));
        }
        q.outerRefs = init.outerRefs | rec.outerRefs;
        scope.outerRefs |= q.outerRefs & ~scope.mask();
        Relation r = newRelation(Relation.Kind.DERIVED, alias, Table.workTable(alias, specs), names);
        r.source = q;
        return r;
    }

    /**
     * {@code generate_series(...)} in FROM: a derived table over {@link LogicalQuery.Series}. Its arguments
     * see the enclosing blocks (a correlated series), not the FROM items beside it (LATERAL is not supported).
     */
    private Relation tableFunction(Query.FunctionRef fr, BlockScope scope) {
        Expr.Function f = fr.call();
        if (f.name().equalsIgnoreCase("UNNEST")) {
            return unnest(fr, scope); // arrays
        }
        if (!f.name().equalsIgnoreCase("GENERATE_SERIES")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "function " + f.name().toLowerCase(java.util.Locale.ROOT)
                    + "() in FROM is not supported (only generate_series)");
        }
        if (f.args().size() < 2 || f.args().size() > 3 || f.star() || f.distinct() || f.over() != null) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function generate_series with " + f.args().size()
                    + " argument(s) does not exist (generate_series(start, stop [, step]))");
        }
        BlockScope fs = new BlockScope(scope.parent);
        Expression a = value(f.args().get(0), fs);
        Expression b = value(f.args().get(1), fs);
        Expression c = f.args().size() == 3 ? value(f.args().get(2), fs) : null;
        LogicalQuery.Series q = new LogicalQuery.Series();
        q.sql = sql;
        q.explain = explain;
        SqlType type;
        SqlType ta = a.type();
        SqlType tb = b.type();
        SqlType tc = c == null ? SqlType.INT : c.type();
        if (ta == SqlType.TIMESTAMP || ta == SqlType.DATE || tb == SqlType.TIMESTAMP || tb == SqlType.DATE) {
            if (c == null) {
                throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function generate_series(timestamp, timestamp) does not exist: give a step interval");
            }
            type = SqlType.TIMESTAMP;
            q.kind = io.respsql.exec.op.scan.SeriesScan.Kind.TIMESTAMP;
            a = coerce(a, SqlType.TIMESTAMP);
            b = coerce(b, SqlType.TIMESTAMP);
            c = coerce(c, SqlType.INTERVAL);
        } else if (ta == SqlType.NUMERIC || tb == SqlType.NUMERIC || tc == SqlType.NUMERIC) {
            type = SqlType.NUMERIC;
            q.kind = io.respsql.exec.op.scan.SeriesScan.Kind.NUMERIC;
        } else if ((ta.isInteger() || ta == SqlType.NULL) && (tb.isInteger() || tb == SqlType.NULL) && (tc.isInteger() || tc == SqlType.NULL)) {
            type = ta == SqlType.BIGINT || tb == SqlType.BIGINT || tc == SqlType.BIGINT ? SqlType.BIGINT : SqlType.INT;
            q.kind = io.respsql.exec.op.scan.SeriesScan.Kind.INTEGER;
        } else {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function generate_series(" + ta.sqlName().toLowerCase(java.util.Locale.ROOT)
                    + ", " + tb.sqlName().toLowerCase(java.util.Locale.ROOT) + (c == null ? "" : ", " + tc.sqlName().toLowerCase(java.util.Locale.ROOT))
                    + ") does not exist");
        }
        q.start = a;
        q.stop = b;
        q.step = c;
        String alias = fr.alias() != null ? fr.alias() : "generate_series";
        if (fr.columns().size() > 1) {
            throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "table \"" + alias + "\" has 1 columns available but "
                    + fr.columns().size() + " columns specified");
        }
        String column = !fr.columns().isEmpty() ? fr.columns().get(0) : alias;
        List<ColumnSpec> specs = List.of(new ColumnSpec(column, SqlTypes.storageOf(type), false, null));
        List<String> names = List.of(column);
        q.output = newRelation(Relation.Kind.VALUES, null, Table.workTable("generate_series", specs), names);
        q.outputs.add(Expressions.column(q.output.table.column(0), q.output.number, column));
        q.names.add(column);
        q.outerRefs = fs.outerRefs;
        scope.outerRefs |= q.outerRefs & ~scope.mask();
        Relation r = newRelation(Relation.Kind.DERIVED, alias, Table.workTable(alias, specs), names);
        r.source = q;
        return r;
    }

    // ---- arrays ----

    /** {@code unnest(array)} in FROM: a derived table of the array's elements (a series over them). */
    private Relation unnest(Query.FunctionRef fr, BlockScope scope) {
        Expr.Function f = fr.call();
        if (f.args().size() != 1 || f.star() || f.distinct() || f.over() != null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "unnest takes one array here, got " + f.args().size());
        }
        BlockScope fs = new BlockScope(scope.parent);
        Expression a = value(f.args().get(0), fs);
        if (a.type() == SqlType.TEXT) {
            a = Expressions.cast(a, SqlType.TEXT_ARRAY); // a literal, or the catalog's text-typed reloptions
        } else if (a.type() == SqlType.NULL) {
            a = Expressions.constNull(SqlType.TEXT_ARRAY);
        }
        if (!a.type().isArray()) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function unnest(" + Expressions.pgName(a.type()) + ") does not exist");
        }
        LogicalQuery.Series q = new LogicalQuery.Series();
        q.sql = sql;
        q.explain = explain;
        q.kind = io.respsql.exec.op.scan.SeriesScan.Kind.ARRAY;
        q.start = a;
        String alias = fr.alias() != null ? fr.alias() : "unnest";
        if (fr.columns().size() > 1) {
            throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "table \"" + alias + "\" has 1 columns available but "
                    + fr.columns().size() + " columns specified");
        }
        String column = !fr.columns().isEmpty() ? fr.columns().get(0) : alias;
        List<ColumnSpec> specs = List.of(new ColumnSpec(column, SqlTypes.storageOf(a.type().element()), false, null));
        List<String> names = List.of(column);
        q.output = newRelation(Relation.Kind.VALUES, null, Table.workTable("unnest", specs), names);
        q.outputs.add(Expressions.column(q.output.table.column(0), q.output.number, column));
        q.names.add(column);
        q.outerRefs = fs.outerRefs;
        scope.outerRefs |= q.outerRefs & ~scope.mask();
        Relation r = newRelation(Relation.Kind.DERIVED, alias, Table.workTable(alias, specs), names);
        r.source = q;
        return r;
    }

    /**
     * {@code SELECT generate_series(a, b) [AS x], ...} without FROM (PostgreSQL's set-returning function in the
     * select list, its simple form): {@code SELECT generate_series AS x, ... FROM generate_series(a, b)}. Null
     * when {@code s} is not of that form (a FROM, more than one call, a call inside an expression or an aggregate).
     */
    private static Query.Select seriesInSelectList(Query.Select s) {
        if (s.from() != null || !io.respsql.sql.Dialect.postgres()) {
            return null;
        }
        Expr.Function call = null;
        List<Query.SelectItem> items = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            if (it instanceof Query.Item item && item.expr() instanceof Expr.Function f && f.over() == null
                    && (f.name().equalsIgnoreCase("GENERATE_SERIES") || f.name().equalsIgnoreCase("UNNEST"))) { // arrays: unnest
                if (call != null) {
                    return null;
                }
                call = f;
                String fn = f.name().toLowerCase(java.util.Locale.ROOT);
                items.add(new Query.Item(new Expr.Column(null, fn, f.start(), f.end()), item.alias() != null ? item.alias() : fn));
            } else {
                items.add(it);
            }
        }
        if (call == null || s.groupBy().size() > 0 || s.having() != null) {
            return null;
        }
        String fn = call.name().toLowerCase(java.util.Locale.ROOT);
        return new Query.Select(s.distinct(), items, new Query.FunctionRef(call, fn, List.of(fn),
                call.start(), call.end()), s.where(), s.groupBy(), s.having(), s.orderBy(), s.limit(), s.offset(), s.scan(),
                s.start(), s.end());
    }

    private LogicalQuery.Block bindSelect(Query.Select s, BlockScope parent) {
        Query.Select series = seriesInSelectList(s);
        if (series != null) {
            s = series;
        }
        LogicalQuery.Block b = new LogicalQuery.Block();
        b.sql = sql;
        b.distinct = s.distinct();
        b.scan = s.scan();
        BlockScope scope = new BlockScope(parent);
        if (s.from() != null) {
            flatten(s.from(), scope, b);
        }
        b.relations.addAll(scope.relations);
        if (s.where() != null) {
            for (Expr e : splitAnd(s.where())) {
                b.where.add(conjunct(e, scope));
            }
        }

        // The select list, * and t.* expanded to the columns they stand for.
        List<Expr> items = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        List<Expression> starBound = new ArrayList<>(); // a * column's reference, bound here (null: bind the item)
        for (Query.SelectItem it : s.items()) {
            if (it instanceof Query.Star st) {
                boolean any = false;
                for (Relation r : scope.relations) {
                    if (st.qualifier() != null && (r.name == null || !r.name.equalsIgnoreCase(st.qualifier()))) {
                        continue;
                    }
                    any = true;
                    boolean qualify = r.name != null && scope.relations.size() > 1;
                    for (int i = 0; i < (r.starColumns >= 0 ? r.starColumns : r.columnNames.size()); i++) {
                        String c = r.columnNames.get(i);
                        items.add(new Expr.Column(r.name, c, -1, -1));
                        aliases.add(null);
                        starBound.add(Expressions.column(r.table.column(i), r.number, qualify ? r.name + "." + c : c));
                    }
                }
                if (!any) {
                    throw new SqlException(st.qualifier() == null ? SqlState.SYNTAX_ERROR : SqlState.UNDEFINED_TABLE, st.qualifier() == null ? "SELECT * needs a FROM clause"
                            : "table '" + st.qualifier() + "' is not in the FROM list");
                }
            } else {
                Query.Item item = (Query.Item) it;
                items.add(item.expr());
                aliases.add(item.alias());
                starBound.add(null);
            }
        }

        List<Expr> aggCalls = new ArrayList<>();
        for (Expr e : items) {
            collectAggregates(e, aggCalls);
        }
        if (s.having() != null) {
            collectAggregates(s.having(), aggCalls);
        }
        for (Query.OrderItem o : s.orderBy()) {
            collectAggregates(o.expr(), aggCalls);
        }
        b.aggregate = !s.groupBy().isEmpty() || !aggCalls.isEmpty() || s.having() != null;
        if (!aggCalls.isEmpty() && selfRef != null && selfRef.relation != null && scope.relations.contains(selfRef.relation)) {
            throw new SqlException(SqlState.INVALID_RECURSION, "aggregate functions are not allowed in a recursive query's recursive term");
        }
        // A column neither grouped nor aggregated (SQLite's "bare column") reads one row of its
        // group: each one found restarts the binding with it as an implicit aggregate.
        List<Expr> bare = new ArrayList<>();
        int subplansBefore = scope.subplans.size();
        int subqueriesBefore = subqueryPlans.size();
        while (true) {
            try {
                bindOutputs(s, items, aliases, starBound, aggCalls, bare, scope, b);
                break;
            } catch (BareColumn e) {
                if (bare.size() >= 64) {
                    throw new SqlException(SqlState.GROUPING_ERROR, "column '" + e.column.name() + "' must appear in the GROUP BY clause or be used in an aggregate function");
                }
                bare.add(e.column);
                scope.subplans.subList(subplansBefore, scope.subplans.size()).clear();
                subqueryPlans.subList(subqueriesBefore, subqueryPlans.size()).clear(); // bound again below
                scope.group = null;
                b.groupKeys.clear();
                b.aggregates.clear();
                b.outputs.clear();
                b.names.clear();
                b.order.clear();
                b.having = null;
            }
        }
        b.limit = s.limit() == null ? -1 : constantCount(s.limit(), "LIMIT");
        b.offset = s.offset() == null ? 0 : constantCount(s.offset(), "OFFSET");
        if (b.limit == 0 || b.offset > 0) {
            b.countStarOnly = false; // its one row is cut away: not the bare count (which ignored LIMIT 0 and OFFSET)
        }
        scope.group = null;
        scope.windowCalls = null;
        b.outerRefs = scope.outerRefs;
        b.subplans.addAll(scope.subplans);
        b.eager = EagerAggregation.find(b, this);
        return b;
    }

    /** Grouping (when the block aggregates), then the select list, HAVING and ORDER BY over it. */
    private void bindOutputs(Query.Select s, List<Expr> items, List<String> aliases, List<Expression> starBound,
                             List<Expr> aggCalls, List<Expr> bare, BlockScope scope, LogicalQuery.Block b) {
        if (b.aggregate) {
            bindGrouping(s, items, aliases, aggCalls, bare, scope, b);
            b.countStarOnly = s.groupBy().isEmpty() && s.having() == null && !s.distinct() && items.size() == 1
                    && items.get(0) instanceof Expr.Function f && f.star() && f.name().equals("COUNT") && f.extras() == null;
        }

        List<Expr.Function> windowCalls = new ArrayList<>();
        for (Expr e : items) {
            collectWindows(e, windowCalls);
        }
        for (Query.OrderItem o : s.orderBy()) {
            collectWindows(o.expr(), windowCalls);
        }
        b.windows.clear();
        scope.windowCalls = windowCalls.isEmpty() ? null : bindWindows(windowCalls, scope, b);
        for (int i = 0; i < items.size(); i++) {
            Expr e = items.get(i);
            boolean star = starBound.get(i) != null;
            b.outputs.add(star && !b.aggregate ? starBound.get(i) : value(e, scope));
            b.names.add(aliases.get(i) != null ? aliases.get(i) : star ? ((Expr.Column) e).name() : outputName(e, scope));
        }
        b.shownAsChar = shownAsChar(items, scope); // charn
        if (s.having() != null) {
            b.having = Expressions.asCondition(value(s.having(), scope), "HAVING");
        }
        for (Query.OrderItem o : s.orderBy()) {
            Expression key = orderTarget(o.expr(), items, aliases, b.outputs);
            Expr plain = o.expr();
            if (key != null) {
                plain = targetItem(o.expr(), items, aliases);
            } else {
                key = value(o.expr(), scope);
            }
            BlockScope.Resolved col = b.aggregate ? null : localColumn(plain, scope);
            b.order.add(orderKey(o, key, col));
        }
    }

    // ---- charn ----

    /**
     * PostgreSQL's dialect: per select-list item, n when it is a {@code char(n)} column or a
     * {@code ::char(n)} cast, whose value the result shows blank-padded to n (held without the
     * blanks: expr.Bpchar); null when no item is one. Only the statement's own result pads
     * (StatementPlanner), so a subquery, a derived table or INSERT ... SELECT sees the held value.
     */
    private static int[] shownAsChar(List<Expr> items, BlockScope scope) {
        if (!io.respsql.sql.Dialect.postgres()) {
            return null;
        }
        int[] out = null;
        for (int i = 0; i < items.size(); i++) {
            Expr e = items.get(i);
            int n = -1;
            if (e instanceof Expr.Column c) {
                BlockScope.Resolved r = scope.resolve(c.qualifier(), c.name());
                if (r != null && r.column() != null) {
                    n = io.respsql.exec.write.ValueRules.charLength(r.column());
                }
            } else if (e instanceof Expr.Cast x) {
                String base = x.type().base();
                if (base.equals("CHAR") || base.equals("CHARACTER")) {
                    n = x.type().length() < 0 ? 1 : x.type().length();
                } else if (base.equals("BPCHAR")) {
                    n = x.type().length();
                }
            }
            if (n > 0) {
                if (out == null) {
                    out = new int[items.size()];
                }
                out[i] = n;
            }
        }
        return out;
    }

    /**
     * A string literal compared with a char value (a char(n) column, a ::char(n) cast) is a char
     * value too in PostgreSQL (an unknown-type literal takes the other side's type): its trailing
     * blanks are insignificant, so it is held as char values are, without them (expr.Bpchar).
     */
    private static Expression charLiteral(Expr e, Expression bound, Expression other) {
        if (!io.respsql.sql.Dialect.postgres() || !(e instanceof Expr.Literal lit) || lit.kind() != Expr.LiteralKind.STRING
                || !isChar(other)) {
            return bound;
        }
        String t = lit.text();
        int end = t.length();
        while (end > 0 && t.charAt(end - 1) == ' ') {
            end--;
        }
        return end == t.length() ? bound : Expressions.constText(t.substring(0, end));
    }

    /**
     * mend: PostgreSQL compares a char value with a varchar one as char (varchar is cast to bpchar):
     * the varchar side's trailing blanks are insignificant too; beside text it compares as text
     * (only the char side loses its blanks). {@code bound} is {@code e} bound; {@code other} the
     * other side. A text-typed constant of an IN list whose operand is char is cast to the list's
     * common type, char, as well ({@code anyConstant}).
     */
    private static Expression charBeside(Expr e, Expression bound, Expression other, boolean anyConstant) {
        if (bound == null || !io.respsql.sql.Dialect.postgres() || bound.type() != SqlType.TEXT || !isChar(other)
                || isChar(bound)) {
            return bound;
        }
        boolean varchar;
        if (e instanceof Expr.Cast x) {
            String base = x.type().base();
            varchar = base.equals("VARCHAR") || base.equals("CHARACTER VARYING") || base.equals("VARYING CHARACTER");
        } else {
            io.respsql.storage.Column c = Expressions.referencedColumn(bound);
            varchar = c != null && c.type() == io.respsql.storage.ColumnType.TEXT && c.typeModifier() >= 0
                    && (c.typeModifier() & io.respsql.exec.write.ValueRules.CHAR_FLAG) == 0;
        }
        if (!varchar && !(anyConstant && bound.relations() == 0)) {
            return bound;
        }
        return io.respsql.expr.Bpchar.cast(bound, -1); // its trailing blanks dropped, as char's
    }

    /** mend: a char(n) value as PostgreSQL's LIKE and concat() see it: blank-padded to n. */
    private static Expression paddedChar(Expression x) {
        int n = charLength(x);
        return n > 0 ? io.respsql.expr.Bpchar.pad(x, n) : x;
    }

    /** Whether {@code x} is a char value: a char(n) column or a ::char(n) cast. */
    private static boolean isChar(Expression x) {
        return charLength(x) != -1;
    }

    /** n of a char(n) value (a column or a cast, in PostgreSQL's dialect), -2 for bpchar without length, else -1. */
    private static int charLength(Expression x) {
        if (!io.respsql.sql.Dialect.postgres()) {
            return -1;
        }
        int n = io.respsql.expr.Bpchar.castLength(x);
        if (n != -1) {
            return n;
        }
        io.respsql.storage.Column c = Expressions.referencedColumn(x);
        return c == null ? -1 : io.respsql.exec.write.ValueRules.charLength(c);
    }

    /** Window calls in {@code e}, not looking into subqueries (nor into a window call: they do not nest). */
    private static void collectWindows(Expr e, List<Expr.Function> out) {
        if (e instanceof Expr.Function f && f.over() != null) {
            out.add(f);
            return;
        }
        for (Expr c : children(e)) {
            if (c != null) {
                collectWindows(c, out);
            }
        }
    }

    /**
     * The window steps of a block: calls over the same window (PARTITION BY and ORDER BY alike)
     * share one; each call becomes a column of its step's output relation. Keys and arguments
     * are bound like the select list (over the group relation in a grouped block).
     */
    private java.util.Map<Expr, Expression> bindWindows(List<Expr.Function> calls, BlockScope scope, LogicalQuery.Block b) {
        java.util.Map<Expr, Expression> columns = new java.util.IdentityHashMap<>();
        java.util.Map<String, List<Expr.Function>> byWindow = new java.util.LinkedHashMap<>();
        for (Expr.Function f : calls) {
            StringBuilder k = new StringBuilder();
            for (Expr p : f.over().partitionBy()) {
                k.append(Canonical.key(p, scope)).append(';');
            }
            k.append('|');
            for (Query.OrderItem o : f.over().orderBy()) {
                k.append(Canonical.key(o.expr(), scope)).append(o.descending()).append(o.nulls()).append(';');
            }
            byWindow.computeIfAbsent(k.toString(), x -> new ArrayList<>()).add(f);
        }
        for (List<Expr.Function> group : byWindow.values()) {
            Expr.Window w = group.get(0).over();
            Expression[] partition = new Expression[w.partitionBy().size()];
            for (int i = 0; i < partition.length; i++) {
                partition[i] = value(w.partitionBy().get(i), scope);
            }
            io.respsql.exec.op.window.WindowSortKey[] order = new io.respsql.exec.op.window.WindowSortKey[w.orderBy().size()];
            for (int i = 0; i < order.length; i++) {
                Query.OrderItem o = w.orderBy().get(i);
                boolean nullsFirst = o.nulls() == Query.NullsOrder.DEFAULT ? o.descending() : o.nulls() == Query.NullsOrder.FIRST;
                order[i] = new io.respsql.exec.op.window.WindowSortKey(value(o.expr(), scope), o.descending(), nullsFirst);
            }
            io.respsql.exec.op.window.WindowFunctionSpec[] specs = new io.respsql.exec.op.window.WindowFunctionSpec[group.size()];
            List<ColumnSpec> cols = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < specs.length; i++) {
                specs[i] = windowFunction(group.get(i), scope);
                names.add("window_" + (i + 1));
                cols.add(new ColumnSpec(names.get(i), specs[i].columnType(), false, null));
            }
            Relation out = newRelation(Relation.Kind.WINDOW, null, Table.workTable("window", cols), names);
            for (int i = 0; i < specs.length; i++) {
                columns.put(group.get(i), Expressions.column(out.table.column(i), out.number, text(group.get(i))));
            }
            b.windows.add(new LogicalQuery.WindowStep(partition, order, specs, out));
        }
        return columns;
    }

    private io.respsql.exec.op.window.WindowFunctionSpec windowFunction(Expr.Function f, BlockScope scope) {
        io.respsql.exec.op.window.WindowFunctionKind kind;
        if (f.star()) {
            if (!f.name().equals("COUNT")) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: " + f.name() + "(*) is not allowed, name a column");
            }
            kind = io.respsql.exec.op.window.WindowFunctionKind.COUNT_STAR;
        } else {
            try {
                kind = io.respsql.exec.op.window.WindowFunctionKind.valueOf(f.name());
            } catch (IllegalArgumentException e) {
                throw new SqlException(SqlState.UNDEFINED_FUNCTION, "unknown window function '" + f.name() + "'");
            }
        }
        if (f.distinct()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "DISTINCT is not supported in window functions: " + text(f));
        }
        if (f.extras() != null) { // agg: the parser takes FILTER / ORDER BY for aggregates; window calls do not use them yet
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, (f.filter() != null ? "FILTER" : "ORDER BY inside the call")
                    + " is not supported in window functions yet: " + text(f));
        }
        Expression[] args = new Expression[f.args().size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = value(f.args().get(i), scope);
        }
        io.respsql.exec.op.window.WindowFrame frame = null;
        Expr.Frame fr = f.over().frame();
        if (fr != null) {
            Expression so = fr.start().offset() == null ? null : value(fr.start().offset(), scope);
            if (fr.end() == null) {
                frame = io.respsql.exec.op.window.WindowFrame.startingAt(fr.unit(), fr.start().kind(), so, fr.exclude());
            } else {
                Expression eo = fr.end().offset() == null ? null : value(fr.end().offset(), scope);
                frame = new io.respsql.exec.op.window.WindowFrame(fr.unit(), fr.start().kind(), so, fr.end().kind(), eo, fr.exclude());
            }
        }
        return new io.respsql.exec.op.window.WindowFunctionSpec(kind, args, frame);
    }

    /** Thrown while binding a grouped block's outputs at a column that is neither grouped nor aggregated. */
    private static final class BareColumn extends RuntimeException {
        final Expr.Column column;

        BareColumn(Expr.Column column) {
            super(null, null, false, false);
            this.column = column;
        }
    }

    /** The output an ORDER BY term names: an ordinal, or an output alias; null when it is an expression. */
    private Expression orderTarget(Expr e, List<Expr> items, List<String> aliases, List<Expression> outputs) {
        if (e instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
            long k = parseInteger(l.text());
            if (k < 1 || k > outputs.size()) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "ORDER BY term " + l.text() + " is out of range: the select list has "
                        + outputs.size() + " column(s)");
            }
            return outputs.get((int) k - 1);
        }
        if (e instanceof Expr.Column c && c.qualifier() == null) {
            for (int i = 0; i < aliases.size(); i++) {
                if (aliases.get(i) != null && aliases.get(i).equalsIgnoreCase(c.name())) {
                    return outputs.get(i);
                }
            }
        }
        return null;
    }

    /** The select-list entry an ordinal or alias names (its syntax). */
    private static Expr targetItem(Expr e, List<Expr> items, List<String> aliases) {
        if (e instanceof Expr.Literal l) {
            return items.get((int) parseInteger(l.text()) - 1);
        }
        Expr.Column c = (Expr.Column) e;
        for (int i = 0; i < aliases.size(); i++) {
            if (aliases.get(i) != null && aliases.get(i).equalsIgnoreCase(c.name())) {
                return items.get(i);
            }
        }
        return e;
    }

    private static LogicalQuery.OrderKey orderKey(Query.OrderItem o, Expression key, BlockScope.Resolved col) {
        boolean nullsFirst = o.nulls() == Query.NullsOrder.DEFAULT ? o.descending() : o.nulls() == Query.NullsOrder.FIRST;
        return new LogicalQuery.OrderKey(key, o.descending(), nullsFirst, col == null ? null : col.relation(),
                col == null ? null : col.column());
    }

    /** GROUP BY keys and aggregate calls, bound over the FROM relations; then the group relation. */
    private void bindGrouping(Query.Select s, List<Expr> items, List<String> aliases, List<Expr> aggCalls,
                              List<Expr> bare, BlockScope scope, LogicalQuery.Block b) {
        List<String> keyCanon = new ArrayList<>();
        List<String> keyText = new ArrayList<>();
        b.groupingSets = null;
        if (hasGroupingSets(s.groupBy())) {
            bindGroupingSets(s.groupBy(), items, aliases, scope, b, keyCanon, keyText);
        }
        for (Expr g : b.groupingSets != null ? List.<Expr>of() : s.groupBy()) {
            Expr target = g;
            if (g instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
                long k = parseInteger(l.text());
                if (k < 1 || k > items.size()) {
                    throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "GROUP BY term " + l.text() + " is out of range: the select list has "
                            + items.size() + " column(s)");
                }
                target = items.get((int) k - 1);
            } else if (g instanceof Expr.Column c && c.qualifier() == null && scope.resolve(null, c.name()) == null) {
                for (int i = 0; i < aliases.size(); i++) {
                    if (aliases.get(i) != null && aliases.get(i).equalsIgnoreCase(c.name())) {
                        target = items.get(i);
                        break;
                    }
                }
            }
            if (containsAggregate(target)) {
                throw new SqlException(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in GROUP BY");
            }
            b.groupKeys.add(value(target, scope));
            keyCanon.add(Canonical.key(target, scope));
            keyText.add(text(target));
        }
        List<String> aggCanon = new ArrayList<>();
        for (Expr a : aggCalls) {
            String k = Canonical.key(a, scope);
            if (aggCanon.contains(k)) {
                continue;
            }
            aggCanon.add(k);
            b.aggregates.add(aggregate((Expr.Function) a, scope));
            keyText.add(text(a));
        }
        for (Expr c : bare) { // a bare column: the value of one row of the group (MIN's, as SQLite allows)
            aggCanon.add(Canonical.key(c, scope));
            b.aggregates.add(new AggregateSpec(AggregateSpec.Kind.MIN, value(c, scope), false));
            keyText.add(text(c));
        }
        List<ColumnSpec> specs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < b.groupKeys.size(); i++) {
            names.add("group_" + (i + 1));
            specs.add(new ColumnSpec(names.get(i), SqlTypes.storageOf(b.groupKeys.get(i).type()), false, null));
        }
        for (int i = 0; i < b.aggregates.size(); i++) {
            names.add("aggregate_" + (i + 1));
            specs.add(new ColumnSpec(names.get(names.size() - 1), SqlTypes.storageOf(b.aggregates.get(i).resultType()),
                    false, null));
        }
        Table work = Table.workTable("group", specs);
        b.group = newRelation(Relation.Kind.GROUP, null, work, names);
        scope.group = new GroupOutput(b.group, keyCanon, aggCanon, keyText);
    }

    private AggregateSpec aggregate(Expr.Function f, BlockScope scope) {
        if (f.extras() != null || !aggregateKind(f.name()).classic()) {
            return pgAggregate(f, aggregateKind(f.name()), scope); // agg
        }
        if (f.star()) {
            if (!f.name().equals("COUNT")) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "syntax error: " + f.name() + "(*) is not allowed, name a column");
            }
            return new AggregateSpec(AggregateSpec.Kind.COUNT_STAR, null, false);
        }
        AggregateSpec.Kind kind = AggregateSpec.Kind.valueOf(f.name());
        int want = kind == AggregateSpec.Kind.GROUP_CONCAT ? 2 : 1;
        if (f.args().isEmpty() || f.args().size() > want) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "aggregate function '" + f.name() + "' takes " + (want == 1 ? "1 argument" : "1 or 2 arguments")
                    + ", got " + f.args().size());
        }
        for (Expr a : f.args()) {
            if (containsAggregate(a)) {
                throw new SqlException(SqlState.GROUPING_ERROR, "aggregate function calls cannot be nested: " + text(f));
            }
        }
        Expression arg = value(f.args().get(0), scope);
        Expression sep = f.args().size() > 1 ? value(f.args().get(1), scope) : null;
        if ((kind == AggregateSpec.Kind.SUM || kind == AggregateSpec.Kind.AVG || kind == AggregateSpec.Kind.TOTAL)
                && !arg.type().isNumeric() && arg.type() != SqlType.NULL && arg.type() != SqlType.BOOLEAN
                && !(arg.type() == SqlType.NUMERIC && kind != AggregateSpec.Kind.TOTAL)) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, f.name() + " needs a numeric argument, " + text(f.args().get(0)) + " is " + arg.type().sqlName());
        }
        return new AggregateSpec(kind, arg, f.distinct(), sep);
    }

    // ---- agg ----

    /** The canonical key of the hidden grouping column of grouping sets (no expression has it). */
    private static final String GROUPING_COLUMN = "\u0000grouping";

    private static boolean hasGroupingSets(List<Expr> groupBy) {
        for (Expr e : groupBy) {
            if (e instanceof Expr.GroupingSet) {
                return true;
            }
        }
        return false;
    }

    /** The sets of one GROUP BY element, each a list of expressions (leaves as written). */
    private static List<List<Expr>> expandGrouping(Expr e) {
        List<List<Expr>> out = new ArrayList<>();
        if (!(e instanceof Expr.GroupingSet g)) {
            out.add(List.of(e));
            return out;
        }
        switch (g.kind()) {
            case ROW:
                out.add(g.items());
                return out;
            case SETS:
                for (Expr item : g.items()) {
                    out.addAll(expandGrouping(item));
                }
                return out;
            case ROLLUP: {
                for (int k = g.items().size(); k >= 0; k--) {
                    List<Expr> set = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        set.addAll(rowItems(g.items().get(i)));
                    }
                    out.add(set);
                }
                return out;
            }
            default: { // CUBE: every subset, the full one first
                int n = g.items().size();
                if (n > 12) {
                    throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "CUBE is limited to 12 elements");
                }
                for (int m = (1 << n) - 1; m >= 0; m--) {
                    List<Expr> set = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        if ((m & (1 << (n - 1 - i))) != 0) {
                            set.addAll(rowItems(g.items().get(i)));
                        }
                    }
                    out.add(set);
                }
                return out;
            }
        }
    }

    private static List<Expr> rowItems(Expr e) {
        return e instanceof Expr.GroupingSet r && r.kind() == Expr.GroupingKind.ROW ? r.items() : List.of(e);
    }

    /**
     * GROUP BY with grouping sets: the sets of the elements' cross product, every distinct
     * expression once as a key (columns of the group relation), the hidden grouping column after
     * them, and per set the keys the aggregation groups by (a typed NULL for a key the set rolls up,
     * then the set's mask). One hash aggregation per set (the planner's), into one group relation.
     */
    private void bindGroupingSets(List<Expr> groupBy, List<Expr> items, List<String> aliases, BlockScope scope,
                                  LogicalQuery.Block b, List<String> keyCanon, List<String> keyText) {
        boolean distinctSets = groupBy.size() == 1 && groupBy.get(0) instanceof Expr.GroupingSet d
                && d.kind() == Expr.GroupingKind.DISTINCT;
        if (distinctSets) {
            groupBy = ((Expr.GroupingSet) groupBy.get(0)).items();
        }
        List<List<Expr>> sets = new ArrayList<>();
        sets.add(List.of());
        for (Expr element : groupBy) {
            List<List<Expr>> next = new ArrayList<>();
            for (List<Expr> left : sets) {
                for (List<Expr> right : expandGrouping(element)) {
                    List<Expr> both = new ArrayList<>(left);
                    both.addAll(right);
                    next.add(both);
                }
            }
            sets = next;
            if (sets.size() > 4096) {
                throw new SqlException(SqlState.STATEMENT_TOO_COMPLEX, "too many grouping sets present (maximum 4096)");
            }
        }
        List<int[]> present = new ArrayList<>();
        for (List<Expr> set : sets) {
            int[] at = new int[set.size()];
            for (int i = 0; i < at.length; i++) {
                Expr target = groupTarget(set.get(i), items, aliases, scope);
                String canon = Canonical.key(target, scope);
                int k = keyCanon.indexOf(canon);
                if (k < 0) {
                    if (keyCanon.size() >= 63) {
                        throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "grouping sets over more than 63 distinct expressions");
                    }
                    k = keyCanon.size();
                    b.groupKeys.add(value(target, scope));
                    keyCanon.add(canon);
                    keyText.add(text(target));
                }
                at[i] = k;
            }
            present.add(at);
        }
        if (distinctSets) { // GROUP BY DISTINCT: a set of the same keys (in any order) once
            List<int[]> unique = new ArrayList<>();
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int[] at : present) {
                int[] sorted = java.util.Arrays.stream(at).distinct().sorted().toArray();
                if (seen.add(java.util.Arrays.toString(sorted))) {
                    unique.add(at);
                }
            }
            present = unique;
        }
        int n = keyCanon.size();
        b.groupingSets = new ArrayList<>();
        for (int[] at : present) {
            long mask = n == 0 ? 0 : (n == 64 ? -1L : (1L << n) - 1);
            for (int k : at) {
                mask &= ~(1L << k);
            }
            Expression[] keys = new Expression[n + 1];
            for (int j = 0; j < n; j++) {
                Expression key = b.groupKeys.get(j);
                keys[j] = (mask & (1L << j)) != 0 ? Expressions.constNull(key.type()) : key;
            }
            keys[n] = Expressions.constLong(SqlType.BIGINT, mask);
            b.groupingSets.add(keys);
        }
        b.groupKeys.add(Expressions.constLong(SqlType.BIGINT, 0));
        keyCanon.add(GROUPING_COLUMN);
        keyText.add("grouping");
    }

    /** A GROUP BY expression as written: an ordinal or an output alias reads that select-list entry. */
    private Expr groupTarget(Expr g, List<Expr> items, List<String> aliases, BlockScope scope) {
        Expr target = g;
        if (g instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
            long k = parseInteger(l.text());
            if (k < 1 || k > items.size()) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "GROUP BY position " + l.text() + " is not in select list");
            }
            target = items.get((int) k - 1);
        } else if (g instanceof Expr.Column c && c.qualifier() == null && scope.resolve(null, c.name()) == null) {
            for (int i = 0; i < aliases.size(); i++) {
                if (aliases.get(i) != null && aliases.get(i).equalsIgnoreCase(c.name())) {
                    target = items.get(i);
                    break;
                }
            }
        }
        if (containsAggregate(target)) {
            throw new SqlException(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in GROUP BY");
        }
        return target;
    }

    /**
     * GROUPING(a, ...): the bits of the group row's grouping column; 0 over a plain GROUP BY. The
     * arguments name the grouping keys of this block or (from a subquery) of an enclosing one,
     * whose group row the subquery then reads as an outer reference.
     */
    private Expression grouping(Expr.Function f, BlockScope scope) {
        if (f.args().isEmpty() || f.star() || f.distinct()) {
            throw new SqlException(SqlState.GROUPING_ERROR, "arguments to GROUPING must be grouping expressions of the associated query level");
        }
        if (f.args().size() > 31) {
            throw new SqlException(SqlState.TOO_MANY_ARGUMENTS, "GROUPING must have fewer than 32 arguments");
        }
        for (BlockScope level = scope; level != null; level = level.parent) {
            GroupOutput g = level.group;
            if (g == null) {
                continue;
            }
            int[] at = new int[f.args().size()];
            for (int i = 0; at != null && i < at.length; i++) {
                // resolved where the call is: an enclosing block's key is read through its group row (#group.k)
                String canon = Canonical.key(f.args().get(i), scope);
                at[i] = g.keyCanon().indexOf(canon);
                if (level != scope) {
                    at[i] = -1;
                    for (int k = 0; k < g.keyCanon().size(); k++) {
                        if (canon.equals("#" + g.group().number + "." + k)) {
                            at[i] = k;
                        }
                    }
                }
                if (at[i] < 0) {
                    at = null;
                }
            }
            if (at == null) {
                continue;
            }
            int gi = g.keyCanon().indexOf(GROUPING_COLUMN);
            if (gi < 0) {
                return Expressions.constLong(SqlType.INT, 0);
            }
            for (BlockScope inner = scope; inner != level; inner = inner.parent) {
                inner.outerRefs |= g.group().bit();
            }
            Column c = g.group().table.column(gi);
            return new io.respsql.expr.GroupingBits(Expressions.column(c, g.group().number, "grouping"), at, text(f));
        }
        throw new SqlException(SqlState.GROUPING_ERROR, "arguments to GROUPING must be grouping expressions of the associated query level");
    }

    private static AggregateSpec.Kind aggregateKind(String name) {
        switch (name) {
            case "VARIANCE":
                return AggregateSpec.Kind.VAR_SAMP;
            case "STDDEV":
                return AggregateSpec.Kind.STDDEV_SAMP;
            case "EVERY":
                return AggregateSpec.Kind.BOOL_AND;
            default:
                return AggregateSpec.Kind.valueOf(name);
        }
    }

    /**
     * PostgreSQL's aggregates (issue 25) and any aggregate call with FILTER (WHERE ...), ORDER BY
     * inside the call or WITHIN GROUP (ORDER BY ...): arity, types and clause checks with
     * PostgreSQL's SQLSTATEs, then the spec with its second argument, filter and ordering.
     */
    private AggregateSpec pgAggregate(Expr.Function f, AggregateSpec.Kind kind, BlockScope scope) {
        String name = f.name().toLowerCase(java.util.Locale.ROOT);
        for (Expr a : children(f)) {
            if (containsAggregate(a)) {
                throw new SqlException(SqlState.GROUPING_ERROR, f.filter() == a ? "aggregate functions are not allowed in FILTER"
                        : "aggregate function calls cannot be nested: " + text(f));
            }
        }
        if (kind.orderedSet() != f.withinGroup()) {
            int arity = kind == AggregateSpec.Kind.MODE ? 1 : kind.orderedSet() || kind.twoArguments()
                    || kind == AggregateSpec.Kind.STRING_AGG ? 2 : 1;
            if (f.args().size() + f.argOrder().size() != arity && kind != AggregateSpec.Kind.GROUP_CONCAT) {
                throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name + " with " + (f.args().size() + f.argOrder().size())
                        + " argument(s) does not exist");
            }
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, kind.orderedSet()
                    ? "WITHIN GROUP is required for ordered-set aggregate " + name
                    : name + " is not an ordered-set aggregate, so it cannot have WITHIN GROUP");
        }
        if (kind.orderedSet() && f.distinct()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use DISTINCT with WITHIN GROUP");
        }
        int want = kind == AggregateSpec.Kind.MODE ? 0 : kind == AggregateSpec.Kind.STRING_AGG || kind.twoArguments() ? 2
                : kind == AggregateSpec.Kind.COUNT_STAR ? 0 : 1;
        int got = f.args().size();
        boolean fits = kind == AggregateSpec.Kind.GROUP_CONCAT ? got == 1 || got == 2
                : kind == AggregateSpec.Kind.COUNT ? f.star() || got == 1 : got == want;
        if (!fits || (f.star() && !f.name().equals("COUNT"))) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name + " takes " + want + " argument(s), got "
                    + (f.star() ? "*" : Integer.toString(got)));
        }
        if (kind.orderedSet() && f.argOrder().size() != 1) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name + " takes one WITHIN GROUP (ORDER BY ...) key, got "
                    + f.argOrder().size());
        }
        AggregateSpec spec;
        if (f.star()) {
            spec = new AggregateSpec(AggregateSpec.Kind.COUNT_STAR, null, false);
        } else if (kind.orderedSet()) {
            Expression key = value(f.argOrder().get(0).expr(), scope);
            spec = new AggregateSpec(kind, key, false);
            if (kind != AggregateSpec.Kind.MODE) {
                Expression fraction = value(f.args().get(0), scope);
                if (fraction.relations() != 0 || !(fraction.type().isNumeric() || fraction.type() == SqlType.NUMERIC
                        || fraction.type() == SqlType.NULL || kind.hypothetical())) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "the fraction of " + name
                            + " must be a numeric constant, not " + text(f.args().get(0)));
                }
                if (kind.hypothetical() && fraction.type() != key.type()
                        && (fraction.type() == SqlType.TEXT || key.type().isTextCarried())) {
                    fraction = Expressions.cast(fraction, key.type()); // rank('3') WITHIN GROUP (ORDER BY int) as PostgreSQL coerces
                }
                spec.withSecond(fraction);
            }
        } else {
            Expression arg = value(f.args().get(0), scope);
            Expression second = got > 1 ? value(f.args().get(1), scope) : null;
            if (kind == AggregateSpec.Kind.STRING_AGG || kind == AggregateSpec.Kind.GROUP_CONCAT) {
                if (kind == AggregateSpec.Kind.STRING_AGG && io.respsql.sql.Dialect.postgres()
                        && !(arg.type() == SqlType.TEXT || arg.type() == SqlType.NULL)) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function string_agg(" + arg.type().sqlName().toLowerCase(java.util.Locale.ROOT)
                            + ", ...) does not exist");
                }
                if (!f.argOrder().isEmpty() && arg.type() != SqlType.TEXT) {
                    arg = Expressions.cast(arg, SqlType.TEXT);
                }
                spec = new AggregateSpec(kind, arg, f.distinct(), second);
            } else if (kind.twoArguments()) {
                for (Expression e : new Expression[] {arg, second}) {
                    if (!(e.type().isNumeric() || e.type() == SqlType.NUMERIC || e.type() == SqlType.NULL)) {
                        throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name + "(" + arg.type().sqlName().toLowerCase(java.util.Locale.ROOT)
                                + ", " + second.type().sqlName().toLowerCase(java.util.Locale.ROOT) + ") does not exist");
                    }
                }
                spec = new AggregateSpec(kind, arg, f.distinct()).withSecond(second);
            } else {
                if ((kind == AggregateSpec.Kind.SUM || kind == AggregateSpec.Kind.AVG || kind == AggregateSpec.Kind.TOTAL
                        || kind == AggregateSpec.Kind.VAR_POP || kind == AggregateSpec.Kind.VAR_SAMP
                        || kind == AggregateSpec.Kind.STDDEV_POP || kind == AggregateSpec.Kind.STDDEV_SAMP)
                        && !arg.type().isNumeric() && arg.type() != SqlType.NULL && arg.type() != SqlType.NUMERIC
                        && arg.type() != SqlType.BOOLEAN) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name + "(" + arg.type().sqlName().toLowerCase(java.util.Locale.ROOT)
                            + ") does not exist");
                }
                spec = new AggregateSpec(kind, arg, f.distinct());
            }
        }
        if (f.filter() != null) {
            spec.withFilter(Expressions.asCondition(value(f.filter(), scope), "FILTER"));
        }
        if (!kind.orderedSet() && !f.argOrder().isEmpty()) {
            int n = f.argOrder().size();
            Expression[] keys = new Expression[n];
            boolean[] desc = new boolean[n];
            boolean[] nullsFirst = new boolean[n];
            for (int i = 0; i < n; i++) {
                Query.OrderItem o = f.argOrder().get(i);
                keys[i] = value(o.expr(), scope);
                desc[i] = o.descending();
                nullsFirst[i] = o.nulls() == Query.NullsOrder.DEFAULT ? o.descending() : o.nulls() == Query.NullsOrder.FIRST;
            }
            spec.withOrder(keys, desc, nullsFirst);
        } else if (kind.orderedSet()) {
            Query.OrderItem o = f.argOrder().get(0);
            spec.withOrder(new Expression[0], new boolean[] {o.descending()},
                    new boolean[] {o.nulls() == Query.NullsOrder.DEFAULT ? o.descending() : o.nulls() == Query.NullsOrder.FIRST});
        }
        return spec;
    }

    /** How a grouped block's later clauses read the group relation. */
    record GroupOutput(Relation group, List<String> keyCanon, List<String> aggCanon, List<String> labels) {
        /**
         * A column of the grouped block as a subquery inside its outputs sees it: the group
         * relation's copy when the column is a group key (the input rows' slots are gone by then).
         */
        BlockScope.Resolved outerView(BlockScope.Resolved r) {
            int i = keyCanon.indexOf("#" + r.relation().number + "." + r.column().position());
            return i < 0 ? r : new BlockScope.Resolved(group, group.table.column(i), labels.get(i));
        }
    }

    /** A post-aggregation expression that is a group key or an aggregate: that column of the group relation. */
    private Expression groupMatch(Expr e, BlockScope scope, GroupOutput g) {
        if ((e instanceof Expr.Literal && !g.keyCanon().contains(GROUPING_COLUMN)) || e instanceof Expr.Raw) {
            return null; // agg: under grouping sets a constant key is NULL where its set rolls it up
        }
        boolean agg = isAggregate(e);
        if (!agg && !(e instanceof Expr.Column) && g.keyCanon().isEmpty()) {
            return null;
        }
        String k = Canonical.key(e, scope);
        int i = g.keyCanon().indexOf(k);
        if (i < 0 && (agg || e instanceof Expr.Column)) {
            i = g.aggCanon().indexOf(k);
            if (i >= 0) {
                i += g.keyCanon().size();
            }
        }
        if (i >= 0) {
            Column c = g.group().table.column(i);
            return Expressions.column(c, g.group().number, g.labels().get(i));
        }
        if (e instanceof Expr.Column c) {
            BlockScope.Resolved r = scope.resolve(c.qualifier(), c.name());
            if (r != null && scope.relations.contains(r.relation())) {
                throw new BareColumn(c);
            }
        }
        return null;
    }

    private LogicalQuery bindSetOp(Query.SetOp s, BlockScope parent) {
        LogicalQuery.SetOp q = new LogicalQuery.SetOp();
        q.sql = sql;
        q.kind = s.kind();
        q.left = bindQuery(s.left(), parent);
        if (s.kind() == Query.SetOpKind.EXCEPT) {
            exceptDepth++;
        }
        try {
            q.right = bindQuery(s.right(), parent);
        } finally {
            if (s.kind() == Query.SetOpKind.EXCEPT) {
                exceptDepth--;
            }
        }
        int n = q.left.outputs.size();
        String op = s.kind() == Query.SetOpKind.UNION_ALL ? "UNION ALL" : s.kind().name();
        if (q.right.outputs.size() != n) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "each side of " + op + " must have the same number of columns (" + n + " and "
                    + q.right.outputs.size() + ")");
        }
        List<ColumnSpec> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SqlType l = q.left.outputs.get(i).type();
            SqlType r = q.right.outputs.get(i).type();
            SqlType t = l == r ? l : Expressions.commonType(l, r);
            if (t == null) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, op + " column " + (i + 1) + " has types " + l.sqlName() + " and " + r.sqlName()
                        + " that do not match");
            }
            q.left.outputs.set(i, coerce(q.left.outputs.get(i), t));
            q.right.outputs.set(i, coerce(q.right.outputs.get(i), t));
            specs.add(new ColumnSpec("c" + (i + 1), SqlTypes.storageOf(t), false, null));
        }
        q.output = newRelation(Relation.Kind.SETOP, null, Table.workTable("setop", specs), q.left.names);
        for (int i = 0; i < n; i++) {
            q.outputs.add(Expressions.column(q.output.table.column(i), q.output.number, q.left.names.get(i)));
            q.names.add(q.left.names.get(i));
        }
        BlockScope scope = new BlockScope(parent);
        scope.relations.add(q.output);
        for (Query.OrderItem o : s.orderBy()) {
            Expression key = null;
            if (o.expr() instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
                key = orderTarget(o.expr(), List.of(), List.of(), q.outputs);
            }
            if (key == null) {
                key = value(o.expr(), scope);
            }
            q.order.add(orderKey(o, key, null));
        }
        q.limit = s.limit() == null ? -1 : constantCount(s.limit(), "LIMIT");
        q.offset = s.offset() == null ? 0 : constantCount(s.offset(), "OFFSET");
        q.outerRefs = q.left.outerRefs | q.right.outerRefs | scope.outerRefs;
        return q;
    }

    private LogicalQuery bindValues(Query.Values v, BlockScope parent) {
        LogicalQuery.ValuesList q = new LogicalQuery.ValuesList();
        q.sql = sql;
        BlockScope scope = new BlockScope(parent);
        int n = v.rows().get(0).size();
        SqlType[] types = new SqlType[n];
        for (List<Expr> row : v.rows()) {
            if (row.size() != n) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "all VALUES rows must have the same number of values (" + n + " and " + row.size() + ")");
            }
            List<Expression> bound = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Expression e = textOrValue(row.get(i), scope);
                bound.add(e);
                SqlType t = types[i] == null ? e.type() : types[i] == e.type() ? e.type() : Expressions.commonType(types[i], e.type());
                types[i] = t == null ? SqlType.TEXT : t;
            }
            q.rows.add(bound);
        }
        List<ColumnSpec> specs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("column" + (i + 1));
            specs.add(new ColumnSpec(names.get(i), SqlTypes.storageOf(types[i]), false, null));
        }
        for (List<Expression> row : q.rows) {
            for (int i = 0; i < n; i++) {
                row.set(i, coerce(row.get(i), types[i]));
            }
        }
        q.output = newRelation(Relation.Kind.VALUES, null, Table.workTable("values", specs), names);
        for (int i = 0; i < n; i++) {
            q.outputs.add(Expressions.column(q.output.table.column(i), q.output.number, names.get(i)));
            q.names.add(names.get(i));
        }
        q.outerRefs = scope.outerRefs;
        return q;
    }

    private static Expression coerce(Expression e, SqlType t) {
        return e.type() == t || e.type() == SqlType.NULL || t == SqlType.NULL ? e : Expressions.cast(e, t);
    }

    // ---- FROM ------------------------------------------------------------------------------------

    private void flatten(Query.FromItem f, BlockScope scope, LogicalQuery.Block b) {
        if (f instanceof Query.Join j) {
            if (j.natural()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "NATURAL JOIN is not supported: name the columns with USING or ON");
            }
            switch (j.kind()) {
                case INNER:
                case CROSS: {
                    long before = scope.mask();
                    flatten(j.left(), scope, b);
                    long leftMask = scope.mask() & ~before;
                    flatten(j.right(), scope, b);
                    long rightMask = scope.mask() & ~before & ~leftMask;
                    for (Expr e : joinConditions(j, scope, leftMask, rightMask)) {
                        b.where.add(conjunct(e, scope));
                    }
                    return;
                }
                case LEFT: {
                    if (j.right() instanceof Query.Join) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "LEFT JOIN of a parenthesized join is not supported");
                    }
                    long before = scope.mask();
                    flatten(j.left(), scope, b);
                    long leftMask = scope.mask() & ~before;
                    Relation r = nullableLeaf(j.right(), scope);
                    scope.add(r);
                    r.outerJoined = true;
                    r.dependsOn = leftMask;
                    for (Expr e : joinConditions(j, scope, leftMask, r.bit())) {
                        Conjunct c = conjunct(e, scope);
                        r.on.add(c);
                        // ON may name a relation left of a comma (t0, t1 LEFT JOIN t2 ON t0.a = t2.a): joined before too
                        r.dependsOn |= c.rels & scope.mask() & ~r.bit();
                    }
                    return;
                }
                case RIGHT: {
                    if (j.left() instanceof Query.Join) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "RIGHT JOIN of a parenthesized join is not supported");
                    }
                    Relation r = nullableLeaf(j.left(), scope);
                    scope.add(r);
                    long before = scope.mask();
                    flatten(j.right(), scope, b);
                    long rightMask = scope.mask() & ~before;
                    r.outerJoined = true;
                    r.dependsOn = rightMask;
                    for (Expr e : joinConditions(j, scope, r.bit(), rightMask)) {
                        Conjunct c = conjunct(e, scope);
                        r.on.add(c);
                        r.dependsOn |= c.rels & scope.mask() & ~r.bit();
                    }
                    return;
                }
                default:
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "FULL JOIN is not supported");
            }
        }
        scope.add(leaf(f, scope));
    }

    /** The AND terms of ON, or USING's equalities. */
    private List<Expr> joinConditions(Query.Join j, BlockScope scope, long leftMask, long rightMask) {
        List<Expr> out = new ArrayList<>();
        if (j.on() != null) {
            out.addAll(splitAnd(j.on()));
        }
        for (String col : j.using()) {
            Relation l = null;
            Relation r = null;
            for (Relation rel : scope.relations) {
                if (rel.column(col) != null) {
                    if ((rel.bit() & leftMask) != 0) {
                        l = rel;
                    } else if ((rel.bit() & rightMask) != 0 && r == null) {
                        r = rel;
                    }
                }
            }
            if (l == null || r == null) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "column '" + col + "' of USING is not in both sides of the join");
            }
            out.add(new Expr.Binary(Expr.BinaryOp.EQ, new Expr.Column(l.name, col, -1, -1),
                    new Expr.Column(r.name, col, -1, -1), -1, -1));
        }
        return out;
    }

    /** The base tables the bound statement reads (a table named twice appears twice). */
    public List<Table> tablesRead() {
        return tablesRead;
    }

    /**
     * Whether the query numbers relations as pg_class does ({@code 'name'::regclass}, {@code oid::regclass},
     * pg_get_indexdef): from every table, index and view of the catalog, which a worker's read view has not.
     */
    public boolean readsCatalogOids() {
        return readsCatalogOids;
    }

    /** The system relations (pg_catalog's, information_schema's) this binding built, by lower-case name as written. */
    public Map<String, Table> systemRelations() {
        return systemRelations;
    }

    /** The root of each subquery's plan, nested ones included (each once). */
    List<io.respsql.exec.op.Operator> subqueryPlans() {
        return subqueryPlans;
    }

    /** A table, view or derived table of FROM as a new relation. */
    private Relation leaf(Query.FromItem f, BlockScope scope) {
        if (f instanceof Query.TableRef only && only.name().startsWith(io.respsql.sql.tree.Statement.ONLY)) {
            return onlyTable(only, scope); // partition: FROM ONLY t
        }
        if (f instanceof Query.TableRef t) {
            if (selfRef != null && t.name().equalsIgnoreCase(selfRef.name)) {
                return selfReference(t);
            }
            CteFrame c = cte(t.name());
            if (c != null) {
                CteFrame saved = ctes;
                ctes = c.prev; // the CTE's query sees the CTEs before it, not itself
                try {
                    if (c.cte.query() instanceof Query.Modifying m) {
                        return modifyingCte(c.cte, m, t.alias() != null ? t.alias() : c.cte.name());
                    }
                    if (c.recursive && readsTable(c.cte.query(), c.cte.name())) {
                        return recursiveCte(c.cte, t.alias() != null ? t.alias() : c.cte.name(), scope);
                    }
                    // bound where it is read, as a derived table there: an outer column it names then marks
                    // every block in between as correlated (bound in the WITH's own scope, the blocks between
                    // would run once with the outer row unset)
                    return derived(c.cte.query(), t.alias() != null ? t.alias() : c.cte.name(), c.cte.columns(), true, scope, scope.parent);
                } finally {
                    ctes = saved;
                }
            }
            Table table = catalog.table(t.name());
            if (table == null && t.name().regionMatches(true, 0, "public.", 0, 7)) {
                // the one schema: public.t is t
                Query.TableRef bare = new Query.TableRef(t.name().substring(7), t.alias() != null ? t.alias()
                        : t.name().substring(7), t.start(), t.end());
                return leaf(bare, scope);
            }
            if (table != null && io.respsql.storage.Partitioning.partitioned(table)) {
                return partitionedTable(table, t, scope); // partition
            }
            if (table != null) {
                tablesRead.add(table);
                return newRelation(Relation.Kind.TABLE, t.alias() != null ? t.alias() : table.name(), table, columnNames(table));
            }
            Relation view = Views.expand(this, catalog, t, scope);
            if (view != null) {
                return view;
            }
            if (catalog instanceof io.respsql.storage.Catalog live && live.sequence(t.name()) != null) {
                // SELECT * FROM a sequence (seq helper): its state as a one-row derived table, read when it runs
                String quoted = "'" + live.sequence(t.name()).name().replace("'", "''") + "'";
                Query q = ((io.respsql.sql.tree.Statement.QueryStatement) io.respsql.sql.SqlParser.parse("SELECT "
                        + io.respsql.expr.SequenceCall.READ_LAST + "(" + quoted + ") AS last_value, 0 AS log_cnt, "
                        + io.respsql.expr.SequenceCall.READ_CALLED + "(" + quoted + ") AS is_called")).query();
                return derived(q, t.alias() != null ? t.alias() : t.name(), null, true, scope, scope.parent);
            }
            Table system = catalog.systemRelation(t.name());
            if (system == null) {
                system = io.respsql.catalog.SystemRelations.table(catalog, t.name());
            }
            if (system != null) {
                systemRelations.put(t.name().toLowerCase(java.util.Locale.ROOT), system);
                // pg_catalog's relations and information_schema's views: rows of the catalog as it is now
                return newRelation(Relation.Kind.TABLE, t.alias() != null ? t.alias() : system.name(), system, columnNames(system));
            }
            throw new SqlException(SqlState.UNDEFINED_TABLE, "table '" + t.name() + "' does not exist");
        }
        if (f instanceof Query.FunctionRef fr) {
            return tableFunction(fr, scope);
        }
        Query.Derived d = (Query.Derived) f;
        return derived(d.query(), d.alias(), d.columns(), true, scope, scope.parent);
    }

    /**
     * A derived table (or view): its query bound with {@code sees} around it (the enclosing
     * blocks; none for a view), its rows materialized into a work table.
     */
    Relation derived(Query query, String alias, List<String> declaredNames, BlockScope scope, BlockScope sees) {
        return derived(query, alias, declaredNames, false, scope, sees);
    }

    /**
     * {@code firstNames}: the declared names rename the first columns (PostgreSQL's column aliases of a
     * derived table or CTE); else (a view's) they must name every column.
     */
    Relation derived(Query query, String alias, List<String> declaredNames, boolean firstNames, BlockScope scope, BlockScope sees) {
        LogicalQuery q = bindQuery(query, sees);
        scope.outerRefs |= q.outerRefs & ~scope.mask();
        List<String> names = new ArrayList<>(q.names);
        if (firstNames && declaredNames != null && !declaredNames.isEmpty()) {
            if (declaredNames.size() > names.size()) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "table \"" + alias + "\" has " + names.size()
                        + " columns available but " + declaredNames.size() + " columns specified");
            }
            for (int i = 0; i < declaredNames.size(); i++) {
                names.set(i, declaredNames.get(i));
            }
        } else if (declaredNames != null && !declaredNames.isEmpty()) {
            if (declaredNames.size() != names.size()) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "view '" + alias + "' declares " + declaredNames.size() + " columns, its query has "
                        + names.size());
            }
            names = new ArrayList<>(declaredNames);
        }
        List<ColumnSpec> specs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            specs.add(new ColumnSpec(names.get(i), SqlTypes.storageOf(q.outputs.get(i).type()), false, null));
        }
        Relation r = newRelation(Relation.Kind.DERIVED, alias, Table.workTable(alias == null ? "derived" : alias, specs), names);
        r.source = q;
        return r;
    }

    // ---- partition ----

    /** {@code FROM ONLY t}: the table's own rows (a partitioned table's are none but while a write routes them). */
    private Relation onlyTable(Query.TableRef only, BlockScope scope) {
        String name = only.name().substring(io.respsql.sql.tree.Statement.ONLY.length());
        Table table = catalog.table(name);
        if (table == null) {
            return leaf(new Query.TableRef(name, only.alias(), only.start(), only.end()), scope);
        }
        tablesRead.add(table);
        return newRelation(Relation.Kind.TABLE, only.alias() != null ? only.alias() : table.name(), table, columnNames(table));
    }

    /**
     * A partitioned table read: its partitions' rows together (a UNION ALL of each partition, bound
     * as a derived table), with a last column {@code tableoid} (the partition a row is in, by name)
     * that {@code *} does not show.
     */
    private Relation partitionedTable(Table table, Query.TableRef t, BlockScope scope) {
        StringBuilder cols = new StringBuilder();
        for (int i = 0; i < table.columnCount(); i++) {
            cols.append('"').append(table.column(i).name().replace("\"", "\"\"")).append("\", ");
        }
        String self = table.name().replace("'", "''");
        StringBuilder text = new StringBuilder("SELECT ").append(cols).append("CAST('").append(self)
                .append("' AS TEXT) AS tableoid FROM ONLY \"").append(table.name().replace("\"", "\"\"")).append('"');
        for (Table c : table.partitioning.partitions) {
            String quoted = "\"" + c.name().replace("\"", "\"\"") + "\"";
            text.append(" UNION ALL SELECT ").append(cols).append(io.respsql.storage.Partitioning.partitioned(c) ? "tableoid"
                    : "CAST('" + c.name().replace("'", "''") + "' AS TEXT)").append(" FROM ").append(quoted);
        }
        String q = text.toString();
        boolean prior = io.respsql.sql.Dialect.set(true); // the text is PostgreSQL's (FROM ONLY): a RESP session reads it too
        io.respsql.sql.tree.Statement st;
        try {
            st = io.respsql.sql.SqlParser.parse(q);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
        tablesRead.add(table); // a worker's read view then holds the parent, its partitioning and (below) its partitions
        enterView();
        String outer = swapSql(q);
        try {
            Relation r = derived(((io.respsql.sql.tree.Statement.QueryStatement) st).query(), t.alias() != null ? t.alias() : table.name(),
                    null, scope, null);
            r.starColumns = table.columnCount();
            return r;
        } finally {
            swapSql(outer);
            leaveView();
        }
    }

    /** Binds a view's query text in place of its name: spans then point into that text. */
    String swapSql(String text) {
        String old = sql;
        sql = text;
        return old;
    }

    int enterView() {
        if (++viewDepth > 32) {
            throw new SqlException(SqlState.STATEMENT_TOO_COMPLEX, "views nest more than 32 deep (a view that reads itself?)");
        }
        return viewDepth;
    }

    void leaveView() {
        viewDepth--;
    }

    // ---- conditions -----------------------------------------------------------------------------

    static List<Expr> splitAnd(Expr e) {
        List<Expr> out = new ArrayList<>();
        splitAnd(e, out);
        return out;
    }

    private static void splitAnd(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
            splitAnd(b.left(), out);
            splitAnd(b.right(), out);
        } else {
            out.add(e);
        }
    }

    /** Binds one AND term and finds its index-usable forms over this block's relations. */
    Conjunct conjunct(Expr e, BlockScope scope) {
        if (e instanceof Expr.Binary b && b.op().isComparison() && scope.group == null) {
            // The common case, bound once: the comparison's operands are also its index-usable values.
            Expression[] lr = comparands(b.left(), b.right(), scope);
            Conjunct c = new Conjunct(Expressions.asCondition(Expressions.binary(b.op(), lr[0], lr[1]), "WHERE"), text(e));
            if (b.op() != Expr.BinaryOp.NE) {
                boundSarg(c, b.left(), b.op(), lr[1], scope);
                boundSarg(c, b.right(), b.op().flip(), lr[0], scope);
            }
            return c;
        }
        Conjunct c = new Conjunct(Expressions.asCondition(value(e, scope), "WHERE"), text(e));
        if (hasSubquery(e)) {
            return c; // its values would be bound (and planned) twice; a filter serves it
        }
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.OR) {
            List<Expr> branches = new ArrayList<>();
            splitOr(e, branches);
            c.orBranches = new ArrayList<>();
            for (Expr br : branches) {
                List<Conjunct> terms = new ArrayList<>();
                for (Expr t : splitAnd(br)) {
                    terms.add(conjunct(t, scope));
                }
                c.orBranches.add(terms);
            }
        } else if (e instanceof Expr.Binary b && b.op().isComparison() && b.op() != Expr.BinaryOp.NE) {
            sarg(c, b.left(), b.op(), b.right(), scope);
            sarg(c, b.right(), b.op().flip(), b.left(), scope);
        } else if (e instanceof Expr.Between x && !x.negated()) {
            BlockScope.Resolved r = localColumn(x.operand(), scope);
            if (r != null) {
                boolean textCol = r.column().type() == io.respsql.storage.ColumnType.TEXT;
                Expression lo = textCol && isNumberLiteral(x.low()) ? Expressions.constText(text(x.low())) : bind(x.low(), scope);
                Expression hi = textCol && isNumberLiteral(x.high()) ? Expressions.constText(text(x.high())) : bind(x.high(), scope);
                lo = lo == null ? textIfText(x.low(), r.column()) : lo;
                hi = hi == null ? textIfText(x.high(), r.column()) : hi;
                if (io.respsql.sql.Dialect.postgres() && io.respsql.exec.write.ValueRules.charLength(r.column()) >= 0) { // charn
                    Expression col = Expressions.column(r.column(), r.relation().number, r.label());
                    lo = lo == null ? null : charLiteral(x.low(), lo, col);
                    hi = hi == null ? null : charLiteral(x.high(), hi, col);
                }
                long own = r.relation().bit();
                boolean loOwn = lo != null && (lo.relations() & own) != 0;
                boolean hiOwn = hi != null && (hi.relations() & own) != 0;
                if (lo != null && hi != null && !loOwn && !hiOwn) {
                    c.sargs.add(new Conjunct.Sarg(c, r.relation(), r.column(), Conjunct.Op.BETWEEN, new Expression[]{lo, hi}));
                } else if (lo != null && hi != null && loOwn != hiOwn) {
                    // "col BETWEEN 68 AND col4": a bound that reads the row is known only once the row
                    // is read, so it cannot bound an index range; the other bound can, and the whole
                    // BETWEEN stays the filter (partial: the range never decides it)
                    Conjunct.Sarg half = new Conjunct.Sarg(c, r.relation(), r.column(),
                            loOwn ? Conjunct.Op.LE : Conjunct.Op.GE, new Expression[]{loOwn ? hi : lo});
                    half.partial = true;
                    c.sargs.add(half);
                }
            }
        } else if (e instanceof Expr.InList x && !x.negated()) {
            BlockScope.Resolved r = localColumn(x.operand(), scope);
            if (r != null) {
                Expression[] vals = new Expression[x.values().size()];
                for (int i = 0; i < vals.length; i++) {
                    Expr item = x.values().get(i);
                    Expression v = r.column().type() == io.respsql.storage.ColumnType.TEXT && isNumberLiteral(item)
                            ? Expressions.constText(text(item)) : bind(item, scope);
                    vals[i] = v == null ? textIfText(x.values().get(i), r.column()) : v;
                    if (vals[i] != null && io.respsql.sql.Dialect.postgres() && io.respsql.exec.write.ValueRules.charLength(r.column()) >= 0) {
                        Expression colx = Expressions.column(r.column(), r.relation().number, r.label());
                        vals[i] = charBeside(item, charLiteral(item, vals[i], colx), colx, true); // charn, mend
                    }
                    if (vals[i] == null || (vals[i].relations() & r.relation().bit()) != 0) {
                        return c; // "a IN (3, b)": a value that reads the row is no key to probe by
                    }
                }
                c.sargs.add(new Conjunct.Sarg(c, r.relation(), r.column(), Conjunct.Op.IN, vals));
            }
        }
        return c;
    }

    /** {@code colSide op value} when {@code colSide} is a column of this block and {@code value} does not read its row. */
    private void boundSarg(Conjunct c, Expr colSide, Expr.BinaryOp op, Expression value, BlockScope scope) {
        BlockScope.Resolved r = localColumn(colSide, scope);
        if (r == null || (value.relations() & r.relation().bit()) != 0) {
            return;
        }
        Conjunct.Op o = op == Expr.BinaryOp.EQ ? Conjunct.Op.EQ : op == Expr.BinaryOp.LT ? Conjunct.Op.LT
                : op == Expr.BinaryOp.LE ? Conjunct.Op.LE : op == Expr.BinaryOp.GT ? Conjunct.Op.GT : Conjunct.Op.GE;
        if (io.respsql.sql.Dialect.postgres() && value.type() == io.respsql.expr.SqlType.TEXT && value.isConstant()
                && (r.column().type() == io.respsql.storage.ColumnType.INT || r.column().type() == io.respsql.storage.ColumnType.BIGINT)) {
            // prepared: aid = '5' (an unknown-typed literal, as pgwire binds untyped parameters) probes the index by 5
            value = Expressions.textConstantAs(value, io.respsql.expr.SqlType.BIGINT, "operator '" + op + "'");
        }
        Conjunct.Sarg sa = new Conjunct.Sarg(c, r.relation(), r.column(), o, new Expression[]{value});
        sa.exact = true; // c.expr is binary(op, lr[0], lr[1]) with this column as one side, value as the other
        c.sargs.add(sa);
    }

    private static void splitOr(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.OR) {
            splitOr(b.left(), out);
            splitOr(b.right(), out);
        } else {
            out.add(e);
        }
    }

    private void sarg(Conjunct c, Expr colSide, Expr.BinaryOp op, Expr valueSide, BlockScope scope) {
        BlockScope.Resolved r = localColumn(colSide, scope);
        if (r == null) {
            return;
        }
        Expression v = r.column().type() == io.respsql.storage.ColumnType.TEXT && isNumberLiteral(valueSide)
                ? Expressions.constText(text(valueSide)) : bind(valueSide, scope);
        if (v == null) {
            v = textIfText(valueSide, r.column());
        }
        if (v == null || (v.relations() & r.relation().bit()) != 0) {
            return;
        }
        if (io.respsql.sql.Dialect.postgres() && io.respsql.exec.write.ValueRules.charLength(r.column()) >= 0) {
            v = charBeside(valueSide, v, Expressions.column(r.column(), r.relation().number, r.label()), false); // mend
        }
        Conjunct.Op o;
        switch (op) {
            case EQ:
                o = Conjunct.Op.EQ;
                break;
            case LT:
                o = Conjunct.Op.LT;
                break;
            case LE:
                o = Conjunct.Op.LE;
                break;
            case GT:
                o = Conjunct.Op.GT;
                break;
            default:
                o = Conjunct.Op.GE;
        }
        c.sargs.add(new Conjunct.Sarg(c, r.relation(), r.column(), o, new Expression[]{v}));
    }

    private Expression textIfText(Expr e, Column c) {
        return c.type() == io.respsql.storage.ColumnType.TEXT && e instanceof Expr.Column n && n.qualifier() == null
                ? Expressions.constText(n.name()) : null;
    }

    /**
     * A number as written ({@code 1.50}, {@code -5}, {@code 007}): beside a TEXT value the 2010
     * dialect compares it as the text it is written as.
     */
    static boolean isNumberLiteral(Expr e) {
        if (e instanceof Expr.Unary u && u.op() != Expr.UnaryOp.NOT) {
            e = u.operand();
        }
        return e instanceof Expr.Literal l && (l.kind() == Expr.LiteralKind.INTEGER || l.kind() == Expr.LiteralKind.DECIMAL)
                && e.start() >= 0;
    }

    /** A column of one of this block's own relations (not an outer block's), or null. */
    private BlockScope.Resolved localColumn(Expr e, BlockScope scope) {
        if (!(e instanceof Expr.Column c)) {
            return null;
        }
        BlockScope.Resolved r = scope.resolve(c.qualifier(), c.name());
        return r != null && scope.relations.contains(r.relation()) ? r : null;
    }

    // ---- expressions -----------------------------------------------------------------------------

    /** A value: an unknown bare name is an error. */
    Expression value(Expr e, BlockScope scope) {
        Expression x = bind(e, scope);
        if (x == null) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, scope.unknownColumn(((Expr.Column) e).name()));
        }
        return x;
    }

    /** A value where a bare name that is no column is 2010 unquoted text (VALUES entries, SET values). */
    Expression textOrValue(Expr e, BlockScope scope) {
        Expression x = bind(e, scope);
        return x != null ? x : Expressions.constText(((Expr.Column) e).name());
    }

    /** Binds {@code e}; null when it is a bare name that resolves to no column (maybe unquoted text). */
    Expression bind(Expr e, BlockScope scope) {
        GroupOutput g = scope.group;
        if (g != null) {
            Expression m = groupMatch(e, scope, g);
            if (m != null) {
                return m;
            }
        }
        if (e instanceof Expr.Literal l) {
            return literal(l);
        } else if (e instanceof Expr.Parameter p) {
            return parameter(p);
        } else if (e instanceof Expr.TypedLiteral t) {
            if (io.respsql.sql.Dialect.postgres() || t.type().base().startsWith("INTERVAL")) {
                return Expressions.castTo(Expressions.constText(t.text()), t.type().base(), t.type().length(), t.type().scale());
            }
            return Expressions.cast(Expressions.constText(t.text()), SqlTypes.typeOf(t.type()));
        } else if (e instanceof Expr.Column c) {
            BlockScope.Resolved r = scope.resolve(c.qualifier(), c.name());
            if (r == null && c.qualifier() == null && io.respsql.sql.Dialect.postgres()) {
                // current_catalog, current_schema, current_user, session_user: SQL's niladic functions
                return io.respsql.catalog.SystemFunctions.niladic(c.name());
            }
            return r == null ? null : Expressions.column(r.column(), r.relation().number, r.label());
        } else if (e instanceof Expr.Raw r) {
            return Expressions.constText(r.text());
        } else if (e instanceof Expr.Unary u) {
            return unary(u, scope);
        } else if (e instanceof Expr.Binary b) {
            return binary(b, scope);
        } else if (e instanceof Expr.IsNull n) {
            return Expressions.isNull(value(n.operand(), scope), n.negated());
        } else if (e instanceof Expr.IsDistinct d) {
            Expression[] lr = comparands(d.left(), d.right(), scope);
            return Expressions.isDistinct(lr[0], lr[1], d.negated());
        } else if (e instanceof Expr.Between x) {
            Expression v = value(x.operand(), scope);
            return Expressions.between(v, charLiteral(x.low(), textBeside(x.low(), v, scope), v), // charn
                    charLiteral(x.high(), textBeside(x.high(), v, scope), v), x.negated());
        } else if (e instanceof Expr.InList x && x.values().isEmpty()) {
            value(x.operand(), scope);
            return Expressions.constLong(SqlType.BOOLEAN, x.negated() ? 1 : 0); // nothing is in an empty list (SQLite)
        } else if (e instanceof Expr.InList x) {
            Expression v = value(x.operand(), scope);
            List<Expression> vals = new ArrayList<>();
            for (Expr item : x.values()) {
                vals.add(charBeside(item, charLiteral(item, textBeside(item, v, scope), v), v, true)); // charn, mend
            }
            return Expressions.inList(v, vals, x.negated());
        } else if (e instanceof Expr.InQuery x) {
            Expression v = value(x.operand(), scope);
            QueryPlanner.Planned p = subquery(x.query(), scope, "IN");
            return new InSubquery(v, p.root(), p.outputs().get(0), x.negated(), p.outerRefs(), p.explain());
        } else if (e instanceof Expr.Exists x) {
            QueryPlanner.Planned p = subquery(x.query(), scope, null);
            return new ExistsSubquery(p.root(), x.negated(), p.outerRefs(), p.explain());
        } else if (e instanceof Expr.ScalarQuery x) {
            QueryPlanner.Planned p = subquery(x.query(), scope, "a scalar subquery");
            return new ScalarSubquery(p.root(), p.outputs().get(0), p.outerRefs(), p.explain());
        } else if (e instanceof Expr.Like x) {
            Expression v = paddedChar(value(x.operand(), scope)); // mend: char(n) LIKE sees its padding, as PostgreSQL's bpcharlike
            Expression pattern = textBeside(x.pattern(), v, scope);
            Expression esc = x.escape() == null ? null : textOrValue(x.escape(), scope);
            return Expressions.like(v, pattern, esc, x.negated(), x.caseless());
        } else if (e instanceof Expr.Case x) {
            Expression operand = x.operand() == null ? null : value(x.operand(), scope);
            List<Expression> whens = new ArrayList<>();
            List<Expression> thens = new ArrayList<>();
            for (Expr.When w : x.whens()) {
                whens.add(operand == null ? Expressions.asCondition(value(w.condition(), scope), "CASE WHEN")
                        : textBeside(w.condition(), operand, scope));
                thens.add(value(w.result(), scope));
            }
            Expression otherwise = x.otherwise() == null ? null : value(x.otherwise(), scope);
            return Expressions.caseWhen(operand, whens, thens, otherwise);
        } else if (e instanceof Expr.Cast x) {
            Expression operand = value(x.operand(), scope);
            Expression system = io.respsql.catalog.SystemFunctions.cast(catalog, operand, x.type().base());
            if (system != null) {
                // x::regclass, 'name'::oid: numbered from the whole catalog (a plain x::oid is x itself)
                readsCatalogOids |= system != operand;
                return system;
            }
            return Expressions.castTo(operand, x.type().base(), x.type().length(), x.type().scale());
        } else {
            return function((Expr.Function) e, scope);
        }
    }

    /** A parameter in place of a literal of its kind: a run-time constant of the literal's type family. */
    private static Expression parameter(Expr.Parameter p) {
        if (p.kind() == null) {
            throw new SqlException(SqlState.INDETERMINATE_DATATYPE, "parameter ?" + (p.index() + 1) + " has no type here");
        }
        switch (p.kind()) {
            case INTEGER:
                return new io.respsql.expr.Parameter(p.index(), SqlType.BIGINT);
            case DECIMAL:
                return new io.respsql.expr.Parameter(p.index(), SqlType.DOUBLE);
            case STRING:
                return new io.respsql.expr.Parameter(p.index(), SqlType.TEXT);
            default:
                throw new SqlException(SqlState.INDETERMINATE_DATATYPE, "parameter ?" + (p.index() + 1) + " cannot stand for " + p.kind());
        }
    }

    private Expression literal(Expr.Literal l) {
        switch (l.kind()) {
            case INTEGER:
                return integer(l.text());
            case DECIMAL:
                if (io.respsql.sql.Dialect.postgres()) {
                    return Expressions.constNumeric(l.text()); // 0.1 is numeric in PostgreSQL
                }
                return Expressions.constDouble(io.respsql.expr.Doubles.literal(l.text()));
            case STRING:
                return Expressions.constText(l.text());
            case TRUE:
                return Expressions.constLong(SqlType.BOOLEAN, 1);
            case FALSE:
                return Expressions.constLong(SqlType.BOOLEAN, 0);
            default:
                return Expressions.constNull(SqlType.NULL);
        }
    }

    /** Digits as written, leading zeros decimal (the 2010 keys {@code 000000000001}); beyond 64 bits a DOUBLE. */
    private static Expression integer(String digits) {
        try {
            long v = Long.parseLong(digits);
            return Expressions.constLong(v == (int) v ? SqlType.INT : SqlType.BIGINT, v);
        } catch (NumberFormatException e) {
            if (io.respsql.sql.Dialect.postgres()) {
                return Expressions.constNumeric(digits); // beyond bigint: numeric, as PostgreSQL types it
            }
            return Expressions.constDouble(io.respsql.expr.Doubles.literal(digits));
        }
    }

    private static long parseInteger(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private Expression unary(Expr.Unary u, BlockScope scope) {
        switch (u.op()) {
            case MINUS:
                if (u.operand() instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
                    return integer("-" + l.text());
                }
                if (u.operand() instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.DECIMAL) {
                    if (io.respsql.sql.Dialect.postgres()) {
                        return Expressions.constNumeric("-" + l.text());
                    }
                    return Expressions.constDouble(-io.respsql.expr.Doubles.literal(l.text()));
                }
                return Expressions.negate(value(u.operand(), scope));
            case PLUS:
                return value(u.operand(), scope);
            default:
                return Expressions.not(value(u.operand(), scope));
        }
    }

    private Expression binary(Expr.Binary b, BlockScope scope) {
        if (b.op().isComparison()) {
            Expression[] lr = comparands(b.left(), b.right(), scope);
            return Expressions.binary(b.op(), lr[0], lr[1]);
        }
        return Expressions.binary(b.op(), value(b.left(), scope), value(b.right(), scope));
    }

    /** Both sides of a comparison; a bare name beside a TEXT value is unquoted text. */
    private Expression[] comparands(Expr left, Expr right, BlockScope scope) {
        Expression l = bind(left, scope);
        Expression r = bind(right, scope);
        if (l == null && r != null && r.type() == SqlType.TEXT) {
            l = Expressions.constText(((Expr.Column) left).name());
        }
        if (r == null && l != null && l.type() == SqlType.TEXT) {
            r = Expressions.constText(((Expr.Column) right).name());
        }
        if (l == null) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, scope.unknownColumn(((Expr.Column) left).name()));
        }
        if (r == null) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, scope.unknownColumn(((Expr.Column) right).name()));
        }
        if (l.type() == SqlType.TEXT && isNumberLiteral(right)) {
            r = Expressions.constText(text(right));
        } else if (r.type() == SqlType.TEXT && isNumberLiteral(left)) {
            l = Expressions.constText(text(left));
        }
        r = charLiteral(right, r, l); // charn
        l = charLiteral(left, l, r);
        Expression r2 = charBeside(right, r, l, false); // mend: char beside varchar
        l = charBeside(left, l, r, false);
        return new Expression[]{l, r2};
    }

    /** {@code e} as a value compared with {@code other}: a bare name is text when {@code other} is TEXT. */
    private Expression textBeside(Expr e, Expression other, BlockScope scope) {
        if (other.type() == SqlType.TEXT && isNumberLiteral(e)) {
            return Expressions.constText(text(e));
        }
        Expression x = bind(e, scope);
        if (x == null && other.type() == SqlType.TEXT) {
            return Expressions.constText(((Expr.Column) e).name());
        }
        if (x == null) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, scope.unknownColumn(((Expr.Column) e).name()));
        }
        return x;
    }

    private Expression function(Expr.Function f, BlockScope scope) {
        if (f.over() != null) {
            io.respsql.expr.Expression w = scope.windowCalls == null ? null : scope.windowCalls.get(f);
            if (w == null) {
                throw new SqlException(SqlState.WINDOWING_ERROR, "window function " + text(f) + " is not allowed here (only in the select list and ORDER BY)");
            }
            return w;
        }
        if (isAggregate(f)) {
            throw new SqlException(SqlState.GROUPING_ERROR, "aggregate " + text(f) + " is not allowed here (only in the select list, HAVING and ORDER BY)");
        }
        if (f.name().equals("GROUPING")) { // agg
            return grouping(f, scope);
        }
        if (f.extras() != null) { // agg
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, (f.filter() != null ? "FILTER" : f.withinGroup() ? "WITHIN GROUP" : "ORDER BY")
                    + " specified, but " + f.name().toLowerCase(java.util.Locale.ROOT) + " is not an aggregate function");
        }
        if (f.star()) {
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "function '" + f.name() + "' does not take *");
        }
        List<Expression> args = new ArrayList<>();
        for (Expr a : f.args()) {
            args.add(value(a, scope));
        }
        if (io.respsql.expr.SequenceCall.isSequenceFunction(f.name())) {
            return io.respsql.expr.SequenceCall.of(f.name(), args); // sequences (seq helper): never folded
        }
        if (!Expressions.isFunction(f.name())) {
            // version(), current_database(), format_type(...), pg_table_is_visible(...): the catalog's
            Expression system = io.respsql.catalog.SystemFunctions.bind(catalog, f.name(), args);
            if (system != null) {
                if (f.name().toUpperCase(java.util.Locale.ROOT).endsWith("PG_GET_INDEXDEF")) {
                    readsCatalogOids = true;
                }
                return system;
            }
        }
        if (io.respsql.sql.Dialect.postgres() && (f.name().equalsIgnoreCase("CONCAT") || f.name().equalsIgnoreCase("CONCAT_WS"))) {
            for (int i = 0; i < args.size(); i++) {
                args.set(i, paddedChar(args.get(i))); // mend: concat() writes a char(n) as its output shows it, padded
            }
        }
        if (f.name().equals("OCTET_LENGTH") && args.size() == 1 && charLength(args.get(0)) > 0) {
            args.set(0, io.respsql.expr.Bpchar.pad(args.get(0), charLength(args.get(0)))); // charn: a char(n)'s bytes count its padding
        }
        return Expressions.function(f.name(), args);
    }

    private QueryPlanner.Planned subquery(Query q, BlockScope scope, String oneColumnFor) {
        LogicalQuery lq;
        sublinkDepth++;
        try {
            lq = bindQuery(q, scope);
        } finally {
            sublinkDepth--;
        }
        if (oneColumnFor != null && lq.outputs.size() != 1) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "the subquery of " + oneColumnFor + " must return one column, not " + lq.outputs.size());
        }
        QueryPlanner.Planned p = QueryPlanner.plan(lq);
        subqueryPlans.add(p.root());
        if (!explain) {
            return p;
        }
        scope.subplans.add("subquery" + (p.outerRefs() != 0 ? " (correlated: run per outer row)" : " (run once)") + ":");
        for (String l : p.explain()) {
            scope.subplans.add("  " + l);
        }
        return p;
    }

    // ---- syntax helpers ---------------------------------------------------------------------------

    static boolean isAggregate(Expr e) {
        return e instanceof Expr.Function f && f.over() == null && (AGGREGATES.contains(f.name())
                || (f.withinGroup() && HYPOTHETICAL.contains(f.name()))) // agg
                && !((f.name().equals("MIN") || f.name().equals("MAX")) && f.args().size() > 1);
    }

    private static boolean containsAggregate(Expr e) {
        List<Expr> found = new ArrayList<>();
        collectAggregates(e, found);
        return !found.isEmpty();
    }

    /** Aggregate calls in {@code e}, not looking into subqueries (theirs are their own). */
    private static void collectAggregates(Expr e, List<Expr> out) {
        if (e == null) {
            return;
        }
        if (isAggregate(e)) {
            out.add(e);
            return;
        }
        for (Expr c : children(e)) {
            collectAggregates(c, out);
        }
    }

    private static boolean hasSubquery(Expr e) {
        if (e instanceof Expr.InQuery || e instanceof Expr.Exists || e instanceof Expr.ScalarQuery) {
            return true;
        }
        for (Expr c : children(e)) {
            if (c != null && hasSubquery(c)) {
                return true;
            }
        }
        return false;
    }

    static List<Expr> children(Expr e) {
        if (e instanceof Expr.Column || e instanceof Expr.Literal || e instanceof Expr.Raw || e instanceof Expr.TypedLiteral) {
            return List.of();
        } else if (e instanceof Expr.Unary u) {
            return List.of(u.operand());
        } else if (e instanceof Expr.Binary b) {
            return List.of(b.left(), b.right());
        } else if (e instanceof Expr.IsNull n) {
            return List.of(n.operand());
        } else if (e instanceof Expr.IsDistinct d) {
            return List.of(d.left(), d.right());
        } else if (e instanceof Expr.Between b) {
            return List.of(b.operand(), b.low(), b.high());
        } else if (e instanceof Expr.Function f && f.over() == null) {
            if (f.extras() == null) {
                return f.args();
            }
            List<Expr> all = new ArrayList<>(f.args()); // agg: an aggregate's FILTER and ORDER BY too
            for (Query.OrderItem o : f.argOrder()) {
                all.add(o.expr());
            }
            if (f.filter() != null) {
                all.add(f.filter());
            }
            return all;
        }
        List<Expr> out = new ArrayList<>();
        if (e instanceof Expr.Function f) { // a window call: its arguments and its window's expressions
            out.addAll(f.args());
            out.addAll(f.over().partitionBy());
            for (Query.OrderItem o : f.over().orderBy()) {
                out.add(o.expr());
            }
        }
        if (e instanceof Expr.InList l) {
            out.add(l.operand());
            out.addAll(l.values());
        } else if (e instanceof Expr.InQuery q) {
            out.add(q.operand());
        } else if (e instanceof Expr.Like l) {
            out.add(l.operand());
            out.add(l.pattern());
            if (l.escape() != null) {
                out.add(l.escape());
            }
        } else if (e instanceof Expr.Case c) {
            if (c.operand() != null) {
                out.add(c.operand());
            }
            for (Expr.When w : c.whens()) {
                out.add(w.condition());
                out.add(w.result());
            }
            if (c.otherwise() != null) {
                out.add(c.otherwise());
            }
        } else if (e instanceof Expr.Cast c) {
            out.add(c.operand());
        }
        return out;
    }

    /** The expression as written (result column names, EXPLAIN). */
    String text(Expr e) {
        if (e.start() >= 0 && e.end() <= sql.length() && e.start() < e.end()) {
            return sql.substring(e.start(), e.end()).trim();
        }
        if (e instanceof Expr.Column c) {
            return c.qualifier() == null ? c.name() : c.qualifier() + "." + c.name();
        }
        return "?";
    }

    String outputName(Expr e, BlockScope scope) {
        if (e instanceof Expr.Column c) {
            BlockScope.Resolved r = scope.resolve(c.qualifier(), c.name());
            if (r != null) {
                int i = r.column().position();
                return r.relation().columnNames.get(i);
            }
            return c.name();
        }
        return text(e);
    }

    private long constantCount(Expr e, String clause) {
        Expression x = bind(e, new BlockScope(null));
        if (x == null || !x.isConstant() || !(x.type().isInteger() || x.type() == SqlType.NULL)) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, clause + " must be an integer constant, not '" + text(e) + "'");
        }
        EvalContext ctx = new EvalContext(1);
        long v = x.evalLong(ctx);
        if (ctx.isNull) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, clause + " must be an integer constant, not NULL");
        }
        if (v < 0) {
            throw new SqlException(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, clause + " must not be negative: " + v);
        }
        return v;
    }

    /** A constant expression (DEFAULT, a VALUES entry): no table, bare names are text. */
    Expression constant(Expr e) {
        return textOrValue(e, new BlockScope(null));
    }
}
