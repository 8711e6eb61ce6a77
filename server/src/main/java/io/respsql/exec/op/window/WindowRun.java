package io.respsql.exec.op.window;

import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.storage.Table;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntComparator;

import java.util.Arrays;

/**
 * One run of a {@link WindowOperator}: buffers the input tuples (carried slots flattened in one
 * int array, key and argument values in {@link ValueBuffer}s), sorts positions by (partition
 * keys, order keys), finds partitions and peer groups, has each function's evaluator write its
 * results into the output work table, then replays the tuples in sorted order.
 */
final class WindowRun implements TupleConsumer {
    private final WindowOperator op;
    private final EvalContext ctx;
    private final TupleConsumer out;
    private final int[] carried;
    private final ValueBuffer[] partition;
    private final ValueBuffer[] order;
    private final WindowSortKey[] orderSpecs;
    /** Per function, per argument. */
    private final ValueBuffer[][] args;
    /** Every buffer once (partition keys, order keys, arguments): what compaction and sorting reorder. */
    private final ValueBuffer[] all;
    /** The sort keys: the partition keys ascending NULLs last (none when the input is grouped), then the order keys. */
    private final ValueBuffer[] sortKeys;
    private final boolean[] sortDesc;
    private final boolean[] sortNullsFirst;
    private int[] slots = new int[64];
    /** Tuples buffered. */
    private int total;
    /** Tuples of the batch being computed (the first {@code n} buffered; a grouped run holds back the next partition's first row). */
    private int n;
    /** The top-k bound of this run (-1: none). */
    private long k = -1;
    private boolean stopped;

    WindowRun(WindowOperator op, EvalContext ctx, TupleConsumer out) {
        this.op = op;
        this.ctx = ctx;
        this.out = out;
        this.carried = op.carriedRelations;
        this.partition = new ValueBuffer[op.partitionKeys.length];
        java.util.List<ValueBuffer> every = new java.util.ArrayList<>();
        for (int i = 0; i < partition.length; i++) {
            partition[i] = new ValueBuffer(op.partitionKeys[i]);
            every.add(partition[i]);
        }
        this.orderSpecs = op.orderKeys;
        this.order = new ValueBuffer[orderSpecs.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = new ValueBuffer(orderSpecs[i].expr());
            every.add(order[i]);
        }
        this.args = new ValueBuffer[op.functions.length][];
        for (int f = 0; f < args.length; f++) {
            WindowFunctionSpec spec = op.functions[f];
            args[f] = new ValueBuffer[spec.argCount()];
            for (int a = 0; a < args[f].length; a++) {
                args[f][a] = new ValueBuffer(spec.arg(a));
                every.add(args[f][a]);
            }
        }
        this.all = every.toArray(new ValueBuffer[0]);
        int from = op.grouped ? partition.length : 0;
        int keys = partition.length + order.length - from;
        sortKeys = new ValueBuffer[keys];
        sortDesc = new boolean[keys];
        sortNullsFirst = new boolean[keys];
        for (int i = 0; i < keys; i++) {
            int x = i + from;
            if (x < partition.length) {
                sortKeys[i] = partition[x];
            } else {
                sortKeys[i] = order[x - partition.length];
                sortDesc[i] = orderSpecs[x - partition.length].descending();
                sortNullsFirst[i] = orderSpecs[x - partition.length].nullsFirst();
            }
        }
        if (op.topK != null) {
            long b = op.topK.bound().evalLong(ctx);
            // A NULL bound passes no row: the outer filter drops them all, so the cut keeps none.
            k = ctx.isNull ? 0 : op.topK.strict() ? (b == Long.MIN_VALUE ? 0 : b - 1) : b;
            k = Math.max(0, k);
        }
    }

    boolean stopped() {
        return stopped;
    }

