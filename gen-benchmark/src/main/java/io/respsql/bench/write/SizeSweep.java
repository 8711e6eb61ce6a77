package io.respsql.bench.write;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Section 1: U1/U2/U3 by table size, every invariant checked between statements, then U1 repeated
 * for a distribution.
 */
final class SizeSweep {

    static final String U1 = "UPDATE t SET v = v + 1 WHERE id = 1";
    static final String U2 = "UPDATE t SET v = v + 1000 WHERE grp = 5";
    static final String U3 = "UPDATE t SET v = v + 7";

    /** One size on one target. */
    record Result(String target, long rows, long u1, long u2, long u3, long m1, long m2, long m3,
            Histogram u1Repeat, String samplesFile, String hgrmFile, String checksFile, long checks) {
    }

    private final Out out;
    private final PrintStream log;
    private final int u1Reps;

    SizeSweep(Out out, PrintStream log, int u1Reps) {
        this.out = out;
        this.log = log;
        this.u1Reps = u1Reps;
    }

    /**
     * SUM(v) expected after seeding, U1, U2 and U3, from the seeding rule alone: U1 adds 1, U2
     * adds 1000 per row of group 5, U3 adds 7 per row.
     */
    static long[] expectedSums(long n) {
        long seeded = Expected.sum1ToN(n);
        long afterU1 = seeded + 1;
        long afterU2 = Math.addExact(afterU1, Math.multiplyExact(1000, Expected.countModEq(n, 100, 5)));
        long afterU3 = Math.addExact(afterU2, Math.multiplyExact(7, n));
        return new long[] {seeded, afterU1, afterU2, afterU3};
    }

    /**
     * Runs the section's statements on a small table first, untimed, so the first size measured
     * does not also pay for the server's (and the driver's) JIT compilation of these paths.
     */
    void warmUp(Target t, long rows) {
        if (rows <= 0) {
            return;
        }
        long t0 = System.nanoTime();
        t.rebuild(rows);
        for (int i = 0; i < 3000; i++) {
            t.exec(U1);
            if (i % 100 == 0) {
                t.query("SELECT id, grp, v, tag FROM t WHERE id = " + (1 + i % rows));
                t.query("SELECT SUM(v) FROM t");
                t.query("SELECT COUNT(*) FROM t");
            }
        }
        for (int i = 0; i < 20; i++) {
            t.exec(U2);
        }
        for (int i = 0; i < 5; i++) {
            t.exec(U3);
        }
        t.exec("DROP TABLE IF EXISTS t");
        log.printf("  %s warmed up on %,d rows (U1 x3000, U2 x20, U3 x5, untimed) in %d ms%n", t.name(), rows,
                (System.nanoTime() - t0) / 1_000_000);
    }

