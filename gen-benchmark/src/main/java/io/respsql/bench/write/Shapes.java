package io.respsql.bench.write;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Section 2: mutation shapes on one table size. The table is rebuilt before every shape, so no
 * shape is measured on a table another shape mutated; within a shape, how the state is kept or
 * restored between repetitions is stated in {@link Shape#method}.
 */
final class Shapes {

    record Shape(String key, String title, String statement, String method) {
    }

    record Result(String target, Shape shape, long[] nanos, String file) {
    }

    static final Shape ONE_ROW = new Shape("update-1-row", "UPDATE 1 row by id",
            "UPDATE t SET v = v + 1 WHERE id = <random id>",
            "a random id each repetition (drawn with replacement); nothing undone (v changes, rows and keys do not)");
    static final Shape ORDERED = new Shape("update-1000-ordered", "UPDATE 1,000 rows, ids in row order",
            "UPDATE t SET v = v + 1 WHERE id BETWEEN a AND a+999",
            "a different random 1,000-id block each repetition; nothing undone");
    static final Shape SCATTERED = new Shape("update-1000-scattered", "UPDATE 1,000 rows, scattered ids",
            "UPDATE t SET v = v + 1 WHERE id IN (<1,000 distinct random ids>)",
            "1,000 new random ids each repetition; nothing undone");
    static final Shape DELETE = new Shape("delete-1000-range", "DELETE 1,000 rows by id range",
            "DELETE FROM t WHERE id BETWEEN a AND a+999",
            "a different random 1,000-id block each repetition; after each, untimed, the same 1,000 rows are"
                    + " INSERTed back with their seeded values and COUNT(*) checked, so every DELETE sees N rows");
    static final Shape[] AGGREGATES = {
        new Shape("count-before-delete", "COUNT(*), before deleting one row", "SELECT COUNT(*) FROM t", ""),
        new Shape("sum-before-delete", "SUM(v), before deleting one row", "SELECT SUM(v) FROM t", ""),
        new Shape("minmax-before-delete", "MIN(v), MAX(v), before deleting one row", "SELECT MIN(v), MAX(v) FROM t", ""),
        new Shape("count-after-delete", "COUNT(*), after deleting one row", "SELECT COUNT(*) FROM t", ""),
        new Shape("sum-after-delete", "SUM(v), after deleting one row", "SELECT SUM(v) FROM t", ""),
        new Shape("minmax-after-delete", "MIN(v), MAX(v), after deleting one row", "SELECT MIN(v), MAX(v) FROM t", ""),
    };
    static final String AGG_METHOD = "the table is rebuilt, each aggregate runs R times, then"
            + " DELETE FROM t WHERE id = <N/2> (untimed) and each runs R times again; nothing is vacuumed or compacted";

    private final Out out;
    private final PrintStream log;
    private final long n;
    private final int oneRowReps;
    private final int reps;
    private final int aggReps;
    private final long seed;
    /** Every timed statement of each shape, as the first target ran them; the next must match. */
    private final java.util.Map<String, List<String>> statements = new java.util.HashMap<>();

    Shapes(Out out, PrintStream log, long n, int oneRowReps, int reps, int aggReps, long seed) {
        this.out = out;
        this.log = log;
        this.n = n;
        this.oneRowReps = oneRowReps;
        this.reps = reps;
        this.aggReps = aggReps;
        this.seed = seed;
    }

    List<Result> run(Target t) {
        List<Result> results = new ArrayList<>();
        String checksFile = "s2-checks-" + t.key() + ".txt";
        try (PrintWriter cw = out.writer(checksFile)) {
            Checks c = new Checks(cw);
            // The same random choices for both targets: one generator per shape, seeded alike.
            results.add(updates(t, c, ONE_ROW, oneRowReps, new Random(seed + 1)));
            results.add(updates(t, c, ORDERED, reps, new Random(seed + 2)));
            results.add(updates(t, c, SCATTERED, reps, new Random(seed + 3)));
            results.add(deletes(t, c, reps, new Random(seed + 4)));
            results.addAll(aggregates(t, c));
            t.exec("DROP TABLE IF EXISTS t");
            log.printf("  %s shapes on %,d rows: %d checks passed%n", t.name(), n, c.passed());
        }
        return results;
    }

    private void rebuild(Target t, Checks c, Shape s) {
        long t0 = System.nanoTime();
        t.rebuild(n);
        c.note(s.key() + ": table rebuilt with " + n + " rows in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        c.count(t, n, s.key() + ", fresh table");
    }

    private Result updates(Target t, Checks c, Shape s, int count, Random rnd) {
        rebuild(t, c, s);
        List<String> sent = new ArrayList<>(count);
        long[] ns = new long[count];
        long blocks = n / 1000;
        long[] blockOrder = blocks > 0 ? sample(rnd, blocks, (int) Math.min(count, blocks)) : new long[0];
        long added = 0;
        String first = null;
        for (int i = 0; i < count; i++) {
            String sql;
            long want;
            if (s == ONE_ROW) {
                sql = "UPDATE t SET v = v + 1 WHERE id = " + (1 + (long) (rnd.nextDouble() * n));
                want = 1;
            } else if (s == ORDERED) {
                long a = 1 + blockOrder[i % blockOrder.length] * 1000;
                sql = "UPDATE t SET v = v + 1 WHERE id BETWEEN " + a + " AND " + (a + 999);
                want = 1000;
            } else {
                long[] ids = sample(rnd, n, 1000);
                StringBuilder sb = new StringBuilder("UPDATE t SET v = v + 1 WHERE id IN (");
                for (int k = 0; k < ids.length; k++) {
                    sb.append(k == 0 ? "" : ",").append(ids[k] + 1);
                }
                sql = sb.append(')').toString();
                want = ids.length;
            }
            if (first == null) {
                first = sql;
            }
            sent.add(sql);
            long m = t.exec(sql);
            ns[i] = t.lastNanos();
            if (m != want) {
                c.equal(s.key() + " repetition " + (i + 1) + " matched [" + RespTarget.abbreviate(sql) + "]", want, m);
            }
            added += m;
        }
        c.note(s.key() + ": " + count + " repetitions, each matched as expected; first: " + RespTarget.abbreviate(first));
        c.sum(t, Expected.sum1ToN(n) + added, s.key() + ", after " + count + " repetitions");
        c.count(t, n, s.key() + ", after");
        record(s, sent);
        return save(t, s, ns);
    }

    /** Writes the statements the first time a shape runs; afterwards requires the same list. */
    private void record(Shape s, List<String> sent) {
        List<String> before = statements.putIfAbsent(s.key(), sent);
        if (before == null) {
            try (PrintWriter w = out.writer("s2-" + s.key() + ".statements.txt")) {
                w.println("# every timed statement of the shape, in order, the same for every target (seeded)");
                sent.forEach(w::println);
            }
        } else if (!before.equals(sent)) {
            throw new BenchFailure(s.key() + ": the targets were sent different statements");
        }
    }

    private Result deletes(Target t, Checks c, int count, Random rnd) {
        Shape s = DELETE;
        rebuild(t, c, s);
        long blocks = n / 1000;
        if (blocks == 0) {
            throw new BenchFailure("the shapes table needs at least 1,000 rows");
        }
        long[] order = sample(rnd, blocks, (int) Math.min(count, blocks));
        long[] ns = new long[count];
        List<String> sent = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long a = 1 + order[i % order.length] * 1000;
            String sql = "DELETE FROM t WHERE id BETWEEN " + a + " AND " + (a + 999);
            sent.add(sql);
            long m = t.exec(sql);
            ns[i] = t.lastNanos();
            c.equal(s.key() + " " + (i + 1) + " deleted [" + sql + "]", 1000, m);
            c.count(t, n - 1000, s.key() + " " + (i + 1) + ", after the DELETE");
            t.exec(Target.insertSeeded(a, a + 999));
            c.count(t, n, s.key() + " " + (i + 1) + ", rows inserted back");
        }
        c.sum(t, Expected.sum1ToN(n), s.key() + ", after " + count + " deletes, each undone");
        record(s, sent);
        return save(t, s, ns);
    }

    private List<Result> aggregates(Target t, Checks c) {
        rebuild(t, c, AGGREGATES[0]);
        List<Result> r = new ArrayList<>();
        long sum = Expected.sum1ToN(n);
        String[] before = {Long.toString(n), Long.toString(sum), "1," + n};
        long gone = n / 2;
        String[] after = {Long.toString(n - 1), Long.toString(sum - gone), "1," + n};
        for (int phase = 0; phase < 2; phase++) {
            if (phase == 1) {
                c.equal("DELETE FROM t WHERE id = " + gone, 1, t.exec("DELETE FROM t WHERE id = " + gone));
            }
            for (int k = 0; k < 3; k++) {
                Shape s = AGGREGATES[phase * 3 + k];
                String want = (phase == 0 ? before : after)[k];
                long[] ns = new long[aggReps];
                for (int i = 0; i < aggReps; i++) {
                    List<String> rows = t.query(s.statement());
                    ns[i] = t.lastNanos();
                    if (i == 0 || rows.size() != 1 || !rows.get(0).equals(want)) {
                        c.equal(s.key() + " [" + s.statement() + "]", "[" + want + "]", rows.toString());
                    }
                }
                r.add(save(t, s, ns));
            }
        }
        return r;
    }

    private Result save(Target t, Shape s, long[] ns) {
        String file = "s2-" + s.key() + "-" + t.key() + ".samples.txt";
        out.samples(file, t.name() + ", " + n + "-row table rebuilt before the shape: " + s.statement()
                + (s.method().isEmpty() ? "; " + AGG_METHOD : "; " + s.method()), ns);
        log.printf("    %-24s %-10s p50 %s us (%d samples)%n", s.key(), t.name(), Dist.us(Dist.percentile(ns, 50)), ns.length);
        return new Result(t.name(), s, ns, file);
    }

    /** k distinct numbers in 0..bound-1, in random order. */
    static long[] sample(Random rnd, long bound, int k) {
        if (k > bound) {
            throw new IllegalArgumentException("cannot draw " + k + " distinct numbers below " + bound);
        }
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        long[] r = new long[k];
        int i = 0;
        while (i < k) {
            long x = (long) (rnd.nextDouble() * bound);
            if (seen.add(x)) {
                r[i++] = x;
            }
        }
        return r;
    }
}
