package io.respsql.bench.write;

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
import java.util.Map;

/**
 * {@code gen-benchmark write-bench}: the write-side benchmark. Section 1, UPDATE cost by table
 * size; section 2, mutation shapes; section 3, reads under writes and the staleness check. Each
 * section runs against RespSQL and, when given, PostgreSQL, with the same statements; every
 * invariant is checked and a mismatch fails the run. Raw files and summary.md go to --out.
 */
public final class WriteBench {

    static final String USAGE = """
            usage: gen-benchmark write-bench --out DIR [options]
              --host H --port P          RespSQL server (127.0.0.1:6379)
              --pg-url URL --pg-user U   PostgreSQL peer (JDBC URL), or --pg-url none (default none)
              --pg-note TEXT             why there is no peer, for the summary
              --sizes N,N,...            section 1 table sizes (100000,500000,1000000,5000000)
              --u1-reps R                U1 repetitions for its distribution (1000)
              --warmup-rows N            untimed warm-up table before section 1, 0 for none (50000)
              --shape-rows N             section 2 table size (1000000)
              --one-row-reps R           repetitions of the one-row shape (1000)
              --shape-reps R             repetitions of the 1,000-row shapes (100)
              --agg-reps R               repetitions of each aggregate, before and after (20)
              --ruw-rows N               section 3 table size (1000000)
              --rounds R                 section 3 rounds (12)
              --slice-ms MS              section 3 slice length (5000)
              --write-interval-ms MS     writer pause in the paced setting (250)
              --staleness K              staleness checkpoints (3; 0 skips)
              --server-cmd "CMD ARGS"    launches a second RespSQL server for the staleness check
              --sections 1,2,3           which sections run
              --seed S                   random choices (1)
              --machine FILE             machine description to copy into the summary
            """;

