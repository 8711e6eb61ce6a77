package io.respsql.exec.op.materialize;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Table;

import java.util.List;

/**
 * A derived table or view: runs its query, writes each result row (the output expressions)
 * into the plan's work table, then scans that table as relation {@code relation}, filtered by
 * the outer block's conditions on it. The work table is emptied at the start of each run.
 */
public final class Materialize implements Operator {
    private final Operator source;
    private final Expression[] outputs;
    private final Table work;
    private final TableScan scan;
    private final int relation;
    private final String label;

    public Materialize(Operator source, Expression[] outputs, Table work, int relation, Expression filter, String label) {
        this.source = source;
        this.outputs = outputs;
        this.work = work;
        this.relation = relation;
        this.label = label;
        this.scan = new TableScan(work, relation, filter, label);
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        work.truncate();
        source.run(ctx, c -> {
            WorkTableWriter.append(work, outputs, c);
            return true;
        });
        return scan.run(ctx, out);
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(source);
    }

    @Override
    public long relations() {
        return 1L << relation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "materialize " + label + " (" + scan.describe() + ")");
        source.explain(lines, depth + 1);
    }
}
