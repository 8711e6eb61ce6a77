package io.respsql.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code gen-benchmark compare RESULT_DIR}: puts a large-update run beside the 2010 Redisql
 * figures, keyed by FK range (rows per updated FK value = rows / MOD).
 *
 * <p>RESULT_DIR holds, per MOD, {@code update-MOD.json} (required) and {@code insert-MOD.json}
 * (optional), both written by {@code --json}, and optionally {@code run.env} with a {@code REQ=}
 * line; the table size is taken from the insert JSON, else from run.env, else 10,000,000.
 * Writes {@code compare.txt}, {@code compare.tsv} and {@code compare.svg} into RESULT_DIR (or
 * {@code --out DIR}) and prints the table.
 */
public final class Compare {

    static final long DEFAULT_ROWS = 10_000_000L;
    private static final Pattern UPDATE_FILE = Pattern.compile("update-(\\d+)\\.json");

    private Compare() {
    }

    /** One FK range of the 2010 reference. */
    record RefRun(long mod, long fkRange, double rps, double seconds, long requests,
            List<double[]> cumulative, double insertRps) {

        /** Smallest printed bucket L whose cumulative percentage reaches {@code pct}. */
        double percentileMs(double pct) {
            for (double[] p : cumulative) {
                if (p[1] >= pct - 1e-9) {
                    return p[0];
                }
            }
            return cumulative.isEmpty() ? Double.NaN : cumulative.get(cumulative.size() - 1)[0];
        }

        double maxMs() {
            return cumulative.isEmpty() ? Double.NaN : cumulative.get(cumulative.size() - 1)[0];
        }
    }

    record RefSet(String id, String label, boolean primary, Map<Long, RefRun> byFkRange) {
    }

