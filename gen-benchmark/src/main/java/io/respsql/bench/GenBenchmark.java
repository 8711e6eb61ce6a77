package io.respsql.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * gen-benchmark: sends one request shape, with substituted keys, over many connections and
 * reports throughput and latency in the layout of the 2010 Redisql client, followed by
 * microsecond percentiles. {@code gen-benchmark compare DIR} puts a large-update run beside the
 * 2010 figures; {@code gen-benchmark soak ...} runs a checked mixed load ({@link io.respsql.bench.soak.Soak}).
 */
public final class GenBenchmark {

    private GenBenchmark() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /** Runs the command line; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && args[0].equals("compare")) {
            return Compare.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("write-bench")) {
            return io.respsql.bench.write.WriteBench.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("analytics-bench")) {
            return io.respsql.bench.analytics.AnalyticsBench.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("blocking-bench")) {
            return io.respsql.bench.analytics.BlockingBench.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("load-bench")) {
            return io.respsql.bench.analytics.LoadBench.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && args[0].equals("soak")) {
            return io.respsql.bench.soak.Soak.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        Options o;
        try {
            o = Options.parse(args);
        } catch (Options.UsageException e) {
            err.println("gen-benchmark: " + e.getMessage());
            err.print(Options.usage());
            return 2;
        }
        if (o.help) {
            out.print(Options.usage());
            return 0;
        }
        try {
            return benchmark(o, out, err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("gen-benchmark: interrupted");
            return 1;
        } catch (RuntimeException e) {
            err.println("gen-benchmark: " + e);
            return 1;
        }
    }

    private static int benchmark(Options o, PrintStream out, PrintStream err)
            throws InterruptedException {
        Instant startedAt = Instant.now();
        long t0 = System.nanoTime();
        List<Result> rounds = new ArrayList<>();
        Result total = null;
        String transport;
        try (Runner runner = new Runner(o, err)) {
            transport = runner.transportName();
            while (true) {
                Result r = runner.runRound();
                rounds.add(r);
                total = total == null ? r : total.plus(r);
                if (r.failure == null || r.stats.samples() > 0) {
                    out.print(Report.classic(r, o.clients, o.quiet));
                    if (!o.quiet) {
                        out.print(Report.percentiles(r));
                        out.println();
                    }
                    out.flush();
                }
                String problems = Report.problems(r, o.expect);
                if (problems != null) {
                    for (String line : problems.split("\n")) {
                        err.println("gen-benchmark: " + line);
                    }
                }
                if (!o.loop || r.failure != null) {
                    break;
                }
                if (o.loopRounds > 0 && rounds.size() >= o.loopRounds) {
                    break;
                }
                if (o.loopSeconds > 0 && (System.nanoTime() - t0) / 1e9 >= o.loopSeconds) {
                    break;
                }
            }
        }
        if (o.jsonFile != null) {
            try {
                Path p = Path.of(o.jsonFile);
                if (p.getParent() != null) {
                    Files.createDirectories(p.getParent());
                }
                Files.writeString(p, RunJson.render(o, transport, startedAt, total, rounds),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println("gen-benchmark: cannot write " + o.jsonFile + ": " + e.getMessage());
                return 1;
            }
        }
        boolean ok = true;
        for (Result r : rounds) {
            ok &= r.ok();
        }
        return ok ? 0 : 1;
    }
}
