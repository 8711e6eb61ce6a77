package io.respsql.exec.op.setop;

import io.respsql.exec.op.CancelCheck;
import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.Outputs;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.storage.Table;

import java.util.List;

/**
 * {@code WITH RECURSIVE name AS (initial UNION [ALL] recursive)}, PostgreSQL's iteration: the
 * initial term's rows are the first working set; the recursive term, whose one reference to the
 * name scans the {@code working} table, is run again and again over the previous step's new rows
 * until a step adds none. UNION drops every row seen before (NULL equals NULL), UNION ALL keeps
 * all. Rows are pushed step by step, as they are made ({@code ctx.slots[outputRelation]} their row
 * in {@code output}), so a consumer that stops (an outer LIMIT) stops the recursion, as in PostgreSQL.
 *
 * <p>A recursion that does not end is stopped: by the statement's cancellation (timeout, event-loop
 * bound, CLIENT KILL), checked per produced row, and by a bound on the rows it makes
 * ({@code maxRows}, SQLSTATE 54000), so it never exhausts memory. Keys and rows live in flat
 * primitive stores ({@link KeyStore}): nothing is allocated per row.
 */
public final class RecursiveUnion implements Operator {
    /** Rows a recursion may make before it is stopped (system property {@code respsql.recursion.max-rows}). */
    public static final long DEFAULT_MAX_ROWS = Long.getLong("respsql.recursion.max-rows", 10_000_000L);

    private final String name;
    private final boolean distinct;
    private final Operator initial;
    private final Keys initialKeys;
    private final Operator recursive;
    private final Keys recursiveKeys;
    private final Table working;
    private final Table output;
    private final int outputRelation;
    private final long maxRows;

    public RecursiveUnion(String name, boolean distinct, Operator initial, Expression[] initialOutputs, Operator recursive,
                          Expression[] recursiveOutputs, Table working, Table output, int outputRelation, long maxRows) {
        byte[] kinds = new byte[output.columnCount()];
        for (int j = 0; j < kinds.length; j++) {
            kinds[j] = Keys.kindOf(output.column(j));
        }
        this.name = name;
        this.distinct = distinct;
        this.initial = initial;
        this.initialKeys = new Keys(initialOutputs, kinds);
        this.recursive = recursive;
        this.recursiveKeys = new Keys(recursiveOutputs, kinds);
        this.working = working;
        this.output = output;
        this.outputRelation = outputRelation;
        this.maxRows = maxRows;
    }

    /** One run's state (a run allocates it once; the per-row path only appends to its stores). */
    private final class Run implements TupleConsumer {
        final KeyBuffer buf = initialKeys.newBuffer();
        final KeyStore store = initialKeys.newStore();
        final KeyTable table = distinct ? new KeyTable(store) : null;
        final CancelCheck check;
        Keys keys = initialKeys;
        long made;

        Run(EvalContext ctx) {
            check = CancelCheck.of(ctx);
        }

        @Override
        public boolean accept(EvalContext c) {
            keys.load(c, buf);
            if (table != null) {
                table.findOrAdd(buf);
                if (!table.added) {
                    return true;
                }
            } else {
                store.append(buf);
            }
            if (++made > maxRows) {
                throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "recursive query \"" + name + "\" made more than " + maxRows
                        + " rows: stopped (a recursion without end? bound it with a WHERE on the recursive term)");
            }
            if (check != null) {
                check.add(1);
            }
            return true;
        }
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        Outputs.clear(output);
        Outputs.clear(working);
        Run run = new Run(ctx);
        initial.run(ctx, run);
        run.keys = recursiveKeys;
        int width = output.columnCount();
        int from = 0;
        while (from < run.store.size()) {
            int to = run.store.size();
            Outputs.clear(working);
            for (int id = from; id < to; id++) {
                int w = working.allocateRow();
                int row = output.allocateRow();
                for (int j = 0; j < width; j++) {
                    Outputs.writeKey(run.store, id, j, working.column(j), w);
                    Outputs.writeKey(run.store, id, j, output.column(j), row);
                }
                ctx.slots[outputRelation] = row;
                if (!out.accept(ctx)) {
                    return false;
                }
            }
            if (run.table == null) {
                run.store.clear(); // UNION ALL keeps no row it has handed on: only the step's own
                from = 0;
            } else {
                from = to;
            }
            if (run.check != null) {
                run.check.add(CancelCheck.EVERY);
            }
            recursive.run(ctx, run);
        }
        return true;
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(initial);
        each.accept(recursive);
    }

    @Override
    public long relations() {
        return 1L << outputRelation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + "recursive " + (distinct ? "UNION" : "UNION ALL") + " " + name + " into " + output.name());
        initial.explain(lines, depth + 1);
        recursive.explain(lines, depth + 1);
    }
}
