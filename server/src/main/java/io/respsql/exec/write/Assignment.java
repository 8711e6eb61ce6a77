package io.respsql.exec.write;

import io.respsql.exec.kernel.NumericKernel;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.plan.StatementPlanner;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;

import java.nio.charset.StandardCharsets;

/**
 * One {@code SET column = value} of an UPDATE. A row is updated in two steps, compute (every
 * assignment reads the row's old values, as SQL requires for {@code SET a=b, b=a}) then write.
 * A constant value is converted and checked once, when bound; then writing it is one store per
 * row (plus the index move when the column is indexed).
 */
final class Assignment {
    final Column column;
    private final Table table;
    /** Null for a constant (its value is {@link #pending} from the start). */
    private final Expression value;
    /** The value is a parameter: the same for every row of one run, so computed once per run ({@link #prepare}). */
    private final boolean perRun;
    private final boolean indexed;
    private final boolean notNull;
    /** Some UNIQUE index (the primary key included) has this column: the UPDATE checks it after writing. */
    final boolean inUnique;

    private final Cell pending;
    /** The column's bulk kernels when it is INT, BIGINT or FLOAT and in no index (null otherwise): made once, when bound. */
    private final NumericKernel kernel;
    /**
     * The value is arithmetic over this row's own columns and literals (no subquery, no function),
     * going into an unindexed integer column held as int: {@link #computeInt} may then be used
     * once per row and the values stored later, the row's old values being what it reads.
     */
    private boolean rowLocalInt;
    /** For {@code SET c = c ± k}: k, and -1 for minus ({@link #bindIncrement}); null otherwise. */
    private Expression step;
    private int stepSign;

    private Assignment(Table t, Column column, Expression value, Cell pending) {
        this.table = t;
        this.column = column;
        this.value = value;
        this.pending = pending;
        this.perRun = value instanceof io.respsql.expr.Parameter;
        this.indexed = t.isIndexed(column);
        this.notNull = Tables.notNull(t, column);
        this.inUnique = t.coveredByUnique(column);
        this.kernel = indexed ? null : NumericKernel.of(column);
    }

    /**
     * Binds {@code SET column = e}. A TEXT column takes numbers and unquoted names verbatim as
     * INSERT does ({@code SET name=NEWNAME}, {@code SET s=foo-bar}); a number column takes a quoted
     * number ({@code SET fk='5'}); NULL is NULL. Otherwise the value is an expression over the row.
     */
    static Assignment bind(Table t, Column c, Expr e, StatementPlanner.RowsPlan plan, String sql) {
        Assignment a;
        Cell cell = new Cell();
        if (ValueRules.literal(c, e, sql, true, cell)) {
            a = new Assignment(t, c, null, cell);
        } else {
            Expression x;
            try {
                x = plan.bindRowExpression(e);
            } catch (SqlException unknownName) {
                if (c.type() == ColumnType.TEXT && ValueRules.isUnquotedText(e)) {
                    x = null; // 2010: SET s=foo-bar stores "foo-bar"
                } else {
                    throw unknownName;
                }
            }
            String shown = ValueRules.source(e, sql);
            if (x == null) {
                if (c.type() != ColumnType.TEXT) {
                    throw ValueRules.notValid(c, shown);
                }
                a = new Assignment(t, c, null, cell);
                a.pending.setText(ValueRules.unquotedText(e, sql).getBytes(StandardCharsets.UTF_8));
            } else if (c.type() == ColumnType.TEXT && x.type() != SqlType.TEXT && x.type() != SqlType.NULL) {
                if (!x.isConstant()) {
                    throw new SqlException(SqlState.DATATYPE_MISMATCH, "cannot assign number " + shown + " to TEXT column '" + c.name() + "'");
                }
                a = new Assignment(t, c, null, cell);
                a.pending.setText(shown.getBytes(StandardCharsets.UTF_8)); // 2010: verbatim
            } else if (c.type() != ColumnType.TEXT && x.type() == SqlType.TEXT && !x.isConstant()) {
                throw ValueRules.notValid(c, shown);
            } else if (x.isConstant()) {
                a = new Assignment(t, c, null, cell);
                ValueRules.evaluated(c, x, plan.newContext(), shown, a.pending);
            } else {
                a = new Assignment(t, c, x, cell);
                a.rowLocalInt = !a.indexed && c.type().storedAs() == ColumnType.INT && c instanceof IntColumn
                        && x.relations() == 1L && rowArithmetic(e);
                if (a.kernel != null && x.relations() == 1L && rowArithmetic(e)) {
                    a.bindIncrement(e, plan);
                }
            }
        }
        if (a.value == null && a.pending.isNull && a.notNull) {
            throw Tables.nullViolation(t, c);
        }
        return a;
    }

