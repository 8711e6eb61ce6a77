package io.respsql.bench.write;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Section 3: one reader that never stops, one writer that alternates between paused and writing
 * slices. Each read is filed under the slice (round, phase) in which it started.
 */
final class ReadsUnderWrites {

    static final int PAUSED = 0;
    static final int WRITING = 1;
    static final String[] PHASE = {"paused", "writing"};
    static final String[] QUERY = {"range", "point"};

    /** One setting on one target: per-round histograms [round][phase][query]. */
    record Result(String target, String setting, Histogram[][][] rounds, long[] writesPerPhase,
            Histogram writeLatency, String histFile, String roundsFile, String writesFile) {
        List<Histogram> phase(int phase, int query) {
            List<Histogram> l = new ArrayList<>();
            for (Histogram[][] r : rounds) {
                l.add(r[phase][query]);
            }
            return l;
        }
    }

    private final Out out;
    private final PrintStream log;
    private final long n;
    private final int rounds;
    private final long sliceMillis;
    private final long seed;
    final String rangeSql;
    private final long rangeFrom;
    private final long rangeTo;

    /** State of the table as the writer has changed it, for the checks and the expected values. */
    long maxId;
    long sum;
    long writes;

    ReadsUnderWrites(Out out, PrintStream log, long n, int rounds, long sliceMillis, long seed) {
        this.out = out;
        this.log = log;
        this.n = n;
        this.rounds = rounds;
        this.sliceMillis = sliceMillis;
        this.seed = seed;
        long width = Math.max(1, Math.min(10_000, n / 10));
        long a = n / 2 - width / 2 + 1;
        this.rangeFrom = a;
        this.rangeTo = a + width - 1;
        this.rangeSql = "SELECT COUNT(*), SUM(v) FROM t WHERE id BETWEEN " + a + " AND " + rangeTo;
    }

    long rangeWidth() {
        return rangeTo - rangeFrom + 1;
    }

    void rebuild(Target t, Checks c) {
        t.rebuild(n);
        maxId = n;
        sum = Expected.sum1ToN(n);
        writes = 0;
        c.count(t, n, "reads under writes, fresh table");
    }

    /** The k-th write (k = 1, 2, ...): odd ones INSERT the next id, even ones UPDATE one FK group. */
    String nextWrite() {
        long k = writes + 1;
        if (k % 2 == 1) {
            long id = maxId + 1;
            return Target.insertSeeded(id, id);
        }
        return "UPDATE t SET v = v + 1 WHERE grp = " + ((k / 2) % 100);
    }

    /** Runs one write and checks what it matched; returns its round trip. */
    long write(Target w) {
        String sql = nextWrite();
        long m = w.exec(sql);
        if (sql.startsWith("INSERT")) {
            maxId++;
            sum += maxId;
        } else {
            long g = ((writes + 1) / 2) % 100;
            long want = Expected.countModEq(maxId, 100, g);
            if (m != want) {
                throw new BenchFailure(w.name() + ": " + sql + " matched " + m + ", expected " + want);
            }
            sum += m;
        }
        writes++;
        return w.lastNanos();
    }

