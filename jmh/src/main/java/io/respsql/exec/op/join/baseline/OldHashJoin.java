package io.respsql.exec.op.join.baseline;

import io.respsql.exec.op.KeyBuffer;
import io.respsql.exec.op.KeyTable;
import io.respsql.exec.op.Keys;
import io.respsql.exec.op.LongKeyTable;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleBuffer;
import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;

import java.util.List;

/**
 * Baseline copy of HashJoin at 7a37954 (before the hashjoin branch), for HashJoinAB only.
 * An equi-join: runs {@code build} into a hash table of its tuples (the slots of
 * {@code buildRelations}) by {@code buildKeys}, then runs {@code probe} and, for each probe
 * tuple, pushes every build tuple with equal keys (slots restored, in build order) for which
 * {@code residual} (nullable) is TRUE. A key with a NULL matches nothing. With
 * {@code leftOuter} the probe side is preserved: a probe tuple without any match is pushed once
 * with the build relations' slots at -1 (the NULL row).
 *
 * <p>Distinct keys get dense ids from a {@link KeyTable} (a {@link LongKeyTable} for one
 * integer key); the tuples of one key form a {@link OldChains} chain. Numeric keys of different
 * types meet as doubles.
 */
public final class OldHashJoin implements Operator {
    private final Operator build;
    private final int[] buildRelations;
    private final Keys buildKeys;
    private final Operator probe;
    private final Keys probeKeys;
    private final boolean leftOuter;
    private final Expression residual;

    public OldHashJoin(Operator build, int[] buildRelations, Expression[] buildKeys, Operator probe, Expression[] probeKeys,
                    boolean leftOuter, Expression residual) {
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
        if (buildKeys.singleLong() && probeKeys.singleLong()) {
            LongBuild table = new LongBuild(buildKeys.expression(0), buildRelations);
            build.run(ctx, table);
            if (table.tuples.size() == 0 && !leftOuter) {
                return true;
            }
            return probe.run(ctx, new LongProbe(table, probeKeys.expression(0), buildRelations, leftOuter, residual, out));
        }
        Build table = new Build(buildKeys, buildRelations);
        build.run(ctx, table);
        if (table.tuples.size() == 0 && !leftOuter) {
            return true;
        }
        return probe.run(ctx, new Probe(table, probeKeys, buildRelations, leftOuter, residual, out));
    }

    /**
     * The build side keyed by one integer (the usual id = id join): a {@link LongKeyTable} on the
     * key's value, read straight from its expression, instead of a key buffer and a generic table.
     */
    private static final class LongBuild implements TupleConsumer {
        private final Expression key;
        final LongKeyTable table = new LongKeyTable();
        final TupleBuffer tuples;
        final OldChains chains = new OldChains();

        LongBuild(Expression key, int[] relations) {
            this.key = key;
            this.tuples = new TupleBuffer(relations);
        }

        @Override
        public boolean accept(EvalContext ctx) {
            long k = key.evalLong(ctx);
            if (ctx.isNull) {
                return true; // NULL = anything is never TRUE
            }
            int id = table.findOrAdd(k);
            chains.link(id, table.added, tuples.append(ctx));
            return true;
        }
    }

    /** {@link Probe} over a {@link LongBuild}. */
    private static final class LongProbe implements TupleConsumer {
        private final LongBuild b;
        private final Expression key;
        private final int[] buildRelations;
        private final boolean leftOuter;
        private final Expression residual;
        private final TupleConsumer out;

        LongProbe(LongBuild b, Expression key, int[] buildRelations, boolean leftOuter, Expression residual, TupleConsumer out) {
            this.b = b;
            this.key = key;
            this.buildRelations = buildRelations;
            this.leftOuter = leftOuter;
            this.residual = residual;
            this.out = out;
        }

        @Override
        public boolean accept(EvalContext ctx) {
            long k = key.evalLong(ctx);
            boolean matched = false;
            if (!ctx.isNull) {
                int id = b.table.find(k);
                for (int t = b.chains.first(id); t >= 0; t = b.chains.next(t)) {
                    b.tuples.restore(ctx, t);
                    if (residual == null || residual.isTrue(ctx)) {
                        matched = true;
                        if (!out.accept(ctx)) {
                            return false;
                        }
                    }
                }
            }
            if (!matched && leftOuter) {
                int[] slots = ctx.slots;
                for (int r : buildRelations) {
                    slots[r] = -1;
                }
                return out.accept(ctx);
            }
            return true;
        }
    }

    /** One run's hash table: key ids, and per key a chain of build tuple numbers. */
    private static final class Build implements TupleConsumer {
        private final Keys keys;
        private final KeyBuffer buf;
        final KeyTable table;
        final TupleBuffer tuples;
        final OldChains chains = new OldChains();

        Build(Keys keys, int[] relations) {
            this.keys = keys;
            this.buf = keys.newBuffer();
            this.table = new KeyTable(keys.newStore());
            this.tuples = new TupleBuffer(relations);
        }

        @Override
        public boolean accept(EvalContext ctx) {
            keys.load(ctx, buf);
            if (buf.anyNull()) {
                return true; // NULL = anything is never TRUE: this tuple can match no probe
            }
            int id = table.findOrAdd(buf);
            chains.link(id, table.added, tuples.append(ctx));
            return true;
        }
    }

    /** Pushes the matches of each probe tuple (or its NULL-extended self). */
    private static final class Probe implements TupleConsumer {
        private final Build b;
        private final Keys keys;
        private final KeyBuffer buf;
        private final int[] buildRelations;
        private final boolean leftOuter;
        private final Expression residual;
        private final TupleConsumer out;

        Probe(Build b, Keys keys, int[] buildRelations, boolean leftOuter, Expression residual, TupleConsumer out) {
            this.b = b;
            this.keys = keys;
            this.buf = keys.newBuffer();
            this.buildRelations = buildRelations;
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
                for (int t = b.chains.first(id); t >= 0; t = b.chains.next(t)) {
                    b.tuples.restore(ctx, t);
                    if (residual == null || residual.isTrue(ctx)) {
                        matched = true;
                        if (!out.accept(ctx)) {
                            return false;
                        }
                    }
                }
            }
            if (!matched && leftOuter) {
                int[] slots = ctx.slots;
                for (int r : buildRelations) {
                    slots[r] = -1;
                }
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
