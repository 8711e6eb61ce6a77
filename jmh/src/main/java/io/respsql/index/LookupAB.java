package io.respsql.index;

import io.respsql.index.baseline.OldLongIntBTree;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An A/B check of the read kernels that is less exposed to a shared machine's load than separate
 * JMH forks: the old and the new indexes of message_list (10M rows, fk = n % 100) live in one JVM
 * and are timed in alternating slices of about 100 ms (old, new, old, new, ...), so load changes
 * hit both sides of each pair alike. Prints each pair's old/new time ratio (above 1: new is
 * faster) and the median, after discarding the warm-up pairs. Not a replacement for JMH.
 *
 * <pre>java -Xms3g -Xmx3g -cp jmh/target/respsql-jmh.jar io.respsql.index.LookupAB [pairs]</pre>
 */
public final class LookupAB {
    private static final int ROWS = 10_000_000;
    private static final int MOD = 100;
    private static final int WARMUP_PAIRS = 5;

    private static LongIntBTree pk;
    private static LongIntBTree fk;
    private static OldLongIntBTree oldPk;
    private static OldLongIntBTree oldFk;
    private static final long[] PROBES = new long[1 << 16];
    private static long sink;

    private LookupAB() {
    }

    public static void main(String[] args) {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        pk = new LongIntBTree();
        fk = new LongIntBTree();
        oldPk = new OldLongIntBTree();
        oldFk = new OldLongIntBTree();
        for (int n = 1; n <= ROWS; n++) {
            pk.insert(n, n - 1);
            fk.insert(n % MOD, n - 1);
            oldPk.insert(n, n - 1);
            oldFk.insert(n % MOD, n - 1);
        }
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < PROBES.length; i++) {
            PROBES[i] = 1 + rnd.nextInt(ROWS);
        }
        for (String kernel : new String[] {"pkFirstRow", "fkFirstRow", "fkRangeWalk100k", "pkRangeWalk100k"}) {
            double[] ratios = new double[pairs];
            double oldSum = 0;
            double newSum = 0;
            for (int p = 0; p < WARMUP_PAIRS + pairs; p++) {
                double o = slice(kernel, true);
                double n = slice(kernel, false);
                if (p >= WARMUP_PAIRS) {
                    ratios[p - WARMUP_PAIRS] = o / n;
                    oldSum += o;
                    newSum += n;
                }
            }
            double[] sorted = ratios.clone();
            Arrays.sort(sorted);
            StringBuilder sb = new StringBuilder();
            for (double r : ratios) {
                sb.append(String.format(" %.2f", r));
            }
            System.out.printf("%-16s old %.1f ns/op new %.1f ns/op (means) median old/new %.2f min %.2f max %.2f pairs:%s%n",
                    kernel, oldSum / pairs, newSum / pairs, sorted[pairs / 2], sorted[0], sorted[pairs - 1], sb);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    /** Runs the kernel for about 100 ms; ns per operation. */
    private static double slice(String kernel, boolean old) {
        long ops = 0;
        long start = System.nanoTime();
        long end = start + 100_000_000L;
        long now;
        int i = 0;
        do {
            for (int j = 0; j < 16; j++, i++) {
                sink += run(kernel, old, PROBES[i & (PROBES.length - 1)]);
            }
            ops += 16;
            now = System.nanoTime();
        } while (now < end);
        return (double) (now - start) / ops;
    }

    private static long run(String kernel, boolean old, long probe) {
        switch (kernel) {
            case "pkFirstRow":
                return old ? oldPk.firstRow(probe) : pk.firstRow(probe);
            case "fkFirstRow":
                return old ? oldFk.firstRow(probe % MOD) : fk.firstRow(probe % MOD);
            case "fkRangeWalk100k":
                return old ? oldFkWalk(1 + probe % (MOD - 1)) : fkWalk(1 + probe % (MOD - 1));
            default:
                return old ? oldPkWalk(probe % (ROWS - 100_000)) : pkWalk(probe % (ROWS - 100_000));
        }
    }

    private static final LongIntBTree.Cursor[] CUR = new LongIntBTree.Cursor[2];
    private static final OldLongIntBTree.Cursor[] OLD_CUR = new OldLongIntBTree.Cursor[2];

    private static long fkWalk(long k) {
        LongIntBTree.Cursor c = CUR[0] != null ? CUR[0] : (CUR[0] = fk.cursor());
        long sum = 0;
        for (boolean v = c.seek(k); v && c.key() == k; v = c.next()) {
            sum += c.row();
        }
        return sum;
    }

    private static long oldFkWalk(long k) {
        OldLongIntBTree.Cursor c = OLD_CUR[0] != null ? OLD_CUR[0] : (OLD_CUR[0] = oldFk.cursor());
        long sum = 0;
        for (boolean v = c.seek(k); v && c.key() == k; v = c.next()) {
            sum += c.row();
        }
        return sum;
    }

    private static long pkWalk(long lo) {
        LongIntBTree.Cursor c = CUR[1] != null ? CUR[1] : (CUR[1] = pk.cursor());
        long sum = 0;
        boolean v = c.seek(lo);
        for (int i = 0; v && i < 100_000; i++, v = c.next()) {
            sum += c.row() + c.key();
        }
        return sum;
    }

    private static long oldPkWalk(long lo) {
        OldLongIntBTree.Cursor c = OLD_CUR[1] != null ? OLD_CUR[1] : (OLD_CUR[1] = oldPk.cursor());
        long sum = 0;
        boolean v = c.seek(lo);
        for (int i = 0; v && i < 100_000; i++, v = c.next()) {
            sum += c.row() + c.key();
        }
        return sum;
    }
}
