package io.respsql.exec.op.join;

import io.respsql.exec.op.CancelCheck;
import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import it.unimi.dsi.fastutil.HashCommon;

import java.util.Arrays;
import java.util.List;

/**
 * An equi-join: runs {@code build} into a hash table of its tuples (the slots of
 * {@code buildRelations}) by {@code buildKeys}, then runs {@code probe} and, for each probe
 * tuple, pushes every build tuple with equal keys (slots restored, in build order) for which
 * {@code residual} (nullable) is TRUE. A key with a NULL matches nothing. With
 * {@code leftOuter} the probe side is preserved: a probe tuple without any match is pushed once
 * with the build relations' slots at -1 (the NULL row).
 *
 * <p>The build tuples are kept as flat row slots ({@link BuildRows}) regrouped by key after the
 * build, so a probe's matches are one contiguous run. One integer key: an open-addressing table
 * of longs sized once from the build's tuple count ({@link LongBuild}); any other keys: dense ids
 * from a {@link KeyTable}. Numeric keys of different types meet as doubles.
 */
public final class HashJoin implements Operator {
    private final Operator build;
    private final int[] buildRelations;
    private final Keys buildKeys;
    private final Operator probe;
    private final Keys probeKeys;
    private final boolean leftOuter;
    private final Expression residual;
    /** Tests turn the dense form off to compare it with the hashed one. */
    boolean denseAllowed = true;

    public HashJoin(Operator build, int[] buildRelations, Expression[] buildKeys, Operator probe, Expression[] probeKeys,
                    boolean leftOuter, Expression residual) {
        buildKeys = buildKeys.clone();
        probeKeys = probeKeys.clone();
        Keys.matchForms(buildKeys, probeKeys);
        byte[] kinds = Keys.unify(buildKeys, probeKeys);
        this.build = build;
        this.buildRelations = buildRelations.clone();
        this.buildKeys = new Keys(buildKeys, kinds);
        this.probe = probe;
        this.probeKeys = new Keys(probeKeys, kinds);
        this.leftOuter = leftOuter;
        this.residual = residual;
    }

    @Override
    public boolean run(EvalContext ctx, TupleConsumer out) {
        // The build side's rows read, as a first capacity of the tuple arrays, bounded (a selective
        // filter over a big scan keeps few, and a correlated subquery runs this per outer row); the
        // hash table itself is sized once, from the tuples actually built.
        int capacity = (int) Math.min(Operator.rowsTouchedUnder(build), 1 << 12);
        if (buildKeys.singleLong() && probeKeys.singleLong()) {
            LongBuild table = new LongBuild(buildKeys.expression(0), buildRelations, capacity);
            build.run(ctx, table);
            if (table.rows.size == 0 && !leftOuter) {
                return true;
            }
            DenseBuild dense = denseAllowed ? DenseBuild.of(table) : null;
            if (dense != null) {
                return probe.run(ctx, new DenseProbe(dense, probeKeys.expression(0), leftOuter, residual, out, CancelCheck.of(ctx)));
            }
            table.finish();
            return probe.run(ctx, new LongProbe(table, probeKeys.expression(0), leftOuter, residual, out, CancelCheck.of(ctx)));
        }
        Build table = new Build(buildKeys, buildRelations, capacity);
        build.run(ctx, table);
        if (table.rows.size == 0 && !leftOuter) {
            return true;
        }
        table.finish();
        return probe.run(ctx, new Probe(table, probeKeys, leftOuter, residual, out, CancelCheck.of(ctx)));
    }

    private static int hash(long k) {
        return HashCommon.mix((int) (k ^ (k >>> 32)));
    }

    /**
     * The build side keyed by one integer (the usual id = id join). The tuples are first only
     * appended (key and slots, no hashing); {@link #finish} then sizes an open-addressing table
     * once from their number and fills it: per slot the key and, in the long next to it, the
     * run of that key's tuples (start &lt;&lt; 32 | end, never 0 in a used slot), so a probe
     * touches one cache line of the table and then its matches' contiguous slots; or, when the
     * build is one relation with distinct keys, the row slot itself (top bit set).
     */
    private static final class LongBuild implements TupleConsumer {
        private final Expression key;
        final BuildRows rows;
        /** The build keys in build order. */
        private long[] keys;
        /** Smallest and largest build key (meaningful while rows.size > 0). */
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        /** Slot i: table[2i] the key, table[2i + 1] its tuples' run (0: empty). */
        long[] table;
        int mask;

        LongBuild(Expression key, int[] relations, int capacity) {
            this.key = key;
            this.rows = new BuildRows(relations, capacity);
            this.keys = new long[Math.max(capacity, 16)];
        }