    /** Buffers the tuple the input just set; a grouped run computes a partition as soon as the next one starts. */
    @Override
    public boolean accept(EvalContext ctx) {
        int kc = carried.length;
        if ((total + 1) * kc > slots.length) {
            slots = Arrays.copyOf(slots, Math.max(slots.length * 2, (total + 1) * kc));
        }
        int base = total * kc;
        int[] s = ctx.slots;
        for (int r = 0; r < kc; r++) {
            slots[base + r] = s[carried[r]];
        }
        for (ValueBuffer b : all) {
            b.append(ctx);
        }
        total++;
        if (op.grouped && total > 1 && !samePartition(total - 2, total - 1)) {
            if (!flush(total - 1)) {
                stopped = true;
                return false;
            }
        }
        return true;
    }

    private boolean samePartition(int a, int b) {
        for (ValueBuffer p : partition) {
            if (!p.same(a, b)) {
                return false;
            }
        }
        return true;
    }

    /** Computes and pushes what is still buffered. */
    boolean finish() {
        return total == 0 || flush(total);
    }

    /**
     * Computes the first {@code count} buffered tuples (whole partitions) and pushes them in
     * window order; the tuples after them (a grouped run's next partition, one row) stay
     * buffered, moved to the front. False when the consumer stopped.
     */
    private boolean flush(int count) {
        int tail = total - count;
        n = count;
        if (k >= 0) {
            n = cut(count, tail);
        }
        int[] perm = sortedPositions();
        int[] ext = perm;
        if (tail > 0) { // the held-back rows keep their places after the batch
            ext = Arrays.copyOf(perm, n + tail);
            for (int i = 0; i < tail; i++) {
                ext[n + i] = n + i;
            }
        }
        if (n > 0) {
            for (ValueBuffer b : all) {
                b.permute(ext, n + tail);
            }
        }
        boolean more = n == 0 || compute(perm);
        int kc = carried.length;
        if (tail > 0) {
            System.arraycopy(slots, n * kc, slots, 0, tail * kc);
            for (ValueBuffer b : all) {
                b.keepOnly(n); // tail is one row: a grouped run holds back only the row that opened the next partition
            }
        }
        total = tail;
        return more;
    }

    /** Computes every function over the batch (sorted as {@code perm} says) and pushes its tuples. */
    private boolean compute(int[] perm) {
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

        int kc = carried.length;
        int[] s = ctx.slots;
        int outRel = op.outputRelation;
        for (int i = 0; i < n; i++) {
            int base = perm[i] * kc;
            for (int r = 0; r < kc; r++) {
                s[carried[r]] = slots[base + r];
            }
            s[outRel] = outRows[i];
            if (!out.accept(ctx)) {
                return false;
            }
        }
        return true;
    }

    // ---- top-k cut ----------------------------------------------------------------------------------

