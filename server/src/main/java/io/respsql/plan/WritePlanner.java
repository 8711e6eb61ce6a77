package io.respsql.plan;

import io.respsql.exec.write.Assignment;
import io.respsql.exec.write.Cell;
import io.respsql.exec.write.DefaultValue;
import io.respsql.exec.write.DeleteOperator;
import io.respsql.exec.write.InsertOperator;
import io.respsql.exec.write.Returning;
import io.respsql.exec.write.RowSource;
import io.respsql.exec.write.Tables;
import io.respsql.exec.write.UpdateOperator;
import io.respsql.exec.write.ValueRules;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlParser;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Plans INSERT, UPDATE and DELETE as {@link StatementPlanner} plans queries: binds the SET lists,
 * the INSERT column lists, values and DEFAULTs, and picks how the rows are found once, at plan
 * time (SQLite's update.c asks where.c for its strategy the same way): every row, a key range, a
 * probe by a unique key, or whatever the access operator gives ({@link RowSource.Shape}). The
 * result is an operator of {@code exec/write} that runs without looking back at syntax or at
 * the plan's operators: planning depends on execution, never the other way round.
 */
public final class WritePlanner {
    private WritePlanner() {
    }

    // ---- UPDATE and DELETE ------------------------------------------------------------------------

    /**
     * The rows of an UPDATE or DELETE: the table as relation 0, its WHERE's access path, the scope SET binds in.
     * With {@code FROM} / {@code USING} ({@code join} not null) the rows are the join's, each tuple
     * carrying the slots of {@code joined} (the other relations) after the table's.
     */
    private record Rows(QueryBinder binder, BlockScope scope, AccessPlanner.Access access,
                        io.respsql.exec.op.Operator join, int[] joined, List<String> joinLines) {
        RowSource source() {
            if (join != null) {
                return RowSource.joined(join, joined);
            }
            AccessPlanner.Access a = access;
            switch (a.rows()) {
                case ALL:
                    return RowSource.allRows(a.op());
                case KEYS:
                    return RowSource.keyRange(a.op(), a.index(), a.keys());
                case POINT:
                    return RowSource.singleKey(a.op());
                default:
                    return RowSource.rowList(a.op());
            }
        }

        List<String> explain() {
            List<String> lines = new ArrayList<>();
            if (join != null) {
                lines.addAll(joinLines);
            } else {
                lines.add(access.description());
            }
            lines.addAll(scope.subplans);
            return lines;
        }
    }

    /**
     * The rows of {@code table} that match {@code where} (null: every row) by the best access path
     * (primary key, index equality/IN/range, or a scan). Subqueries in {@code where} are allowed
     * (they get relation numbers above 0).
     */
    private static Rows rows(Catalog catalog, Table table, Expr where, String sql, boolean explain) {
        return rows(catalog, table, null, null, where, sql, explain);
    }

    /** {@link #rows(Catalog, Table, Expr, String, boolean)} with the table named {@code alias} and joined with {@code from} (null: none). */
    private static Rows rows(Catalog catalog, Table table, String alias, io.respsql.sql.tree.Query.FromItem from, Expr where,
                             String sql, boolean explain) {
        QueryBinder binder = new QueryBinder(catalog, sql, explain);
        Relation r = binder.tableRelation(table, alias);
        BlockScope scope = new BlockScope(null);
        scope.add(r);
        List<Conjunct> conds = new ArrayList<>();
        if (from != null) {
            binder.fromItem(from, scope, conds);
        }
        if (where != null) {
            for (Expr e : QueryBinder.splitAnd(where)) {
                conds.add(binder.conjunct(e, scope));
            }
        }
        if (from == null) {
            return new Rows(binder, scope, AccessPlanner.choose(r, conds, null), null, null, null);
        }
        LogicalQuery.Block b = new LogicalQuery.Block();
        b.explain = explain;
        b.relations.addAll(scope.relations);
        b.where.addAll(conds);
        List<String> lines = new ArrayList<>();
        io.respsql.exec.op.Operator op = new QueryPlanner.JoinPlanner(b, lines, new boolean[1]).plan();
        int[] joined = new int[scope.relations.size() - 1];
        for (int i = 1; i < scope.relations.size(); i++) {
            joined[i - 1] = scope.relations.get(i).number;
        }
        return new Rows(binder, scope, null, op, joined, lines);
    }

    /** RETURNING bound over the statement's relations ({@code *}: every column of each, the table's first). */
    private static Returning returning(List<io.respsql.sql.tree.Query.SelectItem> items, QueryBinder binder,
                                       BlockScope scope) {
        List<Expression> outs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (io.respsql.sql.tree.Query.SelectItem it : items) {
            if (it instanceof io.respsql.sql.tree.Query.Star st) {
                boolean any = false;
                for (Relation r : scope.relations) {
                    if (st.qualifier() != null && (r.name == null || !r.name.equalsIgnoreCase(st.qualifier()))) {
                        continue;
                    }
                    any = true;
                    for (int i = 0; i < r.columnNames.size(); i++) {
                        String c = r.columnNames.get(i);
                        outs.add(binder.bind(new Expr.Column(r.name, c, -1, -1), scope));
                        names.add(c);
                    }
                }
                if (!any) {
                    throw new SqlException(SqlState.UNDEFINED_TABLE, "missing FROM-clause entry for table \"" + st.qualifier() + "\"");
                }
            } else {
                io.respsql.sql.tree.Query.Item item = (io.respsql.sql.tree.Query.Item) it;
                Expression bound = binder.bind(item.expr(), scope);
                if (bound == null) { // a table's name as a value: PostgreSQL's whole-row reference
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "RETURNING " + binder.outputName(item.expr(), scope)
                            + ": a whole-row reference is not supported yet; name the columns");
                }
                outs.add(bound);
                names.add(item.alias() != null ? item.alias() : binder.outputName(item.expr(), scope));
            }
        }
        List<String> types = new ArrayList<>();
        for (Expression e : outs) {
            types.add(SqlTypes.resultName(e.type()));
        }
        return new Returning(outs.toArray(new Expression[0]), io.respsql.result.ResultColumns.of(names, types),
                QueryBinder.MAX_RELATIONS);
    }

    public static UpdateOperator planUpdate(Catalog catalog, Statement.Update s, String sql) {
        Table t = Tables.require(catalog, s.table(), "UPDATE");
        Rows rows = rows(catalog, t, s.alias(), s.from(), s.where(), sql, false);
        Assignment[] as = new Assignment[s.assignments().size()];
        int n = 0;
        for (int i = 0; i < as.length; i++) {
            Statement.Assignment a = s.assignments().get(i);
            Column c = Tables.column(t, a.column());
            Assignment bound = bindAssignment(t, c, a.value(), rows, sql);
            int j = 0;
            while (j < n && as[j].column() != c) {
                j++;
            }
            if (j < n && io.respsql.sql.Dialect.postgres()) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "multiple assignments to same column \"" + c.name() + "\"");
            }
            // SET x=3, x=4: the rightmost assignment of a column wins, as in SQLite (PostgreSQL refuses it).
            as[j] = bound;
            if (j == n) {
                n++;
            }
        }
        UpdateOperator op = new UpdateOperator(t, rows.source(), n == as.length ? as : Arrays.copyOf(as, n),
                QueryBinder.MAX_RELATIONS).checks(checks(catalog, t));
        if (s.returning() != null) {
            op.returning(returning(s.returning(), rows.binder(), rows.scope()));
        }
        return op;
    }

    public static DeleteOperator planDelete(Catalog catalog, Statement.Delete s, String sql) {
        Table t = Tables.require(catalog, s.table(), "DELETE from");
        Rows rows = rows(catalog, t, s.alias(), s.using(), s.where(), sql, false);
        Returning ret = s.returning() == null ? null : returning(s.returning(), rows.binder(), rows.scope());
        return new DeleteOperator(t, rows.source(), QueryBinder.MAX_RELATIONS, ret);
    }

    /**
     * Binds {@code SET column = e}. A TEXT column takes numbers and unquoted names verbatim as
     * INSERT does ({@code SET name=NEWNAME}, {@code SET s=foo-bar}); a number column takes a quoted
     * number ({@code SET fk='5'}); NULL is NULL. Otherwise the value is an expression over the row.
     */
    private static Assignment bindAssignment(Table t, Column c, Expr e, Rows rows, String sql) {
        Cell cell = new Cell();
        if (e == null) {
            defaultValue(c).value(cell); // SET c = DEFAULT
            return Assignment.constant(t, c, cell);
        }
        if (ValueRules.literal(c, e, sql, true, cell)) {
            return Assignment.constant(t, c, cell);
        }
        Expression x;
        try {
            x = rows.binder().bind(e, rows.scope());
        } catch (SqlException unknownName) {
            // (PostgreSQL's dialect names a column that does not exist: an error, as there)
            if (c.type() == ColumnType.TEXT && ValueRules.isUnquotedText(e) && !io.respsql.sql.Dialect.postgres()) {
                x = null; // 2010: SET s=foo-bar stores "foo-bar"
            } else {
                throw unknownName;
            }
        }
        String shown = ValueRules.source(e, sql);
        if (x == null && io.respsql.sql.Dialect.postgres() && e instanceof Expr.Column col) {
            throw new SqlException(SqlState.UNDEFINED_COLUMN, rows.scope().unknownColumn(col.name()));
        }
        if (x == null) {
            if (c.type() != ColumnType.TEXT) {
                throw ValueRules.notValid(c, shown);
            }
            cell.setText(ValueRules.unquotedText(e, sql).getBytes(StandardCharsets.UTF_8));
            return Assignment.constant(t, c, cell);
        }
        if (c.type() == ColumnType.TEXT && x.type() != SqlType.TEXT && x.type() != SqlType.NULL) {
            if (!x.isConstant()) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "cannot assign number " + shown + " to TEXT column '" + c.name() + "'");
            }
            cell.setText(shown.getBytes(StandardCharsets.UTF_8)); // 2010: verbatim
            return Assignment.constant(t, c, cell);
        }
        if (c.type() != ColumnType.TEXT && x.type() == SqlType.TEXT && !x.isConstant()) {
            throw ValueRules.notValid(c, shown);
        }
        if (x.isConstant()) {
            ValueRules.evaluated(c, x, new EvalContext(QueryBinder.MAX_RELATIONS), shown, cell);
            return Assignment.constant(t, c, cell);
        }
        boolean rowLocalInt = !t.isIndexed(c) && c.type().storedAs() == ColumnType.INT && c instanceof IntColumn
                && x.relations() == 1L && rowArithmetic(e);
        Expression step = null;
        int stepSign = 0;
        if (!t.isIndexed(c) && io.respsql.exec.kernel.NumericKernel.supports(c) && x.relations() == 1L
                && rowArithmetic(e)) {
            // SET c = c + k, c - k or k + c with k an integer literal or parameter into an INT,
            // BIGINT or FLOAT column: the UPDATE can add one number to the column's values in a
            // primitive loop (NumericKernel.addTo)
            if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
                Expr col = b.left();
                Expr k = b.right();
                if (b.op() == Expr.BinaryOp.ADD && isNumberOrParameter(col)) {
                    col = b.right();
                    k = b.left();
                }
                if (col instanceof Expr.Column && isNumberOrParameter(k)) {
                    Expression target = rows.binder().bind(col, rows.scope());
                    Expression kx = rows.binder().bind(k, rows.scope());
                    if (Expressions.columnRead(target, 0) == c && kx.relations() == 0L
                            && (kx.type() == SqlType.INT || kx.type() == SqlType.BIGINT)) {
                        step = kx;
                        stepSign = b.op() == Expr.BinaryOp.SUB ? -1 : 1;
                    }
                }
            }
        }
        return Assignment.expression(t, c, x, rowLocalInt, step, stepSign);
    }

    private static boolean isNumberOrParameter(Expr e) {
        return (e instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER)
                || (e instanceof Expr.Parameter p && p.kind() == Expr.LiteralKind.INTEGER);
    }

    /** Column references, literals (a cached plan's parameters too) and arithmetic only: what reads nothing but the row itself. */
    private static boolean rowArithmetic(Expr e) {
        if (e instanceof Expr.Column || e instanceof Expr.Literal || e instanceof Expr.Parameter) {
            return true;
        }
        if (e instanceof Expr.Unary u) {
            return rowArithmetic(u.operand());
        }
        if (e instanceof Expr.Binary b) {
            return rowArithmetic(b.left()) && rowArithmetic(b.right());
        }
        return false;
    }

    // ---- INSERT -----------------------------------------------------------------------------------

    /** The plain path's INSERT: VALUES converted now (the plan runs at once), or the query planned. */
    public static InsertOperator planInsert(Catalog catalog, Statement.Insert s, String sql) {
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        int[] target = targetColumns(t, s.columns());
        if (s.rows() != null && s.columns() == null && io.respsql.sql.Dialect.postgres()) {
            // PostgreSQL: VALUES without a column list fill the first columns, the rest take their DEFAULTs
            int widest = 0;
            for (List<Expr> row : s.rows()) {
                widest = Math.max(widest, row.size());
            }
            if (widest > target.length) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
            }
            if (widest < target.length) {
                target = Arrays.copyOf(target, widest);
                if (t.hasPrimaryKey() && t.primaryColumn().position() >= widest && t.primaryColumn().defaultText() == null) {
                    throw Tables.nullViolation(t, t.primaryColumn());
                }
            }
        }
        if (s.rows() != null) {
            List<List<Expr>> values = s.rows();
            int nRows = values.size();
            InsertOperator.ValuesBuilder rows = new InsertOperator.ValuesBuilder(t, nRows);
            for (int r = 0; r < nRows; r++) {
                List<Expr> row = values.get(r);
                if (row.size() != target.length) {
                    throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT into '" + t.name() + "' has " + row.size() + " values for "
                            + target.length + " columns" + (nRows > 1 ? " (row " + (r + 1) + ")" : ""));
                }
                rows.addRow();
                for (int i = 0; i < target.length; i++) {
                    Expr e = row.get(i);
                    if (e == null) {
                        rows.defaultValue(target[i], defaultValue(t.column(target[i]))); // DEFAULT
                    } else if (!rows.literal(target[i], e, sql)) {
                        rows.evaluated(target[i], StatementPlanner.bindValue(catalog, e, sql), ValueRules.source(e, sql));
                    }
                }
            }
            return withReturning(catalog, s, sql,
                    InsertOperator.values(t, target, defaults(t, target), s.returnSize(), rows).checks(checks(catalog, t)));
        }
        PlannedQuery plan = StatementPlanner.plan(catalog, s.query(), sql);
        List<Expression> outputs = plan.outputs();
        if (outputs.size() != target.length) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT into '" + t.name() + "' has " + outputs.size() + " values for "
                    + target.length + " columns (the query's columns)");
        }
        return withReturning(catalog, s, sql, InsertOperator.query(t, target, defaults(t, target), s.returnSize(), plan.root(),
                outputs.toArray(new Expression[0]), plan.newContext().slots.length).checks(checks(catalog, t)));
    }

    /** The INSERT's RETURNING bound over its table (named by the statement's alias) into {@code op}. */
    private static InsertOperator withReturning(Catalog catalog, Statement.Insert s, String sql, InsertOperator op) {
        if (s.onConflict() != null) {
            op.onConflict(onConflict(catalog, s, sql, op.table()));
        }
        if (s.returning() == null) {
            return op;
        }
        QueryBinder binder = new QueryBinder(catalog, sql, false);
        BlockScope scope = new BlockScope(null);
        scope.add(binder.tableRelation(op.table(), s.alias()));
        return op.returning(returning(s.returning(), binder, scope));
    }

    // ---- writes (upsert) ----

    /**
     * ON CONFLICT bound: its arbiter indexes (the target must match a unique index or the primary
     * key: 42P10 otherwise), and for DO UPDATE the SET list and WHERE over the existing row
     * (relation 0, named as the table or its alias) and {@code EXCLUDED} (relation 1).
     */
    private static io.respsql.exec.write.OnConflict onConflict(Catalog catalog, Statement.Insert s, String sql, Table t) {
        Statement.OnConflict oc = s.onConflict();
        List<io.respsql.storage.TableIndex> arbiters = arbiters(t, oc);
        UpdateOperator update = null;
        io.respsql.expr.Expression where = null;
        Table excluded = null;
        if (!oc.doNothing()) {
            QueryBinder binder = new QueryBinder(catalog, sql, false);
            Relation target = binder.tableRelation(t, s.alias());
            List<io.respsql.storage.ColumnSpec> specs = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < t.columnCount(); i++) {
                Column c = t.column(i);
                specs.add(new io.respsql.storage.ColumnSpec(c.name(), c.type(), false, null, c.typeModifier())); // a NUMERIC(p,s) column's cells are scaled by s
                names.add(c.name());
            }
            excluded = Table.workTable("excluded", specs);
            Relation ex = binder.newRelation(Relation.Kind.DERIVED, "excluded", excluded, names);
            BlockScope scope = new BlockScope(null);
            scope.add(target);
            scope.add(ex);
            Rows rows = new Rows(binder, scope, null, null, null, null);
            Assignment[] as = new Assignment[oc.sets().size()];
            for (int i = 0; i < as.length; i++) {
                Statement.Assignment a = oc.sets().get(i);
                Column c = Tables.column(t, a.column());
                for (int j = 0; j < i; j++) {
                    if (as[j].column() == c) {
                        throw new SqlException(SqlState.SYNTAX_ERROR, "multiple assignments to same column \"" + c.name() + "\"");
                    }
                }
                as[i] = bindAssignment(t, c, a.value(), rows, sql);
            }
            update = new UpdateOperator(t, RowSource.given(), as, QueryBinder.MAX_RELATIONS).checks(checks(catalog, t));
            if (oc.where() != null) {
                where = binder.bind(oc.where(), scope);
            }
        }
        return new io.respsql.exec.write.OnConflict(t, arbiters, update, where, excluded, QueryBinder.MAX_RELATIONS);
    }

    /** The unique indexes (primary key included) ON CONFLICT's target names; every one when it names none. */
    private static List<io.respsql.storage.TableIndex> arbiters(Table t, Statement.OnConflict oc) {
        List<io.respsql.storage.TableIndex> out = new ArrayList<>();
        for (io.respsql.storage.TableIndex ix : t.indexes()) {
            if (!(ix.unique() || ix.isPrimary())) {
                continue;
            }
            if (oc.columns() != null) {
                Set<String> want = new HashSet<>();
                for (String c : oc.columns()) {
                    want.add(Tables.column(t, c).name().toLowerCase(java.util.Locale.ROOT));
                }
                Set<String> have = new HashSet<>();
                for (Column c : ix.columns()) {
                    have.add(c.name().toLowerCase(java.util.Locale.ROOT));
                }
                if (want.equals(have) && have.size() == ix.columns().size()) {
                    out.add(ix);
                }
            } else if (oc.constraint() != null) {
                StringBuilder pgName = new StringBuilder(t.name());
                if (ix.isPrimary()) {
                    pgName.append("_pkey");
                } else {
                    for (Column c : ix.columns()) {
                        pgName.append('_').append(c.name());
                    }
                    pgName.append("_key");
                }
                if (oc.constraint().equalsIgnoreCase(ix.name()) || oc.constraint().equalsIgnoreCase(pgName.toString())) {
                    out.add(ix);
                }
            } else {
                out.add(ix);
            }
        }
        if (out.isEmpty() && oc.constraint() != null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "constraint \"" + oc.constraint() + "\" for table \""
                    + t.name() + "\" does not exist");
        }
        if (out.isEmpty() && oc.columns() != null) {
            throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE,
                    "there is no unique or exclusion constraint matching the ON CONFLICT specification");
        }
        return out;
    }

    /**
     * The cached plan of an INSERT ... VALUES, or null when it cannot be one: a query for rows,
     * a value that must be evaluated (an expression, a function, a signed number for a TEXT column),
     * unquoted text or a typed literal (their text is in the key),
     * a literal that is not one of the {@code literals} (the cache's scan of the text: which parameter a literal is), or one that the plain path
     * would refuse for its column whatever its value (its errors are the plain path's to give).
     * Throws what the plain path throws for an unknown table or column.
     */
    public static InsertOperator planCachedInsert(Catalog catalog, Statement.Insert s, String sql,
                                                  io.respsql.sql.Parameterizer.Literals literals) {
        if (s.rows() == null || s.returning() != null || s.onConflict() != null) {
            return null;
        }
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        int[] target = targetColumns(t, s.columns());
        int nRows = s.rows().size();
        InsertOperator.Parameters p = new InsertOperator.Parameters(nRows, target.length);
        int made = 0;
        int v = 0;
        for (List<Expr> row : s.rows()) {
            if (row.size() != target.length) {
                return null; // the plain path's error
            }
            for (int i = 0; i < target.length; i++, v++) {
                Column c = t.column(target[i]);
                Expr e = row.get(i);
                boolean negative = false;
                boolean signed = false;
                Expr x = e;
                while (x instanceof Expr.Unary u && u.op() != Expr.UnaryOp.NOT) {
                    negative ^= u.op() == Expr.UnaryOp.MINUS;
                    signed = true;
                    x = u.operand();
                }
                int index = x instanceof Expr.Literal lit ? literals.indexOf(lit) : -1;
                if (index >= 0) {
                    Expr.Literal lit = (Expr.Literal) x;
                    if (!ValueRules.parameterFits(c, lit.kind(), signed)) {
                        return null;
                    }
                    p.parameter(v, target[i], index, lit.kind(), negative);
                    made++;
                    continue;
                }
                // A constant (NULL, TRUE, FALSE): converted now, the same every run. Unquoted 2010 text
                // (marieanne) is not cached: it is in the key, so a plan would serve only that one value
                // and a load of distinct names would fill the cache with plans used once.
                if (!(e instanceof Expr.Literal lit) || (lit.kind() != Expr.LiteralKind.NULL
                        && lit.kind() != Expr.LiteralKind.TRUE && lit.kind() != Expr.LiteralKind.FALSE)) {
                    return null;
                }
                Cell k = new Cell();
                try {
                    if (!ValueRules.literal(c, e, sql, false, k)) {
                        return null;
                    }
                } catch (SqlException refused) {
                    return null;
                }
                p.constant(v, target[i], k);
            }
        }
        // A literal inside a constant (unquoted text such as foo-5): its value is part of the row, so not cached.
        if (made != literals.count()) {
            return null;
        }
        return InsertOperator.parameters(t, target, defaults(t, target), s.returnSize(), p).checks(checks(catalog, t));
    }

    /**
     * Starts a bulk INSERT ... VALUES shaped as {@code s} into {@code bulk} (its rows are not read:
     * only its table and columns); false when it is no VALUES insert. Throws the plain path's
     * errors for an unknown table or column.
     */
    public static boolean startBulk(Catalog catalog, Statement.Insert s, InsertOperator.Bulk bulk) {
        if (s.rows() == null || s.returnSize() || s.returning() != null || s.onConflict() != null) {
            return false;
        }
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        int[] target = targetColumns(t, s.columns());
        bulk.start(t, target, defaults(t, target));
        bulk.checks(checks(catalog, t));
        return true;
    }

    private static int[] targetColumns(Table t, List<String> names) {
        if (names == null) {
            int[] all = new int[t.columnCount()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] target = new int[names.size()];
        Set<Integer> seen = new HashSet<>();
        boolean hasPk = false;
        for (int i = 0; i < target.length; i++) {
            Column c = Tables.column(t, names.get(i));
            if (!seen.add(c.position())) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column '" + c.name() + "' is named twice in INSERT");
            }
            hasPk |= t.hasPrimaryKey() && c == t.primaryColumn();
            target[i] = c.position();
        }
        if (t.hasPrimaryKey() && !hasPk && t.primaryColumn().defaultText() == null) {
            throw new SqlException(SqlState.NOT_NULL_VIOLATION, "INSERT into '" + t.name() + "' must give primary key column '" + t.primaryColumn().name() + "'");
        }
        return target;
    }

    /** Per column of {@code t}: the bound DEFAULT of each column {@code target} leaves out that declares one; null when all are named. */
    private static DefaultValue[] defaults(Table t, int[] target) {
        if (target.length == t.columnCount()) {
            return null;
        }
        boolean[] named = new boolean[t.columnCount()];
        for (int c : target) {
            named[c] = true;
        }
        DefaultValue[] d = new DefaultValue[t.columnCount()];
        for (int c = 0; c < d.length; c++) {
            if (!named[c] && t.column(c).defaultText() != null) {
                d[c] = defaultValue(t.column(c));
            }
        }
        return d;
    }

    /**
     * A column's DEFAULT: its source text (what storage keeps) parsed as the expression of
     * {@code SELECT <default>}, a literal converted now, anything else bound to be evaluated once
     * per statement and converted to the column's type like any INSERT value. NULL when none is
     * declared.
     */
    public static DefaultValue defaultValue(Column c) {
        String text = c.defaultText();
        Cell out = new Cell();
        if (text == null) {
            out.setNull();
            return DefaultValue.constant(c, out);
        }
        String sql = "SELECT " + text;
        Expr e = defaultExpression(sql, c.name());
        if (ValueRules.literal(c, e, sql, false, out)) {
            return DefaultValue.constant(c, out);
        }
        return DefaultValue.evaluated(c, StatementPlanner.bindConstant(e, sql), text);
    }

    /** The DEFAULT expression of {@code SELECT <default>}; an error names the column. */
    private static Expr defaultExpression(String sql, String column) {
        Statement st;
        try {
            st = SqlParser.parse(sql);
        } catch (SqlException e) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "DEFAULT of column '" + column + "' does not parse: " + e.getMessage());
        }
        if (st instanceof Statement.QueryStatement q && q.query() instanceof Query.Select s && s.items().size() == 1
                && s.from() == null && s.items().get(0) instanceof Query.Item item) {
            return item.expr();
        }
        throw new SqlException(SqlState.SYNTAX_ERROR, "DEFAULT of column '" + column + "' is not one expression: " + sql.substring(7));
    }

    /**
     * The columns of a write's RETURNING rows, planned without running it (pgwire's Describe);
     * null for any other statement or a write without RETURNING.
     */
    public static io.respsql.result.ResultColumns returningColumns(Catalog catalog, Statement st, String sql) {
        Returning r = null;
        if (st instanceof Statement.Insert s && s.returning() != null) {
            Table t = Tables.require(catalog, s.table(), "INSERT into");
            QueryBinder binder = new QueryBinder(catalog, sql, false);
            BlockScope scope = new BlockScope(null);
            scope.add(binder.tableRelation(t, s.alias()));
            r = returning(s.returning(), binder, scope);
        } else if (st instanceof Statement.Update s && s.returning() != null) {
            Table t = Tables.require(catalog, s.table(), "UPDATE");
            Rows rows = rows(catalog, t, s.alias(), s.from(), s.where(), sql, false);
            r = returning(s.returning(), rows.binder(), rows.scope());
        } else if (st instanceof Statement.Delete s && s.returning() != null) {
            Table t = Tables.require(catalog, s.table(), "DELETE from");
            Rows rows = rows(catalog, t, s.alias(), s.using(), s.where(), sql, false);
            r = returning(s.returning(), rows.binder(), rows.scope());
        }
        return r == null ? null : r.columns();
    }

    // ---- constraints ------------------------------------------------------------------------------

    /** {@code t}'s CHECK constraints bound to it as relation 0, or null when it has none. */
    public static io.respsql.exec.write.Constraints.Check[] checks(Catalog catalog, Table t) {
        List<io.respsql.storage.ConstraintDef> defs = t.constraints().checks;
        if (defs.isEmpty()) {
            return null;
        }
        io.respsql.exec.write.Constraints.Check[] out = new io.respsql.exec.write.Constraints.Check[defs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bindCheck(catalog, defs.get(i));
        }
        return out;
    }

    /** Binds a CHECK's expression over its table (relation 0); it must be a condition. */
    public static io.respsql.exec.write.Constraints.Check bindCheck(Catalog catalog, io.respsql.storage.ConstraintDef def) {
        boolean prior = io.respsql.sql.Dialect.set(def.postgres()); // the dialect it was written in
        try {
            return bindCheckText(catalog, def);
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
    }

    private static io.respsql.exec.write.Constraints.Check bindCheckText(Catalog catalog, io.respsql.storage.ConstraintDef def) {
        Table t = def.table();
        String sql = "SELECT " + def.checkText();
        Statement st = SqlParser.parse(sql);
        if (!(st instanceof Statement.QueryStatement q && q.query() instanceof Query.Select sel && sel.items().size() == 1
                && sel.from() == null && sel.items().get(0) instanceof Query.Item item)) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "CHECK (" + def.checkText() + ") is not one expression");
        }
        QueryBinder binder = new QueryBinder(catalog, sql);
        Relation r = binder.tableRelation(t);
        BlockScope scope = new BlockScope(null);
        scope.add(r);
        if (walk(item.expr(), t, null)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
        }
        Expression x = binder.bind(item.expr(), scope);
        if ((x.relations() & ~1L) != 0 || binder.relationCount() > 1) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
        }
        if (x.type() == SqlType.TEXT || x.type() == SqlType.DOUBLE) {
            throw new SqlException(SqlState.DATATYPE_MISMATCH, "argument of CHECK must be type boolean, not type " + x.type());
        }
        java.util.LinkedHashSet<Column> cols = new java.util.LinkedHashSet<>();
        walk(item.expr(), t, cols);
        return new io.respsql.exec.write.Constraints.Check(def, x, cols.toArray(new Column[0]));
    }

    /**
     * Walks the syntax tree's records under {@code e}: the columns of {@code t} it names go into
     * {@code out} (null: not collected); returns whether it holds a query (a subquery).
     */
    private static boolean walk(Object e, Table t, java.util.Set<Column> out) {
        if (e instanceof Query) {
            return true;
        }
        if (e instanceof Expr.Column c) {
            Column col = t.column(c.name());
            if (col != null && out != null) {
                out.add(col);
            }
            return false;
        }
        boolean query = false;
        if (e instanceof List<?> list) {
            for (Object o : list) {
                query |= walk(o, t, out);
            }
            return query;
        }
        if (e instanceof Record rec) {
            for (java.lang.reflect.RecordComponent rc : rec.getClass().getRecordComponents()) {
                try {
                    query |= walk(rc.getAccessor().invoke(rec), t, out);
                } catch (ReflectiveOperationException ignored) {
                    // not a readable part: nothing to find there
                }
            }
        }
        return query;
    }

    // ---- EXPLAIN ----------------------------------------------------------------------------------

    /** EXPLAIN of an UPDATE: bound as to run (its errors), then planned again with descriptions. */
    public static List<String> explainUpdate(Catalog catalog, Statement.Update s, String sql) {
        UpdateOperator op = planUpdate(catalog, s, sql);
        return rows(catalog, op.table(), s.alias(), s.from(), s.where(), sql, true).explain();
    }

    /** EXPLAIN of a DELETE. */
    public static List<String> explainDelete(Catalog catalog, Statement.Delete s, String sql) {
        DeleteOperator op = planDelete(catalog, s, sql);
        return rows(catalog, op.table(), s.alias(), s.using(), s.where(), sql, true).explain();
    }

    /** EXPLAIN of an INSERT. */
    public static List<String> explainInsert(Catalog catalog, Statement.Insert s, String sql) {
        Table t = Tables.require(catalog, s.table(), "INSERT into");
        List<String> lines = new ArrayList<>();
        if (s.rows() != null) {
            lines.add("insert " + s.rows().size() + " row(s) into " + t.name());
        } else {
            lines.add("insert the rows of a query into " + t.name());
            lines.addAll(StatementPlanner.planQuery(catalog, s.query(), sql).explain());
        }
        return lines;
    }
}