        @Override
        public boolean accept(EvalContext ctx) {
            long k = key.evalLong(ctx);
            if (ctx.isNull) {
                return true; // NULL = anything is never TRUE
            }
            int n = rows.size;
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
            }
            keys[n] = k;
            if (k < min) {
                min = k;
            }
            if (k > max) {
                max = k;
            }
            rows.append(ctx);
            return true;
        }

        void finish() {
            int n = rows.size;
            // At most half full; sized for every key distinct up to 32,768 tuples (1 MB of table),
            // beyond that grown as distinct keys arrive: many tuples may share few keys. While
            // counting, a used slot holds its key's dense id + 1 (ids survive a growth).
            int slots = Math.min(Integer.highestOneBit(Math.max(n, 8) * 2 - 1) << 1, 1 << 16);
            long[] t = new long[slots * 2];
            int m = slots - 1;
            long[] ks = keys;
            int[] ids = new int[n];
            int[] start = new int[n + 1]; // id i's tuples counted at i + 1, then its first position at i
            int distinct = 0;
            for (int i = 0; i < n; i++) {
                long k = ks[i];
                int h = hash(k) & m;
                long v;
                while ((v = t[2 * h + 1]) != 0 && t[2 * h] != k) {
                    h = (h + 1) & m;
                }
                int id;
                if (v == 0) {
                    id = distinct++;
                    t[2 * h] = k;
                    t[2 * h + 1] = id + 1;
                    if (distinct * 2 > slots) {
                        slots *= 2;
                        m = slots - 1;
                        t = grow(t, m);
                    }
                } else {
                    id = (int) v - 1;
                }
                ids[i] = id;
                start[id + 1]++;
            }
            if (distinct < n) { // runs in first-seen order of their keys, each in build order
                for (int id = 0; id < distinct; id++) {
                    start[id + 1] += start[id];
                }
                int[] fill = Arrays.copyOf(start, distinct);
                rows.beginMove();
                for (int i = 0; i < n; i++) {
                    rows.move(i, fill[ids[i]]++);
                }
                rows.endMove();
            }
            // All keys distinct: id i is tuple i. Of one relation (a primary key), the slot holds
            // the row itself (top bit set), so a probe reads no tuple array at all.
            boolean inline = distinct == n && rows.width() == 1;
            int[] r = rows.rows;
            for (int h = 0; h < slots; h++) {
                long v = t[2 * h + 1];
                if (v != 0) {
                    int id = (int) v - 1;
                    t[2 * h + 1] = inline ? Long.MIN_VALUE | (r[id] & 0xFFFFFFFFL)
                            : distinct == n ? ((long) id << 32) | (id + 1) : ((long) start[id] << 32) | start[id + 1];
                }
            }
            if (inline) {
                rows.rows = null;
            }
            keys = null;
            table = t;
            mask = m;
        }