    private WriteBench() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help")) {
                out.print(USAGE);
                return 0;
            }
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                err.println("write-bench: bad argument " + args[i]);
                err.print(USAGE);
                return 2;
            }
            o.put(args[i].substring(2), args[++i]);
        }
        if (!o.containsKey("out")) {
            err.println("write-bench: --out DIR is required");
            err.print(USAGE);
            return 2;
        }
        try {
            return new WriteBench.Run(o, out).execute();
        } catch (BenchFailure e) {
            err.println("write-bench: FAILED: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("write-bench: FAILED: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    private static final class Run {
        final Map<String, String> o;
        final PrintStream log;
        final Out out;
        final List<Long> sizes = new ArrayList<>();
        final String pgUrl;
        final StringBuilder settings = new StringBuilder();
        List<SizeSweep.Result> s1 = new ArrayList<>();
        List<Shapes.Result> s2 = new ArrayList<>();
        List<ReadsUnderWrites.Result> s3 = new ArrayList<>();
        List<Staleness.Result> stale = new ArrayList<>();
        String staleNote = "";
        long shapeRows;
        long ruwRows;
        String rangeSql = "";
        final Map<String, Long> sectionSeconds = new LinkedHashMap<>();

        Run(Map<String, String> o, PrintStream log) {
            this.o = o;
            this.log = log;
            this.out = new Out(Path.of(o.get("out")));
            for (String s : get("sizes", "100000,500000,1000000,5000000").split("[, ]+")) {
                if (!s.isBlank()) {
                    sizes.add(Long.parseLong(s.trim()));
                }
            }
            String u = get("pg-url", "none");
            pgUrl = u.equals("none") || u.isBlank() ? null : u;
        }

        String get(String k, String def) {
            return o.getOrDefault(k, def);
        }

        int num(String k, int def) {
            return Integer.parseInt(get(k, Integer.toString(def)));
        }

        boolean section(int s) {
            return Arrays.asList(get("sections", "1,2,3").split(",")).contains(Integer.toString(s));
        }

        List<Target> targets() {
            List<Target> t = new ArrayList<>();
            t.add(new RespTarget(get("host", "127.0.0.1"), num("port", 6379)));
            if (pgUrl != null) {
                t.add(new PgTarget(pgUrl, get("pg-user", "postgres")));
            }
            return t;
        }

        int execute() {
            Instant started = Instant.now();
            List<Target> ts = targets();
            try {
                settings.append("started ").append(started).append('\n');
                settings.append("options ").append(o).append('\n');
                for (Target t : ts) {
                    settings.append("\n== ").append(t.name()).append('\n').append(t.describe());
                    settings.append("rebuild: ").append(t.rebuildDescription()).append('\n');
                }
                if (pgUrl == null) {
                    settings.append("\nno PostgreSQL peer: ").append(get("pg-note", "--pg-url none")).append('\n');
                }
                out.write("settings.txt", settings.toString());
                long t0 = System.nanoTime();
                if (section(1)) {
                    log.println("== section 1: UPDATE cost by table size " + sizes);
                    SizeSweep sw = new SizeSweep(out, log, num("u1-reps", 1000));
                    for (Target t : ts) {
                        sw.warmUp(t, Long.parseLong(get("warmup-rows", "50000")));
                    }
                    for (long n : sizes) {
                        for (Target t : ts) {
                            s1.add(sw.run(t, n));
                        }
                    }
                    writeS1Tsv();
                    t0 = lap("1", t0);
                }
                shapeRows = Long.parseLong(get("shape-rows", "1000000"));
                if (section(2)) {
                    log.println("== section 2: mutation shapes on " + shapeRows + " rows");
                    Shapes sh = new Shapes(out, log, shapeRows, num("one-row-reps", 1000), num("shape-reps", 100),
                            num("agg-reps", 20), Long.parseLong(get("seed", "1")));
                    for (Target t : ts) {
                        s2.addAll(sh.run(t));
                    }
                    t0 = lap("2", t0);
                }
                ruwRows = Long.parseLong(get("ruw-rows", "1000000"));
                if (section(3)) {
                    section3(ts);
                    lap("3", t0);
                }
            } finally {
                for (Target t : ts) {
                    t.close();
                }
            }
            String md = Summary.render(this);
            out.write("summary.md", md);
            log.println("write-bench: all invariants held; summary in " + out.dir.resolve("summary.md"));
            return 0;
        }

        long lap(String section, long t0) {
            long now = System.nanoTime();
            sectionSeconds.put(section, (now - t0) / 1_000_000_000L);
            log.println("  section " + section + " took " + (now - t0) / 1_000_000_000L + " s");
            return now;
        }

        void section3(List<Target> ts) {
            int rounds = num("rounds", 12);
            long slice = Long.parseLong(get("slice-ms", "5000"));
            long interval = Long.parseLong(get("write-interval-ms", "250"));
            log.println("== section 3: reads under writes on " + ruwRows + " rows, " + rounds + " rounds of "
                    + slice + " ms slices");
            for (Target t : ts) {
                ReadsUnderWrites ruw = new ReadsUnderWrites(out, log, ruwRows, rounds, slice,
                        Long.parseLong(get("seed", "1")));
                rangeSql = ruw.rangeSql;
                try (java.io.PrintWriter cw = out.writer("s3-checks-" + t.key() + ".txt")) {
                    Checks c = new Checks(cw);
                    ruw.rebuild(t, c);
                    s3.add(ruw.run(t, c, "paced-" + interval + "ms", interval));
                    s3.add(ruw.run(t, c, "no-pause", 0));
                    if (t instanceof RespTarget rt) {
                        staleness(rt, ruw, c);
                    }
                }
                t.exec("DROP TABLE IF EXISTS t");
            }
        }

        void staleness(RespTarget rt, ReadsUnderWrites ruw, Checks c) {
            int k = num("staleness", 3);
            if (k <= 0) {
                staleNote = "not run (--staleness 0)";
                return;
            }
            String why = Staleness.unsupported(rt);
            if (why != null) {
                staleNote = "not run: " + why;
                log.println("  staleness check " + staleNote);
                return;
            }
            String cmd = get("server-cmd", "");
            if (cmd.isBlank()) {
                staleNote = "not run: no --server-cmd to start a second server";
                log.println("  staleness check " + staleNote);
                return;
            }
            Staleness st = new Staleness(out, List.of(cmd.trim().split(" +")), 300_000);
            for (int i = 1; i <= k; i++) {
                // Move the state on between checkpoints (untimed), then pause and compare.
                for (int w = 0; w < 20; w++) {
                    ruw.write(rt);
                }
                c.sum(rt, ruw.sum, "before staleness checkpoint " + i);
                Staleness.Result r = st.check(i, rt, ruw, ruwRows);
                stale.add(r);
                log.printf("  staleness checkpoint %d: %d of %d replies byte-identical%n", i, r.identical(), r.queries());
                if (r.identical() != r.queries()) {
                    throw new BenchFailure("staleness checkpoint " + i + ": " + (r.queries() - r.identical())
                            + " replies differ between the live server and one started on its snapshot; see " + r.file());
                }
            }
        }

        void writeS1Tsv() {
            StringBuilder sb = new StringBuilder("target\trows\tstatement\tmatched\tnanos\n");
            for (SizeSweep.Result r : s1) {
                sb.append(r.target()).append('\t').append(r.rows()).append("\tU1\t").append(r.m1()).append('\t').append(r.u1()).append('\n');
                sb.append(r.target()).append('\t').append(r.rows()).append("\tU2\t").append(r.m2()).append('\t').append(r.u2()).append('\n');
                sb.append(r.target()).append('\t').append(r.rows()).append("\tU3\t").append(r.m3()).append('\t').append(r.u3()).append('\n');
            }
            out.write("s1-timings.tsv", sb.toString());
        }

        String machine() {
            String f = get("machine", "");
            if (f.isBlank()) {
                return "";
            }
            try {
                return Files.readString(Path.of(f), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(cannot read " + f + ")";
            }
        }
    }

    /** The Markdown summary; package-private accessors keep it testable apart from the run. */
    static final class Summary {
        private Summary() {
        }

        static String render(Run r) {
            StringBuilder m = new StringBuilder();
            m.append("# Write benchmark: UPDATE cost by size, mutation shapes, reads under writes\n\n");
            m.append("Generated by `scripts/write-bench.sh` (`gen-benchmark write-bench`). Every figure below is a client"
                    + " round trip in microseconds, one connection per role, no pipelining in timed parts, and names the"
                    + " raw file it comes from (in this directory). Ratios are RespSQL time / PostgreSQL time:"
                    + " below 1 RespSQL is faster. Compare ratios across runs, not microseconds.\n\n");
            m.append("## Run identity\n\n```\n").append(r.machine().strip()).append('\n');
            try {
                m.append("load average at end (1/5/15 min): ")
                        .append(String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3)))
                        .append('\n');
            } catch (IOException | RuntimeException e) {
                m.append("load average at end: unknown\n");
            }
            m.append("```\n\nA load average well above the core count means other work shared the cores: compare"
                    + " the round p50 spreads below before trusting a small difference.\n\n");
            m.append("Servers and settings: `settings.txt`. Durability: neither side pays for it. RespSQL runs with no"
                    + " AOF and no snapshots; PostgreSQL with `fsync=off, synchronous_commit=off, full_page_writes=off`"
                    + " (autocommit, one transaction per statement). PostgreSQL tables get `PRIMARY KEY(id)`, a btree"
                    + " index on grp and `VACUUM ANALYZE` after seeding; RespSQL's grp index is built after seeding"
                    + " too. Seeding is not timed.\n\n");
            if (r.pgUrl == null) {
                m.append("**No PostgreSQL peer in this run** (").append(r.get("pg-note", "--pg-url none"))
                        .append("): the PostgreSQL columns and ratios are absent.\n\n");
            }
            boolean pg = r.pgUrl != null;
            if (!r.s1.isEmpty()) {
                m.append("## 1. UPDATE cost by table size\n\n");
                m.append("Method: for each size N, table `t (id BIGINT PRIMARY KEY, grp BIGINT, v BIGINT, tag TEXT)` seeded"
                        + " with id = 1..N, grp = id % 100, v = id, tag = 'x<id>', then in order, each timed once:"
                        + " U1 `" + SizeSweep.U1 + "`, U2 `" + SizeSweep.U2 + "`, U3 `" + SizeSweep.U3 + "`."
                        + " Between statements: matched count, `SUM(v)` against the value computed from the seeding rule"
                        + " (exact 64-bit), the updated rows read back, an untouched neighbour, `COUNT(*)`; all held"
                        + " (`s1-checks-<target>-<N>.txt`). Single samples: `s1-timings.tsv`. Before the first size each"
                        + " target ran the same statements untimed on a " + r.get("warmup-rows", "50000") + "-row table"
                        + " (U1 x3000, U2 x20, U3 x5), so the first size does not also pay for JIT compilation.\n\n");
                m.append("| rows | RespSQL U1 | RespSQL U2 (rows) | RespSQL U3 (rows)");
                if (pg) {
                    m.append(" | PostgreSQL U1 | PostgreSQL U2 | PostgreSQL U3 | ratio U1 | ratio U2 | ratio U3");
                }
                m.append(" |\n|---|---|---|---");
                m.append(pg ? "|---|---|---|---|---|---|\n" : "|\n");
                for (long n : r.sizes) {
                    SizeSweep.Result a = find(r.s1, "RespSQL", n);
                    SizeSweep.Result b = find(r.s1, "PostgreSQL", n);
                    if (a == null) {
                        continue;
                    }
                    m.append(String.format("| %,d | %s | %s (%,d) | %s (%,d)", n, Dist.us(a.u1()), Dist.us(a.u2()), a.m2(),
                            Dist.us(a.u3()), a.m3()));
                    if (pg && b != null) {
                        m.append(String.format(" | %s | %s | %s | %s | %s | %s", Dist.us(b.u1()), Dist.us(b.u2()), Dist.us(b.u3()),
                                Dist.ratio(a.u1(), b.u1()), Dist.ratio(a.u2(), b.u2()), Dist.ratio(a.u3(), b.u3())));
                    }
                    m.append(" |\n");
                }
                int reps = Integer.parseInt(r.get("u1-reps", "1000"));
                m.append("\nU1 is one sample per size above (the first UPDATE of that table). Its distribution, U1 repeated ")
                        .append(reps).append(" times right after U3 on the same table (HdrHistogram; every sample in"
                        + " `s1-u1x").append(reps).append("-<target>-<N>.samples.txt`, percentiles in `.hgrm`):\n\n");
                m.append("| rows | target | p50 | p90 | p99 | p99.9 | max | ratio p50 | file |\n|---|---|---|---|---|---|---|---|---|\n");
                for (long n : r.sizes) {
                    SizeSweep.Result a = find(r.s1, "RespSQL", n);
                    SizeSweep.Result b = find(r.s1, "PostgreSQL", n);
                    for (SizeSweep.Result x : new SizeSweep.Result[] {a, b}) {
                        if (x == null) {
                            continue;
                        }
                        var h = x.u1Repeat();
                        m.append(String.format("| %,d | %s | %s | %s | %s | %s | %s | %s | `%s` |%n", n, x.target(),
                                Dist.us(h.getValueAtPercentile(50)), Dist.us(h.getValueAtPercentile(90)),
                                Dist.us(h.getValueAtPercentile(99)), Dist.us(h.getValueAtPercentile(99.9)),
                                Dist.us(h.getMaxValue()),
                                x == b && a != null ? Dist.ratio(a.u1Repeat().getValueAtPercentile(50), h.getValueAtPercentile(50)) : "",
                                x.hgrmFile()));
                    }
                }
                m.append("\n");
                List<SizeSweep.Result> rs = SizeSweep.forTarget(r.s1, "RespSQL");
                if (rs.size() >= 2) {
                    SizeSweep.Result lo = rs.get(0);
                    SizeSweep.Result hi = rs.get(rs.size() - 1);
                    m.append(String.format("RespSQL U1 p50 at %,d rows over p50 at %,d rows (%.0fx the rows): %s.%n%n",
                            hi.rows(), lo.rows(), (double) hi.rows() / lo.rows(),
                            Dist.ratio(hi.u1Repeat().getValueAtPercentile(50), lo.u1Repeat().getValueAtPercentile(50))));
                }
            }
            if (!r.s2.isEmpty()) {
                m.append("## 2. Mutation shapes on ").append(String.format("%,d", r.shapeRows)).append(" rows\n\n");
                m.append("Method: the table is dropped and rebuilt (same seeding as section 1) before every shape, so no"
                        + " figure is measured on a table another shape mutated. Within a shape the repetitions run in"
                        + " sequence on that table, as stated per row; random choices are seeded (`--seed`), the same"
                        + " for both targets (every timed statement: `s2-<shape>.statements.txt`). Checks (matched counts, SUM, COUNT after each shape): `s2-checks-<target>.txt`.\n\n");
                m.append("| shape | statement | repetitions, state between them | reps | RespSQL p50 | p90 | p99");
                m.append(pg ? " | PostgreSQL p50 | p90 | p99 | ratio p50" : "");
                m.append(" | files |\n|---|---|---|---|---|---|---");
                m.append(pg ? "|---|---|---|---|---|\n" : "|---|\n");
                for (Shapes.Result a : r.s2) {
                    if (!a.target().equals("RespSQL")) {
                        continue;
                    }
                    Shapes.Result b = null;
                    for (Shapes.Result x : r.s2) {
                        if (x.target().equals("PostgreSQL") && x.shape() == a.shape()) {
                            b = x;
                        }
                    }
                    Shapes.Shape s = a.shape();
                    m.append(String.format("| %s | `%s` | %s | %d | %s | %s | %s", s.title(), s.statement(),
                            s.method().isEmpty() ? "see below" : s.method(), a.nanos().length,
                            Dist.us(Dist.percentile(a.nanos(), 50)), Dist.us(Dist.percentile(a.nanos(), 90)),
                            Dist.us(Dist.percentile(a.nanos(), 99))));
                    if (pg && b != null) {
                        m.append(String.format(" | %s | %s | %s | %s", Dist.us(Dist.percentile(b.nanos(), 50)),
                                Dist.us(Dist.percentile(b.nanos(), 90)), Dist.us(Dist.percentile(b.nanos(), 99)),
                                Dist.ratio(Dist.percentile(a.nanos(), 50), Dist.percentile(b.nanos(), 50))));
                    }
                    m.append(" | `").append(a.file()).append('`').append(b != null ? ", `" + b.file() + "`" : "").append(" |\n");
                }
                m.append("\nAggregates: ").append(Shapes.AGG_METHOD).append(". PostgreSQL's table has not been"
                        + " vacuumed after that DELETE, as a reader would find it.\n\n");
            }
            if (!r.s3.isEmpty()) {
                m.append("## 3. Reads under writes on ").append(String.format("%,d", r.ruwRows)).append(" rows\n\n");
                m.append("Method: one reader connection alternates, without stopping, an indexed range read `")
                        .append(r.rangeSql).append("` and a point read `SELECT id, grp, v, tag FROM t WHERE id = <random>`,"
                        + " checking every reply. One writer connection alternately pauses and writes in slices of ")
                        .append(r.get("slice-ms", "5000")).append(" ms over ").append(r.get("rounds", "12"))
                        .append(" rounds (the phase that comes first alternates by round); its writes alternate `INSERT`"
                        + " of the next id and `UPDATE t SET v = v + 1 WHERE grp = <g>` (an FK range, 1% of the rows),"
                        + " either one every ").append(r.get("write-interval-ms", "250")).append(" ms (paced) or back to"
                        + " back (no-pause). Each read is filed under the slice it started in. p50 is the median of the"
                        + " rounds' p50s (rounds yield unequal counts, so pooling would weight the faster ones); p90/p99"
                        + " pool all reads of the phase. Per-round figures: `s3-<setting>-<target>-rounds.tsv`;"
                        + " histograms: `.hlog`; every write: `-writes.tsv`. After each setting COUNT(*) and SUM(v)"
                        + " match the writes' expected effect (`s3-checks-<target>.txt`).\n\n");
                m.append("| setting | target | read | paused p50 | writing p50 | writing / paused p50 | round p50 spread (paused; writing)"
                        + " | paused p90 / p99 | writing p90 / p99 | reads | writes | write p50 / p99 | file |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
                for (ReadsUnderWrites.Result x : r.s3) {
                    for (int q = 0; q < 2; q++) {
                        var pp = x.phase(ReadsUnderWrites.PAUSED, q);
                        var pw = x.phase(ReadsUnderWrites.WRITING, q);
                        double p50p = Dist.medianOfRoundP50s(pp);
                        double p50w = Dist.medianOfRoundP50s(pw);
                        var poolP = Dist.pooled(pp);
                        var poolW = Dist.pooled(pw);
                        m.append(String.format("| %s | %s | %s | %s | %s | %s | %s; %s | %s / %s | %s / %s | %,d | %,d | %s / %s | `%s` |%n",
                                x.setting(), x.target(), ReadsUnderWrites.QUERY[q], Dist.us(p50p), Dist.us(p50w),
                                Dist.ratio(p50w, p50p), spread(pp), spread(pw),
                                Dist.us(poolP.getValueAtPercentile(90)), Dist.us(poolP.getValueAtPercentile(99)),
                                Dist.us(poolW.getValueAtPercentile(90)), Dist.us(poolW.getValueAtPercentile(99)),
                                poolP.getTotalCount() + poolW.getTotalCount(), x.writesPerPhase()[ReadsUnderWrites.WRITING],
                                Dist.us(x.writeLatency().getValueAtPercentile(50)),
                                Dist.us(x.writeLatency().getValueAtPercentile(99)), x.roundsFile()));
                    }
                }
                if (pg) {
                    m.append("\nRespSQL / PostgreSQL, median-of-rounds p50:\n\n| setting | read | paused | writing |\n|---|---|---|---|\n");
                    for (ReadsUnderWrites.Result a : r.s3) {
                        if (!a.target().equals("RespSQL")) {
                            continue;
                        }
                        for (ReadsUnderWrites.Result b : r.s3) {
                            if (b.target().equals("PostgreSQL") && b.setting().equals(a.setting())) {
                                for (int q = 0; q < 2; q++) {
                                    m.append(String.format("| %s | %s | %s | %s |%n", a.setting(), ReadsUnderWrites.QUERY[q],
                                            Dist.ratio(Dist.medianOfRoundP50s(a.phase(0, q)), Dist.medianOfRoundP50s(b.phase(0, q))),
                                            Dist.ratio(Dist.medianOfRoundP50s(a.phase(1, q)), Dist.medianOfRoundP50s(b.phase(1, q)))));
                                }
                            }
                        }
                    }
                }
                m.append("\n### Staleness check (RespSQL)\n\n");
                m.append("Method: after the timed rounds, three times: 20 more writes (untimed), writer paused, the live"
                        + " server answers a fixed set of queries (counts, sums, MIN/MAX, rows by id including the inserted"
                        + " ones, ordered range reads, and `DUMP t`: every row of the table); `BGSAVE`, completion awaited through `INFO persistence`;"
                        + " a second server started on a copy of the snapshot answers the same queries; the raw RESP"
                        + " bytes must be identical. Outside the timed window.\n\n");
                if (r.stale.isEmpty()) {
                    m.append("**").append(r.staleNote.isEmpty() ? "not run" : r.staleNote).append("**\n\n");
                } else {
                    m.append("| checkpoint | writes before it | queries | byte-identical | file |\n|---|---|---|---|---|\n");
                    for (Staleness.Result s : r.stale) {
                        m.append(String.format("| %d | %,d | %d | %d | `%s` |%n", s.checkpoint(), s.writesBefore(), s.queries(),
                                s.identical(), s.file()));
                    }
                    m.append("\n");
                }
            }
            m.append("Wall time per section (seeding included): ");
            r.sectionSeconds.forEach((k, v) -> m.append("section ").append(k).append(' ').append(v).append(" s; "));
            m.append("\n\n## What this does not establish\n\n");
            m.append("1. Durability. Neither side writes anything durable here; the figures say nothing about the cost of"
                    + " an AOF, snapshots or PostgreSQL's WAL with fsync.\n");
            m.append("2. One client per role, on loopback. No concurrency beyond one reader and one writer; the client"
                    + " round trip includes the client's own decoding (Java RESP reader, JDBC).\n");
            m.append("3. Section 1's U1/U2/U3 are single samples, and the first UPDATE of a table may pay one-time costs;"
                    + " the flat-or-not claim for U1 rests on the repeated-U1 distribution, which runs after U3 on a"
                    + " table that U3 rewrote in full.\n");
            m.append("4. PostgreSQL's UPDATEs leave dead tuples that are not vacuumed between repetitions (autovacuum is"
                    + " on and may run during a section); RespSQL updates in place. Each side is measured as it"
                    + " behaves, not in an equal physical state.\n");
            m.append("5. One table shape (three BIGINTs and a short TEXT), data in memory, one machine. Statements are"
                    + " sent as text each time (no prepared statements on either side).\n");
            m.append("6. The staleness check samples a few replies at three points: it rules out a systematic"
                    + " staleness of what a snapshot holds against what the live server answers, not every one.\n");
            return m.toString();
        }

        static String spread(List<org.HdrHistogram.Histogram> rounds) {
            double lo = Double.NaN;
            double hi = Double.NaN;
            for (var h : rounds) {
                if (h.getTotalCount() == 0) {
                    continue;
                }
                double v = h.getValueAtPercentile(50);
                lo = Double.isNaN(lo) ? v : Math.min(lo, v);
                hi = Double.isNaN(hi) ? v : Math.max(hi, v);
            }
            return Dist.us(lo) + "-" + Dist.us(hi);
        }

        static SizeSweep.Result find(List<SizeSweep.Result> l, String target, long n) {
            for (SizeSweep.Result x : l) {
                if (x.target().equals(target) && x.rows() == n) {
                    return x;
                }
            }
            return null;
        }
    }
}
