package io.respsql.exec.op.aggregate;

import io.respsql.exec.op.BatchConsumer;
import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyStore;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.LongKeyTable;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.Outputs;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.exec.op.scan.IndexRange;
import io.respsql.exec.op.scan.TableScan;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.storage.Table;

import java.util.List;

/**
 * GROUP BY: consumes all of its input, groups tuples by the values of {@code groupKeys} (NULL
 * keys group together), computes every aggregate per group, writes one row per group into the
 * work table {@code output} (columns: the keys, then the aggregates), then pushes the rows in
 * the order their groups were first seen, with {@code ctx.slots[outputRelation]} the row's slot.
 * Without group keys there is exactly one group, even over no input (COUNT 0, the others NULL).
 *
 * <p>Per-group state lives in primitive arrays indexed by group number ({@link Accumulator});
 * groups are found through an open-addressing {@link KeyTable}: no object per tuple or group.
 */
public final class HashAggregate implements Operator {
    private final Operator input;
    private final Keys keys;
    private final AggregateSpec[] aggregates;
    private final Table output;
    private final int outputRelation;

    public HashAggregate(Operator input, Expression[] groupKeys, AggregateSpec[] aggregates, Table output, int outputRelation) {
        if (output.columnCount() != groupKeys.length + aggregates.length) {
            throw new IllegalArgumentException("work table " + output.name() + " has " + output.columnCount() + " columns for "
                    + groupKeys.length + " keys and " + aggregates.length + " aggregates");
        }
        this.input = input;
        this.keys = new Keys(groupKeys);
        this.aggregates = aggregates.clone();
        this.output = output;
        this.outputRelation = outputRelation;
    }

    // ---- agg: one grouping set of GROUPING SETS / ROLLUP / CUBE ----
    /** False for every grouping set but the first: the sets' rows share the output table. */
    private boolean clearOutput = true;
    /** A member of grouping sets: the general grouping path (its keys hold constants). */
    private boolean groupingSet;
    /** The empty grouping set: one row even over no input. */
    private boolean oneGroupAlways;

    /** Makes this aggregation one set of grouping sets ({@code first}: it clears the shared output; {@code empty}: the set (), one row always). */
    public HashAggregate asGroupingSet(boolean first, boolean empty) {
        this.clearOutput = first;
        this.groupingSet = true;
        this.oneGroupAlways = empty;
        return this;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        if (clearOutput) {
            Outputs.clear(output);
        }
        Accumulator[] accs = new Accumulator[aggregates.length];
        for (int a = 0; a < accs.length; a++) {
            accs[a] = aggregates[a].newAccumulator(ctx);
        }
        if (groupingSet) {
            Grouping grouping = new Grouping(keys, accs);
            input.run(ctx, grouping);
            if (oneGroupAlways && grouping.groups() == 0) {
                grouping.addConstantGroup(ctx);
            }
            int keyCount = keys.size();
            KeyStore store = grouping.store;
            return pushGroups(ctx, out, accs, grouping.groups(), keyCount, (g, row) -> {
                for (int j = 0; j < keyCount; j++) {
                    Outputs.writeKey(store, g, j, output.column(j), row);
                }
            });
        }
        if (input instanceof TableScan) {
            TableScan scan = (TableScan) input;
            io.respsql.exec.op.Morsels morsels = io.respsql.exec.op.Morsels.current();
            if (morsels != null && scan.splittable() && mergeable(accs) && reentrant()) {
                int stripes = morsels.stripes(scan.highWater());
                if (stripes > 1) {
                    return runParallel(ctx, out, accs, scan, morsels, stripes);
                }
            }
            return runBatches(ctx, out, accs, scan.relation(), scan.tableRows(), scan::runBatches);
        }
        if (input instanceof IndexRange) {
            IndexRange range = (IndexRange) input;
            return runBatches(ctx, out, accs, range.relation(), range.index().tree().size(), range::runBatches);
        }
        if (keys.singleLong()) {
            return runLong(ctx, out, accs);
        }
        if (anyMemoized()) {
            return runCoded(ctx, out, accs);
        }
        Grouping grouping = new Grouping(keys, accs);
        input.run(ctx, grouping);
        int keyCount = keys.size();
        KeyStore store = grouping.store;
        return pushGroups(ctx, out, accs, grouping.groups(), keyCount, (g, row) -> {
            for (int j = 0; j < keyCount; j++) {
                Outputs.writeKey(store, g, j, output.column(j), row);
            }
        });
    }