    /** One MOD of the new run. */
    record NewRun(long mod, long rows, long fkRange, double rps, double p50Ms, double p99Ms,
            double maxMs, long requests, double insertRps, long intMin, long intMax,
            List<double[]> percentilesMs, boolean ok) {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        String dir = null;
        String reference = System.getProperty("genbench.reference");
        String outDir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reference" -> reference = i + 1 < args.length ? args[++i] : null;
                case "--out" -> outDir = i + 1 < args.length ? args[++i] : null;
                default -> {
                    if (dir != null || args[i].startsWith("-")) {
                        err.println("gen-benchmark compare: unexpected argument '" + args[i] + "'");
                        err.println("usage: gen-benchmark compare RESULT_DIR [--reference FILE] [--out DIR]");
                        return 2;
                    }
                    dir = args[i];
                }
            }
        }
        if (dir == null) {
            err.println("usage: gen-benchmark compare RESULT_DIR [--reference FILE] [--out DIR]");
            return 2;
        }
        if (reference == null) {
            reference = "bench/reference/redisql-2010.json";
        }
        try {
            List<RefSet> sets = loadReference(Path.of(reference));
            List<NewRun> runs = loadRun(Path.of(dir));
            if (runs.isEmpty()) {
                err.println("gen-benchmark compare: no update-MOD.json files in " + dir);
                return 1;
            }
            Path target = Path.of(outDir != null ? outDir : dir);
            Files.createDirectories(target);
            String title = Path.of(dir).toAbsolutePath().normalize().getFileName().toString();
            String table = table(title, sets, runs);
            Files.writeString(target.resolve("compare.txt"), table, StandardCharsets.UTF_8);
            Files.writeString(target.resolve("compare.tsv"), tsv(sets, runs), StandardCharsets.UTF_8);
            Files.writeString(target.resolve("compare.svg"), svg(title, sets, runs),
                    StandardCharsets.UTF_8);
            out.print(table);
            out.println("wrote " + target.resolve("compare.txt") + ", compare.tsv, compare.svg");
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("gen-benchmark compare: " + e.getMessage());
            return 1;
        }
    }

    static List<RefSet> loadReference(Path file) throws IOException {
        Map<String, Object> root = Json.obj(Json.parse(Files.readString(file)));
        List<RefSet> sets = new ArrayList<>();
        for (Object so : Json.arr(root.get("sets"))) {
            Map<String, Object> s = Json.obj(so);
            Map<Long, RefRun> byFk = new TreeMap<>();
            for (Object ro : Json.arr(s.get("runs"))) {
                Map<String, Object> r = Json.obj(ro);
                Map<String, Object> u = Json.obj(r.get("update"));
                List<double[]> cum = new ArrayList<>();
                for (Object p : Json.arr(u.get("cumulative_ms"))) {
                    List<Object> pair = Json.arr(p);
                    cum.add(new double[] {Json.dbl(pair.get(0), 0), Json.dbl(pair.get(1), 0)});
                }
                Object ins = r.get("insert");
                double insertRps = ins == null ? Double.NaN
                        : Json.dbl(Json.obj(ins).get("requests_per_second"), Double.NaN);
                long fk = (long) Json.dbl(r.get("fk_range"), 0);
                byFk.put(fk, new RefRun((long) Json.dbl(r.get("mod"), 0), fk,
                        Json.dbl(u.get("requests_per_second"), Double.NaN),
                        Json.dbl(u.get("seconds"), Double.NaN), (long) Json.dbl(u.get("requests"), 0),
                        cum, insertRps));
            }
            sets.add(new RefSet((String) s.get("id"), (String) s.get("label"),
                    Boolean.TRUE.equals(s.get("primary")), byFk));
        }
        if (sets.isEmpty()) {
            throw new IOException("no reference sets in " + file);
        }
        sets.sort((a, b) -> Boolean.compare(b.primary(), a.primary()));
        return sets;
    }

    static List<NewRun> loadRun(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("not a directory: " + dir);
        }
        long envRows = -1;
        Path env = dir.resolve("run.env");
        if (Files.exists(env)) {
            for (String line : Files.readAllLines(env)) {
                if (line.startsWith("REQ=")) {
                    envRows = Long.parseLong(line.substring(4).trim().replace("\"", ""));
                }
            }
        }
        List<Long> mods = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(p -> {
                Matcher m = UPDATE_FILE.matcher(p.getFileName().toString());
                if (m.matches()) {
                    mods.add(Long.parseLong(m.group(1)));
                }
            });
        }
        List<NewRun> runs = new ArrayList<>();
        for (long mod : mods) {
            Map<String, Object> u = Json.obj(Json.parse(Files.readString(dir.resolve("update-" + mod + ".json"))));
            Path insFile = dir.resolve("insert-" + mod + ".json");
            Map<String, Object> ins = Files.exists(insFile)
                    ? Json.obj(Json.parse(Files.readString(insFile))) : null;
            long rows = ins != null ? (long) Json.dbl(ins.get("requests"), -1)
                    : envRows > 0 ? envRows : DEFAULT_ROWS;
            List<double[]> pct = new ArrayList<>();
            for (Object p : Json.arr(u.get("percentiles_us"))) {
                List<Object> t = Json.arr(p);
                pct.add(new double[] {Json.dbl(t.get(1), 0) / 1000.0, Json.dbl(t.get(0), 0)});
            }
            boolean ok = Boolean.TRUE.equals(u.get("ok"))
                    && (ins == null || Boolean.TRUE.equals(ins.get("ok")));
            runs.add(new NewRun(mod, rows, rows / mod, Json.dbl(u.get("requests_per_second"), Double.NaN),
                    Json.dbl(u.get("p50_ms"), Double.NaN), Json.dbl(u.get("p99_ms"), Double.NaN),
                    Json.dbl(u.get("max_ms"), Double.NaN), (long) Json.dbl(u.get("requests"), 0),
                    ins == null ? Double.NaN : Json.dbl(ins.get("requests_per_second"), Double.NaN),
                    (long) Json.dbl(u.get("int_reply_min"), -1), (long) Json.dbl(u.get("int_reply_max"), -1),
                    pct, ok));
        }
        runs.sort((a, b) -> Long.compare(a.fkRange(), b.fkRange()));
        return runs;
    }

    // ---------------------------------------------------------------- table

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String ratio(double now, double then) {
        if (Double.isNaN(now) || Double.isNaN(then) || then == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2fx", now / then);
    }

    static String table(String title, List<RefSet> sets, List<NewRun> runs) {
        RefSet ref = sets.get(0);
        RefSet other = sets.size() > 1 ? sets.get(1) : null;
        StringBuilder sb = new StringBuilder();
        sb.append("Large-update test ").append(title).append(" beside ").append(ref.label()).append('\n');
        sb.append("(2010 latencies are whole-millisecond buckets: L means [L, L+1) ms; now: HdrHistogram)\n\n");
        String[] head = {"FK range", "MOD", "rows", "upd/s 2010", "upd/s now", "now/2010",
            "p50 2010", "p50 now", "p99 2010", "p99 now", "max 2010", "max now",
            "ins/s 2010", "ins/s now", "now/2010", other == null ? "" : "upd/s " + other.id(), "ok"};
        List<String[]> rows = new ArrayList<>();
        rows.add(head);
        for (NewRun n : runs) {
            RefRun r = ref.byFkRange().get(n.fkRange());
            RefRun o = other == null ? null : other.byFkRange().get(n.fkRange());
            rows.add(new String[] {
                Long.toString(n.fkRange()), Long.toString(n.mod()), Long.toString(n.rows()),
                r == null ? "-" : fmt(r.rps()), fmt(n.rps()), r == null ? "-" : ratio(n.rps(), r.rps()),
                r == null ? "-" : fmt(r.percentileMs(50)), fmt(n.p50Ms()),
                r == null ? "-" : fmt(r.percentileMs(99)), fmt(n.p99Ms()),
                r == null ? "-" : fmt(r.maxMs()), fmt(n.maxMs()),
                r == null ? "-" : fmt(r.insertRps()), fmt(n.insertRps()),
                r == null ? "-" : ratio(n.insertRps(), r.insertRps()),
                other == null ? "" : o == null ? "-" : fmt(o.rps()),
                n.ok() ? "yes" : "NO"});
        }
        int[] w = new int[head.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                w[i] = Math.max(w[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                if (w[i] == 0) {
                    continue;
                }
                line.append(String.format("%" + w[i] + "s", row[i])).append(i + 1 < row.length ? "  " : "");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        sb.append("\nupd/s: UPDATE requests per second (1 client); p50/p99/max in ms; ins/s: INSERT requests per second (200 clients in 2010).\n");
        return sb.toString();
    }

    static String tsv(List<RefSet> sets, List<NewRun> runs) {
        RefSet ref = sets.get(0);
        StringBuilder sb = new StringBuilder("fk_range\tmod\trows\tupdate_rps_2010\tupdate_rps_now\tupdate_ratio\t"
                + "p50_ms_2010\tp50_ms_now\tp99_ms_2010\tp99_ms_now\tmax_ms_2010\tmax_ms_now\t"
                + "insert_rps_2010\tinsert_rps_now\tinsert_ratio\tok\n");
        for (NewRun n : runs) {
            RefRun r = ref.byFkRange().get(n.fkRange());
            double[] v = {r == null ? Double.NaN : r.rps(), n.rps(),
                r == null ? Double.NaN : n.rps() / r.rps(),
                r == null ? Double.NaN : r.percentileMs(50), n.p50Ms(),
                r == null ? Double.NaN : r.percentileMs(99), n.p99Ms(),
                r == null ? Double.NaN : r.maxMs(), n.maxMs(),
                r == null ? Double.NaN : r.insertRps(), n.insertRps(),
                r == null ? Double.NaN : n.insertRps() / r.insertRps()};
            sb.append(n.fkRange()).append('\t').append(n.mod()).append('\t').append(n.rows());
            for (double d : v) {
                sb.append('\t').append(Double.isNaN(d) ? "" : Json.num(d));
            }
            sb.append('\t').append(n.ok()).append('\n');
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- chart

    private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
        "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

    private static final int W = 1400;
    private static final int H = 1000;

    /** A log-scaled axis mapping values to pixels. */
    record LogAxis(double min, double max, double from, double to) {
        double px(double v) {
            double c = Math.max(min, Math.min(max, v));
            return from + (Math.log10(c) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) * (to - from);
        }

        static LogAxis covering(double lo, double hi, double from, double to) {
            double min = Math.pow(10, Math.floor(Math.log10(lo)));
            double max = Math.pow(10, Math.ceil(Math.log10(hi)));
            if (max <= min) {
                max = min * 10;
            }
            return new LogAxis(min, max, from, to);
        }
    }

    static String svg(String title, List<RefSet> sets, List<NewRun> runs) {
        RefSet ref = sets.get(0);
        RefSet other = sets.size() > 1 ? sets.get(1) : null;
        TreeSet<Long> fkRanges = new TreeSet<>(ref.byFkRange().keySet());
        for (NewRun n : runs) {
            fkRanges.add(n.fkRange());
        }
        // Panel 1 draws the FK ranges of this run (with the 2010 curve of the same range).
        TreeSet<Long> drawn = new TreeSet<>();
        for (NewRun n : runs) {
            drawn.add(n.fkRange());
        }
        Map<Long, String> color = new TreeMap<>();
        int ci = 0;
        for (long fk : drawn) {
            color.put(fk, COLORS[ci++ % COLORS.length]);
        }
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"")
                .append(H).append("\" viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(s, 40, 32, 20, "start", "bold", "Large-update test: " + title + " vs " + ref.label());
        long rows = runs.get(0).rows();
        text(s, 40, 54, 13, "start", "normal", String.format(Locale.ROOT,
                "%,d rows (n, n %% MOD, 4); per MOD one client sends MOD UPDATE ... WHERE fk=k, each matching about rows/MOD rows (the FK range)",
                rows));

        // Panel 1: cumulative latency, log time axis.
        double l1 = 90;
        double r1 = 960;
        double t1 = 90;
        double b1 = 570;
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (NewRun n : runs) {
            for (double[] p : n.percentilesMs()) {
                if (p[0] > 0) {
                    lo = Math.min(lo, p[0]);
                }
                hi = Math.max(hi, p[0]);
            }
        }
        for (long fk : drawn) {
            RefRun r = ref.byFkRange().get(fk);
            if (r == null) {
                continue;
            }
            for (double[] p : r.cumulative()) {
                lo = Math.min(lo, Math.max(p[0], 0.5));
                hi = Math.max(hi, p[0] + 1);
            }
        }
        if (lo == Double.MAX_VALUE) {
            lo = 0.01;
            hi = 1000;
        }
        lo = Math.max(lo, 0.001);
        LogAxis x1 = LogAxis.covering(lo, hi, l1, r1);
        text(s, l1, t1 - 14, 15, "start", "bold",
                "Cumulative latency of UPDATE by FK range (percent of requests at or below the time)");
        s.append("<rect x=\"").append(n(l1)).append("\" y=\"").append(n(t1)).append("\" width=\"")
                .append(n(r1 - l1)).append("\" height=\"").append(n(b1 - t1))
                .append("\" fill=\"none\" stroke=\"#444\"/>\n");
        logGrid(s, x1, true, t1, b1);
        for (int pct = 0; pct <= 100; pct += 10) {
            double y = b1 - pct / 100.0 * (b1 - t1);
            line(s, l1, y, r1, y, pct == 0 || pct == 100 ? "#444" : "#e4e4e4", 1, null);
            text(s, l1 - 8, y + 4, 12, "end", "normal", pct + "%");
        }
        text(s, (l1 + r1) / 2, b1 + 38, 13, "middle", "normal", "latency, milliseconds (log scale)");
        for (long fk : drawn) {
            String c = color.get(fk);
            RefRun r = ref.byFkRange().get(fk);
            if (r != null) {
                StringBuilder pts = new StringBuilder();
                double first = r.cumulative().isEmpty() ? 0 : r.cumulative().get(0)[0];
                if (first >= 1) {
                    // Bucket L holds [L, L+1) ms: nothing was faster than L.
                    pts.append(pt(x1.px(first), b1));
                }
                for (double[] p : r.cumulative()) {
                    pts.append(pt(x1.px(p[0] + 1), b1 - p[1] / 100 * (b1 - t1)));
                }
                polyline(s, pts.toString(), c, 2, "7,5");
                for (double[] p : r.cumulative()) {
                    s.append("<circle cx=\"").append(n(x1.px(p[0] + 1))).append("\" cy=\"")
                            .append(n(b1 - p[1] / 100 * (b1 - t1))).append("\" r=\"2.5\" fill=\"")
                            .append(c).append("\"/>\n");
                }
            }
            for (NewRun nr : runs) {
                if (nr.fkRange() != fk) {
                    continue;
                }
                StringBuilder pts = new StringBuilder();
                for (double[] p : nr.percentilesMs()) {
                    pts.append(pt(x1.px(Math.max(p[0], x1.min())), b1 - p[1] / 100 * (b1 - t1)));
                }
                polyline(s, pts.toString(), c, 2.5, null);
            }
        }
        // Legend.
        double lx = r1 + 30;
        double ly = t1 + 10;
        text(s, lx, ly, 14, "start", "bold", "FK range (rows per update)");
        ly += 22;
        for (long fk : drawn) {
            line(s, lx, ly - 4, lx + 34, ly - 4, color.get(fk), 3, null);
            text(s, lx + 44, ly, 13, "start", "normal", String.format(Locale.ROOT, "%,d", fk)
                    + (ref.byFkRange().containsKey(fk) ? "" : "  (no 2010 run)"));
            ly += 21;
        }
        ly += 14;
        line(s, lx, ly - 4, lx + 34, ly - 4, "#333", 2.5, null);
        text(s, lx + 44, ly, 13, "start", "normal", "now (this run)");
        ly += 21;
        line(s, lx, ly - 4, lx + 34, ly - 4, "#333", 2, "7,5");
        text(s, lx + 44, ly, 13, "start", "normal", ref.id() + ": " + shortLabel(ref));
        ly += 26;
        for (String note : new String[] {"2010 points (dots) are drawn at L+1 ms, the upper",
            "edge of the printed whole-millisecond bucket L:", "\"P% <= L milliseconds\" means P% took less",
            "than L+1 ms. A 2010 curve whose first bucket is 0", "starts at its first dot."}) {
            text(s, lx, ly, 12, "start", "normal", note);
            ly += 16;
        }

        // Panel 2: requests per second by FK range.
        double l2 = 90;
        double r2 = 960;
        double t2 = 680;
        double b2 = 930;
        double fkLo = fkRanges.first();
        double fkHi = fkRanges.last();
        LogAxis x2 = LogAxis.covering(fkLo, fkHi, l2 + 30, r2 - 30);
        double rpsLo = Double.MAX_VALUE;
        double rpsHi = 0;
        for (RefSet set : sets) {
            for (RefRun r : set.byFkRange().values()) {
                rpsLo = Math.min(rpsLo, r.rps());
                rpsHi = Math.max(rpsHi, r.rps());
            }
        }
        for (NewRun nr : runs) {
            if (nr.rps() > 0) {
                rpsLo = Math.min(rpsLo, nr.rps());
                rpsHi = Math.max(rpsHi, nr.rps());
            }
        }
        LogAxis y2 = LogAxis.covering(rpsLo, rpsHi, b2, t2);
        text(s, l2, t2 - 14, 15, "start", "bold", "UPDATE requests per second by FK range (log scales)");
        s.append("<rect x=\"").append(n(l2)).append("\" y=\"").append(n(t2)).append("\" width=\"")
                .append(n(r2 - l2)).append("\" height=\"").append(n(b2 - t2))
                .append("\" fill=\"none\" stroke=\"#444\"/>\n");
        for (double v = y2.min(); v <= y2.max() * 1.0001; v *= 10) {
            double y = y2.px(v);
            line(s, l2, y, r2, y, "#e4e4e4", 1, null);
            text(s, l2 - 8, y + 4, 12, "end", "normal", fmtTick(v));
        }
        for (long fk : fkRanges) {
            double x = x2.px(fk);
            line(s, x, t2, x, b2, "#eeeeee", 1, null);
            text(s, x, b2 + 18, 12, "middle", "normal", String.format(Locale.ROOT, "%,d", fk));
        }
        text(s, (l2 + r2) / 2, b2 + 40, 13, "middle", "normal", "FK range: rows matched by each UPDATE (log scale)");
        if (other != null) {
            series(s, other.byFkRange(), x2, y2, "#aaaaaa", "2,4", false);
        }
        series(s, ref.byFkRange(), x2, y2, "#555555", "7,5", true);
        StringBuilder pts = new StringBuilder();
        for (NewRun nr : runs) {
            if (nr.rps() > 0) {
                pts.append(pt(x2.px(nr.fkRange()), y2.px(nr.rps())));
            }
        }
        polyline(s, pts.toString(), "#d62728", 2.5, null);
        for (NewRun nr : runs) {
            if (nr.rps() > 0) {
                double x = x2.px(nr.fkRange());
                double y = y2.px(nr.rps());
                s.append("<rect x=\"").append(n(x - 4)).append("\" y=\"").append(n(y - 4))
                        .append("\" width=\"8\" height=\"8\" fill=\"#d62728\"/>\n");
                text(s, x + 8, y - 8, 12, "start", "normal", fmt(nr.rps()));
            }
        }
        lx = r2 + 30;
        ly = t2 + 10;
        line(s, lx, ly - 4, lx + 34, ly - 4, "#d62728", 2.5, null);
        text(s, lx + 44, ly, 13, "start", "normal", "now (this run)");
        ly += 21;
        line(s, lx, ly - 4, lx + 34, ly - 4, "#555555", 2, "7,5");
        text(s, lx + 44, ly, 13, "start", "normal", ref.id() + ": " + shortLabel(ref));
        ly += 21;
        if (other != null) {
            line(s, lx, ly - 4, lx + 34, ly - 4, "#aaaaaa", 2, "2,4");
            text(s, lx + 44, ly, 13, "start", "normal", other.id() + ": " + shortLabel(other));
            ly += 21;
        }
        ly += 12;
        double insNowLo = Double.MAX_VALUE;
        double insNowHi = 0;
        for (NewRun nr : runs) {
            if (!Double.isNaN(nr.insertRps())) {
                insNowLo = Math.min(insNowLo, nr.insertRps());
                insNowHi = Math.max(insNowHi, nr.insertRps());
            }
        }
        double insRefLo = Double.MAX_VALUE;
        double insRefHi = 0;
        for (RefRun r : ref.byFkRange().values()) {
            if (!Double.isNaN(r.insertRps())) {
                insRefLo = Math.min(insRefLo, r.insertRps());
                insRefHi = Math.max(insRefHi, r.insertRps());
            }
        }
        text(s, lx, ly, 13, "start", "bold", "INSERT requests per second");
        ly += 18;
        if (insRefHi > 0) {
            text(s, lx, ly, 13, "start", "normal", "2010: " + fmt(insRefLo) + " to " + fmt(insRefHi));
            ly += 18;
        }
        text(s, lx, ly, 13, "start", "normal", insNowHi > 0
                ? "now: " + fmt(insNowLo) + " to " + fmt(insNowHi) : "now: no insert runs");
        s.append("</svg>\n");
        return s.toString();
    }

    private static String shortLabel(RefSet set) {
        String l = set.label();
        int comma = l.indexOf(", ");
        return comma < 0 ? l : l.substring(comma + 2);
    }

    private static void series(StringBuilder s, Map<Long, RefRun> runs, LogAxis x, LogAxis y,
            String color, String dash, boolean labels) {
        StringBuilder pts = new StringBuilder();
        for (RefRun r : runs.values()) {
            pts.append(pt(x.px(r.fkRange()), y.px(r.rps())));
        }
        polyline(s, pts.toString(), color, 2, dash);
        for (RefRun r : runs.values()) {
            double px = x.px(r.fkRange());
            double py = y.px(r.rps());
            s.append("<circle cx=\"").append(n(px)).append("\" cy=\"").append(n(py))
                    .append("\" r=\"4\" fill=\"").append(color).append("\"/>\n");
            if (labels) {
                text(s, px + 8, py + 17, 12, "start", "normal", fmt(r.rps()));
            }
        }
    }

    private static void logGrid(StringBuilder s, LogAxis x, boolean labels, double top, double bottom) {
        for (double dec = x.min(); dec < x.max() * 1.0001; dec *= 10) {
            for (int k = 1; k <= 9; k++) {
                double v = dec * k;
                if (v > x.max() * 1.0001) {
                    break;
                }
                double px = x.px(v);
                line(s, px, top, px, bottom, k == 1 ? "#cccccc" : "#f0f0f0", 1, null);
                if (k == 1 && labels) {
                    text(s, px, bottom + 18, 12, "middle", "normal", fmtTick(v));
                }
            }
        }
    }

    private static String fmtTick(double v) {
        if (v >= 1) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(1)).stripTrailingZeros().toPlainString();
    }

    private static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String pt(double x, double y) {
        return n(x) + "," + n(y) + " ";
    }

    private static void line(StringBuilder s, double x1, double y1, double x2, double y2, String color,
            double width, String dash) {
        s.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"")
                .append(n(x2)).append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(color)
                .append("\" stroke-width=\"").append(width).append('"');
        if (dash != null) {
            s.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        s.append("/>\n");
    }

    private static void polyline(StringBuilder s, String points, String color, double width, String dash) {
        if (points.isBlank()) {
            return;
        }
        s.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"")
                .append(width).append("\" stroke-linejoin=\"round\"");
        if (dash != null) {
            s.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        s.append(" points=\"").append(points.trim()).append("\"/>\n");
    }

    private static void text(StringBuilder s, double x, double y, int size, String anchor, String weight,
            String t) {
        s.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"")
                .append(size).append("\" text-anchor=\"").append(anchor).append('"');
        if (!"normal".equals(weight)) {
            s.append(" font-weight=\"").append(weight).append('"');
        }
        s.append('>').append(escape(t)).append("</text>\n");
    }

    private static String escape(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
