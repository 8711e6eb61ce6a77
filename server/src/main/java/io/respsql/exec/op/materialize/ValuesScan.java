package io.respsql.exec.op.materialize;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Table;

import java.util.List;

/** A VALUES list: its rows written into the plan's work table on each run (materialized, as {@link Materialize} does a query), then scanned. */
public final class ValuesScan implements Operator {
    private final Table work;
    private final Expression[][] rows;
    private final TableScan scan;
    private final int relation;

    public ValuesScan(Table work, int relation, Expression[][] rows, Expression filter) {
        this.work = work;
        this.rows = rows;
        this.relation = relation;
        this.scan = new TableScan(work, relation, filter, "VALUES");
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        work.truncate();
        for (Expression[] row : rows) {
            WorkTableWriter.append(work, row, ctx);
        }
        return scan.run(ctx, out);
    }

    @Override
    public long relations() {
        return 1L << relation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "values (" + rows.length + " row(s))");
    }
}
