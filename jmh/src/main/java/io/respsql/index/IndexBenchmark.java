package io.respsql.index;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The index kernels of message_list at 10M rows (LongIntBTree): the primary key holds (n, n-1)
 * (a dense set) and the fk index (n % 100, n-1) (a B+tree of run-length leaves) for n = 1..10M,
 * both inserted in row order as the large-update test does. Point lookups (firstRow), range walks
 * through a cursor, ascending inserts and removes. The A/B against the pre-issue-13 class is done
 * (bench/index-memory/README.md names the commit that held the old class).
 *
 * <pre>
 * java -jar jmh/target/respsql-jmh.jar IndexBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class IndexBenchmark {
    static final int ROWS = 10_000_000;
    static final int MOD = 100;
    static final int WALK = 100_000;
    static final int BATCH = 1_000_000;
    static final int REMOVES = 10_000;

    private LongIntBTree pk;
    private LongIntBTree fk;
    private LongIntBTree.Cursor pkCur;
    private LongIntBTree.Cursor fkCur;

    /** Random probe keys (existing), cycled. */
    private final long[] probes = new long[1 << 16];
    private int probe;

    @Setup(Level.Trial)
    public void build() {
        pk = new LongIntBTree();
        fk = new LongIntBTree();
        for (int n = 1; n <= ROWS; n++) {
            pk.insert(n, n - 1);
            fk.insert(n % MOD, n - 1);
        }
        pkCur = pk.cursor();
        fkCur = fk.cursor();
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < probes.length; i++) {
            probes[i] = 1 + rnd.nextInt(ROWS);
        }
    }

    private long nextProbe() {
        return probes[probe++ & (probes.length - 1)];
    }

    /** Point lookup on the primary key. */
    @Benchmark
    public int pkFirstRow() {
        long k = nextProbe();
        return pk.firstRow(k);
    }

    /** Point lookup on the fk index (first row of a key with 100,000 rows). */
    @Benchmark
    public int fkFirstRow() {
        long k = nextProbe() % MOD;
        return fk.firstRow(k);
    }

    /** The FK range: seek fk = k and walk its 100,000 rows. Time per walk. */
    @Benchmark
    public long fkRangeWalk100k() {
        long k = 1 + (nextProbe() % (MOD - 1));
        long sum = 0;
        int n = 0;
        LongIntBTree.Cursor c = fkCur;
        for (boolean v = c.seek(k); v && c.key() == k; v = c.next()) {
            sum += c.row();
            n++;
        }
        return sum + n;
    }

    /** A primary-key range of 100,000 keys, walked forward. Time per walk. */
    @Benchmark
    public long pkRangeWalk100k() {
        long lo = nextProbe() % (ROWS - WALK);
        long sum = 0;
        LongIntBTree.Cursor c = pkCur;
        boolean v = c.seek(lo);
        for (int i = 0; v && i < WALK; i++, v = c.next()) {
            sum += c.row() + c.key();
        }
        return sum;
    }

    /** A new primary key filled with 1M ascending keys. Time per insert. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long insertAscendingPk() {
        LongIntBTree t = new LongIntBTree();
        for (int n = 1; n <= BATCH; n++) {
            t.insert(n, n - 1);
        }
        return t.size();
    }

    /** A new fk index fed 1M rows in row order (key n % 100). Time per insert. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long insertAscendingFk() {
        LongIntBTree t = new LongIntBTree();
        for (int n = 1; n <= BATCH; n++) {
            t.insert(n % MOD, n - 1);
        }
        return t.size();
    }

    /**
     * The rows the remove benchmarks take out, picked before and put back after each invocation
     * (outside the measured time). Only the remove benchmarks use this state, so only they pay
     * its per-invocation fixtures.
     */
    @State(Scope.Thread)
    public static class Removals {
        final int[] rows = new int[REMOVES];
        private int seed;

        @Setup(Level.Invocation)
        public void pick() {
            SplittableRandom rnd = new SplittableRandom(seed++);
            for (int i = 0; i < REMOVES; i++) {
                rows[i] = rnd.nextInt(ROWS); // a duplicate just fails to remove twice, in both
            }
        }

        @TearDown(Level.Invocation)
        public void putBack(IndexBenchmark b) {
            for (int row : rows) {
                b.pk.insert(row + 1, row);
                b.fk.insert((row + 1) % MOD, row);
            }
        }
    }

    /** Removes 10,000 random rows from the 10M-row primary key. Time per remove. */
    @Benchmark
    @OperationsPerInvocation(REMOVES)
    public int removePk(Removals r) {
        int removed = 0;
        for (int row : r.rows) {
            if (pk.remove(row + 1, row)) {
                removed++;
            }
        }
        return removed;
    }

    /** Removes 10,000 random rows from the 10M-row fk index. Time per remove. */
    @Benchmark
    @OperationsPerInvocation(REMOVES)
    public int removeFk(Removals r) {
        int removed = 0;
        for (int row : r.rows) {
            long k = (row + 1) % MOD;
            if (fk.remove(k, row)) {
                removed++;
            }
        }
        return removed;
    }
}