    /**
     * {@code SET c = c + k}, {@code c - k} or {@code k + c} with k an integer literal or parameter:
     * {@link #step} is k's expression (negated by {@link #stepSign} for minus), so the UPDATE can
     * add one number to the column's values in a primitive loop ({@link NumericKernel#addTo}).
     */
    private void bindIncrement(Expr e, StatementPlanner.RowsPlan plan) {
        if (!(e instanceof Expr.Binary b) || (b.op() != Expr.BinaryOp.ADD && b.op() != Expr.BinaryOp.SUB)) {
            return;
        }
        Expr col = b.left();
        Expr k = b.right();
        if (b.op() == Expr.BinaryOp.ADD && isNumberOrParameter(col)) {
            col = b.right();
            k = b.left();
        }
        if (!(col instanceof Expr.Column) || !isNumberOrParameter(k)) {
            return;
        }
        Expression target = plan.bindRowExpression(col);
        Expression kx = plan.bindRowExpression(k);
        if (io.respsql.expr.Expressions.columnRead(target, 0) == column && kx.relations() == 0L
                && (kx.type() == SqlType.INT || kx.type() == SqlType.BIGINT)) {
            step = kx;
            stepSign = b.op() == Expr.BinaryOp.SUB ? -1 : 1;
        }
    }

    private static boolean isNumberOrParameter(Expr e) {
        return (e instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.INTEGER)
                || (e instanceof Expr.Parameter p && p.kind() == Expr.LiteralKind.INTEGER);
    }

    /** Whether this is {@code SET c = c ± k} ({@link #bindIncrement}): {@link #delta} may stand for compute and write. */
    boolean isIncrement() {
        return step != null;
    }

    /**
     * The number this run adds to every non-NULL value, as the column's kernel takes it
     * ({@link NumericKernel#delta}); {@link Long#MIN_VALUE} when k is NULL (every value becomes
     * NULL) or the kernel leaves k to the general path, which then runs.
     */
    long delta(EvalContext ctx) {
        long k = step.evalLong(ctx);
        if (ctx.isNull) {
            return Long.MIN_VALUE;
        }
        return kernel.delta(k, stepSign);
    }

    /** The column's bulk kernels (non-null for an {@link #isIncrement} or a {@link #constantWrite}). */
    NumericKernel kernel() {
        return kernel;
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

    /** Whether {@link #computeInt} and {@link #storeInt} may stand for compute and write (see {@link #rowLocalInt}). */
    boolean rowLocalInt() {
        return rowLocalInt;
    }

    /** {@link #compute} for a {@link #rowLocalInt} assignment; returns the int to store (NULL: {@link Cell#isNull}). */
    int computeInt(EvalContext ctx) {
        compute(ctx);
        return (int) pending.l;
    }

    /** Stores a value {@link #computeInt} gave for {@code row}. */
    void storeInt(int row, int v) {
        ((IntColumn) column).set(row, v);
    }

    /** The same value for every row of this run: a constant, or a parameter once {@link #prepare}d. */
    boolean isConstant() {
        return value == null || perRun;
    }

    /** Before a run: a parameter's value is converted and checked once, as a constant's is when bound. */
    void prepare(EvalContext ctx) {
        if (perRun) {
            ValueRules.evaluated(column, value, ctx, null, pending);
            if (pending.isNull && notNull) {
                throw Tables.nullViolation(table, column);
            }
        }
    }

    Cell pending() {
        return pending;
    }

    /** Evaluates the new value for the row in {@code ctx}, throwing if it cannot be stored exactly. */
    void compute(EvalContext ctx) {
        if (value == null || perRun) {
            return;
        }
        ValueRules.evaluated(column, value, ctx, null, pending);
        if (pending.isNull && notNull) {
            throw Tables.nullViolation(table, column);
        }
    }

    /** Stores the computed value into {@code row}. */
    void write(int row) {
        if (indexed) {
            CellStore.storeIndexed(table, column, row, pending);
        } else {
            CellStore.store(column, row, pending);
        }
    }

    /**
     * Whether this run writes one non-NULL number into an INT, BIGINT or FLOAT column that is in
     * no index (so no UNIQUE or primary key check, no index entry): {@link #writeAll} with the
     * kernel's {@link NumericKernel#setAll} may stand for the writes. Only after {@link #prepare}.
     */
    boolean constantWrite() {
        return isConstant() && kernel != null && !pending.isNull;
    }

    /** Writes the constant into every row: one tight loop per column (the FK-range UPDATE). */
    void writeAll(int[] rows, int n) {
        if (constantWrite()) {
            kernel.setAll(rows, n, pending.l, pending.d);
            return;
        }
        for (int i = 0; i < n; i++) {
            write(rows[i]);
        }
    }
}