        /** The used slots of {@code t} (key, id + 1) in a table of {@code m + 1} slots. */
        private static long[] grow(long[] t, int m) {
            long[] g = new long[(m + 1) * 2];
            for (int i = 0; i < t.length; i += 2) {
                if (t[i + 1] != 0) {
                    long k = t[i];
                    int h = hash(k) & m;
                    while (g[2 * h + 1] != 0) {
                        h = (h + 1) & m;
                    }
                    g[2 * h] = k;
                    g[2 * h + 1] = t[i + 1];
                }
            }
            return g;
        }
    }

    /**
     * The build side of one integer key whose keys span few values (dense ids, the primary key of
     * a dimension table: at most {@link #SLOTS_PER_TUPLE} array slots per build tuple): a perfect
     * hash, key - min indexing an int[] directly, so a probe is one bounds test and one array read
     * instead of a hashed walk. Distinct keys of one relation: {@code row[k - min]} is the row slot
     * + 1 (0: no tuple). Otherwise the tuples are regrouped by key (a counting sort, stable: each
     * key's tuples stay in build order) and key k's tuples are {@code start[k - min]} to
     * {@code start[k - min + 1]}.
     */
    static final class DenseBuild {
        static final int SLOTS_PER_TUPLE = 4;
        final BuildRows rows;
        final long min;
        final long max;
        final int span;
        /** Distinct keys of one relation: per key - min its row slot + 1; else null. */
        final int[] row;
        /** Otherwise: per key - min the first of its tuples, one more entry at the end. */
        final int[] start;

        private DenseBuild(BuildRows rows, long min, int span, int[] row, int[] start) {
            this.rows = rows;
            this.min = min;
            this.max = min + span - 1;
            this.span = span;
            this.row = row;
            this.start = start;
        }

        /** The dense form of {@code b} (appended, not finished), or null when its keys spread too wide. */
        static DenseBuild of(LongBuild b) {
            int n = b.rows.size;
            if (n == 0) {
                return new DenseBuild(b.rows, 0, 0, null, new int[1]);
            }
            long spanL = b.max - b.min + 1; // overflows to <= 0 only when the keys span more than a long
            if (spanL <= 0 || spanL > (long) n * SLOTS_PER_TUPLE || spanL > Integer.MAX_VALUE - 1) {
                return null;
            }
            int span = (int) spanL;
            long min = b.min;
            long[] ks = b.keys;
            int[] count = new int[span + 1]; // key - min's tuples counted at + 1
            boolean distinct = true;
            for (int i = 0; i < n; i++) {
                int c = ++count[(int) (ks[i] - min) + 1];
                distinct &= c == 1;
            }
            BuildRows rows = b.rows;
            b.keys = null;
            if (distinct && rows.width() == 1) {
                int[] r = rows.rows;
                int[] slot = new int[span];
                for (int i = 0; i < n; i++) {
                    slot[(int) (ks[i] - min)] = r[i] + 1;
                }
                rows.rows = null;
                return new DenseBuild(rows, min, span, slot, null);
            }
            for (int i = 0; i < span; i++) {
                count[i + 1] += count[i];
            }
            int[] fill = Arrays.copyOf(count, span);
            rows.beginMove();
            for (int i = 0; i < n; i++) {
                rows.move(i, fill[(int) (ks[i] - min)]++);
            }
            rows.endMove();
            return new DenseBuild(rows, min, span, null, count);
        }
    }

    /** {@link Probe} over a {@link DenseBuild}. */
    private static final class DenseProbe implements TupleConsumer {
        private final BuildRows rows;
        private final long min;
        private final long max;
        private final int[] row;
        private final int[] start;
        private final Expression key;
        private final boolean leftOuter;
        private final Expression residual;
        private final TupleConsumer out;
        /** Counts matches pushed (a key shared by many build tuples); null: not cancellable. */
        private final CancelCheck check;

        DenseProbe(DenseBuild b, Expression key, boolean leftOuter, Expression residual, TupleConsumer out, CancelCheck check) {
            this.check = check;
            this.rows = b.rows;
            this.min = b.min;
            this.max = b.max;
            this.row = b.row;
            this.start = b.start;
            this.key = key;
            this.leftOuter = leftOuter;
            this.residual = residual;
            this.out = out;
        }

        @Override
        public boolean accept(EvalContext ctx) {
            long k = key.evalLong(ctx);
            boolean matched = false;
            if (!ctx.isNull && k >= min && k <= max) {
                int o = (int) (k - min);
                if (row != null) {
                    int r = row[o];
                    if (r != 0) {
                        rows.restoreRow(ctx, r - 1);
                        if (residual == null || residual.isTrue(ctx)) {
                            matched = true;
                            if (!out.accept(ctx)) {
                                return false;
                            }
                        }
                    }
                } else {
                    int end = start[o + 1];
                    if (check != null) {
                        check.add(end - start[o]);
                    }
                    for (int p = start[o]; p < end; p++) {
                        rows.restore(ctx, p);
                        if (residual == null || residual.isTrue(ctx)) {
                            matched = true;
                            if (!out.accept(ctx)) {
                                return false;
                            }
                        }
                    }
                }
            }
            if (!matched && leftOuter) {
                rows.nullRow(ctx);
                return out.accept(ctx);
            }
            return true;
        }
    }

    /** {@link Probe} over a {@link LongBuild}. */
    private static final class LongProbe implements TupleConsumer {
        private final BuildRows rows;
        private final long[] table;
        private final int mask;
        private final Expression key;
        private final boolean leftOuter;
        private final Expression residual;
        private final TupleConsumer out;
        /** Counts matches pushed (a key shared by many build tuples); null: not cancellable. */
        private final CancelCheck check;

        LongProbe(LongBuild b, Expression key, boolean leftOuter, Expression residual, TupleConsumer out, CancelCheck check) {
            this.check = check;
            this.rows = b.rows;
            this.table = b.table;
            this.mask = b.mask;
            this.key = key;
            this.leftOuter = leftOuter;
            this.residual = residual;
            this.out = out;
        }

        @Override
        public boolean accept(EvalContext ctx) {
            long k = key.evalLong(ctx);
            boolean matched = false;
            if (!ctx.isNull) {
                long[] t = table;
                int m = mask;
                int h = hash(k) & m;
                long run;
                while ((run = t[2 * h + 1]) != 0) {
                    if (t[2 * h] == k) {
                        if (run < 0) { // the one row of a primary key
                            rows.restoreRow(ctx, (int) run);
                            if (residual == null || residual.isTrue(ctx)) {
                                matched = true;
                                if (!out.accept(ctx)) {
                                    return false;
                                }
                            }
                            break;
                        }
                        int end = (int) run;
                        if (check != null) {
                            check.add(end - (int) (run >>> 32));
                        }
                        for (int p = (int) (run >>> 32); p < end; p++) {
                            rows.restore(ctx, p);
                            if (residual == null || residual.isTrue(ctx)) {
                                matched = true;
                                if (!out.accept(ctx)) {
                                    return false;
                                }
                            }
                        }
                        break;
                    }
                    h = (h + 1) & m;
                }
            }
            if (!matched && leftOuter) {
                rows.nullRow(ctx);
                return out.accept(ctx);
            }
            return true;
        }
    }

    /**
     * One run's hash table for any keys: dense key ids from a {@link KeyTable}; after the build,
     * the tuples regrouped by id so that id i's are {@code start[i]} to {@code start[i + 1]}.
     */
    private static final class Build implements TupleConsumer {
        private final Keys keys;
        private final KeyBuffer buf;
        final KeyTable table;
        final BuildRows rows;
        /** Each tuple's key id, in build order. */
        private int[] ids;
        /** Id i's tuples: start[i] to start[i + 1]; null when every id has one tuple (id i: tuple i). */
        int[] start;

        Build(Keys keys, int[] relations, int capacity) {
            this.keys = keys;
            this.buf = keys.newBuffer();
            this.table = new KeyTable(keys.newStore());
            this.rows = new BuildRows(relations, capacity);
            this.ids = new int[Math.max(capacity, 16)];
        }

        @Override
        public boolean accept(EvalContext ctx) {
            keys.load(ctx, buf);
            if (buf.anyNull()) {
                return true; // NULL = anything is never TRUE: this tuple can match no probe
            }
            int n = rows.size;
            if (n == ids.length) {
                ids = Arrays.copyOf(ids, n * 2);
            }
            ids[n] = table.findOrAdd(buf);
            rows.append(ctx);
            return true;
        }

        void finish() {
            int n = rows.size;
            int distinct = table.size();
            if (distinct < n) { // ids are dense in first-seen order: all distinct means id i is tuple i
                int[] s = new int[distinct + 1];
                int[] id = ids;
                for (int i = 0; i < n; i++) {
                    s[id[i] + 1]++;
                }
                for (int i = 0; i < distinct; i++) {
                    s[i + 1] += s[i];
                }
                int[] fill = Arrays.copyOf(s, distinct);
                rows.beginMove();
                for (int i = 0; i < n; i++) {
                    rows.move(i, fill[id[i]]++);
                }
                rows.endMove();
                start = s;
            }
            ids = null;
        }
    }

    /** Pushes the matches of each probe tuple (or its NULL-extended self). */
    private static final class Probe implements TupleConsumer {
        private final Build b;
        private final Keys keys;
        private final KeyBuffer buf;
        private final boolean leftOuter;
        private final Expression residual;
        private final TupleConsumer out;
        /** Counts matches pushed (a key shared by many build tuples); null: not cancellable. */
        private final CancelCheck check;

        Probe(Build b, Keys keys, boolean leftOuter, Expression residual, TupleConsumer out, CancelCheck check) {
            this.check = check;
            this.b = b;
            this.keys = keys;
            this.buf = keys.newBuffer();
            this.leftOuter = leftOuter;
            this.residual = residual;
            this.out = out;
        }

        @Override
        public boolean accept(EvalContext ctx) {
            keys.load(ctx, buf);
            boolean matched = false;
            if (!buf.anyNull()) {
                int id = b.table.find(buf);
                if (id >= 0) {
                    int[] s = b.start;
                    int end = s == null ? id + 1 : s[id + 1];
                    if (check != null) {
                        check.add(end - (s == null ? id : s[id]));
                    }
                    for (int p = s == null ? id : s[id]; p < end; p++) {
                        b.rows.restore(ctx, p);
                        if (residual == null || residual.isTrue(ctx)) {
                            matched = true;
                            if (!out.accept(ctx)) {
                                return false;
                            }
                        }
                    }
                }
            }
            if (!matched && leftOuter) {
                b.rows.nullRow(ctx);
                return out.accept(ctx);
            }
            return true;
        }
    }

    @Override
    public void inputs(java.util.function.Consumer<Operator> each) {
        each.accept(probe);
        each.accept(build);
    }

    @Override
    public long relations() {
        return build.relations() | probe.relations();
    }

    @Override
    public void explain(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + (leftOuter ? "HashLeftJoin" : "HashJoin") + " on (" + probeKeys.describe() + ") = ("
                + buildKeys.describe() + ")" + (residual == null ? "" : " and " + residual.describe()));
        probe.explain(lines, depth + 1);
        build.explain(lines, depth + 1);
    }
}
