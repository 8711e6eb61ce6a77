package io.respsql.it.conformance;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs SQLite's sqllogictest corpus ({@code ../shared/sqllogictest}) over the wire and fails
 * when any file has fewer correct queries than {@code sqllogictest-baseline.tsv} records.
 *
 * <ul>
 *   <li>{@code -Dslt.updateBaseline=true} rewrites the baseline from this run (commit it when
 *       the counts went up).</li>
 *   <li>{@code -Dslt.files=select1,index/} runs only the files whose path contains one of the
 *       words (the baseline is checked for those).</li>
 *   <li>{@code -Dslt.dir=...} another corpus; {@code -Dslt.parallel=2} files at a time;
 *       {@code -Dslt.replyForm=typed|2010} (typed: queries sent
 *       as QUERY, the default; 2010: as SQL, one comma-joined string per row, for comparison); {@code -Dslt.timeoutMs=60000} per reply;
 *       {@code -Dconformance.handshake="HELLO 3"} a command sent first on each connection.</li>
 * </ul>
 * Without a corpus the test is skipped, unless {@code RESPSQL_REQUIRE_CONFORMANCE=1} (CI).
 * Counts go to {@code target/sqllogictest/summary.tsv}, the first failures of each file to
 * {@code target/sqllogictest/failures.tsv}.
 */
class SqlLogicTest {
    static final Path BASELINE = Path.of("src", "test", "resources", "sqllogictest-baseline.tsv");
    static final Path SKIPS = Path.of("src", "test", "resources", "sqllogictest-skip.tsv");

    @Test
    void corpusDoesNotRegress() throws Exception {
        Path root = SltCorpus.locate();
        if (root == null) {
            String why = "no sqllogictest corpus (../shared/sqllogictest beside the repository, or -Dslt.dir)";
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        List<String> names = selected(SltCorpus.files(root));
        assertTrue(!names.isEmpty(), "no .test files selected under " + root);
        Map<String, Set<Integer>> skips = SltCorpus.readSkips(Files.readAllLines(SKIPS, StandardCharsets.UTF_8));

        long t0 = System.nanoTime();
        List<SltFileRunner.FileResult> results = SltCorpus.run(root, names,
                Integer.getInteger("slt.parallel", 2),
                ResultDecoder.fromProperty("slt.replyForm"),
                skips, Integer.getInteger("slt.timeoutMs", 60_000));
        long wall = (System.nanoTime() - t0) / 1_000_000;
        SltFileRunner.FileResult total = SltCorpus.total(results);
        SltCorpus.write(results, wall);
        System.out.println("sqllogictest over " + root + " (" + names.size() + " files, " + wall + " ms):");
        System.out.print(SltCorpus.table(results, wall));
        System.out.println("correct: " + total.queriesCorrect + " of " + total.queries() + " queries ("
                + SltCorpus.percent(total.queriesCorrect, total.queries()) + "%); details in " + SltCorpus.OUT.toAbsolutePath());
        System.out.println("most frequent errors (all in errors.tsv):");
        SltCorpus.errorCounts(results).stream().limit(10)
                .forEach(e -> System.out.printf("  %6d  %s%n", e.getValue(), e.getKey().length() > 150 ? e.getKey().substring(0, 150) + "..." : e.getKey()));

        long queries = total.queries() + total.listedSkips;
        assertTrue(total.listedSkips * 100L <= queries,
                "the skip list names " + total.listedSkips + " records, more than 1% of " + queries);

        if (Boolean.getBoolean("slt.updateBaseline")) {
            writeBaseline(results);
            System.out.println("baseline written to " + BASELINE.toAbsolutePath());
            return;
        }
        Map<String, Integer> baseline = readBaseline();
        List<String> problems = new ArrayList<>();
        List<String> improved = new ArrayList<>();
        for (SltFileRunner.FileResult r : results) {
            Integer expected = baseline.get(r.name);
            if (expected == null) {
                problems.add(r.name + ": not in the baseline (regenerate it with -Dslt.updateBaseline=true)");
            } else if (r.queriesCorrect < expected) {
                problems.add(r.name + ": " + r.queriesCorrect + " correct queries, the baseline has " + expected
                        + (r.aborted != null ? " (run aborted: " + r.aborted + ")" : ""));
            } else if (r.queriesCorrect > expected) {
                improved.add(r.name + ": " + expected + " -> " + r.queriesCorrect);
            }
        }
        if (names.size() == SltCorpus.files(root).size()) {
            for (String name : baseline.keySet()) {
                if (!names.contains(name)) {
                    problems.add(name + ": in the baseline but not in the corpus");
                }
            }
        }
        if (!improved.isEmpty()) {
            System.out.println("better than the baseline (raise it with -Dslt.updateBaseline=true):\n  " + String.join("\n  ", improved));
        }
        if (!problems.isEmpty()) {
            fail("sqllogictest regressed against " + BASELINE + ":\n  " + String.join("\n  ", problems));
        }
    }

    private static List<String> selected(List<String> all) {
        String only = System.getProperty("slt.files", "");
        if (only.isBlank()) {
            return all;
        }
        List<String> words = List.of(only.split(","));
        return all.stream().filter(n -> words.stream().anyMatch(w -> !w.isBlank() && n.contains(w.strip()))).toList();
    }

    private static Map<String, Integer> readBaseline() throws Exception {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(BASELINE, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("file\t")) {
                continue;
            }
            String[] f = line.split("\t");
            m.put(f[0], Integer.parseInt(f[2]));
        }
        return m;
    }

    private static void writeBaseline(List<SltFileRunner.FileResult> results) throws Exception {
        Map<String, String> lines = new LinkedHashMap<>();
        if (Files.exists(BASELINE)) {
            // a partial run (-Dslt.files) keeps the other files' lines
            for (String line : Files.readAllLines(BASELINE, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("file\t")) {
                    lines.put(line.split("\t")[0], line);
                }
            }
        }
        for (SltFileRunner.FileResult r : results) {
            lines.put(r.name, r.name + "\t" + r.queries() + "\t" + r.queriesCorrect);
        }
        StringBuilder sb = new StringBuilder("# correct queries per sqllogictest file: SqlLogicTest fails when a file has fewer.\n"
                + "# Regenerate: mvn -B -pl tests -am verify -Dtest=SqlLogicTest -Dsurefire.failIfNoSpecifiedTests=false -Dslt.updateBaseline=true\n"
                + "file\tqueries\tcorrect\n");
        lines.keySet().stream().sorted().forEach(k -> sb.append(lines.get(k)).append('\n'));
        Files.writeString(BASELINE, sb, StandardCharsets.UTF_8);
    }
}
