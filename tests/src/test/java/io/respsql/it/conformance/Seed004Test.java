package io.respsql.it.conformance;

import io.respsql.it.process.ServerProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seed 004's 31 analytical queries ({@code src/test/resources/seed004/q*.sql}, as written in
 * the seed, constants fitted to the data: see README.md there) run on RespSQL and on PostgreSQL
 * 15 over the same generated data set ({@link EcomData}), their answers compared row by row:
 * in order where the query orders, else as multisets; numbers compared as numbers (with a
 * relative tolerance of 1e-9), timestamps as timestamps.
 *
 * <p>Each query's outcome (match, mismatch, error) is checked against
 * {@code seed004/expected-status.tsv}: a query listed as {@code match} must match; one listed
 * as failing must still fail, so that the list is shortened as soon as a query starts to
 * match. The outcomes of this run are written to {@code target/seed004/status.tsv}.
 *
 * <p>Without PostgreSQL 15 ({@code PG_BIN}, default /usr/lib/postgresql/15/bin) the test is
 * skipped, unless {@code RESPSQL_REQUIRE_CONFORMANCE=1} (CI, which installs it).
 * {@code -Dseed004.types=substitute} creates the RespSQL tables with TEXT for TIMESTAMP (the
 * substitute used before issue 10 added the type).
 */
class Seed004Test {
    static final Path QUERIES = Path.of("src", "test", "resources", "seed004");
    static final Path EXPECTED = QUERIES.resolve("expected-status.tsv");
    static final Path OUT = Path.of("target", "seed004");
    private static final int REPLY_TIMEOUT_MS = 60_000;

    /**
     * The type RespSQL's tables use: the standard one (TIMESTAMP exists since issue 10), or with
     * {@code -Dseed004.types=substitute} TEXT for TIMESTAMP, as before it did (values written alike).
     */
    static String respsqlType(String standard) {
        if (!System.getProperty("seed004.types", "").equals("substitute")) {
            return standard;
        }
        return standard.equals("TIMESTAMP") ? "TEXT" : standard;
    }

    record Outcome(String query, String status, String detail) {
    }

