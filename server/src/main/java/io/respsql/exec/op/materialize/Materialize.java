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
 *
 * <p>Streaming: each row is pushed as soon as it is written (filtered one at a time), and a
 * consumer that stops stops the query: the outer block reads the rows in the order the query
 * makes them (a derived table delivered in the outer ORDER BY's order, cut short by its LIMIT).
 */
public final class Materialize implements Operator {
    private final Operator source;
    private final Expression[] outputs;
    private final Table work;
    private final TableScan scan;
    private final int relation;
    private final String label;
    private final Expression filter;
    private final boolean streaming;

    public Materialize(Operator source, Expression[] outputs, Table work, int relation, Expression filter, String label) {
        this(source, outputs, work, relation, filter, label, false);
    }

    public Materialize(Operator source, Expression[] outputs, Table work, int relation, Expression filter, String label,
                       boolean streaming) {
        this.filter = filter;
        this.streaming = streaming;
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
        if (streaming) {
            int rel = relation;
            return source.run(ctx, c -> {
                c.slots[rel] = WorkTableWriter.append(work, outputs, c);
                return (filter != null && !filter.isTrue(c)) || out.accept(c);
            });
        }
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
        lines.add("  ".repeat(depth) + (streaming ? "stream " : "materialize ") + label + " (" + scan.describe() + ")");
        source.explain(lines, depth + 1);
    }
}
