package io.respsql.plan;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.ColumnValue;
import io.respsql.expr.ValueType;
import io.respsql.result.ResultColumns;
import io.respsql.sql.Expr;
import io.respsql.sql.Expr.AggregateFn;
import io.respsql.sql.Statement;

import java.util.Arrays;
import java.util.List;

/**
 * Everything SELECT needs at run time: where rows come from, what to output, in which order.
 * It also describes its output columns ({@link ResultColumns}), worked out only when a reply
 * form asks for them, so the 2010 form's point SELECT pays nothing for them.
 */
public final class SelectPlan implements ResultColumns {
    public final Scope scope;
    /** Single-table source, or null for a join. */
    public final AccessPath path;
    /** Join steps in execution order, or null for a single table. */
    public final List<JoinStep> join;
    public final List<BoundExpr> outputs;
    /** Non-null when the select list is aggregates only: one function per output. */
    public final List<AggregateFn> aggregates;
    public final List<BoundExpr> orderBy;
    public final boolean[] descending;
    /** Rows already arrive in ORDER BY order: no sort, and LIMIT can stop the read early. */
    public final boolean presorted;
    public final long limit;
    public final long offset;
    /** The select list as written and the statement's text, for the output columns' names. */
    private final List<Statement.SelectItem> items;
    private final String sql;
    /** The output columns once worked out (three fields, not four: a plan is made per statement). */
    private ResultColumns described;

    public SelectPlan(Scope scope, AccessPath path, List<JoinStep> join, List<BoundExpr> outputs, List<AggregateFn> aggregates,
                      List<BoundExpr> orderBy, boolean[] descending, boolean presorted, long limit, long offset,
                      List<Statement.SelectItem> items, String sql) {
        this.scope = scope;
        this.path = path;
        this.join = join;
        this.outputs = outputs;
        this.aggregates = aggregates;
        this.orderBy = orderBy;
        this.descending = descending;
        this.presorted = presorted;
        this.limit = limit;
        this.offset = offset;
        this.items = items;
        this.sql = sql;
    }

    @Override
    public int size() {
        return outputs.size();
    }

    @Override
    public String name(int i) {
        return described().name(i);
    }

    @Override
    public String type(int i) {
        return described().type(i);
    }

    /** Walks the select list beside the outputs it was bound to ({@code *} stands for several). */
    private ResultColumns described() {
        if (described != null) {
            return described;
        }
        String[] n = new String[outputs.size()];
        String[] t = new String[outputs.size()];
        int o = 0;
        int agg = 0;
        for (Statement.SelectItem item : items) {
            if (item.expr() == null) {
                for (int end = o + starWidth(); o < end; o++) {
                    ColumnValue cv = (ColumnValue) outputs.get(o);
                    n[o] = cv.column().name();
                    t[o] = cv.column().type().name();
                }
                continue;
            }
            BoundExpr e = outputs.get(o);
            if (item.expr() instanceof Expr.Aggregate a) {
                n[o] = sql.substring(a.start(), a.end());
                t[o] = aggregateType(aggregates.get(agg++), e);
            } else if (e instanceof ColumnValue cv) {
                n[o] = cv.column().name();
                t[o] = cv.column().type().name();
            } else {
                n[o] = sql.substring(item.expr().start(), item.expr().end());
                t[o] = typeName(e.type());
            }
            o++;
        }
        described = ResultColumns.of(Arrays.asList(n), Arrays.asList(t));
        return described;
    }

    private int starWidth() {
        int w = 0;
        for (int i = 0; i < scope.size(); i++) {
            w += scope.table(i).columnCount();
        }
        return w;
    }

    /** The SQL type of an expression's values: integer arithmetic is 64-bit. */
    private static String typeName(ValueType t) {
        return switch (t) {
            case LONG -> "BIGINT";
            case DOUBLE -> "FLOAT";
            case TEXT -> "TEXT";
        };
    }

    private static String aggregateType(AggregateFn fn, BoundExpr arg) {
        return switch (fn) {
            case COUNT -> "BIGINT";
            case AVG -> "FLOAT";
            case MIN, MAX -> arg instanceof ColumnValue cv ? cv.column().type().name() : typeName(arg.type());
            case SUM -> typeName(arg.type()); // exact BIGINT, or FLOAT
        };
    }

    /** A lone COUNT(*) keeps the 2010 integer reply. */
    public boolean isCountStar() {
        return aggregates != null && aggregates.size() == 1 && aggregates.get(0) == AggregateFn.COUNT && outputs.get(0) == null;
    }
}
