package io.respsql.bench.analytics;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code gen-benchmark analytics-bench}: seed 004's 31 queries over the generated e-commerce data
 * set ({@link EcomGen}) at a scale factor, on RespSQL, PostgreSQL and DuckDB in one run, the
 * seed's way: run 0 cold, the reported figure the median of runs 1-4. Every answer is compared
 * with PostgreSQL's row by row: one that differs is a MISMATCH and fails the run (exit 1); an
 * error or a query stopped at the cap is reported, and fails the run only with --strict.
 * Raw files and summary.md go to --out.
 */
public final class AnalyticsBench {
    static final String USAGE = """
            usage: gen-benchmark analytics-bench --out DIR [options]
              --sf X                   scale factor (0.01); SF 1 = 500,000 customers, 100,000 products, 3,000,000 orders
              --seed N                 generator seed (4)
              --host H --port P        RespSQL server (127.0.0.1; no --port: RespSQL is left out)
              --pg-url URL --pg-user U PostgreSQL, the reference (required)
              --pg-note TEXT           how the PostgreSQL server was started (for the summary)
              --duckdb-threads N[,M]   DuckDB's thread settings, each measured as a system of its own
                                       (DuckDB-1t, DuckDB-2t, ...) over one loaded database (1,<cores>);
                                       0 leaves DuckDB out
              --duckdb-memory LIMIT    DuckDB memory_limit (its default)
              --runs N                 runs per query (5: run 0 cold, median of 1..N-1)
              --cap-ms MS              a run longer than this is stopped (PostgreSQL, DuckDB) or abandoned
                                       (RespSQL) and the query's later runs skipped (10000, as the seed)
              --ref-cap-ms MS          when PostgreSQL's timed run hits the cap, one more un-timed run with
                                       this cap gives the reference answer (120000; 0: none)
              --batch N                rows per INSERT into RespSQL (1000)
              --window N               INSERT statements in flight (32)
              --strict                 errors and capped queries fail the run too
              --machine FILE           machine description copied into the summary
              --only q01,q02           run only these queries
            """;

