package io.respsql.exec.write;

import io.respsql.exec.kernel.NumericKernel;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;


/**
 * One {@code SET column = value} of an UPDATE, bound by the planner (plan.WritePlanner). A row is updated in two steps, compute (every
 * assignment reads the row's old values, as SQL requires for {@code SET a=b, b=a}) then write.
 * A constant value is converted and checked once, when bound; then writing it is one store per
 * row (plus the index move when the column is indexed).
 */
public final class Assignment {
    final Column column;
    private final Table table;
    /** Null for a constant (its value is {@link #constant}). */
    private final Expression value;
    /** How {@link #value}'s values go into the column, chosen when bound (null for a constant). */
    private final Conversion conversion;
    /** The value is a parameter: the same for every row of one run, so computed once per run ({@link #prepare}). */
    private final boolean perRun;
    private final boolean indexed;
    private final boolean notNull;
    /** Some UNIQUE index (the primary key included) has this column: the UPDATE checks it after writing. */
    final boolean inUnique;

    /** The column's bulk kernels when it is INT, BIGINT or FLOAT and in no index (null otherwise): made once, when bound. */
    private final NumericKernel kernel;
    /**
     * A constant's value, converted once when bound (null for an expression or a parameter: a
     * run computes those into a cell of its own, {@link WriteRun#values}). Every method below
     * takes the run's cell for this assignment, {@code v}: the plan keeps no value of a run.
     */
    private final Cell constant;
    /**
     * The value is arithmetic over this row's own columns and literals (no subquery, no function),
     * going into an unindexed integer column held as int: {@link #computeInt} may then be used
     * once per row and the values stored later, the row's old values being what it reads.
     */
    private boolean rowLocalInt;
    /** For {@code SET c = c ± k}: k, and -1 for minus (bound by the planner); null otherwise. */
    private Expression step;
    private int stepSign;

    private Assignment(Table t, Column column, Expression value, Cell constant) {
        this.table = t;
        this.column = column;
        this.value = value;
        this.conversion = value == null ? null : Conversion.of(column, value);
        this.constant = constant;
        this.perRun = value instanceof io.respsql.expr.Parameter;
        this.indexed = t.isIndexed(column);
        this.notNull = Tables.notNull(t, column);
        this.inUnique = t.coveredByUnique(column);
        this.kernel = indexed ? null : NumericKernel.of(column);
    }

    /** {@code SET column = value} with a value the planner converted ({@link ValueRules}); NULL into NOT NULL is refused. */
    public static Assignment constant(Table t, Column c, Cell value) {
        Assignment a = new Assignment(t, c, null, value);
        if (value.isNull && a.notNull) {
            throw Tables.nullViolation(t, c);
        }
        return a;
    }

    /**
     * {@code SET column = value} with a bound expression over the row (relation 0) or a
     * parameter. {@code rowLocalInt}: arithmetic over the row's own columns and literals into an
     * unindexed INT-stored column ({@link #computeInt}); {@code step} (null: none) and {@code
     * stepSign}: {@code SET c = c ± k} with k's expression, -1 for minus ({@link #delta}).
     */
    public static Assignment expression(Table t, Column c, Expression value, boolean rowLocalInt, Expression step,
                                        int stepSign) {
        Assignment a = new Assignment(t, c, value, null);
        a.rowLocalInt = rowLocalInt;
        a.step = step;
        a.stepSign = stepSign;
        return a;
    }

    /** The column written. */
    public Column column() {
        return column;
    }

    /** Whether this is {@code SET c = c ± k}: {@link #delta} may stand for compute and write. */
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

    /** Whether {@link #computeInt} and {@link #storeInt} may stand for compute and write (see {@link #rowLocalInt}). */
    boolean rowLocalInt() {
        return rowLocalInt;
    }

    /** {@link #compute} for a {@link #rowLocalInt} assignment; returns the int to store (NULL: {@link Cell#isNull}). */
    int computeInt(EvalContext ctx, Cell v) {
        compute(ctx, v);
        return (int) v.l;
    }

    /** The cell a run keeps this assignment's value in: the constant itself, or a new one to compute into. */
    Cell newValue() {
        return constant != null ? constant : new Cell();
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
    void prepare(EvalContext ctx, Cell v) {
        if (perRun) {
            conversion.convert(value, ctx, null, v);
            if (v.isNull && notNull) {
                throw Tables.nullViolation(table, column);
            }
        }
    }

    /** Evaluates the new value for the row in {@code ctx}, throwing if it cannot be stored exactly. */
    void compute(EvalContext ctx, Cell v) {
        if (value == null || perRun) {
            return;
        }
        conversion.convert(value, ctx, null, v);
        if (v.isNull && notNull) {
            throw Tables.nullViolation(table, column);
        }
    }

    /** Stores the computed value into {@code row}. */
    void write(int row, Cell v) {
        if (indexed) {
            CellStore.storeIndexed(table, column, row, v);
        } else {
            CellStore.store(column, row, v);
        }
    }

    /**
     * Whether this run writes one non-NULL number into an INT, BIGINT or FLOAT column that is in
     * no index (so no UNIQUE or primary key check, no index entry): {@link #writeAll} with the
     * kernel's {@link NumericKernel#setAll} may stand for the writes. Only after {@link #prepare}.
     */
    boolean constantWrite(Cell v) {
        return isConstant() && kernel != null && !v.isNull;
    }

    /** Writes the constant {@code v} into every row: one tight loop per column (the FK-range UPDATE). */
    void writeAll(int[] rows, int n, Cell v) {
        if (constantWrite(v)) {
            kernel.setAll(rows, n, v.l, v.d);
            return;
        }
        for (int i = 0; i < n; i++) {
            write(rows[i], v);
        }
    }
}
