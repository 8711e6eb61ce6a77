package io.respsql.exec.op.window;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.FrameUnit;
import io.respsql.storage.Table;

import java.util.List;

/**
 * Window functions over one window ({@code PARTITION BY} keys and {@code ORDER BY} keys), with
 * PostgreSQL's semantics. Blocking: buffers every input tuple (the slots of
 * {@code carriedRelations}, no object per row), sorts by (partition keys ascending NULLs last,
 * order keys as given), computes every function for every row into the {@code output} work table
 * (one row per input tuple, column {@code f} for function {@code f}, of type
 * {@link WindowFunctionSpec#resultType()}), then pushes the tuples in that order with the carried
 * slots restored and {@code slots[outputRelation]} set to the tuple's output row, so expressions
 * above read the input columns and the window results alike.
 *
 * <p>Every function shares the partitioning and ordering; each may have its own frame. Calls
 * over different windows take one operator per window, stacked: the upper one carries the lower
 * one's output relation. Peers (rows equal on every order key) keep input order (stable sort),
 * and a window without ORDER BY makes the whole partition peers (the default frame is then the
 * whole partition).
 *
 * <p>RANGE with an offset bound needs exactly one ORDER BY key: INT or BIGINT with an integer
 * offset, DOUBLE or NUMERIC with a number, DATE or TIMESTAMP with an INTERVAL (a quoted literal
 * offset is read as the type the key wants, as PostgreSQL reads an unknown literal). The plan holds no run state: each run allocates
 * its buffers and truncates {@code output} first.
 */
public final class WindowOperator implements Operator {
    final Operator input;
    final int[] carriedRelations;
    final Expression[] partitionKeys;
    final WindowSortKey[] orderKeys;
    final WindowFunctionSpec[] functions;
    final Table output;
    final int outputRelation;
    /** Test seam while storage's NULL bitmaps and truncate are stubs: see {@link #withStubStorage}. */
    ResultColumn.NullObserver nullObserver;
    private boolean truncate = true;
    /** Null, or the bound an outer filter puts on one ranking function: rows past it are dropped before the sort. */
    final TopK topK;
    /** The input arrives grouped by the partition keys (an index walk): one partition is buffered at a time. */
    final boolean grouped;

    /**
     * An outer {@code WHERE f <= bound} (strict: {@code f < bound}) on ranking function
     * {@code function} (ROW_NUMBER, RANK or DENSE_RANK) of this window: a run evaluates the bound
     * once and keeps, per partition, only the rows whose value can pass it (the first k in window
     * order for ROW_NUMBER, every row ranked k or better for RANK and DENSE_RANK, ties included),
     * so it sorts a few rows per partition instead of all of them. {@code rowsPerPartition}: the
     * planner's estimate (0: none); a run whose k is a third of it or more skips the cut before
     * grouping the rows (k comes with the run, so the plan does not depend on it). The outer filter still
     * applies; only the functions {@link #topKSafe} allows may share the window (their values over
     * a prefix of each sorted partition are their values over the whole partition).
     */
    public record TopK(int function, Expression bound, boolean strict, double rowsPerPartition) {
        public TopK(int function, Expression bound, boolean strict) {
            this(function, bound, strict, 0);
        }
    }

    /** Whether every function of the window depends only on rows before it (and its own rank), so a top-k cut keeps them right. */
    public static boolean topKSafe(WindowFunctionSpec[] functions) {
        for (WindowFunctionSpec f : functions) {
            switch (f.kind()) {
                case ROW_NUMBER:
                case RANK:
                case DENSE_RANK:
                case LAG:
                    break;
                default:
                    return false;
            }
        }
        return true;
    }

    public WindowOperator(Operator input, int[] carriedRelations, Expression[] partitionKeys, WindowSortKey[] orderKeys,
                          WindowFunctionSpec[] functions, Table output, int outputRelation) {
        this(input, carriedRelations, partitionKeys, orderKeys, functions, output, outputRelation, null, false);
    }

    public WindowOperator(Operator input, int[] carriedRelations, Expression[] partitionKeys, WindowSortKey[] orderKeys,
                          WindowFunctionSpec[] functions, Table output, int outputRelation, TopK topK, boolean grouped) {
        this.topK = topK;
        this.grouped = grouped;
        if (topK != null) {
            WindowFunctionKind k = functions[topK.function()].kind();
            if ((k != WindowFunctionKind.ROW_NUMBER && k != WindowFunctionKind.RANK && k != WindowFunctionKind.DENSE_RANK)
                    || !topKSafe(functions) || !topK.bound().type().isInteger()) {
                throw new IllegalArgumentException("top-k needs an integer bound on ROW_NUMBER, RANK or DENSE_RANK with only "
                        + "ranking functions and LAG beside it");
            }
        }
        this.input = input;
        this.carriedRelations = carriedRelations.clone();
        this.partitionKeys = partitionKeys.clone();
        this.orderKeys = orderKeys.clone();
        this.functions = functions.clone();
        this.output = output;
        this.outputRelation = outputRelation;
        if (functions.length == 0) {
            throw new IllegalArgumentException("a window operator needs at least one function");
        }
        if (output.columnCount() < functions.length) {
            throw new IllegalArgumentException("output table " + output.name() + " has " + output.columnCount()
                    + " columns for " + functions.length + " window functions");
        }
        for (WindowFunctionSpec f : functions) {
            checkFrame(f); // PostgreSQL checks a window's frame whatever the function
        }
    }

