package io.respsql.exec.op.order;

import io.respsql.exec.op.CancelCheck;
import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleBuffer;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntComparator;

import java.util.Arrays;
import java.util.List;

/**
 * ORDER BY [LIMIT/OFFSET]: buffers every input tuple (the slots of {@code carriedRelations})
 * with its key values, sorts stably (ties keep input order), then replays tuples from
 * {@code offset}, at most {@code limit} of them ({@code limit} -1: all), restoring their slots.
 *
 * <p>With a limit only the best {@code limit + offset} tuples are kept: a bounded max-heap
 * whose top is the worst kept tuple, replaced when a better one arrives (top-N, O(n log k)
 * time, O(k) memory). Ties break by arrival number, so top-N returns what the full sort would.
 */
public final class Sort implements Operator {
    /** Beyond this many kept rows a limit is no bound worth a heap: sort everything. */
    private static final long MAX_HEAP = 1 << 24;

    private final Operator input;
    private final int[] carried;
    private final SortKey[] sortKeys;
    private final Keys keys;
    private final boolean[] descending;
    private final boolean[] nullsFirst;
    private final long limit;
    private final long offset;

    public Sort(Operator input, int[] carriedRelations, SortKey[] keys, long limit, long offset) {
        if (limit < -1 || offset < 0) {
            throw new IllegalArgumentException("limit " + limit + " offset " + offset);
        }
        this.input = input;
        this.carried = carriedRelations.clone();
        this.sortKeys = keys.clone();
        Expression[] exprs = new Expression[keys.length];
        this.descending = new boolean[keys.length];
        this.nullsFirst = new boolean[keys.length];
        for (int j = 0; j < keys.length; j++) {
            exprs[j] = io.respsql.expr.Expressions.orderValue(keys[j].expr());
            descending[j] = keys[j].descending();
            nullsFirst[j] = keys[j].nullsFirst();
        }
        this.keys = new Keys(exprs);
        this.limit = limit;
        this.offset = offset;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (limit == 0) {
            return true;
        }
        long keep = limit < 0 ? -1 : limit + offset;
        if (keep < 0 || keep > MAX_HEAP) {
            return runFull(ctx, out);
        }
        return runTopN(ctx, out, (int) keep);
    }

    private boolean runFull(EvalContext ctx, TupleConsumer out) {
        KeyBuffer buf = keys.newBuffer();
        KeyStore store = keys.newStore();
        TupleBuffer tuples = new TupleBuffer(carried);
        input.run(ctx, c -> {
            keys.load(c, buf);
            store.append(buf);
            tuples.append(c);
            return true;
        });
        int n = store.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        // merge sort is stable: equal keys keep arrival order
        it.unimi.dsi.fastutil.ints.IntComparator byKeys = (a, b) -> store.compare(a, b, descending, nullsFirst);
        CancelCheck check = CancelCheck.of(ctx);
        // A sort of millions of tuples takes long after its input ended: count its comparisons too.
        IntArrays.mergeSort(order, check == null ? byKeys : (a, b) -> {
            check.add(1);
            return byKeys.compare(a, b);
        });
        return replay(ctx, out, tuples, order, n);
    }

    private boolean runTopN(EvalContext ctx, TupleConsumer out, int keep) {
        TopN top = new TopN(keys, carried, descending, nullsFirst, keep);
        input.run(ctx, top);
        int n = top.count;
        int[] order = Arrays.copyOf(top.heap, n);
        IntArrays.mergeSort(order, top);
        return replay(ctx, out, top.tuples, order, n);
    }

    private boolean replay(EvalContext ctx, TupleConsumer out, TupleBuffer tuples, int[] order, int n) {
        long end = limit < 0 ? n : Math.min(n, offset + limit);
        CancelCheck check = CancelCheck.of(ctx);
        for (long i = offset; i < end; i++) {
            if (check != null) {
                check.add(1);
            }
            tuples.restore(ctx, order[(int) i]);
            if (!out.accept(ctx)) {
                return false;
            }
        }
        return true;
    }

