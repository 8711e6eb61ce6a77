package io.respsql.sql;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every statement and query of SQLite's sqllogictest corpus (../shared/sqllogictest) that this
 * engine runs as "sqlite" must parse. Records under {@code onlyif <other engine>} or
 * {@code skipif sqlite} are not ours; {@code statement error} records are checked apart.
 */
class SqlParserCorpusTest {

    /** One SQL text of the corpus, with where it came from. */
    record CorpusSql(Path file, int line, String kind, String sql) {
        @Override
        public String toString() {
            return file.getFileName() + ":" + line + " [" + kind + "] " + sql;
        }
    }

    /**
     * Statement-error records of evidence/ that are syntax errors (in SQLite, or in this dialect):
     * they must fail in the parser. Every other statement-error record there fails later, in the
     * binder or at run time (a missing table, a view written to), so it must parse.
     */
    private static final Set<String> SYNTAX_ERRORS = Set.of(
            "SELECT count(DISTINCT *) FROM t1 WHERE y='false'",
            // SQLite's conflict clause is not part of this dialect
            "INSERT OR REPLACE INTO view1 VALUES(2,'unknown')");

    static Path corpusDir() {
        String prop = System.getProperty("sqllogictest.dir");
        List<Path> candidates = new ArrayList<>();
        if (prop != null) {
            candidates.add(Paths.get(prop));
        }
        Path here = Paths.get("").toAbsolutePath();
        candidates.add(here.resolve("../shared/sqllogictest"));
        candidates.add(here.resolve("../../shared/sqllogictest"));
        candidates.add(here.resolve("../../../shared/sqllogictest"));
        candidates.add(Paths.get("/work/shared/sqllogictest"));
        for (Path p : candidates) {
            if (Files.isDirectory(p)) {
                return p.normalize();
            }
        }
        return null;
    }

    /** The records of every .test file: statement ok / query texts, or statement error texts. */
    static List<CorpusSql> records(Path dir, boolean errors) {
        List<CorpusSql> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".test")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            boolean skip = false;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (l.startsWith("halt")) {
                    if (!skip) {
                        break; // the rest of the file is not for this engine
                    }
                    skip = false; // "onlyif mssql / halt": a halt for another engine
                    continue;
                }
                if (l.startsWith("onlyif ") || l.startsWith("skipif ")) {
                    String engine = l.split("\\s+")[1];
                    boolean only = l.startsWith("onlyif");
                    if (only != engine.equals("sqlite")) {
                        skip = true;
                    }
                    continue;
                }
                if (l.startsWith("statement ") || l.startsWith("query ")) {
                    String kind = l.startsWith("statement error") ? "error" : l.startsWith("statement") ? "statement" : "query";
                    int first = i + 1;
                    StringBuilder sql = new StringBuilder();
                    i++;
                    while (i < lines.size() && !lines.get(i).isBlank() && !lines.get(i).equals("----")) {
                        if (sql.length() > 0) {
                            sql.append('\n');
                        }
                        sql.append(lines.get(i));
                        i++;
                    }
                    while (i < lines.size() && !lines.get(i).isBlank()) {
                        i++; // the expected result
                    }
                    if (!skip && kind.equals("error") == errors) {
                        out.add(new CorpusSql(f, first, kind, sql.toString()));
                    }
                    skip = false;
                    continue;
                }
                if (l.isBlank()) {
                    skip = false;
                }
            }
        }
        return out;
    }

    @Test
    void everyStatementAndQueryOfTheCorpusParses() {
        Path dir = corpusDir();
        Assumptions.assumeTrue(dir != null, "sqllogictest corpus not found (set -Dsqllogictest.dir)");
        List<CorpusSql> all = records(dir, false);
        List<String> failures = new ArrayList<>();
        for (CorpusSql r : all) {
            try {
                if (r.kind().equals("query")) {
                    SqlParser.parse(r.sql());
                } else {
                    // a statement record may hold several statements ("INSERT ...; DROP INDEX ...;")
                    assertFalse(SqlParser.parseScript(r.sql()).isEmpty(), r.toString());
                }
            } catch (SqlException | StackOverflowError e) {
                failures.add(r + "\n    -> " + e.getMessage());
            }
        }
        System.out.println("sqllogictest corpus (" + dir + "): " + (all.size() - failures.size()) + " of " + all.size()
                + " statements and queries parsed");
        assertTrue(all.size() > 80_000, "the corpus should hold over 80,000 records, found " + all.size());
        assertEquals(0, failures.size(), () -> failures.size() + " records failed to parse, first ones:\n"
                + failures.stream().limit(40).collect(Collectors.joining("\n")));
    }

    @Test
    void statementErrorsOfEvidenceFailInTheParserOnlyWhenTheyAreSyntaxErrors() {
        Path dir = corpusDir();
        Assumptions.assumeTrue(dir != null, "sqllogictest corpus not found (set -Dsqllogictest.dir)");
        List<CorpusSql> errors = records(dir.resolve("evidence"), true);
        assertTrue(errors.size() >= 20, "evidence/ should hold statement error records, found " + errors.size());
        int syntax = 0;
        for (CorpusSql r : errors) {
            if (SYNTAX_ERRORS.contains(r.sql())) {
                syntax++;
                assertThrows(SqlException.class, () -> SqlParser.parse(r.sql()), r.toString());
            } else {
                SqlParser.parse(r.sql()); // fails later: binder or execution
            }
        }
        assertEquals(SYNTAX_ERRORS.size(), syntax, "each listed syntax error occurs in evidence/");
    }
}