    /**
     * Keeps of the first {@code count} tuples only those whose ranking value can be within
     * {@link #k}, in input order, compacted to the front (the {@code tail} tuples after them
     * follow): per partition a bounded max-heap of positions (k ints, worst on top) finds the k
     * best rows in window order (input position breaks ties, as the stable sort does) for
     * ROW_NUMBER; the k-th best row's keys are the threshold for RANK (rows not worse than it);
     * DENSE_RANK's heap holds one row per distinct key, so its top is the k-th best value. What
     * is kept is a prefix of each partition's sorted rows, so the sort and every function see
     * the values they would see over the whole partition. Partitions are found by hashing their
     * keys (one int per tuple), or are one when the input is grouped. Returns the rows kept.
     */
    private int cut(int count, int tail) {
        if (k >= count && count > 0) {
            return count; // no partition has more than k rows
        }
        double perPartition = op.topK.rowsPerPartition();
        if (!op.grouped && perPartition > 0 && perPartition < 3.0 * k) {
            return count; // the planner expects partitions too small for the cut to pay (see below)
        }
        int parts;
        int[] pid;
        if (op.grouped || partition.length == 0) {
            parts = 1;
            pid = null;
        } else {
            pid = new int[count];
            parts = partitionIds(count, pid);
        }
        if ((long) parts * k * 3 > count) {
            // k rows per partition would keep a third of the rows or more: the cut costs more than the
            // sort it saves (the radix sort of all rows is cheap), and a heap per partition could
            // outgrow the rows
            return count;
        }
        int kk = (int) k;
        WindowFunctionKind kind = op.functions[op.topK.function()].kind();
        boolean[] keep = new boolean[count];
        if (kk > 0) {
            int[] heap = new int[parts * kk];
            int[] size = new int[parts];
            for (int i = 0; i < count; i++) {
                int p = pid == null ? 0 : pid[i];
                int base = p * kk;
                int sz = size[p];
                if (kind == WindowFunctionKind.DENSE_RANK && holds(heap, base, sz, i)) {
                    continue;
                }
                if (sz < kk) {
                    heap[base + sz] = i;
                    size[p] = sz + 1;
                    siftUp(heap, base, sz);
                } else if (compareOrder(i, heap[base]) < 0) {
                    heap[base] = i;
                    siftDown(heap, base, kk);
                }
            }
            if (kind == WindowFunctionKind.ROW_NUMBER) {
                for (int p = 0; p < parts; p++) {
                    for (int j = 0; j < size[p]; j++) {
                        keep[heap[p * kk + j]] = true;
                    }
                }
            } else {
                for (int i = 0; i < count; i++) {
                    int p = pid == null ? 0 : pid[i];
                    keep[i] = size[p] < kk || compareOrder(i, heap[p * kk]) <= 0;
                }
            }
        }
        int m = 0;
        for (int i = 0; i < count; i++) {
            if (keep[i]) {
                m++;
            }
        }
        if (m == count) {
            return count;
        }
        int[] sel = new int[m + tail];
        int j = 0;
        int kc = carried.length;
        for (int i = 0; i < count + tail; i++) {
            if (i >= count || keep[i]) {
                if (j != i) {
                    System.arraycopy(slots, i * kc, slots, j * kc, kc);
                }
                sel[j++] = i;
            }
        }
        if (m + tail > 0) {
            for (ValueBuffer b : all) {
                b.permute(sel, m + tail);
            }
        }
        return m;
    }

    /** A DENSE_RANK heap already holds a row with {@code i}'s order keys. */
    private boolean holds(int[] heap, int base, int size, int i) {
        for (int j = 0; j < size; j++) {
            if (compareOrder(heap[base + j], i) == 0) {
                return true;
            }
        }
        return false;
    }

    /** Heap order: the worse row (later in window order; the later input position among peers) on top. */
    private boolean worse(int a, int b) {
        int c = compareOrder(a, b);
        return c > 0 || (c == 0 && a > b);
    }

    private void siftUp(int[] heap, int base, int at) {
        int x = heap[base + at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            int p = heap[base + parent];
            if (!worse(x, p)) {
                break;
            }
            heap[base + at] = p;
            at = parent;
        }
        heap[base + at] = x;
    }