    @Test
    void queriesAgreeWithPostgresql() throws Exception {
        if (!PgPeer.installed()) {
            String why = "no PostgreSQL in " + PgPeer.bin() + " (set PG_BIN, or install Debian's postgresql)";
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        EcomData data = new EcomData(4, 2_000, 200, 8_000);
        Map<String, String> queries = readQueries();
        assertEquals(31, queries.size(), "seed 004 has 31 queries");
        List<String> inserts = data.inserts(500);

        List<Outcome> outcomes = new ArrayList<>();
        List<String> backgroundDiffers = new ArrayList<>();
        Path work = Files.createTempDirectory("respsql-seed004-");
        try (PgPeer pg = PgPeer.start(repoRoot())) {
            Files.createDirectories(OUT);
            Path load = OUT.resolve("load-postgresql.sql"); // kept for looking into a difference by hand
            List<String> pgLoad = new ArrayList<>(List.of("BEGIN"));
            pgLoad.addAll(data.schema(t -> t, true));
            pgLoad.addAll(inserts);
            pgLoad.add("COMMIT");
            pgLoad.add("ANALYZE");
            Files.writeString(load, String.join(";\n", pgLoad) + ";\n", StandardCharsets.UTF_8);
            pg.runFile(load);
            System.out.println("seed 004 on " + pg.version() + ": customers " + data.rows("customers") + ", products "
                    + data.rows("products") + ", orders " + data.rows("orders") + ", order_items " + data.rows("order_items"));

            Respsql server = new Respsql(work, data.schema(Seed004Test::respsqlType, false), inserts);
            // The same queries once more on a server that runs every query in the background, on a
            // read view (bg-query-min-rows 1): the data set is too small to get there by itself, and
            // the executor takes paths of its own there (keys resolved once per row of a read view).
            // Issue 27: on the long lane (bg-query-short-rows 0), split over 3 workers in morsels of
            // 64 rows, so the parallel operators answer every query too.
            Respsql background = new Respsql(work, data.schema(Seed004Test::respsqlType, false), inserts,
                    "--bg-query-min-rows", "1", "--bg-query-short-rows", "0", "--bg-query-threads", "3",
                    "--bg-query-morsel-rows", "64");
            try {
                for (Map.Entry<String, String> q : queries.entrySet()) {
                    List<List<String>> expected;
                    try {
                        expected = pg.query(q.getValue());
                    } catch (IOException e) {
                        throw new AssertionError(q.getKey() + " fails on PostgreSQL: " + e.getMessage());
                    }
                    if (expected.isEmpty()) {
                        fail(q.getKey() + " returns no rows on PostgreSQL: fit its constants to the data");
                    }
                    Outcome o = run(server, q.getKey(), q.getValue(), expected);
                    outcomes.add(o);
                    Outcome bg = run(background, q.getKey(), q.getValue(), expected);
                    if (!bg.status().equals(o.status())) {
                        backgroundDiffers.add(q.getKey() + ": " + o.status() + " in the foreground, " + bg.status()
                                + " in the background (" + bg.detail() + ")");
                    }
                }
            } finally {
                server.close();
                background.close();
            }
        } finally {
            deleteTree(work);
        }
        report(outcomes);
        check(outcomes);
        assertEquals(List.of(), backgroundDiffers, "queries run in the background agree with the foreground");
    }

    /** One query on RespSQL, compared with PostgreSQL's rows. */
    private static Outcome run(Respsql server, String name, String sql, List<List<String>> expected) throws Exception {
        ResultDecoder decoder = ResultDecoder.fromProperty("seed004.replyForm");
        Object reply;
        try {
            reply = server.client.send(decoder.command(), sql);
        } catch (SocketTimeoutException e) {
            server.restart(); // the event loop may still be busy with it
            return new Outcome(name, "error", "no reply within " + REPLY_TIMEOUT_MS + " ms");
        }
        int columns = expected.get(0).size();
        ResultDecoder.Decoded d = decoder.decode(reply, columns);
        if (d.failed()) {
            return new Outcome(name, "error", d.error());
        }
        String diff = compare(expected, d.rows(), ordered(sql), d.typed());
        return diff == null ? new Outcome(name, "match", expected.size() + " rows") : new Outcome(name, "mismatch", diff);
    }

    /** {@link #compare(List, List, boolean, boolean)} of untyped (2010) rows. */
    static String compare(List<List<String>> expected, List<List<Object>> actual, boolean ordered) {
        return compare(expected, actual, ordered, false);
    }

    /**
     * Null when the rows agree, else the first difference. PostgreSQL's values come as text;
     * with {@code typed} rows, RespSQL's are typed ({@link #same(String, Object, boolean)}).
     */
    static String compare(List<List<String>> expected, List<List<Object>> actual, boolean ordered, boolean typed) {
        List<List<String>> e = new ArrayList<>(expected);
        List<List<Object>> a = new ArrayList<>(actual);
        if (!ordered) {
            e.sort(Comparator.comparing(Seed004Test::canonical));
            a.sort(Comparator.comparing(Seed004Test::canonical));
        }
        for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
            if (e.get(i).size() != a.get(i).size()) {
                return "row " + (i + 1) + " has " + a.get(i).size() + " values, PostgreSQL's " + e.get(i).size() + ": " + a.get(i);
            }
            for (int c = 0; c < e.get(i).size(); c++) {
                if (!same(e.get(i).get(c), a.get(i).get(c), typed)) {
                    return "row " + (i + 1) + (ordered ? "" : " (sorted)") + " is " + a.get(i) + ", PostgreSQL's " + e.get(i);
                }
            }
        }
        if (e.size() != a.size()) {
            return a.size() + " rows, PostgreSQL has " + e.size();
        }
        return null;
    }

    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd[ ]['T']HH:mm:ss[.SSSSSS][.SSS]");

    /** {@link #same(String, Object, boolean)} of an untyped (2010) value. */
    static boolean same(String expected, String actual) {
        return same(expected, actual, false);
    }

    /**
     * Whether RespSQL's value {@code actual} is PostgreSQL's {@code expected} (its text). An
     * integer ({@link Long}) equals a PostgreSQL number of the same value exactly ({@code 100}
     * and numeric {@code 100.00}); a FLOAT ({@link Double}) equals a number within a relative
     * 1e-9; neither equals a non-number. Text is compared as text, or as a timestamp (RespSQL's
     * stand-in for TIMESTAMP is TEXT); only untyped (2010) text, which cannot say whether it was
     * a number, is also compared as a number.
     */
    static boolean same(String expected, Object actual, boolean typed) {
        if (expected == null || actual == null) {
            return expected == null && actual == null;
        }
        if (actual instanceof Long n) {
            return NUMBER.matcher(expected).matches() && new BigDecimal(expected).compareTo(BigDecimal.valueOf(n)) == 0;
        }
        if (actual instanceof Double d) {
            return NUMBER.matcher(expected).matches() && close(Double.parseDouble(expected), d);
        }
        String text = actual.toString();
        if (expected.equals(text)) {
            return true;
        }
        if (!typed && NUMBER.matcher(expected).matches() && NUMBER.matcher(text).matches()) {
            return close(Double.parseDouble(expected), Double.parseDouble(text));
        }
        LocalDateTime tx = timestamp(expected);
        return tx != null && tx.equals(timestamp(text));
    }