    Result run(Target t, Checks c, String setting, long intervalMillis) {
        Histogram[][][] h = new Histogram[rounds][2][2];
        for (Histogram[][] r : h) {
            for (Histogram[] p : r) {
                p[0] = Dist.newHistogram();
                p[1] = Dist.newHistogram();
            }
        }
        long[] writesPerPhase = new long[2];
        String writesFile = "s3-" + setting + "-" + t.key() + "-writes.tsv";
        PrintWriter ww = out.writer(writesFile);
        ww.println("# " + t.name() + ", setting " + setting + ": every write, filed by the slice it started in");
        ww.println("round\tstatement\tnanos");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Object lock = new Object();
        int[] slot = {-1}; // round * 2 + phase; -1 = warm-up, not recorded
        boolean[] writing = {false};
        boolean[] stop = {false};
        Histogram writeLatency = Dist.newHistogram();

        Target reader = t.open();
        Target writer = t.open();
        Thread rt = new Thread(() -> {
            Random rnd = new Random(seed);
            long width = rangeWidth();
            try {
                for (long i = 0; ; i++) {
                    int s;
                    synchronized (lock) {
                        if (stop[0]) {
                            return;
                        }
                        s = slot[0];
                    }
                    int q = (int) (i & 1);
                    long ns;
                    if (q == 0) {
                        List<String> rows = reader.query(rangeSql);
                        ns = reader.lastNanos();
                        if (rows.size() != 1 || !rows.get(0).startsWith(width + ",")) {
                            throw new BenchFailure(reader.name() + ": " + rangeSql + " answered " + rows
                                    + ", expected COUNT " + width);
                        }
                    } else {
                        long id = 1 + (long) (rnd.nextDouble() * n);
                        List<String> rows = reader.query("SELECT id, grp, v, tag FROM t WHERE id = " + id);
                        ns = reader.lastNanos();
                        if (rows.size() != 1 || !rows.get(0).startsWith(id + "," + (id % 100) + ",")) {
                            throw new BenchFailure(reader.name() + ": point read of id " + id + " answered " + rows);
                        }
                    }
                    if (s >= 0) {
                        h[s / 2][s % 2][q].recordValue(ns);
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "reader");
        Thread wt = new Thread(() -> {
            try {
                while (true) {
                    int s;
                    synchronized (lock) {
                        while (!writing[0] && !stop[0]) {
                            lock.wait();
                        }
                        if (stop[0]) {
                            return;
                        }
                        s = slot[0];
                    }
                    long next = System.nanoTime();
                    // Writes while this slice lasts; a write in flight when it ends still completes.
                    while (true) {
                        String sql = nextWrite();
                        long ns = write(writer);
                        writeLatency.recordValue(ns);
                        writesPerPhase[s % 2]++;
                        ww.println(s / 2 + "\t" + RespTarget.abbreviate(sql) + "\t" + ns);
                        if (intervalMillis > 0) {
                            next += intervalMillis * 1_000_000L;
                            long wait;
                            while ((wait = next - System.nanoTime()) > 0) {
                                synchronized (lock) {
                                    if (slot[0] != s || stop[0]) {
                                        break;
                                    }
                                    lock.wait(Math.max(1, wait / 1_000_000), 0);
                                }
                            }
                        }
                        synchronized (lock) {
                            if (slot[0] != s || stop[0]) {
                                break;
                            }
                        }
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "writer");
        rt.start();
        wt.start();
        try {
            Thread.sleep(Math.min(sliceMillis, 2000)); // reader warm-up, not recorded
            for (int r = 0; r < rounds && failure.get() == null; r++) {
                // Alternate which phase comes first, so neither always follows the other.
                int[] order = r % 2 == 0 ? new int[] {PAUSED, WRITING} : new int[] {WRITING, PAUSED};
                for (int p : order) {
                    synchronized (lock) {
                        slot[0] = r * 2 + p;
                        writing[0] = p == WRITING;
                        lock.notifyAll();
                    }
                    Thread.sleep(sliceMillis);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        } finally {
            synchronized (lock) {
                stop[0] = true;
                writing[0] = false;
                lock.notifyAll();
            }
            try {
                rt.join();
                wt.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            reader.close();
            writer.close();
            ww.close();
        }
        if (failure.get() != null) {
            Throwable e = failure.get();
            throw e instanceof BenchFailure bf ? bf : new BenchFailure(t.name() + " reads under writes: " + e);
        }
        c.count(t, maxId, setting + ": after " + writes + " writes in all");
        c.sum(t, sum, setting + ": after " + writes + " writes in all");
        c.equal(t.name() + " " + setting + ": range read still counts [" + rangeSql + "]", rangeWidth(),
                t.query(rangeSql).get(0).split(",")[0]);

        String histFile = "s3-" + setting + "-" + t.key() + ".hlog";
        try (PrintStream ps = new PrintStream(out.dir.resolve(histFile).toFile())) {
            HistogramLogWriter lw = new HistogramLogWriter(ps);
            lw.outputComment(t.name() + ", setting " + setting + ": one histogram per round, phase and query,"
                    + " tagged r<round>-<phase>-<query>; values in nanoseconds");
            lw.outputLogFormatVersion();
            lw.outputLegend();
            for (int r = 0; r < rounds; r++) {
                for (int p = 0; p < 2; p++) {
                    for (int q = 0; q < 2; q++) {
                        Histogram x = h[r][p][q].copy();
                        x.setTag("r" + r + "-" + PHASE[p] + "-" + QUERY[q]);
                        x.setStartTimeStamp(0);
                        x.setEndTimeStamp(0);
                        lw.outputIntervalHistogram(x);
                    }
                }
            }
        } catch (java.io.FileNotFoundException e) {
            throw new java.io.UncheckedIOException(e);
        }
        String roundsFile = "s3-" + setting + "-" + t.key() + "-rounds.tsv";
        try (PrintWriter w = out.writer(roundsFile)) {
            w.println("# " + t.name() + ", setting " + setting + ": per round, phase and query; microseconds");
            w.println("round\tphase\tquery\treads\tp50_us\tp90_us\tp99_us\tmax_us");
            for (int r = 0; r < rounds; r++) {
                for (int p = 0; p < 2; p++) {
                    for (int q = 0; q < 2; q++) {
                        Histogram x = h[r][p][q];
                        w.printf("%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s%n", r, PHASE[p], QUERY[q], x.getTotalCount(),
                                Dist.us(x.getValueAtPercentile(50)), Dist.us(x.getValueAtPercentile(90)),
                                Dist.us(x.getValueAtPercentile(99)), Dist.us(x.getMaxValue()));
                    }
                }
            }
        }
        Result res = new Result(t.name(), setting, h, writesPerPhase, writeLatency, histFile, roundsFile, writesFile);
        log.printf("  %s %s: range p50 paused %s / writing %s us, point p50 paused %s / writing %s us, %d writes%n",
                t.name(), setting, Dist.us(Dist.medianOfRoundP50s(res.phase(PAUSED, 0))),
                Dist.us(Dist.medianOfRoundP50s(res.phase(WRITING, 0))),
                Dist.us(Dist.medianOfRoundP50s(res.phase(PAUSED, 1))),
                Dist.us(Dist.medianOfRoundP50s(res.phase(WRITING, 1))), writesPerPhase[WRITING]);
        return res;
    }
}