    private void siftDown(int[] heap, int base, int size) {
        int at = 0;
        int x = heap[base];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && worse(heap[base + child + 1], heap[base + child])) {
                child++;
            }
            int c = heap[base + child];
            if (!worse(c, x)) {
                break;
            }
            heap[base + at] = c;
            at = child;
        }
        heap[base + at] = x;
    }

    /** Window order of two buffered tuples on the order keys alone. */
    private int compareOrder(int a, int b) {
        for (int o = 0; o < order.length; o++) {
            int c = order[o].compareForSort(a, b, orderSpecs[o].descending(), orderSpecs[o].nullsFirst());
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * Numbers the partitions of the first {@code count} tuples (equal keys, NULLs alike) into
     * {@code pid}: an open-addressing table of partition numbers keyed by the keys' hash, each
     * partition's first tuple standing for its keys. Returns the partition count.
     */
    private int partitionIds(int count, int[] pid) {
        int cap = 1024;
        int[] table = new int[cap]; // partition + 1; 0 empty
        int[] reps = new int[256];
        int[] hashes = new int[256];
        int parts = 0;
        for (int i = 0; i < count; i++) {
            int h = 1;
            for (ValueBuffer p : partition) {
                h = h * 31 + p.hash(i);
            }
            h ^= h >>> 16;
            int mask = cap - 1;
            int at = h & mask;
            int found = -1;
            while (true) {
                int e = table[at];
                if (e == 0) {
                    break;
                }
                int q = e - 1;
                if (hashes[q] == h && samePartition(reps[q], i)) {
                    found = q;
                    break;
                }
                at = (at + 1) & mask;
            }
            if (found < 0) {
                found = parts++;
                if (found == reps.length) {
                    reps = Arrays.copyOf(reps, found * 2);
                    hashes = Arrays.copyOf(hashes, found * 2);
                }
                reps[found] = i;
                hashes[found] = h;
                table[at] = found + 1;
                if (parts * 2 > cap) {
                    cap *= 2;
                    table = new int[cap];
                    mask = cap - 1;
                    for (int q = 0; q < parts; q++) {
                        int a = hashes[q] & mask;
                        while (table[a] != 0) {
                            a = (a + 1) & mask;
                        }
                        table[a] = q + 1;
                    }
                }
            }
            pid[i] = found;
        }
        return parts;
    }

    // ---- sort ----------------------------------------------------------------------------------------

    /**
     * Positions 0..n-1 in (partition keys, order keys) order; stable, so ties keep input order.
     * All keys numeric: one stable radix sort per key, last key first ({@link StableRadix}: equal
     * keys keep the previous pass's order). Otherwise a numeric first key is radix sorted and
     * only the runs equal on it are sorted by the other keys; a TEXT first key, a comparison sort.
     * A grouped run's batch is one partition: only the order keys count.
     */
    private int[] sortedPositions() {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        int keyCount = sortKeys.length;
        if (keyCount == 0 || n < 2) {
            return perm;
        }
        boolean numeric = true;
        for (int k = 0; k < keyCount; k++) {
            numeric &= key(k).kind != ValueBuffer.Kind.TEXT;
        }
        if (numeric) {
            long[] keys = new long[n];
            long[] tmpKeys = new long[n];
            int[] pay = new int[n];
            int[] tmpPay = new int[n];
            int[] next = new int[n];
            for (int k = keyCount - 1; k >= 0; k--) {
                radixPass(perm, k, keys, tmpKeys, pay, tmpPay, next);
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
        int[] pos = new int[m];
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
        long[] tmpKeys = new long[m];
        int[] tmpPos = new int[m];
        if (StableRadix.sort(keys, pos, m, tmpKeys, tmpPos)) {
            keys = tmpKeys;
            pos = tmpPos;
        }
        int base = nullsFirst ? nulls : 0;
        System.arraycopy(pos, 0, perm, base, m);
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
     * their current order, the others by a stable radix sort of (key, position) pairs.
     */
    private void radixPass(int[] perm, int k, long[] keys, long[] tmpKeys, int[] pay, int[] tmpPay, int[] into) {
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
                pay[m++] = p;
            }
        }
        int[] sorted = StableRadix.sort(keys, pay, m, tmpKeys, tmpPay) ? tmpPay : pay;
        System.arraycopy(sorted, 0, into, nullsFirst ? nulls : 0, m);
    }

    /** Sort key {@code k}: the partition keys (ascending, NULLs last; none for a grouped run), then the order keys. */
    private ValueBuffer key(int k) {
        return sortKeys[k];
    }

    private boolean descending(int k) {
        return sortDesc[k];
    }

    private boolean nullsFirst(int k) {
        return sortNullsFirst[k];
    }

    /** Compares positions on sort keys {@code from} onward. */
    private IntComparator comparatorFrom(int from) {
        int keyCount = sortKeys.length;
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
