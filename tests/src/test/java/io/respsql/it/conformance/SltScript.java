package io.respsql.it.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sqllogictest file parsed into the records this engine runs. Records are separated by blank
 * lines; {@code skipif <db>} / {@code onlyif <db>} lines before a record (a {@code halt} too)
 * decide whether it runs, this engine being {@value #ENGINE}: every {@code onlyif} of another
 * engine is skipped. {@code hash-threshold} only concerns the generator of the files.
 */
final class SltScript {
    /** The engine name matched against skipif/onlyif. */
    static final String ENGINE = "respsql";

    sealed interface Record permits Statement, Query {
        int line();

        String sql();
    }

    /** {@code statement ok} or {@code statement error}. */
    record Statement(int line, String sql, boolean expectError) implements Record {
    }

    /**
     * {@code query <types> <sort> [label]}: {@code expected} holds the printed values, or is null
     * when the file gives {@code <hashCount> values hashing to <hash>}.
     */
    record Query(int line, String sql, String types, String sort, String label,
                 List<String> expected, int hashCount, String hash) implements Record {
    }

    final Path file;
    final List<Record> records;
    /** Records not run because of skipif/onlyif. */
    final int skipped;
    /** Whether a {@code halt} that applies ended the file early. */
    final boolean halted;

    private SltScript(Path file, List<Record> records, int skipped, boolean halted) {
        this.file = file;
        this.records = records;
        this.skipped = skipped;
        this.halted = halted;
    }

    /** The same file with only {@code kept} of its records. */
    SltScript withRecords(List<Record> kept) {
        return new SltScript(file, List.copyOf(kept), skipped, halted);
    }

    static SltScript parse(Path file) throws IOException {
        return parse(file, Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    static SltScript parse(Path file, List<String> lines) {
        List<Record> records = new ArrayList<>();
        int skipped = 0;
        boolean halted = false;
        boolean skip = false;
        int i = 0;
        int n = lines.size();
        while (i < n) {
            String line = strip(lines.get(i));
            if (line.isBlank()) {
                skip = false; // conditions belong to the record they precede
                i++;
                continue;
            }
            if (line.startsWith("#")) {
                i++;
                continue;
            }
            String[] words = line.trim().split("\\s+");
            int at = i + 1; // 1-based line number of the record's header
            switch (words[0]) {
                case "skipif" -> {
                    skip |= words.length > 1 && words[1].equals(ENGINE);
                    i++;
                    continue;
                }
                case "onlyif" -> {
                    skip |= words.length > 1 && !words[1].equals(ENGINE);
                    i++;
                    continue;
                }
                case "hash-threshold" -> {
                    i++;
                    skip = false;
                    continue;
                }
                case "halt" -> {
                    if (!skip) {
                        halted = true;
                        i = n;
                    } else {
                        i++;
                    }
                    skip = false;
                    continue;
                }
                default -> {
                }
            }
            i++;
            StringBuilder sql = new StringBuilder();
            while (i < n && !strip(lines.get(i)).isBlank() && !strip(lines.get(i)).equals("----")) {
                if (sql.length() > 0) {
                    sql.append('\n');
                }
                sql.append(strip(lines.get(i)));
                i++;
            }
            List<String> results = new ArrayList<>();
            if (i < n && strip(lines.get(i)).equals("----")) {
                i++;
                while (i < n && !strip(lines.get(i)).isEmpty()) {
                    results.add(strip(lines.get(i)));
                    i++;
                }
            }
            Record record = switch (words[0]) {
                case "statement" -> {
                    if (words.length < 2 || !(words[1].equals("ok") || words[1].equals("error"))) {
                        throw new IllegalArgumentException(file + ":" + at + ": unknown statement kind: " + line);
                    }
                    yield new Statement(at, sql.toString(), words[1].equals("error"));
                }
                case "query" -> {
                    if (words.length < 2) {
                        throw new IllegalArgumentException(file + ":" + at + ": query without types: " + line);
                    }
                    String sort = words.length > 2 ? words[2] : "nosort";
                    String label = words.length > 3 ? words[3] : null;
                    yield query(file, at, sql.toString(), words[1], sort, label, results);
                }
                default -> throw new IllegalArgumentException(file + ":" + at + ": unknown record: " + line);
            };
            if (skip) {
                skipped++;
            } else {
                records.add(record);
            }
            skip = false;
        }
        return new SltScript(file, List.copyOf(records), skipped, halted);
    }

    private static Query query(Path file, int at, String sql, String types, String sort, String label, List<String> results) {
        if (!types.matches("[IRT]+")) {
            throw new IllegalArgumentException(file + ":" + at + ": bad result types '" + types + "'");
        }
        if (!sort.equals("nosort") && !sort.equals("rowsort") && !sort.equals("valuesort")) {
            throw new IllegalArgumentException(file + ":" + at + ": bad sort mode '" + sort + "'");
        }
        if (results.size() == 1) {
            String[] w = results.get(0).split(" ");
            if (w.length == 5 && w[1].equals("values") && w[2].equals("hashing") && w[3].equals("to")) {
                return new Query(at, sql, types, sort, label, null, Integer.parseInt(w[0]), w[4]);
            }
        }
        return new Query(at, sql, types, sort, label, List.copyOf(results), -1, null);
    }

    /** A line without a trailing CR (files written on Windows). */
    private static String strip(String s) {
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}