    private static boolean close(double x, double y) {
        return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.max(Math.abs(x), Math.abs(y)));
    }

    private static LocalDateTime timestamp(String s) {
        try {
            return LocalDateTime.parse(s, TS);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A row as a sort key in which numbers and timestamps that compare equal are spelled alike. */
    private static String canonical(List<?> row) {
        StringBuilder sb = new StringBuilder();
        for (Object value : row) {
            String v = value == null ? null : value.toString();
            if (v == null) {
                sb.append("\u0000NULL");
            } else if (NUMBER.matcher(v).matches()) {
                sb.append(new BigDecimal(v).stripTrailingZeros().toPlainString());
            } else {
                LocalDateTime t = timestamp(v);
                sb.append(t != null ? t.toString() : v);
            }
            sb.append('\u0001');
        }
        return sb.toString();
    }

    /** Whether the statement ends in an ORDER BY of its own (outside any parentheses). */
    static boolean ordered(String sql) {
        int depth = 0;
        String upper = sql.toUpperCase(java.util.Locale.ROOT);
        for (int i = 0; i < upper.length(); i++) {
            char c = upper.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && upper.startsWith("ORDER BY", i)) {
                return true;
            }
        }
        return false;
    }

    private static void report(List<Outcome> outcomes) throws IOException {
        Files.createDirectories(OUT);
        StringBuilder tsv = new StringBuilder("query\tstatus\tdetail\n");
        long matching = outcomes.stream().filter(o -> o.status().equals("match")).count();
        System.out.println("seed 004 against PostgreSQL: " + matching + " of " + outcomes.size() + " queries match");
        for (Outcome o : outcomes) {
            tsv.append(o.query()).append('\t').append(o.status()).append('\t').append(oneLine(o.detail())).append('\n');
            System.out.printf("  %-5s %-8s %s%n", o.query(), o.status(), oneLine(o.detail()));
        }
        Files.writeString(OUT.resolve("status.tsv"), tsv, StandardCharsets.UTF_8);
    }

    /** Every query listed as matching matches; every one listed as failing still fails. */
    private static void check(List<Outcome> outcomes) throws IOException {
        Map<String, String> expected = new LinkedHashMap<>();
        for (String line : Files.readAllLines(EXPECTED, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("query\t")) {
                continue;
            }
            String[] f = line.split("\t");
            expected.put(f[0], f[1]);
        }
        List<String> problems = new ArrayList<>();
        for (Outcome o : outcomes) {
            String want = expected.get(o.query());
            if (want == null) {
                problems.add(o.query() + ": not in " + EXPECTED);
            } else if (want.equals("match") && !o.status().equals("match")) {
                problems.add(o.query() + ": expected to match PostgreSQL, got " + o.status() + ": " + oneLine(o.detail()));
            } else if (!want.equals("match") && o.status().equals("match")) {
                problems.add(o.query() + ": listed as failing (" + want + ") but now matches PostgreSQL: update the list in " + EXPECTED);
            }
        }
        if (!problems.isEmpty()) {
            fail("seed 004 outcomes differ from " + EXPECTED + " (this run's are in " + OUT.resolve("status.tsv") + "):\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** q01.sql ... q30.sql (q05b between q05 and q06), each one statement, in name order. */
    private static Map<String, String> readQueries() throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        try (Stream<Path> s = Files.list(QUERIES)) {
            for (Path p : s.filter(p -> p.getFileName().toString().matches("q\\d\\d[a-z]?\\.sql")).sorted().toList()) {
                String sql = Files.readString(p, StandardCharsets.UTF_8).strip();
                if (sql.endsWith(";")) {
                    sql = sql.substring(0, sql.length() - 1).strip();
                }
                m.put(p.getFileName().toString().replace(".sql", ""), sql);
            }
        }
        return m;
    }

    private static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("scripts").resolve("pg-peer.sh"))) {
                return d;
            }
        }
        throw new AssertionError("no scripts/pg-peer.sh above " + Path.of("").toAbsolutePath());
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\t', ' ').replace('\r', ' ');
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A RespSQL server process loaded with the data set; restarted (and reloaded) after a query that did not answer. */
    private static final class Respsql implements AutoCloseable {
        private final Path work;
        private final List<String> ddl;
        private final List<String> inserts;
        private ServerProcess process;
        WireClient client;

        private final String[] options;

        Respsql(Path work, List<String> ddl, List<String> inserts, String... options) throws IOException {
            this.work = work;
            this.ddl = ddl;
            this.inserts = inserts;
            this.options = options;
            start();
        }

        private void start() throws IOException {
            Path dir = Files.createTempDirectory(work, "respsql-");
            List<String> args = new ArrayList<>(List.of("--save", ""));
            args.addAll(List.of(options));
            process = ServerProcess.start(dir, args.toArray(new String[0]));
            client = new WireClient(ServerProcess.HOST, process.port(), REPLY_TIMEOUT_MS).greet();
            for (String st : ddl) {
                expectOk(st, client.sql(st));
            }
            for (String st : inserts) {
                expectOk(st, client.sql(st));
            }
        }

        private static void expectOk(String statement, Object reply) {
            if (!"OK".equals(reply)) {
                throw new AssertionError("RespSQL refused the load statement "
                        + statement.substring(0, Math.min(120, statement.length())) + "...: " + reply);
            }
        }

        void restart() throws IOException {
            close();
            start();
        }

        @Override
        public void close() throws IOException {
            client.close();
            process.kill9();
            process.close();
        }
    }
}