    Result run(Target t, long n) {
        String checksFile = "s1-checks-" + t.key() + "-" + n + ".txt";
        try (PrintWriter cw = out.writer(checksFile)) {
            Checks c = new Checks(cw);
            long t0 = System.nanoTime();
            t.rebuild(n);
            c.note(t.name() + " rebuilt with " + n + " rows in " + (System.nanoTime() - t0) / 1_000_000 + " ms: "
                    + t.rebuildDescription());
            long[] sums = expectedSums(n);
            long sum = sums[0];
            c.count(t, n, "after seeding");
            c.sum(t, sum, "after seeding");
            // AVG's text differs between servers (10000.5 against 10000.5000000000000000): compare as numbers.
            c.equal(t.name() + " AVG(v) (after seeding) [SELECT AVG(v) FROM t]", (n + 1) / 2.0,
                    Double.parseDouble(t.query("SELECT AVG(v) FROM t").get(0)));
            c.equal(t.name() + " MIN(v), MAX(v) (after seeding) [SELECT MIN(v), MAX(v) FROM t]", "[1," + n + "]",
                    t.query("SELECT MIN(v), MAX(v) FROM t").toString());

            // U1: one row.
            long m1 = t.exec(U1);
            long u1 = t.lastNanos();
            c.note("U1 " + U1 + " -> " + m1 + " in " + u1 + " ns");
            c.equal("U1 matched", 1, m1);
            sum = sums[1];
            c.sum(t, sum, "after U1");
            c.row(t, 1, 2, "updated by U1");
            c.row(t, 2, 2, "neighbour, untouched");
            c.count(t, n, "after U1");

            // U2: group 5, about 1% of the rows.
            long g5 = Expected.countModEq(n, 100, 5);
            long m2 = t.exec(U2);
            long u2 = t.lastNanos();
            c.note("U2 " + U2 + " -> " + m2 + " in " + u2 + " ns");
            c.equal("U2 matched", g5, m2);
            sum = sums[2];
            c.sum(t, sum, "after U2");
            c.equal(t.name() + " SUM(v) of group 5 [SELECT SUM(v) FROM t WHERE grp = 5]",
                    Expected.sumModEq(n, 100, 5) + 1000 * g5, t.scalar("SELECT SUM(v) FROM t WHERE grp = 5"));
            long last5 = Expected.lastModEq(n, 100, 5);
            if (g5 > 0) {
                c.row(t, 5, 1005, "first row of group 5");
                c.row(t, last5, last5 + 1000, "last row of group 5");
                if (n >= 6) {
                    c.row(t, 6, 6, "neighbour, untouched");
                }
            }
            c.row(t, 1, 2, "U1's row, not in group 5");
            c.count(t, n, "after U2");

            // U3: every row.
            long m3 = t.exec(U3);
            long u3 = t.lastNanos();
            c.note("U3 " + U3 + " -> " + m3 + " in " + u3 + " ns");
            c.equal("U3 matched", n, m3);
            sum = sums[3];
            c.sum(t, sum, "after U3");
            c.row(t, 1, 9, "U1 + U3");
            if (n >= 2) {
                c.row(t, 2, 9, "U3 only");
            }
            if (g5 > 0) {
                c.row(t, 5, 1012, "U2 + U3");
            }
            c.row(t, n, n + 7 + (n % 100 == 5 ? 1000 : 0), "last row");
            c.count(t, n, "after U3");
            c.equal(t.name() + " MIN(v), MAX(v) [SELECT MIN(v), MAX(v) FROM t]",
                    "[9," + Math.max(n + 7 + (n % 100 == 5 ? 1000 : 0), last5 + 1007) + "]",
                    t.query("SELECT MIN(v), MAX(v) FROM t").toString());

            // U1 repeated, one statement at a time, for its distribution.
            long[] samples = new long[u1Reps];
            Histogram h = Dist.newHistogram();
            for (int i = 0; i < u1Reps; i++) {
                long m = t.exec(U1);
                if (m != 1) {
                    c.equal("U1 repeat " + (i + 1) + " matched", 1, m);
                }
                samples[i] = t.lastNanos();
                h.recordValue(samples[i]);
            }
            sum += u1Reps;
            c.note("U1 repeated " + u1Reps + " times, each matched 1 row");
            c.sum(t, sum, "after U1 x" + u1Reps);
            c.row(t, 1, 9 + u1Reps, "U1 x" + u1Reps);
            c.count(t, n, "after U1 x" + u1Reps);

            String base = "s1-u1x" + u1Reps + "-" + t.key() + "-" + n;
            out.samples(base + ".samples.txt", t.name() + ", " + n + " rows: " + U1 + " repeated " + u1Reps
                    + " times after U1, U2, U3", samples);
            try (PrintStream hs = new PrintStream(out.dir.resolve(base + ".hgrm").toFile())) {
                hs.println("# " + t.name() + ", " + n + " rows, " + U1 + " x" + u1Reps + "; values in microseconds");
                h.outputPercentileDistribution(hs, 5, 1000.0);
            } catch (java.io.FileNotFoundException e) {
                throw new java.io.UncheckedIOException(e);
            }
            t.exec("DROP TABLE IF EXISTS t");
            log.printf("  %s %,d rows: U1 %s us, U2 %s us (%d rows), U3 %s us (%d rows), U1 x%d p50 %s us; %d checks passed%n",
                    t.name(), n, Dist.us(u1), Dist.us(u2), m2, Dist.us(u3), m3, u1Reps,
                    Dist.us(h.getValueAtPercentile(50)), c.passed());
            return new Result(t.name(), n, u1, u2, u3, m1, m2, m3, h, base + ".samples.txt", base + ".hgrm",
                    checksFile, c.passed());
        }
    }

    static List<Result> forTarget(List<Result> all, String target) {
        List<Result> r = new ArrayList<>();
        for (Result x : all) {
            if (x.target().equals(target)) {
                r.add(x);
            }
        }
        return r;
    }
}