    /** Writes group {@code g}'s GROUP BY values into output row {@code row} (columns 0 .. keys-1). */
    // ---- parallel ----
    /**
     * Whether the stripes may share the keys' and aggregates' expressions (each stripe has its own
     * context, but expression nodes with buffers of their own are not re-entrant).
     */
    private boolean reentrant() {
        if (!keys.reentrant()) {
            return false;
        }
        for (AggregateSpec a : aggregates) {
            if (!io.respsql.expr.Reentrant.check(a.argument()) || !io.respsql.expr.Reentrant.check(a.second())
                    || !io.respsql.expr.Reentrant.check(a.filter())) {
                return false;
            }
        }
        return true;
    }

    private static boolean mergeable(Accumulator[] accs) {
        for (Accumulator a : accs) {
            if (!a.mergeable()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The scan's batch path split over stripes ({@link io.respsql.exec.op.Morsels}): each stripe
     * groups its morsels into a grouping of its own (its own key coders and accumulators, in a
     * context of its own) and notes the row where each of its groups was first seen. Then, on
     * this thread, the stripes' groups in the order of those rows (the order the serial scan
     * first meets them) are coded again from their first rows into the final grouping, and each
     * stripe's accumulators are merged into it. So the groups come out numbered, and pushed, as
     * the serial path numbers them, and a group's partial results are merged in the order of
     * their stripes' first rows: the same answer whichever thread ran which stripe.
     */
    private boolean runParallel(EvalContext ctx, TupleConsumer out, Accumulator[] accs, TableScan scan,
                                io.respsql.exec.op.Morsels morsels, int stripes) {
        int relation = scan.relation();
        long inputRows = scan.tableRows();
        BatchGrouping[] parts = new BatchGrouping[stripes];
        EvalContext[] contexts = new EvalContext[stripes];
        for (int s = 0; s < stripes; s++) {
            contexts[s] = io.respsql.exec.op.Morsels.child(ctx);
            Accumulator[] local = new Accumulator[aggregates.length];
            for (int a = 0; a < local.length; a++) {
                local[a] = aggregates[a].newAccumulator(contexts[s]);
            }
            parts[s] = new BatchGrouping(keys, local, relation, inputRows / stripes + 1);
            parts[s].trackFirstRows();
        }
        int unit = morsels.unit();
        // The first morsel first, on this thread, into stripe 0's grouping: when it shows many
        // groups for its rows (seed 004's Q16, a customer's few orders each: the merge would cost
        // what the split saves), the rest is scanned here into the same grouping, which is then
        // the serial path's (same batches, same group numbers, first-seen rows unused).
        int[] sel0 = new int[TableScan.BATCH];
        RowCounter counted = new RowCounter(parts[0]);
        scan.runMorsels(contexts[0], counted, 0, 1, 1, unit, sel0);
        if (keys.size() > 0 && counted.rows >= 32 && (long) parts[0].groups() * MANY_GROUPS > counted.rows) {
            scan.runMorsels(contexts[0], parts[0], 1, 1, Integer.MAX_VALUE, unit, sel0);
            return pushMerged(ctx, out, parts[0].accs, parts[0]);
        }
        // stripe 0 has its first morsel; every stripe takes its morsels s, s + stripes, ... from there
        morsels.run(stripes, s -> scan.runMorsels(contexts[s], parts[s], s == 0 ? stripes : s, stripes,
                Integer.MAX_VALUE, unit, s == 0 ? sel0 : new int[TableScan.BATCH]));
        // every stripe's groups by the row that first showed them: each stripe's are in row order
        // already (a stripe scans its rows ascending), so a k-way merge of the stripes' lists
        BatchGrouping merged = new BatchGrouping(keys, accs, relation, inputRows);
        int[] pos = new int[stripes];
        int[] sel = new int[TableScan.BATCH];
        int[] fromStripe = new int[TableScan.BATCH];
        int[] fromGroup = new int[TableScan.BATCH];
        while (true) {
            int n = 0;
            while (n < TableScan.BATCH) {
                int best = -1;
                int bestRow = Integer.MAX_VALUE;
                for (int s = 0; s < stripes; s++) {
                    BatchGrouping part = parts[s];
                    if (pos[s] < part.firstSeen && part.firstRows[pos[s]] < bestRow) {
                        best = s;
                        bestRow = part.firstRows[pos[s]];
                    }
                }
                if (best < 0) {
                    break;
                }
                sel[n] = bestRow;
                fromStripe[n] = best;
                fromGroup[n] = pos[best]++;
                n++;
            }
            if (n == 0) {
                break;
            }
            int[] gids = merged.assign(ctx, sel, n);
            for (int i = 0; i < n; i++) {
                Accumulator[] local = parts[fromStripe[i]].accs;
                int lg = fromGroup[i];
                int g = gids[i];
                for (int a = 0; a < accs.length; a++) {
                    accs[a].merge(local[a], lg, g);
                }
            }
        }
        return pushMerged(ctx, out, accs, merged);
    }

    /**
     * A first morsel with more than one group per this many rows keeps the scan on one thread:
     * each stripe would then hold about as many groups as it has rows to merge.
     */
    private static final int MANY_GROUPS = 4;

    /** Counts the rows a consumer takes (the first morsel's, for its groups per row). */
    private static final class RowCounter implements BatchConsumer {
        private final BatchConsumer to;
        long rows;

        RowCounter(BatchConsumer to) {
            this.to = to;
        }

        @Override
        public boolean acceptBatch(EvalContext ctx, int[] sel, int n) {
            rows += n;
            return to.acceptBatch(ctx, sel, n);
        }
    }

    /** Pushes the groups of {@code merged} (its accumulators {@code accs}), as {@link #runBatches} does. */
    private boolean pushMerged(EvalContext ctx, TupleConsumer out, Accumulator[] accs, BatchGrouping merged) {
        int keyCount = keys.size();
        int[] codes = new int[Math.max(keyCount, 1)];
        return pushGroups(ctx, out, accs, merged.groups(), keyCount, (g, row) -> {
            if (keyCount > 0) {
                merged.decode(g, codes);
                for (int j = 0; j < keyCount; j++) {
                    merged.coders[j].write(output.column(j), row, codes[j]);
                }
            }
        });
    }

    @FunctionalInterface
    private interface KeyWriter {
        void write(int g, int row);
    }

    /**
     * The output of every way of grouping: per group (in group-number order) an output row with
     * its keys ({@code keyWriter}) and then its aggregates (columns from {@code keyCount} on),
     * then the rows pushed in the same order. False when the consumer stopped.
     */
    private boolean pushGroups(EvalContext ctx, TupleConsumer out, Accumulator[] accs, int groups, int keyCount,
                               KeyWriter keyWriter) {
        int[] rows = new int[groups];
        for (int g = 0; g < groups; g++) {
            int row = output.allocateRow();
            keyWriter.write(g, row);
            for (int a = 0; a < accs.length; a++) {
                accs[a].write(output.column(keyCount + a), row, g);
            }
            rows[g] = row;
        }
        for (int g = 0; g < groups; g++) {
            ctx.slots[outputRelation] = rows[g];
            if (!out.accept(ctx)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Over a table scan, a batch at a time ({@link TableScan#runBatches}): each key turns the batch
     * into dense codes ({@link KeyCoder}), several keys' codes are folded pairwise into group
     * numbers through {@link LongKeyTable}s on (left code, right code), then every accumulator
     * takes the batch in one loop. Groups are numbered in first-seen order, as row at a time.
     */
    private boolean runBatches(EvalContext ctx, TupleConsumer out, Accumulator[] accs, int relation, long inputRows,
                               BatchSource source) {
        BatchGrouping grouping = new BatchGrouping(keys, accs, relation, inputRows);
        source.run(ctx, grouping);
        int keyCount = keys.size();
        int[] codes = new int[Math.max(keyCount, 1)];
        return pushGroups(ctx, out, accs, grouping.groups(), keyCount, (g, row) -> {
            if (keyCount > 0) {
                grouping.decode(g, codes);
                for (int j = 0; j < keyCount; j++) {
                    grouping.coders[j].write(output.column(j), row, codes[j]);
                }
            }
        });
    }

    /** A scan's or a range's batch-at-a-time run. */
    private interface BatchSource {
        boolean run(EvalContext ctx, BatchConsumer out);
    }

    private static final class BatchGrouping implements BatchConsumer {
        final KeyCoder[] coders;
        /** pairs[j] (j >= 1): group number of keys 0..j from (number of keys 0..j-1, code of key j). */
        private final LongKeyTable[] pairs;
        final Accumulator[] accs;
        private final int relation;
        private final BatchScratch scratch = new BatchScratch();
        private final int[] gids = new int[TableScan.BATCH];
        private final int[] codes = new int[TableScan.BATCH];
        private int capacity;

        BatchGrouping(Keys keys, Accumulator[] accs, int relation, long rows) {
            int k = keys.size();
            this.coders = new KeyCoder[k];
            for (int j = 0; j < k; j++) {
                coders[j] = KeyCoder.of(keys.expression(j), relation, rows);
            }
            this.pairs = new LongKeyTable[k];
            for (int j = 1; j < k; j++) {
                pairs[j] = new LongKeyTable();
            }
            this.accs = accs;
            this.relation = relation;
            ensure(k == 0 ? 1 : 16);
        }

        private void ensure(int n) {
            capacity = n;
            for (Accumulator a : accs) {
                a.grow(n);
            }
        }

        int groups() {
            int k = coders.length;
            return k == 0 ? 1 : k == 1 ? coders[0].size() : pairs[k - 1].size();
        }

        /** The codes of group {@code g}'s keys into {@code into}. */
        void decode(int g, int[] into) {
            decodePairs(pairs, coders.length, g, into);
        }

        // ---- parallel ----
        /** Per group, the row slot where it was first seen (a stripe's grouping: {@link #trackFirstRows}); else null. */
        int[] firstRows;
        /** Groups whose first row is noted (a stripe with no row has none, even without keys). */
        int firstSeen;

        void trackFirstRows() {
            firstRows = new int[16];
        }

        /**
         * The group numbers of the rows {@code sel[0..n)} (new groups added), without taking them
         * into the accumulators: the merge of stripes codes each stripe group's first row here.
         */
        int[] assign(EvalContext ctx, int[] sel, int n) {
            group(ctx, sel, n);
            return gids;
        }

        private void group(EvalContext ctx, int[] sel, int n) {
            int[] g = gids;
            int k = coders.length;
            if (k == 0) {
                java.util.Arrays.fill(g, 0, n, 0);
            } else {
                coders[0].codes(ctx, relation, sel, n, g, scratch);
                for (int j = 1; j < k; j++) {
                    coders[j].codes(ctx, relation, sel, n, codes, scratch);
                    LongKeyTable t = pairs[j];
                    int[] c = codes;
                    for (int i = 0; i < n; i++) {
                        g[i] = t.findOrAdd(((long) g[i] << 32) | c[i]);
                    }
                }
                int groups = groups();
                if (groups > capacity) {
                    int cap = capacity;
                    while (cap < groups) {
                        cap *= 2;
                    }
                    ensure(cap);
                }
            }
            if (firstRows != null && firstSeen < groups()) {
                int groups = groups();
                if (firstRows.length < groups) {
                    firstRows = java.util.Arrays.copyOf(firstRows, Math.max(groups, firstRows.length * 2));
                }
                for (int i = 0; i < n && firstSeen < groups; i++) {
                    if (g[i] == firstSeen) { // groups are numbered as first seen, in batch order
                        firstRows[firstSeen++] = sel[i];
                    }
                }
            }
        }

        @Override
        public boolean acceptBatch(EvalContext ctx, int[] sel, int n) {
            group(ctx, sel, n);
            int[] g = gids;
            Accumulator[] as = accs;
            for (int a = 0; a < as.length; a++) {
                as[a].takeBatch(ctx, relation, sel, n, g, scratch);
            }
            return true;
        }
    }

    /** Tests let {@link SlotKeyCoder} memoize live tables' columns too (they change only between runs there). */
    boolean memoLiveColumns;

    private boolean anyMemoized() {
        for (int j = 0; j < keys.size(); j++) {
            if (SlotKeyCoder.memoRelation(keys.expression(j), memoLiveColumns) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * GROUP BY over tuples (a join) with a key that is a column of one relation: the keys coded
     * in units ({@link CodedGrouping}), several units' codes folded pairwise into group numbers
     * through {@link LongKeyTable}s on (left number, right code), groups numbered in first-seen order.
     */
    private boolean runCoded(EvalContext ctx, TupleConsumer out, Accumulator[] accs) {
        CodedGrouping grouping = new CodedGrouping(keys, accs, memoLiveColumns);
        input.run(ctx, grouping);
        int[] codes = new int[grouping.coders.length];
        return pushGroups(ctx, out, accs, grouping.groups(), keys.size(), (g, row) -> {
            grouping.decode(g, codes);
            for (int u = 0; u < codes.length; u++) {
                int[] at = grouping.positions[u];
                for (int i = 0; i < at.length; i++) {
                    grouping.coders[u].write(output.column(at[i]), row, codes[u], i);
                }
            }
        });
    }

    /**
     * The keys in units, each one {@link SlotKeyCoder}: the keys resolved by one relation's slot
     * together (c.country, c.customer_id: one memo read per tuple), the others together; units in
     * the order of their first key.
     */
    private static final class CodedGrouping implements TupleConsumer {
        final SlotKeyCoder[] coders;
        /** positions[u]: the GROUP BY positions of unit u's keys, in the order the unit holds them. */
        final int[][] positions;
        /** pairs[u] (u >= 1): group number of units 0..u from (number of units 0..u-1, code of unit u). */
        private final LongKeyTable[] pairs;
        private final Accumulator[] accs;
        private int capacity;

        CodedGrouping(Keys keys, Accumulator[] accs, boolean liveColumnsToo) {
            int n = keys.size();
            int[] unitRel = new int[n]; // per key: its memo relation, or -1
            for (int j = 0; j < n; j++) {
                unitRel[j] = SlotKeyCoder.memoRelation(keys.expression(j), liveColumnsToo);
            }
            java.util.List<int[]> units = new java.util.ArrayList<>();
            java.util.List<Integer> rels = new java.util.ArrayList<>();
            boolean[] taken = new boolean[n];
            for (int j = 0; j < n; j++) {
                if (taken[j]) {
                    continue;
                }
                int count = 0;
                int[] at = new int[n];
                for (int i = j; i < n; i++) {
                    if (!taken[i] && unitRel[i] == unitRel[j]) {
                        taken[i] = true;
                        at[count++] = i;
                    }
                }
                units.add(java.util.Arrays.copyOf(at, count));
                rels.add(unitRel[j]);
            }
            int k = units.size();
            this.coders = new SlotKeyCoder[k];
            this.positions = units.toArray(new int[0][]);
            for (int u = 0; u < k; u++) {
                Expression[] es = new Expression[positions[u].length];
                for (int i = 0; i < es.length; i++) {
                    es[i] = keys.expression(positions[u][i]);
                }
                coders[u] = new SlotKeyCoder(es, rels.get(u));
            }
            this.pairs = new LongKeyTable[k];
            for (int j = 1; j < k; j++) {
                pairs[j] = new LongKeyTable();
            }
            this.accs = accs;
            ensure(16);
        }

        private void ensure(int n) {
            capacity = n;
            for (Accumulator a : accs) {
                a.grow(n);
            }
        }

        int groups() {
            int k = coders.length;
            return k == 1 ? coders[0].size() : pairs[k - 1].size();
        }

        void decode(int g, int[] into) {
            decodePairs(pairs, coders.length, g, into);
        }

        @Override
        public boolean accept(EvalContext ctx) {
            SlotKeyCoder[] cs = coders;
            int g = cs[0].code(ctx);
            for (int j = 1; j < cs.length; j++) {
                g = pairs[j].findOrAdd(((long) g << 32) | cs[j].code(ctx));
            }
            if (g >= capacity) {
                ensure(capacity * 2);
            }
            Accumulator[] as = accs;
            for (int a = 0; a < as.length; a++) {
                as[a].take(ctx, g);
            }
            return true;
        }
    }

    /** GROUP BY one integer-carried key: groups found in a {@link LongKeyTable} on the key's value. */
    private boolean runLong(EvalContext ctx, TupleConsumer out, Accumulator[] accs) {
        LongGrouping grouping = new LongGrouping(keys.expression(0), accs);
        input.run(ctx, grouping);
        LongKeyTable table = grouping.table;
        return pushGroups(ctx, out, accs, table.size(), 1, (g, row) -> {
            if (table.isNull(g)) {
                Outputs.writeNull(output.column(0), row);
            } else {
                Outputs.writeLong(output.column(0), row, table.key(g));
            }
        });
    }

    private static final class LongGrouping implements TupleConsumer {
        private final Expression key;
        private final Accumulator[] accs;
        final LongKeyTable table = new LongKeyTable();
        private int capacity;

        LongGrouping(Expression key, Accumulator[] accs) {
            this.key = key;
            this.accs = accs;
            ensure(16);
        }

        private void ensure(int n) {
            capacity = n;
            for (Accumulator a : accs) {
                a.grow(n);
            }
        }

        @Override
        public boolean accept(EvalContext ctx) {
            long k = key.evalLong(ctx);
            int g = ctx.isNull ? table.findOrAddNull() : table.findOrAdd(k);
            if (g >= capacity) {
                ensure(capacity * 2);
            }
            Accumulator[] as = accs;
            for (int a = 0; a < as.length; a++) {
                as[a].take(ctx, g);
            }
            return true;
        }
    }

    /** One run's grouping: the key table and the accumulators, taking each input tuple. */
    private static final class Grouping implements TupleConsumer {
        private final Keys keys;
        private final Accumulator[] accs;
        private final KeyBuffer buf;
        final KeyStore store;
        private final KeyTable table;
        private int capacity;

        Grouping(Keys keys, Accumulator[] accs) {
            this.keys = keys;
            this.accs = accs;
            this.buf = keys.newBuffer();
            this.store = keys.newStore();
            this.table = new KeyTable(store);
            ensure(keys.size() == 0 ? 1 : 16);
        }

        private void ensure(int n) {
            capacity = n;
            for (Accumulator a : accs) {
                a.grow(n);
            }
        }

        int groups() {
            return keys.size() == 0 ? 1 : store.size();
        }

        /** The group of constant keys (the empty grouping set's) when no tuple came. */
        void addConstantGroup(EvalContext ctx) {
            keys.load(ctx, buf);
            table.findOrAdd(buf);
        }

        @Override
        public boolean accept(EvalContext ctx) {
            int g;
            if (keys.size() == 0) {
                g = 0;
            } else {
                keys.load(ctx, buf);
                g = table.findOrAdd(buf);
                if (g >= capacity) {
                    ensure(capacity * 2);
                }
            }
            for (Accumulator a : accs) {
                a.take(ctx, g);
            }
            return true;
        }
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(input);
    }

    @Override
    public long relations() {
        return 1L << outputRelation;
    }

    @Override
    public void explain(List<String> lines, int depth) {
        StringBuilder sb = new StringBuilder("  ".repeat(depth)).append("HashAggregate");
        if (keys.size() > 0) {
            sb.append(" by ").append(keys.describe());
        }
        sb.append(" [");
        for (int a = 0; a < aggregates.length; a++) {
            sb.append(a == 0 ? "" : ", ").append(aggregates[a].describe());
        }
        lines.add(sb.append("] into ").append(output.name()).toString());
        input.explain(lines, depth + 1);
    }

    /**
     * The codes of group {@code g}'s {@code k} keys into {@code into}, through the pair tables
     * both groupings share: pairs[j] maps (group of keys 0..j-1, code of key j) to a group number.
     */
    static void decodePairs(LongKeyTable[] pairs, int k, int g, int[] into) {
        int id = g;
        for (int j = k - 1; j >= 1; j--) {
            long pair = pairs[j].key(id);
            into[j] = (int) pair;
            id = (int) (pair >>> 32);
        }
        into[0] = id;
    }
}
