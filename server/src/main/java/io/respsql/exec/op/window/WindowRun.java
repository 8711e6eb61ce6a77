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

    // Scratch, grown geometrically and reused by every flush: a grouped run flushes once per
    // partition, and allocating these per partition was most of its cost on small partitions.
    private int[] perm = new int[16];
    private int[] permTmp = new int[16];
    private long[] radixKeys = new long[16];
    private long[] radixKeysTmp = new long[16];
    private int[] radixPay = new int[16];
    private int[] radixPayTmp = new int[16];
    private int[] radixCounts;
    private int[] mergeSupport = new int[16];
    private int[] peerStart = new int[16];
    private int[] peerEnd = new int[16];
    private int[] outRows = new int[16];
    private int[] starts = new int[16];
    private boolean[] keep = new boolean[16];
    private int[] heap = new int[16];
    private int[] heapSizes = new int[16];
    private int[] sel = new int[16];
    /** Per function, made with the run and re-bound to the scratch arrays at each batch. */
    private WindowEvaluator[] evaluators;
    /** Comparators on the sort keys from 0 and from 1, made when first needed. */
    private IntComparator compareAll;
    private IntComparator compareRest;

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
        // Made before the first row, as PostgreSQL evaluates the frame offsets at the start: a bad
        // offset is an error even over no rows.
        evaluators = new WindowEvaluator[op.functions.length];
        for (int f = 0; f < evaluators.length; f++) {
            evaluators[f] = evaluator(f, ctx);
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
        int[] perm = sortedPositions(n + tail);
        for (int i = 0; i < tail; i++) { // the held-back rows keep their places after the batch
            perm[n + i] = n + i;
        }
        if (n > 0) {
            for (ValueBuffer b : all) {
                b.permute(perm, n + tail);
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
        peerStart = ints(peerStart, n);
        peerEnd = ints(peerEnd, n);
        int[] partitionStarts = boundaries(peerStart, peerEnd);

        Table output = op.output;
        outRows = ints(outRows, n);
        int[] outRows = this.outRows;
        for (int i = 0; i < n; i++) {
            outRows[i] = output.allocateRow();
        }
        for (int f = 0; f < op.functions.length; f++) {
            WindowEvaluator e = evaluators[f];
            e.bind(outRows, peerStart, peerEnd, n);
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
        keep = count > keep.length ? new boolean[Math.max(count, keep.length * 2)] : keep;
        boolean[] keep = this.keep;
        Arrays.fill(keep, 0, count, false);
        if (kk > 0) {
            heap = ints(heap, parts * kk);
            heapSizes = ints(heapSizes, parts);
            int[] heap = this.heap;
            int[] size = heapSizes;
            Arrays.fill(size, 0, parts, 0);
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
        sel = ints(sel, m + tail);
        int[] sel = this.sel;
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
     * only the runs equal on it are sorted by the other keys; a TEXT or NUMERIC first key, a comparison sort.
     * A grouped run's batch is one partition: only the order keys count. The array returned is
     * run scratch with room for {@code room} positions (the caller appends the held-back rows).
     */
    private int[] sortedPositions(int room) {
        perm = ints(perm, room);
        int[] perm = this.perm;
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        int keyCount = sortKeys.length;
        if (keyCount == 0 || n < 2) {
            return perm;
        }
        boolean numeric = true;
        for (int k = 0; k < keyCount; k++) {
            numeric &= key(k).kind == ValueBuffer.Kind.LONG || key(k).kind == ValueBuffer.Kind.DOUBLE;
        }
        radixScratch(n);
        if (numeric) {
            permTmp = ints(permTmp, room);
            int[] next = permTmp;
            for (int k = keyCount - 1; k >= 0; k--) {
                radixPass(perm, k, next);
                int[] t = perm;
                perm = next;
                next = t;
            }
            this.perm = perm;
            this.permTmp = next;
            return perm;
        }
        ValueBuffer first = key(0);
        if (first.kind == ValueBuffer.Kind.TEXT || first.kind == ValueBuffer.Kind.NUMERIC) {
            mergeSort(perm, 0, n, comparator(0));
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
        long[] keys = radixKeys;
        int[] pos = radixPay;
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
        if (StableRadix.sort(keys, pos, m, radixKeysTmp, radixPayTmp, radixCounts)) {
            keys = radixKeysTmp;
            pos = radixPayTmp;
        }
        int base = nullsFirst ? nulls : 0;
        System.arraycopy(pos, 0, perm, base, m);
        if (keyCount > 1) {
            IntComparator rest = comparator(1);
            if (nulls > 1) {
                mergeSort(perm, nullsFirst ? 0 : m, nullsFirst ? nulls : n, rest);
            }
            for (int s = 0; s < m; ) {
                int e = s + 1;
                while (e < m && keys[e] == keys[s]) {
                    e++;
                }
                if (e - s > 1) {
                    mergeSort(perm, base + s, base + e, rest);
                }
                s = e;
            }
        }
        return perm;
    }

    /** Grows the radix scratch to {@code m} pairs (and makes the digit counts once a batch is large enough to use them). */
    private void radixScratch(int m) {
        if (radixKeys.length < m) {
            int cap = Math.max(m, radixKeys.length * 2);
            radixKeys = new long[cap];
            radixKeysTmp = new long[cap];
            radixPay = new int[cap];
            radixPayTmp = new int[cap];
        }
        if (radixCounts == null && m >= StableRadix.SMALL) {
            radixCounts = new int[StableRadix.COUNTS];
        }
    }

    /**
     * A stable sort of {@code perm[from, to)}: fastutil's mergeSort with a support array that
     * equals perm over the range (the plain overload clones all of perm per call).
     */
    private void mergeSort(int[] perm, int from, int to, IntComparator c) {
        mergeSupport = ints(mergeSupport, to);
        System.arraycopy(perm, from, mergeSupport, from, to - from);
        IntArrays.mergeSort(perm, from, to, c, mergeSupport);
    }

    /**
     * Stably reorders {@code perm} by sort key {@code k} into {@code into}: NULLs set apart in
     * their current order, the others by a stable radix sort of (key, position) pairs.
     */
    private void radixPass(int[] perm, int k, int[] into) {
        long[] keys = radixKeys;
        int[] pay = radixPay;
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
        int[] sorted = StableRadix.sort(keys, pay, m, radixKeysTmp, radixPayTmp, radixCounts) ? radixPayTmp : pay;
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

    /** The comparator on sort keys {@code from} (0 or 1) onward, made once per run. */
    private IntComparator comparator(int from) {
        if (from == 0) {
            return compareAll != null ? compareAll : (compareAll = comparatorFrom(0));
        }
        return compareRest != null ? compareRest : (compareRest = comparatorFrom(1));
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
        int[] starts = this.starts;
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
        this.starts = starts;
        peerEnd[n - 1] = n;
        for (int i = n - 2; i >= 0; i--) {
            peerEnd[i] = peerStart[i + 1] == i + 1 ? i + 1 : peerEnd[i + 1];
        }
        return starts;
    }

    /** Function {@code f}'s evaluator for this run; {@link WindowEvaluator#bind} gives it each batch's arrays. */
    private WindowEvaluator evaluator(int f, EvalContext ctx) {
        WindowFunctionSpec spec = op.functions[f];
        ResultColumn out = new ResultColumn(op.output.column(f), f, op.nullObserver);
        ValueBuffer[] a = args[f];
        switch (spec.kind()) {
            case ROW_NUMBER:
            case RANK:
            case DENSE_RANK:
            case PERCENT_RANK:
            case CUME_DIST:
                return new RankingEvaluator(spec.kind(), out, null);
            case NTILE:
                return new RankingEvaluator(spec.kind(), out, a[0]);
            case LAG:
            case LEAD:
                return new OffsetEvaluator(spec.kind() == WindowFunctionKind.LAG, out, a[0],
                        a.length > 1 ? a[1] : null, a.length > 2 ? a[2] : null);
            default:
                break;
        }
        FrameBounds bounds = new FrameBounds(spec.frame(), order.length == 1 ? order[0] : null,
                order.length == 1 ? orderSpecs[0] : null, ctx);
        switch (spec.kind()) {
            case VAR_POP:
            case VAR_SAMP:
            case VARIANCE:
            case STDDEV_POP:
            case STDDEV_SAMP:
            case STDDEV:
                return new VarianceEvaluator(spec.kind(), out, a[0], bounds, spec.frame().startsUnbounded() && !spec.frame().excludes(),
                        spec.resultType() == io.respsql.expr.SqlType.DOUBLE);
            case FIRST_VALUE:
            case LAST_VALUE:
            case NTH_VALUE:
                return new FrameValueEvaluator(spec.kind(), out, a[0], a.length > 1 ? a[1] : null, bounds);
            default:
                return new FrameAggregateEvaluator(spec.kind(), out, a.length > 0 ? a[0] : null, bounds,
                        spec.frame().startsUnbounded() && !spec.frame().excludes(), spec.resultType() == io.respsql.expr.SqlType.NUMERIC);
        }
    }

    /** {@code a}, or a larger array (at least double) when it holds fewer than {@code need}; contents not kept. */
    private static int[] ints(int[] a, int need) {
        return a.length >= need ? a : new int[Math.max(need, a.length * 2)];
    }
}
