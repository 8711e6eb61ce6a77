package io.respsql.it.conformance;

import io.respsql.it.process.ServerProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Runs every {@code .test} file of a sqllogictest corpus, each in a server process of its own
 * (files create the same table names) on a free port with a temporary {@code dir}, a few files
 * at a time, and writes the per-file counts and failures under {@code target/sqllogictest/}.
 */
final class SltCorpus {
    /** Where the counts and failures are written, relative to the module directory. */
    static final Path OUT = Path.of("target", "sqllogictest");

    private SltCorpus() {
    }

    /**
     * The corpus directory: {@code -Dslt.dir}, else the first {@code shared/sqllogictest} found
     * beside the working directory or one of its parents (the repository is checked out next to
     * {@code shared/}).
     */
    static Path locate() {
        String given = System.getProperty("slt.dir");
        if (given != null && !given.isEmpty()) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null && d.getParent() != null; d = d.getParent()) {
            Path candidate = d.getParent().resolve("shared").resolve("sqllogictest");
            if (Files.isDirectory(candidate)) {
                return candidate.normalize();
            }
        }
        return null;
    }

    /** Every {@code .test} file under {@code root}, as paths relative to it with '/' separators, sorted. */
    static List<String> files(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".test") && Files.isRegularFile(p))
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The skip list: lines {@code <file>:<line>\t<reason>} ('#' comments, blank lines ignored);
     * each names the header line of a record not to run, a deliberate difference with its reason.
     */
    static Map<String, Set<Integer>> readSkips(List<String> lines) {
        Map<String, Set<Integer>> skips = new HashMap<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", 2);
            int colon = f[0].lastIndexOf(':');
            if (f.length < 2 || f[1].isBlank() || colon < 0) {
                throw new IllegalArgumentException("skip list line is not '<file>:<line><TAB><reason>': " + raw);
            }
            skips.computeIfAbsent(f[0].substring(0, colon), k -> new HashSet<>()).add(Integer.parseInt(f[0].substring(colon + 1)));
        }
        return skips;
    }

    /** Runs {@code names} (relative to {@code root}), {@code parallel} files at a time; results in the order given. */
    static List<SltFileRunner.FileResult> run(Path root, List<String> names, int parallel, ResultDecoder decoder,
                                              Map<String, Set<Integer>> skips, int replyTimeoutMillis) throws Exception {
        // Largest files first, so the last one to finish is not a large one started last.
        List<String> bySize = new ArrayList<>(names);
        bySize.sort(Comparator.comparingLong((String n) -> size(root.resolve(n))).reversed());
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        Map<String, Future<SltFileRunner.FileResult>> futures = new LinkedHashMap<>();
        try {
            for (String name : bySize) {
                futures.put(name, pool.submit(() -> runFile(root, name, decoder, skips.getOrDefault(name, Set.of()), replyTimeoutMillis)));
            }
            List<SltFileRunner.FileResult> results = new ArrayList<>();
            for (String name : names) {
                results.add(futures.get(name).get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static SltFileRunner.FileResult runFile(Path root, String name, ResultDecoder decoder, Set<Integer> skipLines,
                                                    int replyTimeoutMillis) throws IOException {
        SltScript script = SltScript.parse(root.resolve(name));
        List<SltScript.Record> records = script.records;
        int listed = 0;
        if (!skipLines.isEmpty()) {
            List<SltScript.Record> kept = new ArrayList<>();
            for (SltScript.Record r : records) {
                if (skipLines.contains(r.line())) {
                    listed++;
                } else {
                    kept.add(r);
                }
            }
            records = kept;
        }
        Path dir = Files.createTempDirectory("respsql-slt-");
        try (ServerProcess server = ServerProcess.start(dir, "--save", "")) {
            SltFileRunner.FileResult r = new SltFileRunner(decoder, replyTimeoutMillis)
                    .run(script.withRecords(records), name, ServerProcess.HOST, server.port());
            r.listedSkips = listed;
            if (r.aborted != null) {
                server.kill9(); // a server that stopped answering is not waited for
            }
            return r;
        } finally {
            deleteTree(dir);
        }
    }

    /** Writes {@code summary.tsv} (one line per file, then the totals) and {@code failures.tsv}. */
    static void write(List<SltFileRunner.FileResult> results, long wallMillis) throws IOException {
        Files.createDirectories(OUT);
        StringBuilder tsv = new StringBuilder(
                "file\tstatements_ok\tstatements_failed\tqueries\tqueries_correct\tqueries_wrong\tqueries_error\tskipped\tlisted_skips\tmillis\taborted\n");
        SltFileRunner.FileResult total = total(results);
        for (SltFileRunner.FileResult r : results) {
            row(tsv, r);
        }
        total.millis = wallMillis;
        row(tsv, total);
        Files.writeString(OUT.resolve("summary.tsv"), tsv, StandardCharsets.UTF_8);
        StringBuilder failures = new StringBuilder("# file:line\tkind\tdetail\tsql (first " + SltFileRunner.KEEP_FAILURES + " per file)\n");
        for (SltFileRunner.FileResult r : results) {
            for (String f : r.failures) {
                failures.append(f).append('\n');
            }
        }
        Files.writeString(OUT.resolve("failures.tsv"), failures, StandardCharsets.UTF_8);
        StringBuilder errors = new StringBuilder("count\terror (every file, positions blanked)\n");
        for (Map.Entry<String, Integer> e : errorCounts(results)) {
            errors.append(e.getValue()).append('\t').append(e.getKey().replace('\n', ' ')).append('\n');
        }
        Files.writeString(OUT.resolve("errors.tsv"), errors, StandardCharsets.UTF_8);
    }

    /** Error texts over all files, most frequent first. */
    static List<Map.Entry<String, Integer>> errorCounts(List<SltFileRunner.FileResult> results) {
        Map<String, Integer> all = new HashMap<>();
        for (SltFileRunner.FileResult r : results) {
            r.errors.forEach((k, v) -> all.merge(k, v, Integer::sum));
        }
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(all.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return sorted;
    }

    static SltFileRunner.FileResult total(List<SltFileRunner.FileResult> results) {
        SltFileRunner.FileResult t = new SltFileRunner.FileResult("TOTAL");
        for (SltFileRunner.FileResult r : results) {
            t.statementsOk += r.statementsOk;
            t.statementsFailed += r.statementsFailed;
            t.queriesCorrect += r.queriesCorrect;
            t.queriesWrong += r.queriesWrong;
            t.queriesError += r.queriesError;
            t.skipped += r.skipped;
            t.listedSkips += r.listedSkips;
            t.millis += r.millis;
        }
        return t;
    }

    private static void row(StringBuilder tsv, SltFileRunner.FileResult r) {
        tsv.append(r.name).append('\t').append(r.statementsOk).append('\t').append(r.statementsFailed).append('\t')
                .append(r.queries()).append('\t').append(r.queriesCorrect).append('\t').append(r.queriesWrong).append('\t')
                .append(r.queriesError).append('\t').append(r.skipped).append('\t').append(r.listedSkips).append('\t')
                .append(r.millis).append('\t').append(r.aborted == null ? "" : r.aborted).append('\n');
    }

    /** A human-readable table of the counts. */
    static String table(List<SltFileRunner.FileResult> results, long wallMillis) {
        StringBuilder sb = new StringBuilder();
        String fmt = "%-40s %7s %7s | %7s %7s %7s %7s %6s | %7s%n";
        sb.append(String.format(fmt, "file", "stmt ok", "failed", "queries", "correct", "wrong", "error", "%", "ms"));
        List<SltFileRunner.FileResult> all = new ArrayList<>(results);
        SltFileRunner.FileResult total = total(results);
        total.millis = wallMillis;
        all.add(total);
        for (SltFileRunner.FileResult r : all) {
            sb.append(String.format(fmt, r.name, r.statementsOk, r.statementsFailed, r.queries(), r.queriesCorrect,
                    r.queriesWrong, r.queriesError, percent(r.queriesCorrect, r.queries()), r.millis));
            if (r.aborted != null) {
                sb.append("    aborted: ").append(r.aborted).append('\n');
            }
        }
        return sb.toString();
    }

    static String percent(long part, long whole) {
        return whole == 0 ? "-" : String.format(java.util.Locale.ROOT, "%.1f", 100.0 * part / whole);
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
