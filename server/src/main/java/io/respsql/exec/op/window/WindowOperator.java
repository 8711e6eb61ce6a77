package io.respsql.exec.op.window;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
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
 * <p>RANGE with an offset bound needs exactly one ORDER BY key, of type INT, BIGINT or DOUBLE
 * (an INT/BIGINT key takes an integer offset). The plan holds no run state: each run allocates
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

    public WindowOperator(Operator input, int[] carriedRelations, Expression[] partitionKeys, WindowSortKey[] orderKeys,
                          WindowFunctionSpec[] functions, Table output, int outputRelation) {
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
            if (f.kind().usesFrame()) {
                checkFrame(f);
            }
        }
    }

    private void checkFrame(WindowFunctionSpec f) {
        WindowFrame frame = f.frame();
        for (Expression off : new Expression[] {frame.startOffset(), frame.endOffset()}) {
            if (off == null || off.type() == SqlType.NULL) {
                continue;
            }
            if (frame.unit() == FrameUnit.ROWS) {
                if (!off.type().isInteger()) {
                    throw new SqlException("ROWS offset must be an integer, got " + off.type().sqlName() + ": " + off.describe()
                            + " in " + f.describe());
                }
                continue;
            }
            if (orderKeys.length != 1) {
                throw new SqlException("RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column, got "
                        + orderKeys.length + " in " + f.describe());
            }
            SqlType key = orderKeys[0].expr().type();
            if (!key.isNumeric()) {
                throw new SqlException("RANGE with offset PRECEDING/FOLLOWING is not supported for ORDER BY type "
                        + key.sqlName() + " (" + orderKeys[0].expr().describe() + ") in " + f.describe());
            }
            if (key.isInteger() && !off.type().isInteger()) {
                throw new SqlException("RANGE offset over the integer ORDER BY column " + orderKeys[0].expr().describe()
                        + " must be an integer, got " + off.describe());
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
        WindowRun run = new WindowRun(this);
        input.run(ctx, run);
        return run.finish(ctx, out);
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
        lines.add(b.toString());
        input.explain(lines, depth + 1);
    }
}
