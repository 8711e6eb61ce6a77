package io.respsql.exec;

import io.respsql.expr.BoundExpr;
import io.respsql.expr.ColumnValue;
import io.respsql.expr.ValueType;
import io.respsql.index.IndexKeys;
import io.respsql.index.LongIntBTree;
import io.respsql.plan.AccessPath;
import io.respsql.plan.JoinStep;
import io.respsql.plan.SelectPlan;
import io.respsql.result.ResultSink;
import io.respsql.sql.Expr.AggregateFn;
import io.respsql.sql.SqlException;
import io.respsql.storage.ColumnType;
import io.respsql.storage.TextColumn;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntComparator;

import java.util.List;

/**
 * Runs a {@link SelectPlan}. Matching rows are gathered as row slots (one int per table per
 * result row), sorted if the access path did not already deliver ORDER BY order, cut by
 * OFFSET/LIMIT, then each row's values go to the {@link ResultSink}, which encodes them (the
 * 2010 comma-joined rows or the typed form): this class produces values, never reply bytes.
 */
public final class SelectExecutor {
    private SelectExecutor() {
    }

    public static void run(SelectPlan p, IntArrayList buf, ResultSink out) {
        int width = p.scope.size();
        buf.clear();
        if (p.isCountStar() && p.path != null && p.path.kind == AccessPath.Kind.FULL_SCAN
                && p.path.residual == io.respsql.expr.Predicate.TRUE) {
            out.countStar(p, p.path.table.rowCount()); // O(1), whatever was deleted
            return;
        }
        long wanted = p.presorted && p.aggregates == null && p.limit >= 0 ? p.offset + p.limit : Long.MAX_VALUE;
        if (p.path != null) {
            RowSource.collect(p.path, new int[1], 0, buf, wanted);
        } else {
            JoinScratch scratch = new JoinScratch(p.join);
            join(p.join, 0, new int[width], scratch, buf, wanted);
        }
        int count = buf.size() / width;
        if (p.aggregates != null) {
            aggregate(p, buf, count, width, out);
            return;
        }
        int[] order = null;
        if (!p.presorted && count > 1) {
            order = sortOrder(p, buf.elements(), count, width);
        }
        long from = Math.min(p.offset, count);
        long to = p.limit < 0 ? count : Math.min(count, from + p.limit);
        out.columns(p, to - from);
        int[] tuple = new int[width];
        int[] rows = buf.elements();
        List<BoundExpr> outputs = p.outputs;
        int nOut = outputs.size();
        for (long i = from; i < to; i++) {
            int r = order == null ? (int) i : order[(int) i];
            System.arraycopy(rows, r * width, tuple, 0, width);
            out.beginRow();
            for (int c = 0; c < nOut; c++) {
                emit(outputs.get(c), tuple, out);
            }
            out.endRow();
        }
        out.end();
    }

    /** Evaluates one output expression on the tuple and hands its value to the sink. */
    private static void emit(BoundExpr e, int[] tuple, ResultSink out) {
        switch (e.type()) {
            case LONG:
                out.longValue(e.evalLong(tuple));
                break;
            case DOUBLE:
                out.doubleValue(e.evalDouble(tuple));
                break;
            default:
                out.textValue(e.textBytes(tuple), e.textOffset(tuple), e.textLength(tuple));
        }
    }

    /** Per-step buffers of a join, made once per statement and reused for every outer row. */
    private static final class JoinScratch {
        final IntArrayList[] candidates;
        final LongIntBTree.Cursor[] cursors;

        JoinScratch(List<JoinStep> steps) {
            candidates = new IntArrayList[steps.size()];
            cursors = new LongIntBTree.Cursor[steps.size()];
            for (int i = 0; i < candidates.length; i++) {
                candidates[i] = new IntArrayList();
                JoinStep step = steps.get(i);
                cursors[i] = step.probeIndex == null ? null : step.probeIndex.tree().cursor();
            }
        }
    }

    /** Nested-loop join: each step binds one more table's row into the tuple. */
    private static void join(List<JoinStep> steps, int depth, int[] tuple, JoinScratch scratch, IntArrayList out, long max) {
        JoinStep step = steps.get(depth);
        int slot = step.tableIndex;
        IntArrayList candidates = scratch.candidates[depth];
        candidates.clear();
        if (step.probeIndex != null) {
            long key = probeKey(step, tuple);
            LongIntBTree.Cursor c = scratch.cursors[depth];
            for (boolean ok = c.seek(key); ok && c.key() == key; ok = c.next()) {
                candidates.add(c.row());
            }
        } else {
            RowSource.collect(step.path, tuple, slot, candidates, Long.MAX_VALUE);
        }
        for (int i = 0; i < candidates.size() && out.size() / tuple.length < max; i++) {
            tuple[slot] = candidates.getInt(i);
            if (!step.filter.test(tuple)) {
                continue;
            }
            if (depth + 1 == steps.size()) {
                for (int v : tuple) {
                    out.add(v);
                }
            } else {
                join(steps, depth + 1, tuple, scratch, out, max);
            }
        }
    }