    private AnalyticsBench() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help")) {
                out.print(USAGE);
                return 0;
            }
            if (args[i].equals("--strict")) {
                o.put("strict", "1");
                continue;
            }
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                err.println("analytics-bench: bad argument " + args[i]);
                err.print(USAGE);
                return 2;
            }
            o.put(args[i].substring(2), args[++i]);
        }
        if (!o.containsKey("out") || !o.containsKey("pg-url")) {
            err.println("analytics-bench: --out DIR and --pg-url URL are required");
            err.print(USAGE);
            return 2;
        }
        try {
            return new Run(o, out, null).execute();
        } catch (Exception e) {
            err.println("analytics-bench: FAILED: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** Runs with the given engines, the first the reference (for tests); the options as on the command line. */
    static int runWith(List<Engine> engines, Map<String, String> options, PrintStream log) throws Exception {
        return new Run(options, log, engines).execute();
    }

    /** One execution of one query on one system. */
    record Sample(String query, String system, int run, Engine.Answer answer, String status, String detail) {
    }

    /** One query on one system: its samples and outcome. */
    static final class Cell {
        final List<Sample> samples = new ArrayList<>();
        String status = "ok"; // ok | reference | MISMATCH | error | cap
        String detail = "";
        int rows = -1;
        /** The reference's cell: its answer came from an un-timed run past the cap (the note says so), or null. */
        String untimed;

        double coldMs() {
            return samples.isEmpty() ? Double.NaN : samples.get(0).answer().clientNanos() / 1e6;
        }

        /** Median over runs 1.. of the client time, or of the server time when {@code server}. */
        double warmMs(boolean server) {
            List<Double> v = new ArrayList<>();
            for (Sample s : samples) {
                if (s.run() == 0) {
                    continue;
                }
                if (server) {
                    if (s.answer().serverMicros() < 0) {
                        return Double.NaN;
                    }
                    v.add(s.answer().serverMicros() / 1e3);
                } else {
                    v.add(s.answer().clientNanos() / 1e6);
                }
            }
            return Stats.median(v);
        }

        boolean answered() {
            return status.equals("ok") || status.equals("reference");
        }
    }

    static final class Stats {
        private Stats() {
        }

        static double median(List<Double> v) {
            if (v.isEmpty()) {
                return Double.NaN;
            }
            double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
        }
    }

    private static final class Run {
        final Map<String, String> o;
        final PrintStream log;
        final Path dir;
        final boolean strict;
        final List<Engine> engines = new ArrayList<>();
        final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>(); // system -> query -> cell
        final List<Engine.Step> steps = new ArrayList<>();
        final StringBuilder env = new StringBuilder();
        /** The un-timed reference run's cap (0: none). */
        long refCap;

        /** Engines given instead of the ones the options name (tests); the first is the reference. */
        final List<Engine> given;

        Run(Map<String, String> o, PrintStream log, List<Engine> given) {
            this.given = given;
            this.o = o;
            this.log = log;
            this.dir = Path.of(o.get("out"));
            this.strict = o.containsKey("strict");
        }

        String get(String k, String def) {
            return o.getOrDefault(k, def);
        }

        int execute() throws Exception {
            Files.createDirectories(dir.resolve("results"));
            Files.createDirectories(dir.resolve("queries"));
            double sf = Double.parseDouble(get("sf", "0.01"));
            long seed = Long.parseLong(get("seed", "4"));
            int runs = Integer.parseInt(get("runs", "5"));
            long cap = Long.parseLong(get("cap-ms", "10000"));
            refCap = Long.parseLong(get("ref-cap-ms", "120000"));
            if (refCap != 0 && refCap <= cap) {
                throw new IllegalArgumentException("--ref-cap-ms must be above --cap-ms (or 0)");
            }
            if (runs < 2) {
                throw new IllegalArgumentException("--runs must be at least 2 (run 0 cold, then warm runs)");
            }
            env.append("started ").append(Instant.now()).append('\n');
            long g0 = System.nanoTime();
            EcomGen g = EcomGen.atScale(seed, sf);
            double genSeconds = (System.nanoTime() - g0) / 1e9;
            String dataLine = String.format(Locale.ROOT,
                    "SF %s, seed %d: customers %,d, products %,d, orders %,d, order_items %,d, total %,d rows (generated in %.2f s)",
                    get("sf", "0.01"), seed, g.customers, g.products, g.orders, g.items, g.totalRows(), genSeconds);
            log.println("analytics-bench: " + dataLine);
            env.append(dataLine).append('\n');
            Map<String, String> constants = Queries.constants(g);
            env.append("constants ").append(constants).append('\n');
            Map<String, String> queries = Queries.render(constants);
            if (o.containsKey("only")) {
                List<String> only = Arrays.asList(o.get("only").split(","));
                queries.keySet().retainAll(only);
            }
            for (Map.Entry<String, String> q : queries.entrySet()) {
                Files.writeString(dir.resolve("queries").resolve(q.getKey() + ".sql"), q.getValue() + "\n", StandardCharsets.UTF_8);
            }

            if (given != null) {
                engines.addAll(given);
            } else {
                addEngines();
            }
            runAll(g, queries, runs, cap, dataLine);
            return verdict();
        }

        private void addEngines() throws Exception {
            engines.add(new PgEngine(o.get("pg-url"), get("pg-user", "postgres")));
            DuckEngine loaded = null;
            for (int threads : duckThreads(get("duckdb-threads", null), Runtime.getRuntime().availableProcessors())) {
                // one database, loaded once; each setting a system of its own (SET threads before its runs)
                DuckEngine d = loaded == null ? new DuckEngine(threads, o.get("duckdb-memory")) : loaded.withThreads(threads);
                loaded = loaded == null ? d : loaded;
                engines.add(d);
            }
            if (o.containsKey("port")) {
                engines.add(new RespEngine(get("host", "127.0.0.1"), Integer.parseInt(o.get("port")),
                        Integer.parseInt(get("batch", "1000")), Integer.parseInt(get("window", "32")), log));
            }
        }

        private void runAll(EcomGen g, Map<String, String> queries, int runs, long cap, String dataLine) throws Exception {
            try {
                for (Engine e : engines) {
                    log.println("analytics-bench: loading " + e.name());
                    List<Engine.Step> st = e.load(g);
                    for (Engine.Step s : st) {
                        log.printf(Locale.ROOT, "  %-10s %-30s %,12d rows %9.2f s %,12.0f rows/s  %s%n", s.system(), s.step(), s.rows(),
                                s.seconds(), s.rows() / s.seconds(), s.note());
                    }
                    steps.addAll(st);
                    cells.put(e.name(), new LinkedHashMap<>());
                }
                writeLoad();
                for (Engine e : engines) {
                    env.append("\n## ").append(e.name()).append("\n").append(e.describe()).append("clock: ").append(e.clock()).append('\n');
                }
                if (o.containsKey("pg-note")) {
                    env.append("PostgreSQL server: ").append(o.get("pg-note")).append('\n');
                }
                for (Map.Entry<String, String> q : queries.entrySet()) {
                    runQuery(q.getKey(), q.getValue(), runs, cap, refCap);
                }
            } finally {
                for (Engine e : engines) {
                    e.close();
                }
            }
            env.append("finished ").append(Instant.now()).append('\n');
            Files.writeString(dir.resolve("environment.txt"), env, StandardCharsets.UTF_8);
            writeRuns();
            writeUntimed();
            String summary = Summary.render(this.cells, engines, steps, env.toString(), machine(), queries.keySet(), runs, cap, dataLine);
            Files.writeString(dir.resolve("summary.md"), summary, StandardCharsets.UTF_8);
            log.print(summary);
        }

        private int verdict() {
            int mismatches = 0;
            int failures = 0;
            for (Map<String, Cell> m : cells.values()) {
                for (Cell c : m.values()) {
                    mismatches += c.status.equals("MISMATCH") ? 1 : 0;
                    failures += c.status.equals("error") || c.status.equals("cap") ? 1 : 0;
                }
            }
            if (mismatches > 0) {
                log.println("analytics-bench: FAILED: " + mismatches + " result(s) differ from PostgreSQL's (MISMATCH above)");
                return 1;
            }
            if (strict && failures > 0) {
                log.println("analytics-bench: FAILED (--strict): " + failures + " query run(s) ended in an error or at the cap");
                return 1;
            }
            log.println("analytics-bench: no mismatch" + (failures > 0 ? " (" + failures + " error/cap outcomes, allowed without --strict)" : ""));
            return 0;
        }

        private String machine() throws IOException {
            return o.containsKey("machine") ? Files.readString(Path.of(o.get("machine")), StandardCharsets.UTF_8) : "";
        }

        /** The reference's un-timed runs past the cap: query, client ms, cap, outcome, rows. */
        private final StringBuilder untimed = new StringBuilder("query\tsystem\tclient_ms\tref_cap_ms\tstatus\trows\tdetail\n");

        private void writeUntimed() throws IOException {
            Files.writeString(dir.resolve("reference-untimed.tsv"), untimed, StandardCharsets.UTF_8);
        }

        private void runQuery(String name, String sql, int runs, long cap, long refCap) throws Exception {
            boolean ordered = Queries.ordered(sql);
            List<List<String>> reference = null;
            for (Engine e : engines) {
                Cell cell = new Cell();
                cells.get(e.name()).put(name, cell);
                boolean isRef = e == engines.get(0);
                for (int r = 0; r < runs; r++) {
                    Engine.Answer a = e.run(sql, cap);
                    String status;
                    String detail = "";
                    if (a.capped()) {
                        status = "cap";
                        detail = a.error();
                    } else if (a.failed()) {
                        status = "error";
                        detail = a.error();
                    } else if (isRef) {
                        status = "reference";
                        if (reference == null) {
                            reference = a.rows();
                            if (reference.isEmpty()) {
                                throw new IllegalStateException(name + " returns no rows on PostgreSQL: its constants do not fit the data");
                            }
                        } else if (Rows.compare(reference, a.rows(), ordered) != null) {
                            throw new IllegalStateException(name + ": PostgreSQL's run " + r + " differs from its run 0");
                        }
                    } else if (reference == null) {
                        status = "unchecked";
                        detail = "no PostgreSQL answer to compare with";
                    } else {
                        String diff = Rows.compare(reference, a.rows(), ordered);
                        status = diff == null ? "ok" : "MISMATCH";
                        detail = diff == null ? a.rows().size() + " rows" : diff;
                    }
                    cell.samples.add(new Sample(name, e.name(), r, a, status, detail));
                    if (r == 0) {
                        writeResult(e, name, a);
                    }
                    if (!status.equals("ok") && !status.equals("reference")) {
                        if (cell.status.equals("ok") || cell.status.equals("reference")) {
                            cell.status = status;
                            cell.detail = detail;
                        }
                    } else {
                        if (r == 0) {
                            cell.status = status;
                        }
                        cell.rows = a.rows().size();
                    }
                    if (isRef && (status.equals("error"))) {
                        throw new IllegalStateException(name + " fails on PostgreSQL: " + detail);
                    }
                    if (status.equals("cap") || status.equals("error")) {
                        break; // an error repeats; a capped query would spend the cap again
                    }
                }
                if (isRef && reference == null && cell.status.equals("cap") && refCap > 0) {
                    // Over the seed's cap: its timing stays "cap", but the others' answers still get
                    // checked, against one un-timed run with a longer cap.
                    Engine.Answer a = e.run(sql, refCap);
                    String status = a.capped() ? "cap" : a.failed() ? "error" : "reference";
                    untimed.append(name).append('\t').append(e.name()).append('\t')
                            .append(String.format(Locale.ROOT, "%.3f", a.clientNanos() / 1e6)).append('\t').append(refCap).append('\t')
                            .append(status).append('\t').append(a.rows() == null ? "" : a.rows().size()).append('\t')
                            .append(a.failed() ? oneLine(a.error()) : "").append('\n');
                    if (!a.failed() && !a.rows().isEmpty()) {
                        reference = a.rows();
                        cell.untimed = String.format(Locale.ROOT, "PostgreSQL over the cap: answer from an un-timed run (%s ms, cap %d ms)",
                                Summary.ms(a.clientNanos() / 1e6), refCap);
                        Path d = dir.resolve("results").resolve(e.key());
                        Files.writeString(d.resolve(name + ".untimed.txt"), Rows.text(a.rows()), StandardCharsets.UTF_8);
                    } else {
                        cell.untimed = null;
                        cell.detail = cell.detail + "; the un-timed run with cap " + refCap + " ms: "
                                + (a.failed() ? (a.capped() ? "cap " : "") + oneLine(a.error()) : "no rows");
                    }
                    log.printf(Locale.ROOT, "  %-5s %-10s un-timed reference run (cap %d ms): %s%n", name, e.name(), refCap,
                            cell.untimed != null ? cell.untimed : status);
                }
                log.printf(Locale.ROOT, "  %-5s %-10s cold %10.3f ms  warm %10.3f ms%s  %s %s%n", name, e.name(), cell.coldMs(),
                        cell.warmMs(false), Double.isNaN(cell.warmMs(true)) ? "" : String.format(Locale.ROOT, " (server %.3f ms)", cell.warmMs(true)),
                        cell.status, cell.status.equals("ok") || cell.status.equals("reference") ? "" : oneLine(cell.detail));
            }
        }

        private void writeResult(Engine e, String name, Engine.Answer a) throws IOException {
            Path d = dir.resolve("results").resolve(e.key());
            Files.createDirectories(d);
            String text = a.failed() ? "ERROR " + (a.capped() ? "(cap) " : "") + a.error() + "\n" : Rows.text(a.rows());
            Files.writeString(d.resolve(name + ".txt"), text, StandardCharsets.UTF_8);
        }

        private void writeLoad() throws IOException {
            StringBuilder sb = new StringBuilder("system\tstep\trows\tseconds\trows_per_second\tnote\n");
            for (Engine.Step s : steps) {
                sb.append(s.system()).append('\t').append(s.step()).append('\t').append(s.rows()).append('\t')
                        .append(String.format(Locale.ROOT, "%.3f", s.seconds())).append('\t')
                        .append(String.format(Locale.ROOT, "%.0f", s.rows() / s.seconds())).append('\t').append(s.note()).append('\n');
            }
            Files.writeString(dir.resolve("load.tsv"), sb, StandardCharsets.UTF_8);
        }

        private void writeRuns() throws IOException {
            StringBuilder sb = new StringBuilder("query\tsystem\trun\tclient_ms\tserver_ms\tstatus\trows\tdetail\n");
            for (Map<String, Cell> m : cells.values()) {
                for (Cell c : m.values()) {
                    for (Sample s : c.samples) {
                        Engine.Answer a = s.answer();
                        sb.append(s.query()).append('\t').append(s.system()).append('\t').append(s.run()).append('\t')
                                .append(String.format(Locale.ROOT, "%.3f", a.clientNanos() / 1e6)).append('\t')
                                .append(a.serverMicros() < 0 ? "" : String.format(Locale.ROOT, "%.3f", a.serverMicros() / 1e3)).append('\t')
                                .append(s.status()).append('\t').append(a.rows() == null ? "" : a.rows().size()).append('\t')
                                .append(oneLine(s.detail())).append('\n');
                    }
                }
            }
            Files.writeString(dir.resolve("runs.tsv"), sb, StandardCharsets.UTF_8);
        }
    }

    /**
     * DuckDB's thread settings from {@code --duckdb-threads} ("1,2"; null: 1 and the machine's
     * cores), each once, in order; empty for "0".
     */
    static List<Integer> duckThreads(String spec, int cores) {
        List<Integer> out = new ArrayList<>();
        String s = spec == null || spec.isBlank() ? "1," + cores : spec;
        for (String part : s.split(",")) {
            int n;
            try {
                n = Integer.parseInt(part.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--duckdb-threads takes numbers separated by commas, got '" + s + "'");
            }
            if (n < 0) {
                throw new IllegalArgumentException("--duckdb-threads: " + n + " is not a thread count");
            }
            if (n > 0 && !out.contains(n)) {
                out.add(n);
            }
        }
        if (out.isEmpty() && !s.strip().equals("0")) {
            throw new IllegalArgumentException("--duckdb-threads: no thread count in '" + s + "'");
        }
        return out;
    }

    static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\t', ' ').replace('\r', ' ');
    }
}
