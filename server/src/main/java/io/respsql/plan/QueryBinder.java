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
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.storage.ReadableCatalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.Table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
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
    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "TOTAL", "GROUP_CONCAT");

    private final ReadableCatalog catalog;
    /** Every base table FROM names (views expanded), in order: what a background run captures, and its cost. */
    private final List<Table> tablesRead = new ArrayList<>();
    private String sql;
    private int relations;
    private int viewDepth;
    /** Blocks whose outputs, HAVING and ORDER BY read the group relation: the matching rules. */
    private final Map<BlockScope, GroupOutput> grouped = new HashMap<>();

    public QueryBinder(ReadableCatalog catalog, String sql) {
        this.catalog = catalog;
        this.sql = sql;
    }

    /** Relations numbered so far (a context needs this many slots). */
    public int relationCount() {
        return relations;
    }

    Relation newRelation(Relation.Kind kind, String name, Table table, List<String> columnNames) {
        if (relations >= MAX_RELATIONS) {
            throw new SqlException("a statement may use at most " + MAX_RELATIONS + " tables, subqueries and groupings");
        }
        return new Relation(relations++, kind, name, table, columnNames);
    }

    /** A relation for a table in a scope of its own (UPDATE/DELETE's table, relation 0 when numbered first). */
    Relation tableRelation(Table t) {
        return newRelation(Relation.Kind.TABLE, t.name(), t, columnNames(t));
    }

    private static List<String> columnNames(Table t) {
        List<String> names = new ArrayList<>(t.columnCount());
        for (int i = 0; i < t.columnCount(); i++) {
            names.add(t.column(i).name());
        }
        return names;
    }

    // ---- queries ----------------------------------------------------------------------------------

    LogicalQuery bindQuery(Query q, BlockScope parent) {
        if (q instanceof Query.Select s) {
            return bindSelect(s, parent);
        } else if (q instanceof Query.SetOp s) {
            return bindSetOp(s, parent);
        } else {
            return bindValues((Query.Values) q, parent);
        }
    }

    private LogicalQuery.Block bindSelect(Query.Select s, BlockScope parent) {
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
        for (Query.SelectItem it : s.items()) {
            if (it instanceof Query.Star st) {
                boolean any = false;
                for (Relation r : scope.relations) {
                    if (st.qualifier() != null && (r.name == null || !r.name.equalsIgnoreCase(st.qualifier()))) {
                        continue;
                    }
                    any = true;
                    for (String c : r.columnNames) {
                        items.add(new Expr.Column(r.name, c, -1, -1));
                        aliases.add(null);
                    }
                }
                if (!any) {
                    throw new SqlException(st.qualifier() == null ? "SELECT * needs a FROM clause"
                            : "table '" + st.qualifier() + "' is not in the FROM list");
                }
            } else {
                Query.Item item = (Query.Item) it;
                items.add(item.expr());
                aliases.add(item.alias());
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
        if (b.aggregate) {
            bindGrouping(s, items, aliases, aggCalls, scope, b);
            b.countStarOnly = s.groupBy().isEmpty() && s.having() == null && !s.distinct() && items.size() == 1
                    && items.get(0) instanceof Expr.Function f && f.star() && f.name().equals("COUNT");
        }

        for (int i = 0; i < items.size(); i++) {
            Expr e = items.get(i);
            b.outputs.add(value(e, scope));
            b.names.add(aliases.get(i) != null ? aliases.get(i) : outputName(e, scope));
        }
        if (s.having() != null) {
            b.having = value(s.having(), scope);
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
        b.limit = s.limit() == null ? -1 : constantCount(s.limit(), "LIMIT");
        b.offset = s.offset() == null ? 0 : Math.max(0, constantCount(s.offset(), "OFFSET"));
        grouped.remove(scope);
        b.outerRefs = scope.outerRefs;
        return b;
    }

    /** The output an ORDER BY term names: an ordinal, or an output alias; null when it is an expression. */
    private Expression orderTarget(Expr e, List<Expr> items, List<String> aliases, List<Expression> outputs) {
        if (e instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
            long k = parseInteger(l.text());
            if (k < 1 || k > outputs.size()) {
                throw new SqlException("ORDER BY term " + l.text() + " is out of range: the select list has "
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
                              BlockScope scope, LogicalQuery.Block b) {
        List<String> keyCanon = new ArrayList<>();
        List<String> keyText = new ArrayList<>();
        for (Expr g : s.groupBy()) {
            Expr target = g;
            if (g instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER) {
                long k = parseInteger(l.text());
                if (k < 1 || k > items.size()) {
                    throw new SqlException("GROUP BY term " + l.text() + " is out of range: the select list has "
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
                throw new SqlException("aggregate functions are not allowed in GROUP BY");
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
        grouped.put(scope, new GroupOutput(b.group, keyCanon, aggCanon, keyText));
    }

    private AggregateSpec aggregate(Expr.Function f, BlockScope scope) {
        if (f.star()) {
            if (!f.name().equals("COUNT")) {
                throw new SqlException("only COUNT takes *: " + text(f));
            }
            return new AggregateSpec(AggregateSpec.Kind.COUNT_STAR, null, false);
        }
        AggregateSpec.Kind kind = AggregateSpec.Kind.valueOf(f.name());
        int want = kind == AggregateSpec.Kind.GROUP_CONCAT ? 2 : 1;
        if (f.args().isEmpty() || f.args().size() > want) {
            throw new SqlException("aggregate function '" + f.name() + "' takes " + (want == 1 ? "1 argument" : "1 or 2 arguments")
                    + ", got " + f.args().size());
        }
        for (Expr a : f.args()) {
            if (containsAggregate(a)) {
                throw new SqlException("aggregate function calls cannot be nested: " + text(f));
            }
        }
        Expression arg = value(f.args().get(0), scope);
        Expression sep = f.args().size() > 1 ? value(f.args().get(1), scope) : null;
        if ((kind == AggregateSpec.Kind.SUM || kind == AggregateSpec.Kind.AVG || kind == AggregateSpec.Kind.TOTAL)
                && !arg.type().isNumeric() && arg.type() != SqlType.NULL && arg.type() != SqlType.BOOLEAN) {
            throw new SqlException("aggregate function '" + f.name() + "' cannot take " + arg.type().sqlName() + ": " + text(f));
        }
        return new AggregateSpec(kind, arg, f.distinct(), sep);
    }

    /** How a grouped block's later clauses read the group relation. */
    private record GroupOutput(Relation group, List<String> keyCanon, List<String> aggCanon, List<String> labels) {
    }

    /** A post-aggregation expression that is a group key or an aggregate: that column of the group relation. */
    private Expression groupMatch(Expr e, BlockScope scope, GroupOutput g) {
        if (e instanceof Expr.Literal || e instanceof Expr.Raw) {
            return null;
        }
        boolean agg = isAggregate(e);
        if (!agg && !(e instanceof Expr.Column) && g.keyCanon().isEmpty()) {
            return null;
        }
        String k = Canonical.key(e, scope);
        int i = g.keyCanon().indexOf(k);
        if (i < 0 && agg) {
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
                throw new SqlException("column '" + c.name() + "' must appear in the GROUP BY clause or be used in an aggregate function");
            }
        }
        return null;
    }

    private LogicalQuery bindSetOp(Query.SetOp s, BlockScope parent) {
        LogicalQuery.SetOp q = new LogicalQuery.SetOp();
        q.sql = sql;
        q.kind = s.kind();
        q.left = bindQuery(s.left(), parent);
        q.right = bindQuery(s.right(), parent);
        int n = q.left.outputs.size();
        String op = s.kind() == Query.SetOpKind.UNION_ALL ? "UNION ALL" : s.kind().name();
        if (q.right.outputs.size() != n) {
            throw new SqlException("each side of " + op + " must have the same number of columns (" + n + " and "
                    + q.right.outputs.size() + ")");
        }
        List<ColumnSpec> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SqlType l = q.left.outputs.get(i).type();
            SqlType r = q.right.outputs.get(i).type();
            SqlType t = l == r ? l : Expressions.commonType(l, r);
            if (t == null) {
                throw new SqlException(op + " column " + (i + 1) + " has types " + l.sqlName() + " and " + r.sqlName()
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
        q.offset = s.offset() == null ? 0 : Math.max(0, constantCount(s.offset(), "OFFSET"));
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
                throw new SqlException("all VALUES rows must have the same number of values (" + n + " and " + row.size() + ")");
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
                throw new SqlException("NATURAL JOIN is not supported: name the columns with USING or ON");
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
                        throw new SqlException("LEFT JOIN of a parenthesized join is not supported");
                    }
                    long before = scope.mask();
                    flatten(j.left(), scope, b);
                    long leftMask = scope.mask() & ~before;
                    Relation r = leaf(j.right(), scope);
                    scope.add(r);
                    r.outerJoined = true;
                    r.dependsOn = leftMask;
                    for (Expr e : joinConditions(j, scope, leftMask, r.bit())) {
                        r.on.add(conjunct(e, scope));
                    }
                    return;
                }
                case RIGHT: {
                    if (j.left() instanceof Query.Join) {
                        throw new SqlException("RIGHT JOIN of a parenthesized join is not supported");
                    }
                    Relation r = leaf(j.left(), scope);
                    scope.add(r);
                    long before = scope.mask();
                    flatten(j.right(), scope, b);
                    long rightMask = scope.mask() & ~before;
                    r.outerJoined = true;
                    r.dependsOn = rightMask;
                    for (Expr e : joinConditions(j, scope, r.bit(), rightMask)) {
                        r.on.add(conjunct(e, scope));
                    }
                    return;
                }
                default:
                    throw new SqlException("FULL JOIN is not supported");
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
                throw new SqlException("column '" + col + "' of USING is not in both sides of the join");
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

    /** A table, view or derived table of FROM as a new relation. */
    private Relation leaf(Query.FromItem f, BlockScope scope) {
        if (f instanceof Query.TableRef t) {
            Table table = catalog.table(t.name());
            if (table != null) {
                tablesRead.add(table);
                return newRelation(Relation.Kind.TABLE, t.alias() != null ? t.alias() : table.name(), table, columnNames(table));
            }
            Relation view = Views.expand(this, catalog, t, scope);
            if (view != null) {
                return view;
            }
            throw new SqlException("table '" + t.name() + "' does not exist");
        }
        Query.Derived d = (Query.Derived) f;
        return derived(d.query(), d.alias(), null, scope);
    }

    /** A derived table (or view): its query bound in the enclosing blocks' scope, its rows materialized. */
    Relation derived(Query query, String alias, List<String> declaredNames, BlockScope scope) {
        LogicalQuery q = bindQuery(query, scope.parent);
        scope.outerRefs |= q.outerRefs & ~scope.mask();
        List<String> names = new ArrayList<>(q.names);
        if (declaredNames != null && !declaredNames.isEmpty()) {
            if (declaredNames.size() != names.size()) {
                throw new SqlException("view '" + alias + "' declares " + declaredNames.size() + " columns, its query has "
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

    /** Binds a view's query text in place of its name: spans then point into that text. */
    String swapSql(String text) {
        String old = sql;
        sql = text;
        return old;
    }

    int enterView() {
        if (++viewDepth > 32) {
            throw new SqlException("views nest more than 32 deep (a view that reads itself?)");
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
        Conjunct c = new Conjunct(value(e, scope), text(e));
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
                Expression lo = bind(x.low(), scope);
                Expression hi = bind(x.high(), scope);
                lo = lo == null ? textIfText(x.low(), r.column()) : lo;
                hi = hi == null ? textIfText(x.high(), r.column()) : hi;
                if (lo != null && hi != null) {
                    c.sargs.add(new Conjunct.Sarg(c, r.relation(), r.column(), Conjunct.Op.BETWEEN, new Expression[]{lo, hi}));
                }
            }
        } else if (e instanceof Expr.InList x && !x.negated()) {
            BlockScope.Resolved r = localColumn(x.operand(), scope);
            if (r != null) {
                Expression[] vals = new Expression[x.values().size()];
                for (int i = 0; i < vals.length; i++) {
                    Expression v = bind(x.values().get(i), scope);
                    vals[i] = v == null ? textIfText(x.values().get(i), r.column()) : v;
                    if (vals[i] == null) {
                        return c;
                    }
                }
                c.sargs.add(new Conjunct.Sarg(c, r.relation(), r.column(), Conjunct.Op.IN, vals));
            }
        }
        return c;
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
        Expression v = bind(valueSide, scope);
        if (v == null) {
            v = textIfText(valueSide, r.column());
        }
        if (v == null || (v.relations() & r.relation().bit()) != 0) {
            return;
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
            throw new SqlException(scope.unknownColumn(((Expr.Column) e).name()));
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
        GroupOutput g = grouped.get(scope);
        if (g != null) {
            Expression m = groupMatch(e, scope, g);
            if (m != null) {
                return m;
            }
        }
        if (e instanceof Expr.Literal l) {
            return literal(l);
        } else if (e instanceof Expr.TypedLiteral t) {
            return Expressions.cast(Expressions.constText(t.text()), SqlTypes.typeOf(t.type()));
        } else if (e instanceof Expr.Column c) {
            BlockScope.Resolved r = scope.resolve(c.qualifier(), c.name());
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
            return Expressions.between(v, textBeside(x.low(), v, scope), textBeside(x.high(), v, scope), x.negated());
        } else if (e instanceof Expr.InList x) {
            Expression v = value(x.operand(), scope);
            List<Expression> vals = new ArrayList<>();
            for (Expr item : x.values()) {
                vals.add(textBeside(item, v, scope));
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
            Expression v = value(x.operand(), scope);
            Expression pattern = textBeside(x.pattern(), v, scope);
            Expression esc = x.escape() == null ? null : textOrValue(x.escape(), scope);
            return Expressions.like(v, pattern, esc, x.negated());
        } else if (e instanceof Expr.Case x) {
            Expression operand = x.operand() == null ? null : value(x.operand(), scope);
            List<Expression> whens = new ArrayList<>();
            List<Expression> thens = new ArrayList<>();
            for (Expr.When w : x.whens()) {
                whens.add(operand == null ? value(w.condition(), scope) : textBeside(w.condition(), operand, scope));
                thens.add(value(w.result(), scope));
            }
            Expression otherwise = x.otherwise() == null ? null : value(x.otherwise(), scope);
            return Expressions.caseWhen(operand, whens, thens, otherwise);
        } else if (e instanceof Expr.Cast x) {
            return Expressions.cast(value(x.operand(), scope), SqlTypes.typeOf(x.type()));
        } else {
            return function((Expr.Function) e, scope);
        }
    }

    private Expression literal(Expr.Literal l) {
        switch (l.kind()) {
            case INTEGER:
                return integer(l.text());
            case DECIMAL:
                return Expressions.constDouble(Double.parseDouble(l.text()));
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
            return Expressions.constDouble(Double.parseDouble(digits));
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
                    return Expressions.constDouble(-Double.parseDouble(l.text()));
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
            throw new SqlException(scope.unknownColumn(((Expr.Column) left).name()));
        }
        if (r == null) {
            throw new SqlException(scope.unknownColumn(((Expr.Column) right).name()));
        }
        return new Expression[]{l, r};
    }

    /** {@code e} as a value compared with {@code other}: a bare name is text when {@code other} is TEXT. */
    private Expression textBeside(Expr e, Expression other, BlockScope scope) {
        Expression x = bind(e, scope);
        if (x == null && other.type() == SqlType.TEXT) {
            return Expressions.constText(((Expr.Column) e).name());
        }
        if (x == null) {
            throw new SqlException(scope.unknownColumn(((Expr.Column) e).name()));
        }
        return x;
    }

    private Expression function(Expr.Function f, BlockScope scope) {
        if (f.over() != null) {
            throw new SqlException("window functions are not supported yet: " + text(f));
        }
        if (isAggregate(f)) {
            throw new SqlException("aggregate function '" + f.name() + "' is not allowed here: " + text(f));
        }
        if (f.star()) {
            throw new SqlException("function '" + f.name() + "' does not take *");
        }
        List<Expression> args = new ArrayList<>();
        for (Expr a : f.args()) {
            args.add(value(a, scope));
        }
        return Expressions.function(f.name(), args);
    }

    private QueryPlanner.Planned subquery(Query q, BlockScope scope, String oneColumnFor) {
        LogicalQuery lq = bindQuery(q, scope);
        if (oneColumnFor != null && lq.outputs.size() != 1) {
            throw new SqlException("the subquery of " + oneColumnFor + " must return one column, not " + lq.outputs.size());
        }
        return QueryPlanner.plan(lq);
    }

    // ---- syntax helpers ---------------------------------------------------------------------------

    static boolean isAggregate(Expr e) {
        return e instanceof Expr.Function f && f.over() == null && AGGREGATES.contains(f.name())
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
        List<Expr> out = new ArrayList<>();
        if (e instanceof Expr.Unary u) {
            out.add(u.operand());
        } else if (e instanceof Expr.Binary b) {
            out.add(b.left());
            out.add(b.right());
        } else if (e instanceof Expr.IsNull n) {
            out.add(n.operand());
        } else if (e instanceof Expr.IsDistinct d) {
            out.add(d.left());
            out.add(d.right());
        } else if (e instanceof Expr.Between b) {
            out.add(b.operand());
            out.add(b.low());
            out.add(b.high());
        } else if (e instanceof Expr.InList l) {
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
        } else if (e instanceof Expr.Function f) {
            out.addAll(f.args());
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

    private String outputName(Expr e, BlockScope scope) {
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
            throw new SqlException(clause + " must be an integer constant, not '" + text(e) + "'");
        }
        EvalContext ctx = new EvalContext(1);
        long v = x.evalLong(ctx);
        if (ctx.isNull) {
            throw new SqlException(clause + " must be an integer constant, not NULL");
        }
        return v < 0 && clause.equals("LIMIT") ? -1 : v;
    }

    /** A constant expression (DEFAULT, a VALUES entry): no table, bare names are text. */
    Expression constant(Expr e) {
        return textOrValue(e, new BlockScope(null));
    }

    /** Lower-case helper for names. */
    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