    /**
     * One run's bounded heap: ids 0..keep of a key store and tuple buffer (one spare id, the
     * scratch where each arriving tuple is written before it is compared with the worst kept).
     */
    private static final class TopN implements TupleConsumer, IntComparator {
        private final Keys keys;
        private final boolean[] descending;
        private final boolean[] nullsFirst;
        private final int keep;
        private final KeyBuffer buf;
        private final KeyStore store;
        final TupleBuffer tuples;
        int[] heap;
        int count;
        private long[] seq = new long[16];
        private long arrivals;
        private int scratch = -1;

        TopN(Keys keys, int[] carried, boolean[] descending, boolean[] nullsFirst, int keep) {
            this.keys = keys;
            this.descending = descending;
            this.nullsFirst = nullsFirst;
            this.keep = keep;
            this.buf = keys.newBuffer();
            this.store = keys.newStore();
            this.tuples = new TupleBuffer(carried);
            this.heap = new int[Math.min(keep, 1024)];
        }

        @Override
        public boolean accept(EvalContext ctx) {
            keys.load(ctx, buf);
            long s = arrivals++;
            if (count < keep) {
                int id = store.append(buf);
                tuples.append(ctx);
                setSeq(id, s);
                push(id);
                return true;
            }
            // an arrival ties with or loses to the worst kept tuple: it can never enter (its
            // arrival number is the largest), so it is dropped before anything is copied
            if (store.compareBuffer(buf, heap[0], descending, nullsFirst) >= 0) {
                return true;
            }
            if (scratch < 0) {
                scratch = store.append(buf);
                tuples.append(ctx);
            } else {
                store.set(scratch, buf);
                tuples.set(scratch, ctx);
            }
            setSeq(scratch, s);
            int[] h = heap;
            if (compare(scratch, h[0]) < 0) {
                int worst = h[0];
                h[0] = scratch;
                scratch = worst;
                siftDown(h, 0);
            }
            return true;
        }

        private void setSeq(int id, long s) {
            if (id >= seq.length) {
                seq = Arrays.copyOf(seq, seq.length * 2);
            }
            seq[id] = s;
        }

        private void push(int id) {
            int[] h = heap;
            if (count == h.length) {
                h = Arrays.copyOf(h, (int) Math.min(keep, (long) h.length * 2));
                heap = h;
            }
            int i = count++;
            h[i] = id;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (compare(h[i], h[parent]) <= 0) {
                    break;
                }
                int t = h[i];
                h[i] = h[parent];
                h[parent] = t;
                i = parent;
            }
        }

        private void siftDown(int[] h, int i) {
            while (true) {
                int l = 2 * i + 1;
                if (l >= count) {
                    return;
                }
                int big = l + 1 < count && compare(h[l + 1], h[l]) > 0 ? l + 1 : l;
                if (compare(h[big], h[i]) <= 0) {
                    return;
                }
                int t = h[i];
                h[i] = h[big];
                h[big] = t;
                i = big;
            }
        }

        /** Key order, then arrival order: a total order, so the heap keeps exactly what a stable sort ranks first. */
        @Override
        public int compare(int a, int b) {
            int c = store.compare(a, b, descending, nullsFirst);
            return c != 0 ? c : Long.compare(seq[a], seq[b]);
        }
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(input);
    }

    @Override
    public long relations() {
        return input.relations();
    }

    @Override
    public void explain(List<String> lines, int depth) {
        StringBuilder sb = new StringBuilder("  ".repeat(depth)).append(limit >= 0 ? "TopN " : "Sort ");
        for (int j = 0; j < sortKeys.length; j++) {
            sb.append(j == 0 ? "" : ", ").append(sortKeys[j].describe());
        }
        if (limit >= 0) {
            sb.append(" LIMIT ").append(limit);
        }
        if (offset > 0) {
            sb.append(" OFFSET ").append(offset);
        }
        lines.add(sb.toString());
        input.explain(lines, depth + 1);
    }
}
