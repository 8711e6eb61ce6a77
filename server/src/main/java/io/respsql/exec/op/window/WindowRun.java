package io.respsql.exec.op.window;

import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.storage.Table;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntComparator;
import it.unimi.dsi.fastutil.longs.LongArrays;

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

    /**
     * Positions 0..n-1 in (partition keys, order keys) order; stable, so ties keep input order.
     * All keys numeric: one radix pass per key, last key first (each pass sorts (key, rank in the
     * previous order) pairs, so it is stable). Otherwise a numeric first key is radix sorted and
     * only the runs equal on it are sorted by the other keys; a TEXT first key, a comparison sort.
     */
    private int[] sortedPositions() {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        int keyCount = partition.length + order.length;
        if (keyCount == 0) {
            return perm;
        }
        boolean numeric = true;
        for (int k = 0; k < keyCount; k++) {
            numeric &= key(k).kind != ValueBuffer.Kind.TEXT;
        }
        if (numeric) {
            long[] keys = new long[n];
            long[] ranks = new long[n];
            int[] next = new int[n];
            for (int k = keyCount - 1; k >= 0; k--) {
                radixPass(perm, k, keys, ranks, next);
                int[] t = perm;
                perm = next;
                next = t;
            }
            return perm;
        }
        ValueBuffer first = key(0);
        if (first.kind == ValueBuffer.Kind.TEXT) {
            IntArrays.mergeSort(perm, 0, n, comparatorFrom(0));
            return perm;
        }
        boolean desc = descending(0);
        boolean nullsFirst = nullsFirst(0);
        int nulls = 0;
        for (int i = 0; i < n; i++) {
            if (first.isNull(i)) {
                nulls++;
            }
        }
        int m = n - nulls;
        long[] keys = new long[m];
        long[] pos = new long[m];
        int nullAt = nullsFirst ? 0 : m;
        int j = 0;
        for (int i = 0; i < n; i++) {
            if (first.isNull(i)) {
                perm[nullAt++] = i;
            } else {
                keys[j] = first.sortKey(i, desc);
                pos[j++] = i;
            }
        }
        LongArrays.radixSort(keys, pos);
        int base = nullsFirst ? nulls : 0;
        for (int i = 0; i < m; i++) {
            perm[base + i] = (int) pos[i];
        }
        if (keyCount > 1) {
            IntComparator rest = comparatorFrom(1);
            // mergeSort's support array must equal perm over the range sorted; the runs are
            // disjoint, so one copy serves them all (the plain overload would copy perm per run).
            int[] supp = perm.clone();
            if (nulls > 1) {
                IntArrays.mergeSort(perm, nullsFirst ? 0 : m, nullsFirst ? nulls : n, rest, supp);
            }
            for (int s = 0; s < m; ) {
                int e = s + 1;
                while (e < m && keys[e] == keys[s]) {
                    e++;
                }
                if (e - s > 1) {
                    IntArrays.mergeSort(perm, base + s, base + e, rest, supp);
                }
                s = e;
            }
        }
        return perm;
    }

    /**
     * Stably reorders {@code perm} by sort key {@code k} into {@code into}: NULLs set apart in
     * their current order, the others radix sorted as (key, current rank) pairs.
     */
    private void radixPass(int[] perm, int k, long[] keys, long[] ranks, int[] into) {
        ValueBuffer key = key(k);
        boolean desc = descending(k);
        boolean nullsFirst = nullsFirst(k);
        int m = 0;
        int nulls = 0;
        for (int r = 0; r < n; r++) {
            if (key.isNull(perm[r])) {
                nulls++;
            }
        }
        int nullAt = nullsFirst ? 0 : n - nulls;
        for (int r = 0; r < n; r++) {
            int p = perm[r];
            if (key.isNull(p)) {
                into[nullAt++] = p;
            } else {
                keys[m] = key.sortKey(p, desc);
                ranks[m++] = r;
            }
        }
        LongArrays.radixSort(keys, ranks, 0, m);
        int base = nullsFirst ? nulls : 0;
        for (int i = 0; i < m; i++) {
            into[base + i] = perm[(int) ranks[i]];
        }
    }

    /** Sort key {@code k}: the partition keys (ascending, NULLs last), then the order keys. */
    private ValueBuffer key(int k) {
        return k < partition.length ? partition[k] : order[k - partition.length];
    }

    private boolean descending(int k) {
        return k >= partition.length && orderSpecs[k - partition.length].descending();
    }

    private boolean nullsFirst(int k) {
        return k >= partition.length && orderSpecs[k - partition.length].nullsFirst();
    }

    /** Compares positions on sort keys {@code from} onward. */
    private IntComparator comparatorFrom(int from) {
        int keyCount = partition.length + order.length;
        ValueBuffer[] keys = new ValueBuffer[keyCount - from];
        boolean[] desc = new boolean[keys.length];
        boolean[] nf = new boolean[keys.length];
        for (int k = from; k < keyCount; k++) {
            keys[k - from] = key(k);
            desc[k - from] = descending(k);
            nf[k - from] = nullsFirst(k);
        }
        return (a, b) -> {
            for (int k = 0; k < keys.length; k++) {
                int c = keys[k].compareForSort(a, b, desc[k], nf[k]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
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