    private static long probeKey(JoinStep step, int[] tuple) {
        ColumnType target = step.probeIndex.column().type();
        BoundExpr k = step.probeKey;
        if (target == ColumnType.TEXT) {
            ColumnValue.TextValue tv = (ColumnValue.TextValue) k;
            int row = tuple[tv.tableIndex];
            return IndexKeys.ofTextPrefix(tv.col.bytes(row), tv.col.offset(row), tv.col.length(row));
        }
        if (target == ColumnType.FLOAT) {
            return IndexKeys.ofDouble(k.evalDouble(tuple));
        }
        return k.evalLong(tuple);
    }

    /** A permutation of result rows in ORDER BY order. */
    private static int[] sortOrder(SelectPlan p, int[] rows, int count, int width) {
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        int[] ta = new int[width];
        int[] tb = new int[width];
        List<BoundExpr> keys = p.orderBy;
        boolean[] desc = p.descending;
        IntComparator cmp = (a, b) -> {
            System.arraycopy(rows, a * width, ta, 0, width);
            System.arraycopy(rows, b * width, tb, 0, width);
            for (int k = 0; k < keys.size(); k++) {
                int c = compare(keys.get(k), ta, tb);
                if (c != 0) {
                    return desc[k] ? -c : c;
                }
            }
            return Integer.compare(a, b); // stable: ties keep access-path order
        };
        IntArrays.quickSort(order, 0, count, cmp);
        return order;
    }

    static int compare(BoundExpr e, int[] ta, int[] tb) {
        switch (e.type()) {
            case LONG:
                return Long.compare(e.evalLong(ta), e.evalLong(tb));
            case DOUBLE:
                return Double.compare(e.evalDouble(ta), e.evalDouble(tb));
            default:
                if (e instanceof ColumnValue.TextValue tv) {
                    TextColumn c = tv.col;
                    return c.compareRows(ta[tv.tableIndex], c, tb[tv.tableIndex]);
                }
                return 0; // a constant orders nothing
        }
    }

    private static void aggregate(SelectPlan p, IntArrayList buf, int count, int width, ResultSink out) {
        if (p.isCountStar()) {
            out.countStar(p, count);
            return;
        }
        int[] rows = buf.elements();
        int[] tuple = new int[width];
        int[] best = new int[width];
        out.columns(p, 1);
        out.beginRow();
        for (int a = 0; a < p.aggregates.size(); a++) {
            AggregateFn fn = p.aggregates.get(a);
            BoundExpr arg = p.outputs.get(a);
            if (fn == AggregateFn.COUNT) {
                out.longValue(count);
                continue;
            }
            if (count == 0) {
                out.nullValue(); // no rows: no value
                continue;
            }
            if (fn == AggregateFn.MIN || fn == AggregateFn.MAX) {
                int bestIndex = 0;
                System.arraycopy(rows, 0, best, 0, width);
                for (int i = 1; i < count; i++) {
                    System.arraycopy(rows, i * width, tuple, 0, width);
                    int c = compare(arg, tuple, best);
                    if (fn == AggregateFn.MIN ? c < 0 : c > 0) {
                        System.arraycopy(tuple, 0, best, 0, width);
                        bestIndex = i;
                    }
                }
                System.arraycopy(rows, bestIndex * width, tuple, 0, width);
                emit(arg, tuple, out);
                continue;
            }
            if (arg.type() == ValueType.LONG) {
                // SUM is exact or an error; AVG only needs the sum as a double once it leaves 64 bits.
                long sum = 0;
                double wide = 0;
                boolean overflow = false;
                for (int i = 0; i < count; i++) {
                    System.arraycopy(rows, i * width, tuple, 0, width);
                    long v = arg.evalLong(tuple);
                    wide += v;
                    if (!overflow) {
                        long s = sum + v;
                        overflow = ((sum ^ s) & (v ^ s)) < 0;
                        sum = s;
                    }
                }
                if (fn == AggregateFn.SUM) {
                    if (overflow) {
                        throw new SqlException("integer overflow in SUM(" + arg.describe() + ")");
                    }
                    out.longValue(sum);
                } else {
                    out.doubleValue(overflow ? wide / count : (double) sum / count);
                }
            } else {
                double sum = 0;
                for (int i = 0; i < count; i++) {
                    System.arraycopy(rows, i * width, tuple, 0, width);
                    sum += arg.evalDouble(tuple);
                }
                out.doubleValue(fn == AggregateFn.SUM ? sum : sum / count);
            }
        }
        out.endRow();
        out.end();
    }
}
