package io.respsql.exec.op.window;

import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.storage.Table;
import it.unimi.dsi.fastutil.ints.IntArrays;

import java.util.Arrays;

/**
 * One run of a {@link WindowOperator}: buffers the input tuples (carried slots flattened in one
 * int array, key and argument values in {@link ValueBuffer}s), sorts positions by (partition
 * keys, order keys), finds partitions and peer groups, has each function's evaluator write its
 * results into the output work table, then replays the tuples in sorted order.
 */
final class WindowRun implements TupleConsumer {
    private final WindowOperator op;
    private final int[] carried;
    private final ValueBuffer[] partition;
    private final ValueBuffer[] order;
    private final WindowSortKey[] orderSpecs;
    /** Per function, per argument. */
    private final ValueBuffer[][] args;
    private int[] slots = new int[64];
    private int n;

    WindowRun(WindowOperator op) {
        this.op = op;
        this.carried = op.carriedRelations;
        this.partition = new ValueBuffer[op.partitionKeys.length];
        for (int i = 0; i < partition.length; i++) {
            partition[i] = new ValueBuffer(op.partitionKeys[i]);
        }
        this.orderSpecs = op.orderKeys;
        this.order = new ValueBuffer[orderSpecs.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = new ValueBuffer(orderSpecs[i].expr());
        }
        this.args = new ValueBuffer[op.functions.length][];
        for (int f = 0; f < args.length; f++) {
            WindowFunctionSpec spec = op.functions[f];
            args[f] = new ValueBuffer[spec.argCount()];
            for (int a = 0; a < args[f].length; a++) {
                args[f][a] = new ValueBuffer(spec.arg(a));
            }
        }
    }

    /** Buffers the tuple the input just set. */
    @Override
    public boolean accept(EvalContext ctx) {
        int k = carried.length;
        if ((n + 1) * k > slots.length) {
            slots = Arrays.copyOf(slots, Math.max(slots.length * 2, (n + 1) * k));
        }
        int base = n * k;
        int[] s = ctx.slots;
        for (int r = 0; r < k; r++) {
            slots[base + r] = s[carried[r]];
        }
        for (ValueBuffer b : partition) {
            b.append(ctx);
        }
        for (ValueBuffer b : order) {
            b.append(ctx);
        }
        for (ValueBuffer[] fa : args) {
            for (ValueBuffer b : fa) {
                b.append(ctx);
            }
        }
        n++;
        return true;
    }

    /** Sorts, computes every function, then pushes the tuples in window order. */
    boolean finish(EvalContext ctx, TupleConsumer out) {
        if (n == 0) {
            return true;
        }
        int[] perm = sortedPositions();
        for (ValueBuffer b : partition) {
            b.permute(perm, n);
        }
        for (ValueBuffer b : order) {
            b.permute(perm, n);
        }
        for (ValueBuffer[] fa : args) {
            for (ValueBuffer b : fa) {
                b.permute(perm, n);
            }
        }
        int[] peerStart = new int[n];
        int[] peerEnd = new int[n];
        int[] partitionStarts = boundaries(peerStart, peerEnd);

        Table output = op.output;
        int[] outRows = new int[n];
        for (int i = 0; i < n; i++) {
            outRows[i] = output.allocateRow();
        }
        for (int f = 0; f < op.functions.length; f++) {
            WindowEvaluator e = evaluator(f, ctx, outRows, peerStart, peerEnd);
            for (int p = 0; partitionStarts[p] < n; p++) {
                e.partition(partitionStarts[p], partitionStarts[p + 1]);
            }
        }

        int k = carried.length;
        int[] s = ctx.slots;
        int outRel = op.outputRelation;
        for (int i = 0; i < n; i++) {
            int base = perm[i] * k;
            for (int r = 0; r < k; r++) {
                s[carried[r]] = slots[base + r];
            }
            s[outRel] = outRows[i];
            if (!out.accept(ctx)) {
                return false;
            }
        }
        return true;
    }

    /** Positions 0..n-1 in (partition keys, order keys) order; stable, so ties keep input order. */
    private int[] sortedPositions() {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        if (partition.length == 0 && order.length == 0) {
            return perm;
        }
        IntArrays.mergeSort(perm, 0, n, (a, b) -> {
            for (ValueBuffer p : partition) {
                int c = p.compareForSort(a, b, false, false);
                if (c != 0) {
                    return c;
                }
            }
            for (int i = 0; i < order.length; i++) {
                int c = order[i].compareForSort(a, b, orderSpecs[i].descending(), orderSpecs[i].nullsFirst());
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        return perm;
    }

    /**
     * Fills each sorted position's peer group {@code [peerStart, peerEnd)} (rows of the same
     * partition equal on every order key; NULLs are peers) and returns the partitions' starts,
     * ended by {@code n} twice (so {@code starts[p + 1]} is always the end of partition p).
     */
    private int[] boundaries(int[] peerStart, int[] peerEnd) {
        int[] starts = new int[16];
        int parts = 0;
        starts[parts++] = 0;
        peerStart[0] = 0;
        for (int i = 1; i < n; i++) {
            boolean newPartition = false;
            for (ValueBuffer p : partition) {
                if (!p.same(i - 1, i)) {
                    newPartition = true;
                    break;
                }
            }
            boolean newPeers = newPartition;
            for (int o = 0; o < order.length && !newPeers; o++) {
                newPeers = !order[o].same(i - 1, i);
            }
            if (newPartition) {
                if (parts + 2 > starts.length) {
                    starts = Arrays.copyOf(starts, starts.length * 2);
                }
                starts[parts++] = i;
            }
            peerStart[i] = newPeers ? i : peerStart[i - 1];
        }
        if (parts + 2 > starts.length) {
            starts = Arrays.copyOf(starts, parts + 2);
        }
        starts[parts] = n;
        starts[parts + 1] = n;
        peerEnd[n - 1] = n;
        for (int i = n - 2; i >= 0; i--) {
            peerEnd[i] = peerStart[i + 1] == i + 1 ? i + 1 : peerEnd[i + 1];
        }
        return starts;
    }

    private WindowEvaluator evaluator(int f, EvalContext ctx, int[] outRows, int[] peerStart, int[] peerEnd) {
        WindowFunctionSpec spec = op.functions[f];
        ResultColumn out = new ResultColumn(op.output.column(f), f, op.nullObserver);
        ValueBuffer[] a = args[f];
        switch (spec.kind()) {
            case ROW_NUMBER:
            case RANK:
            case DENSE_RANK:
                return new RankingEvaluator(spec.kind(), out, outRows, peerStart, null);
            case NTILE:
                return new RankingEvaluator(spec.kind(), out, outRows, peerStart, a[0]);
            case LAG:
            case LEAD:
                return new OffsetEvaluator(spec.kind() == WindowFunctionKind.LAG, out, outRows, a[0],
                        a.length > 1 ? a[1] : null, a.length > 2 ? a[2] : null);
            default:
                break;
        }
        FrameBounds bounds = new FrameBounds(spec.frame(), peerStart, peerEnd, order.length == 1 ? order[0] : null,
                order.length == 1 ? orderSpecs[0] : null, ctx);
        switch (spec.kind()) {
            case FIRST_VALUE:
            case LAST_VALUE:
                return new FrameValueEvaluator(spec.kind() == WindowFunctionKind.FIRST_VALUE, out, outRows, a[0], bounds);
            default:
                return new FrameAggregateEvaluator(spec.kind(), out, outRows, a.length > 0 ? a[0] : null, bounds,
                        spec.frame().startsUnbounded(), n);
        }
    }
}