    private void checkFrame(WindowFunctionSpec f) {
        WindowFrame frame = f.frame();
        if (frame.unit() == FrameUnit.GROUPS && orderKeys.length == 0) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "GROUPS mode requires an ORDER BY clause: " + f.describe());
        }
        for (Expression off : new Expression[] {frame.startOffset(), frame.endOffset()}) {
            if (off == null || off.type() == SqlType.NULL) {
                continue;
            }
            if (frame.unit() != FrameUnit.RANGE) {
                // PostgreSQL casts the offset to bigint as an assignment: numbers round
                if (!off.type().isNumeric() && off.type() != SqlType.NUMERIC) {
                    throw new SqlException(SqlState.DATATYPE_MISMATCH, "argument of " + frame.unit() + " must be type bigint, not type "
                            + off.type().sqlName() + ": " + off.describe() + " in " + f.describe());
                }
                continue;
            }
            if (orderKeys.length != 1) {
                throw new SqlException(SqlState.WINDOWING_ERROR, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column, got "
                        + orderKeys.length + " in " + f.describe());
            }
            SqlType key = orderKeys[0].expr().type();
            SqlType o = off.type();
            boolean text = o == SqlType.TEXT && off.isConstant(); // a quoted literal, read as the offset type the key wants
            boolean ok;
            switch (key) {
                case INT:
                case BIGINT:
                    ok = o.isInteger();
                    break;
                case DOUBLE:
                    ok = o.isNumeric() || o == SqlType.NUMERIC || text;
                    break;
                case NUMERIC:
                    ok = o.isInteger() || o == SqlType.NUMERIC || text;
                    break;
                case DATE:
                case TIMESTAMP:
                    ok = o == SqlType.INTERVAL || text;
                    break;
                default:
                    ok = false;
            }
            if (!ok) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type "
                        + io.respsql.expr.Expressions.pgName(key) + " and offset type " + io.respsql.expr.Expressions.pgName(o)
                        + " (" + orderKeys[0].expr().describe() + ") in " + f.describe());
            }
        }
    }

    /**
     * Runs without {@link Table#truncate} and records NULL results through {@code nulls} instead of
     * {@link io.respsql.storage.Column#setNull}: for tests until the storage branch lands both.
     */
    WindowOperator withStubStorage(ResultColumn.NullObserver nulls) {
        this.nullObserver = nulls;
        this.truncate = false;
        return this;
    }

    public Table output() {
        return output;
    }

    /** Whether the input arrives grouped by partition (a partition is computed and pushed as soon as the next starts). */
    public boolean grouped() {
        return grouped;
    }

    public int outputRelation() {
        return outputRelation;
    }

    public WindowFunctionSpec function(int f) {
        return functions[f];
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (truncate) {
            output.truncate();
        }
        WindowRun run = new WindowRun(this, ctx, out);
        input.run(ctx, run);
        return !run.stopped() && run.finish();
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(input);
    }

    @Override
    public long relations() {
        return input.relations() | (1L << outputRelation);
    }

    @Override
    public void explain(List<String> lines, int depth) {
        StringBuilder b = new StringBuilder("  ".repeat(depth)).append("Window");
        if (partitionKeys.length > 0) {
            b.append(" PARTITION BY ");
            for (int i = 0; i < partitionKeys.length; i++) {
                b.append(i == 0 ? "" : ", ").append(partitionKeys[i].describe());
            }
        }
        if (orderKeys.length > 0) {
            b.append(" ORDER BY ");
            for (int i = 0; i < orderKeys.length; i++) {
                b.append(i == 0 ? "" : ", ").append(orderKeys[i].describe());
            }
        }
        b.append(':');
        for (int i = 0; i < functions.length; i++) {
            b.append(i == 0 ? " " : ", ").append(functions[i].describe());
        }
        if (topK != null) {
            b.append("; top-k ").append(functions[topK.function()].kind().sqlName()).append(topK.strict() ? " < " : " <= ")
                    .append(topK.bound().describe()).append(" per partition");
        }
        if (grouped) {
            b.append("; input grouped by partition");
        }
        lines.add(b.toString());
        input.explain(lines, depth + 1);
    }
}
