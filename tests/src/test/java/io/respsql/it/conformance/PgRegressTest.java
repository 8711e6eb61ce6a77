package io.respsql.it.conformance;

import io.respsql.it.process.ServerProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.io.EOFException;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The PostgreSQL regression yardstick: every file of PostgreSQL 15's own regression SQL
 * ({@code ../shared/pg-regress/sql/}, see its README) run statement by statement, as psql would
 * send it, against a throwaway PostgreSQL 15 and a RespSQL server holding the same data, each
 * file in a fresh state (PostgreSQL: a database cloned from one that ran {@code test_setup.sql};
 * RespSQL: a fresh server process with test_setup's tables and PostgreSQL's rows of them).
 *
 * <p>Per statement: PostgreSQL's answer (rows, affected-row count, or error) against RespSQL's
 * ({@code QUERY}, typed rows), one of {@code same}, {@code different}, {@code refused} (RespSQL
 * errs where PostgreSQL answered), {@code pg_error_same} / {@code pg_error_accepted} (PostgreSQL
 * errs; RespSQL errs too / answers), {@code skipped} (psql meta-commands, and the statements of
 * {@code pg-regress-skip.tsv}, with a reason). Per file and in total it prints the counts and
 * fails when a file's {@code same} count falls below {@code pg-regress-baseline.tsv}.
 * Details go to {@code target/pg-regress/results.tsv}, the table to {@code summary.tsv}.
 *
 * <p>{@code -Dpgregress.files=select,join} runs some files; {@code -Dpgregress.updateBaseline=true}
 * writes this run's counts into the baseline. Without PostgreSQL 15 the test is skipped unless
 * {@code RESPSQL_REQUIRE_CONFORMANCE=1}.
 */
class PgRegressTest {
    static final Path BASELINE = Path.of("src", "test", "resources", "pg-regress-baseline.tsv");
    static final Path SKIPS = Path.of("src", "test", "resources", "pg-regress-skip.tsv");
    static final Path OUT = Path.of("target", "pg-regress");
    /**
     * A statement gets this long on each side; longer counts as an error (and RespSQL's server is
     * replaced). Most answers take under 2 s on the loaded 2-core machine: room for a slower CI run.
     * subselect #169 (a correlated EXISTS over tenk1) ran 1 s inline through indexes; since an inline
     * read that overruns loop-statement-max-ms moves to a worker, whose read view has no indexes, it
     * takes over 30 s and times out here (baseline lowered by one, README says why).
     */
    static final int STATEMENT_TIMEOUT_MS = 10_000;
    /** Long files: only their first statements are the part that matters here (README of pg-regress). */
    static final Map<String, Integer> LIMITS = Map.of("numeric", 400, "alter_table", 400, "foreign_key", 400);
    /** The order of PostgreSQL 15's parallel_schedule (each file runs on a fresh copy, so it only orders the table). */
    static final List<String> SCHEDULE = List.of("boolean", "int4", "numeric", "strings", "date", "timestamp", "interval",
            "create_table", "insert", "insert_conflict", "constraints", "select", "select_distinct", "union", "subselect",
            "join", "aggregates", "transactions", "groupingsets", "update", "sequence", "identity", "foreign_key", "window",
            "with", "returning", "alter_table");

    static final List<String> CATEGORIES = List.of("same", "different", "refused", "pg_error_same", "pg_error_accepted", "skipped");

    record Skip(String file, boolean run, Pattern pattern, String reason) {
    }

    /** PostgreSQL's answer: an error, rows (with column type names), or a count (-1: none). */
    record PgAnswer(String error, List<String> types, List<List<String>> rows, long count) {
        String summary() {
            if (error != null) {
                return "ERROR: " + error;
            }
            if (rows != null) {
                return rows.size() + " rows" + (rows.isEmpty() ? "" : ": " + rows.get(0) + (rows.size() > 1 ? " ..." : ""));
            }
            return "count " + count;
        }
    }

    /** A statement's time on each side, for the list of the slowest (how far they are from the timeout). */
    record Slow(long pgMillis, long respMillis, String file, int number, String sql) {
    }

    private static final List<Slow> SLOWEST = new ArrayList<>();

    record Row(String file, int number, int line, String category, String sql, String pg, String resp, String why) {
    }

    /** A statement's category, and for {@code different} the first difference. */
    record Verdict(String category, String why) {
    }

    @Test
    void regressionFilesAgainstPostgresql() throws Exception {
        if (!PgPeer.installed()) {
            String why = "no PostgreSQL in " + PgPeer.bin() + " (set PG_BIN, or install Debian's postgresql)";
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        Path regress = locate();
        if (regress == null) {
            String why = "no ../shared/pg-regress beside the repository (or -Dpgregress.dir)";
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        List<String> files = files(regress);
        List<Skip> skips = readSkips();
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        Path work = Files.createTempDirectory("respsql-pgregress-");
        try (PgPeer peer = startPeer()) {
            Map<String, String> env = Map.of("PG_ABS_SRCDIR", regress.toString(), "PG_LIBDIR",
                    PgPeer.bin().getParent().resolve("lib").toString(), "PG_DLSUFFIX", ".so");
            Setup setup = Setup.run(peer, regress, env);
            System.out.println("pg-regress on " + peer.version() + ": test_setup loaded (" + setup.summary() + ")");
            Respsql resp = new Respsql(work, List.of());
            try {
                setup.buildRespsqlLoad(resp);
                resp.load = setup.respsqlLoad;
                for (String adapted : setup.adaptations) {
                    System.out.println("  RespSQL load: " + adapted);
                }
                for (String file : files) {
                    Map<String, Integer> c = new LinkedHashMap<>();
                    CATEGORIES.forEach(k -> c.put(k, 0));
                    counts.put(file, c);
                    long f0 = System.nanoTime();
                    resp.reset();
                    runFile(peer, setup, regress, file, env, skips, resp, rows, c);
                    System.out.printf("  %-16s %5.1f s%n", file, (System.nanoTime() - f0) / 1e9);
                }
            } finally {
                resp.close();
            }
        } finally {
            PgOracle.deleteTree(work);
        }
        writeResults(rows, counts);
        String table = table(counts);
        System.out.println(table);
        SLOWEST.sort(Comparator.comparingLong((Slow x) -> Math.max(x.pgMillis(), x.respMillis())).reversed());
        System.out.println("slowest statements (PostgreSQL ms, RespSQL ms; the timeout is " + STATEMENT_TIMEOUT_MS + " ms):");
        for (Slow x : SLOWEST.subList(0, Math.min(5, SLOWEST.size()))) {
            System.out.printf("  %6d %6d  %s #%d %s%n", x.pgMillis(), x.respMillis(), x.file(), x.number(), cell(x.sql(), 100));
        }
        System.out.printf("pg-regress: %d files in %.1f s; details in %s%n", counts.size(), (System.nanoTime() - t0) / 1e9,
                OUT.resolve("results.tsv").toAbsolutePath());
        checkBaseline(counts);
    }

    /**
     * A peer, tried three times: pg-peer.sh picks a free port before postgres binds it, so a peer
     * that another test run starts at the same moment can take it (pg_ctl then fails to start).
     */
    private static PgPeer startPeer() throws Exception {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return PgPeer.start(PgOracle.repoRoot());
            } catch (IOException e) {
                last = e;
                System.out.println("pg-regress: PostgreSQL did not start (" + e.getMessage().lines().findFirst().orElse("")
                        + "), trying again");
            }
        }
        throw last;
    }

    // ---- one file ------------------------------------------------------------------------------

    private static void runFile(PgPeer peer, Setup setup, Path regress, String file, Map<String, String> env, List<Skip> skips,
                                Respsql resp, List<Row> out, Map<String, Integer> c) throws Exception {
        List<PsqlScript.Unit> units = PsqlScript.split(Files.readString(regress.resolve("sql").resolve(file + ".sql"),
                StandardCharsets.UTF_8));
        int limit = LIMITS.getOrDefault(file, Integer.MAX_VALUE);
        String db = "regress_" + file;
        setup.admin.execute("DROP DATABASE IF EXISTS " + db);
        setup.admin.execute("CREATE DATABASE " + db + " TEMPLATE regress_template");
        Pg pg = new Pg(peer, db);
        Map<String, String> vars = new HashMap<>();
        try {
            int number = 0;
            for (PsqlScript.Unit u : units) {
                if (u.isMeta()) {
                    PsqlScript.apply(u.meta(), vars, env);
                    number++;
                    out.add(new Row(file, number, u.line(), "skipped", u.meta(), "psql meta-command", "", ""));
                    c.merge("skipped", 1, Integer::sum);
                    continue;
                }
                if (number >= limit) {
                    break;
                }
                number++;
                String sql = PsqlScript.substitute(u.sql(), vars);
                if (u.meta() != null) {
                    out.add(new Row(file, number, u.line(), "skipped", sql + " " + u.meta(),
                            "ended by psql's " + u.meta() + " (psql runs the rows or keeps them in variables)", "", ""));
                    c.merge("skipped", 1, Integer::sum);
                    continue;
                }
                Skip skip = skipOf(skips, file, sql);
                if (skip != null && !skip.run()) {
                    out.add(new Row(file, number, u.line(), "skipped", sql, "skip list: " + skip.reason(), "not run", ""));
                    c.merge("skipped", 1, Integer::sum);
                    continue;
                }
                long s0 = System.nanoTime();
                PgAnswer p = pg.run(sql, u.copyData(), regress);
                long s1 = System.nanoTime();
                Object r = resp.run(sql, u.copyData());
                SLOWEST.add(new Slow((s1 - s0) / 1_000_000, (System.nanoTime() - s1) / 1_000_000, file, number, sql));
                Verdict v = classify(sql, p, r);
                if (skip != null) { // not counted; what it would count as is kept for the record
                    v = new Verdict("skipped", "would count as " + v.category() + (v.why().isEmpty() ? "" : ": " + v.why()));
                }
                c.merge(v.category(), 1, Integer::sum);
                out.add(new Row(file, number, u.line(), v.category(), sql, (skip != null ? "skip list: " + skip.reason() + "; " : "")
                        + p.summary(), Respsql.summary(r), v.why()));
            }
        } finally {
            pg.close();
            setup.admin.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
        }
    }

    static Skip skipOf(List<Skip> skips, String file, String sql) {
        for (Skip s : skips) {
            if ((s.file().equals("*") || s.file().equals(file)) && s.pattern().matcher(sql).find()) {
                return s;
            }
        }
        return null;
    }

    // ---- comparing -----------------------------------------------------------------------------

    private static final Pattern DML = Pattern.compile("(?is)^\\s*(INSERT|UPDATE|DELETE|COPY)\\b"); // COPY: its row count too (review3)

    /** The category of one statement from both answers. */
    static Verdict classify(String sql, PgAnswer p, Object r) {
        boolean respErr = r instanceof Reply.Error;
        if (p.error() != null) {
            return new Verdict(respErr ? "pg_error_same" : "pg_error_accepted", "");
        }
        if (respErr) {
            return new Verdict("refused", "");
        }
        if (p.rows() != null) {
            if (!(r instanceof List<?>)) {
                return new Verdict("different", "no rows: " + r);
            }
            ResultDecoder.Decoded d = new TypedRowsDecoder().decode(r, p.types().size());
            if (d.failed()) {
                return new Verdict("different", d.error());
            }
            if (d.types().size() != p.types().size()) {
                return new Verdict("different", d.types().size() + " columns, PostgreSQL's " + p.types().size());
            }
            boolean ordered = Seed004Test.ordered(sql);
            String diff = rowDifference(p, d, ordered);
            if (diff != null && ordered && rowDifference(p, d, false) == null) {
                diff = "the same rows in another order (" + diff + ")";
            }
            return diff == null ? new Verdict("same", "") : new Verdict("different", diff);
        }
        if (r instanceof List<?>) {
            return new Verdict("different", "rows where PostgreSQL has none");
        }
        if (r instanceof Long n && DML.matcher(sql).find() && n != p.count()) {
            return new Verdict("different", n + " rows affected, PostgreSQL's " + p.count());
        }
        return new Verdict("same", ""); // both done; an INSERT's +OK says all its rows went in
    }

    /** Null when RespSQL's rows are PostgreSQL's (in order, or as multisets), else the first difference. */
    static String rowDifference(PgAnswer p, ResultDecoder.Decoded d, boolean ordered) {
        if (p.rows().size() != d.rows().size()) {
            return d.rows().size() + " rows, PostgreSQL's " + p.rows().size();
        }
        List<List<Object>> e = new ArrayList<>();
        for (List<String> row : p.rows()) {
            List<Object> n = new ArrayList<>(row.size());
            for (int i = 0; i < row.size(); i++) {
                String v = row.get(i);
                n.add(v != null && p.types().get(i).equals("bool") ? (v.startsWith("t") ? "t" : "f") : v);
            }
            e.add(n);
        }
        List<List<Object>> a = new ArrayList<>();
        for (List<Object> row : d.rows()) {
            List<Object> n = new ArrayList<>(row.size());
            for (int i = 0; i < row.size(); i++) {
                Object v = row.get(i);
                n.add(v instanceof Long l && d.types().get(i).equals("BOOLEAN") ? (l != 0 ? "t" : "f") : v);
            }
            a.add(n);
        }
        if (!ordered) {
            e.sort(Comparator.comparing(PgRegressTest::canonical));
            a.sort(Comparator.comparing(PgRegressTest::canonical));
        }
        for (int i = 0; i < e.size(); i++) {
            for (int col = 0; col < e.get(i).size(); col++) {
                if (!sameValue((String) e.get(i).get(col), a.get(i).get(col))) {
                    return "row " + (i + 1) + (ordered ? "" : " (sorted)") + " is " + a.get(i) + ", PostgreSQL's " + e.get(i);
                }
            }
        }
        return null;
    }

    private static final Pattern NUMBER = Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    /** PostgreSQL's text {@code e} against RespSQL's typed value {@code a}: numbers as numbers, floats within 1e-9 relative. */
    static boolean sameValue(String e, Object a) {
        if (e == null || a == null) {
            return e == null && a == null;
        }
        if (a instanceof Long n) {
            return NUMBER.matcher(e).matches() && new BigDecimal(e).compareTo(BigDecimal.valueOf(n)) == 0;
        }
        if (a instanceof Double d) {
            Double x = pgDouble(e);
            return x != null && (x.equals(d) || Math.abs(x - d) <= 1e-9 * Math.max(Math.abs(x), Math.abs(d)));
        }
        String t = a.toString();
        return e.equals(t) || e.equals(t.replace('T', ' '));
    }

    private static Double pgDouble(String s) {
        switch (s) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                return NUMBER.matcher(s).matches() ? Double.parseDouble(s) : null;
        }
    }

    /** A row as a sort key in which values that compare equal are spelled alike (numbers to 8 digits). */
    private static String canonical(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            if (v == null) {
                sb.append("\u0000NULL");
            } else if (v instanceof Long || v instanceof Double || NUMBER.matcher(v.toString()).matches()) {
                try {
                    BigDecimal b = new BigDecimal(v.toString()).round(new MathContext(8));
                    sb.append(b.signum() == 0 ? "0" : b.stripTrailingZeros().toPlainString());
                } catch (NumberFormatException ex) {
                    sb.append(v); // NaN, Infinity
                }
            } else {
                sb.append(v);
            }
            sb.append('\u0001');
        }
        return sb.toString();
    }

    // ---- output --------------------------------------------------------------------------------

    static String table(Map<String, Map<String, Integer>> counts) {
        StringBuilder sb = new StringBuilder();
        String fmt = "%-16s %8s %6s %9s %7s %8s %9s %7s %6s%n";
        sb.append(String.format(fmt, "file", "pg_ok", "same", "different", "refused", "pg_error", "err_both", "skipped", "same%"));
        Map<String, Integer> total = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Integer>> f : counts.entrySet()) {
            line(sb, fmt, f.getKey(), f.getValue());
            f.getValue().forEach((k, v) -> total.merge(k, v, Integer::sum));
        }
        line(sb, fmt, "TOTAL", total);
        return sb.toString();
    }

    private static void line(StringBuilder sb, String fmt, String name, Map<String, Integer> c) {
        int ok = pgAnswered(c);
        sb.append(String.format(fmt, name, ok, c.get("same"), c.get("different"), c.get("refused"),
                c.get("pg_error_same") + c.get("pg_error_accepted"), c.get("pg_error_same"), c.get("skipped"),
                ok == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * c.get("same") / ok)));
    }

    static int pgAnswered(Map<String, Integer> c) {
        return c.get("same") + c.get("different") + c.get("refused");
    }

    private static void writeResults(List<Row> rows, Map<String, Map<String, Integer>> counts) throws IOException {
        Files.createDirectories(OUT);
        StringBuilder tsv = new StringBuilder("file\tstatement\tline\tcategory\tsql\tpostgresql\trespsql\tdifference\n");
        for (Row r : rows) {
            tsv.append(r.file()).append('\t').append(r.number()).append('\t').append(r.line()).append('\t').append(r.category())
                    .append('\t').append(cell(r.sql(), 400)).append('\t').append(cell(r.pg(), 300)).append('\t')
                    .append(cell(r.resp(), 300)).append('\t').append(cell(r.why(), 300)).append('\n');
        }
        Files.writeString(OUT.resolve("results.tsv"), tsv, StandardCharsets.UTF_8);
        StringBuilder sum = new StringBuilder("file\tpg_answered\t" + String.join("\t", CATEGORIES) + "\n");
        for (Map.Entry<String, Map<String, Integer>> f : counts.entrySet()) {
            sum.append(f.getKey()).append('\t').append(pgAnswered(f.getValue()));
            for (String k : CATEGORIES) {
                sum.append('\t').append(f.getValue().get(k));
            }
            sum.append('\n');
        }
        Files.writeString(OUT.resolve("summary.tsv"), sum, StandardCharsets.UTF_8);
    }

    private static String cell(String s, int max) {
        String one = s == null ? "" : s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
        return one.length() > max ? one.substring(0, max) + "..." : one;
    }

    /** Fails when a file answers fewer statements the same than its baseline says (more never fails). */
    private static void checkBaseline(Map<String, Map<String, Integer>> counts) throws IOException {
        Map<String, int[]> base = new TreeMap<>();
        if (Files.exists(BASELINE)) {
            for (String line : Files.readAllLines(BASELINE, StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("#") || line.startsWith("file\t")) {
                    continue;
                }
                String[] f = line.split("\t");
                base.put(f[0], new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2])});
            }
        }
        if (Boolean.getBoolean("pgregress.updateBaseline")) {
            counts.forEach((f, c) -> base.put(f, new int[] {pgAnswered(c), c.get("same")}));
            StringBuilder sb = new StringBuilder("# PgRegressTest: per file, the statements PostgreSQL 15 answered and how many\n"
                    + "# RespSQL answered the same; a run fails when a file's same count drops below its line here.\n"
                    + "# Rewrite with -Dpgregress.updateBaseline=true.\nfile\tpg_answered\tsame\n");
            for (String f : orderedNames(base.keySet())) {
                sb.append(f).append('\t').append(base.get(f)[0]).append('\t').append(base.get(f)[1]).append('\n');
            }
            Files.writeString(BASELINE, sb, StandardCharsets.UTF_8);
            System.out.println("pg-regress: baseline written to " + BASELINE.toAbsolutePath());
            return;
        }
        List<String> drops = new ArrayList<>();
        for (Map.Entry<String, Map<String, Integer>> f : counts.entrySet()) {
            int[] b = base.get(f.getKey());
            if (b == null) {
                drops.add(f.getKey() + ": no line in " + BASELINE);
            } else if (f.getValue().get("same") < b[1]) {
                drops.add(f.getKey() + ": " + f.getValue().get("same") + " statements answered the same, baseline " + b[1]);
            }
        }
        if (!drops.isEmpty()) {
            fail("pg-regress fell below its baseline (" + OUT.resolve("results.tsv") + " has each statement):\n  "
                    + String.join("\n  ", drops));
        }
    }

    // ---- files ---------------------------------------------------------------------------------

    /** {@code -Dpgregress.dir}, else the first {@code shared/pg-regress} beside the working directory or a parent. */
    static Path locate() {
        String given = System.getProperty("pgregress.dir");
        if (given != null && !given.isEmpty()) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null && d.getParent() != null; d = d.getParent()) {
            Path candidate = d.getParent().resolve("shared").resolve("pg-regress");
            if (Files.isDirectory(candidate.resolve("sql"))) {
                return candidate.normalize();
            }
        }
        return null;
    }

    /** The files to run: {@code -Dpgregress.files} or every one but test_setup, in schedule order. */
    static List<String> files(Path regress) throws IOException {
        List<String> all;
        try (Stream<Path> s = Files.list(regress.resolve("sql"))) {
            all = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql")).map(n -> n.substring(0, n.length() - 4))
                    .filter(n -> !n.equals("test_setup")).toList();
        }
        String chosen = System.getProperty("pgregress.files", "").strip();
        if (!chosen.isEmpty()) {
            List<String> want = new ArrayList<>();
            for (String f : chosen.split("[,\\s]+")) {
                String n = f.replaceAll("\\.sql$", "");
                if (!all.contains(n)) {
                    fail("no file " + n + ".sql in " + regress.resolve("sql"));
                }
                want.add(n);
            }
            return orderedNames(want);
        }
        return orderedNames(all);
    }

    private static List<String> orderedNames(java.util.Collection<String> names) {
        List<String> out = new ArrayList<>();
        for (String s : SCHEDULE) {
            if (names.contains(s)) {
                out.add(s);
            }
        }
        names.stream().filter(n -> !SCHEDULE.contains(n)).sorted().forEach(out::add);
        return out;
    }

    static List<Skip> readSkips() throws IOException {
        List<Skip> out = new ArrayList<>();
        for (String line : Files.readAllLines(SKIPS, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("file\t")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 4 || !Set.of("run", "norun").contains(f[1])) {
                fail("bad line in " + SKIPS + " (file, run|norun, pattern, reason): " + line);
            }
            out.add(new Skip(f[0], f[1].equals("run"), Pattern.compile(f[2], Pattern.CASE_INSENSITIVE | Pattern.DOTALL), f[3]));
        }
        return out;
    }

    // ---- PostgreSQL ----------------------------------------------------------------------------

    private static final Pattern COPY_FROM = Pattern.compile("(?is)^(copy\\s+.+?\\s+from)\\s+('([^']*)'|stdin|stdout)(.*)$");

    /** One JDBC session on a database of the peer, as psql's: simple query protocol, pg_regress's TimeZone. */
    static final class Pg implements AutoCloseable {
        private final PgPeer peer;
        private final String db;
        private Connection conn;

        Pg(PgPeer peer, String db) throws SQLException {
            this.peer = peer;
            this.db = db;
            connect();
        }

        private void connect() throws SQLException {
            Properties props = new Properties();
            props.setProperty("user", peer.user());
            props.setProperty("preferQueryMode", "simple");
            props.setProperty("options", "-c statement_timeout=" + STATEMENT_TIMEOUT_MS + " -c lc_messages=C");
            // pgjdbc sends the JVM's zone as the session's TimeZone: pg_regress's is PST8PDT
            synchronized (PgRegressTest.class) {
                TimeZone before = TimeZone.getDefault();
                TimeZone.setDefault(TimeZone.getTimeZone("PST8PDT"));
                try {
                    conn = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + peer.port() + "/" + db, props);
                } finally {
                    TimeZone.setDefault(before);
                }
            }
            conn.setAutoCommit(true);
        }

        void execute(String sql) throws SQLException {
            try (Statement st = conn.createStatement()) {
                st.execute(sql);
            }
        }

        PgAnswer run(String sql, String copyData, Path regress) {
            try {
                if (conn.isClosed()) {
                    connect(); // pgjdbc closes a session whose DateStyle or client_encoding changed
                }
                Matcher m = COPY_FROM.matcher(sql);
                if (m.matches()) {
                    String data = copyData != null ? copyData
                            : m.group(3) != null ? Files.readString(Path.of(m.group(3)), StandardCharsets.UTF_8) : "";
                    long n = conn.unwrap(PGConnection.class).getCopyAPI().copyIn(m.group(1) + " STDIN" + m.group(4),
                            new StringReader(data));
                    return new PgAnswer(null, null, null, n);
                }
                try (Statement st = conn.createStatement()) {
                    st.setEscapeProcessing(false);
                    st.setQueryTimeout(STATEMENT_TIMEOUT_MS / 1000 * 3);
                    boolean hasRows = st.execute(sql);
                    PgAnswer last = null;
                    while (true) { // a variable may hold several statements: psql shows each, the last one counts here
                        if (hasRows) {
                            try (ResultSet rs = st.getResultSet()) {
                                ResultSetMetaData md = rs.getMetaData();
                                List<String> types = new ArrayList<>();
                                for (int i = 1; i <= md.getColumnCount(); i++) {
                                    types.add(md.getColumnTypeName(i));
                                }
                                List<List<String>> rows = new ArrayList<>();
                                while (rs.next()) {
                                    List<String> row = new ArrayList<>(types.size());
                                    for (int i = 1; i <= types.size(); i++) {
                                        row.add(rs.getString(i));
                                    }
                                    rows.add(row);
                                }
                                last = new PgAnswer(null, types, rows, -1);
                            }
                        } else {
                            long n = st.getLargeUpdateCount();
                            if (n == -1) {
                                break;
                            }
                            last = new PgAnswer(null, null, null, n);
                        }
                        hasRows = st.getMoreResults();
                    }
                    return last != null ? last : new PgAnswer(null, null, null, -1);
                }
            } catch (SQLException | IOException e) {
                String msg = e.getMessage() == null ? e.toString() : e.getMessage().replaceFirst("^ERROR: ", "");
                return new PgAnswer(msg.lines().findFirst().orElse(msg), null, null, -1);
            }
        }

        @Override
        public void close() throws SQLException {
            if (conn != null) {
                conn.close();
            }
        }
    }

    /**
     * test_setup.sql run on PostgreSQL into a template database (COPY through pgjdbc's CopyManager
     * from the data files), and the statements that give a RespSQL server the same tables and rows:
     * test_setup's CREATE TABLE where RespSQL accepts it as written, else the table's columns with
     * RespSQL types (listed in {@link #adaptations}), then PostgreSQL's rows as multi-row INSERTs.
     */
    static final class Setup {
        final Pg admin;
        final List<String> tables = new ArrayList<>();
        final Map<String, String> createStatements = new LinkedHashMap<>();
        final List<String> respsqlLoad = new ArrayList<>();
        final List<String> adaptations = new ArrayList<>();
        final List<String> pgErrors = new ArrayList<>();
        private final PgPeer peer;

        private Setup(PgPeer peer, Pg admin) {
            this.peer = peer;
            this.admin = admin;
        }

        private static final Pattern CREATE = Pattern.compile("(?is)^create\\s+table\\s+(\\w+)");

        /**
         * The indexes on the standard tables that pg_regress's schedule has built (create_index.sql)
         * before most of these files run: they change no answer, but without them some statements
         * (correlated subqueries over tenk1) take PostgreSQL longer than the statement timeout.
         */
        static final List<String> INDEXES = List.of(
                "CREATE INDEX onek_unique1 ON onek (unique1)", "CREATE INDEX onek_unique2 ON onek (unique2)",
                "CREATE INDEX onek_hundred ON onek (hundred)", "CREATE INDEX onek_stringu1 ON onek (stringu1)",
                "CREATE INDEX tenk1_unique1 ON tenk1 (unique1)", "CREATE INDEX tenk1_unique2 ON tenk1 (unique2)",
                "CREATE INDEX tenk1_hundred ON tenk1 (hundred)", "CREATE INDEX tenk1_thous_tenthous ON tenk1 (thousand, tenthous)",
                "CREATE INDEX tenk2_unique1 ON tenk2 (unique1)", "CREATE INDEX tenk2_unique2 ON tenk2 (unique2)",
                "CREATE INDEX tenk2_hundred ON tenk2 (hundred)");

        static Setup run(PgPeer peer, Path regress, Map<String, String> env) throws Exception {
            Pg admin = new Pg(peer, "postgres");
            admin.execute("DROP DATABASE IF EXISTS regress_template");
            admin.execute("CREATE DATABASE regress_template");
            Setup s = new Setup(peer, admin);
            Map<String, String> vars = new HashMap<>();
            try (Pg pg = new Pg(peer, "regress_template")) {
                for (PsqlScript.Unit u : PsqlScript.split(Files.readString(regress.resolve("sql").resolve("test_setup.sql"),
                        StandardCharsets.UTF_8))) {
                    if (u.isMeta()) {
                        PsqlScript.apply(u.meta(), vars, env);
                        continue;
                    }
                    String sql = PsqlScript.substitute(u.sql(), vars);
                    PgAnswer a = pg.run(sql, u.copyData(), regress);
                    if (a.error() != null) {
                        s.pgErrors.add(sql.lines().findFirst().orElse("") + ": " + a.error());
                    }
                    Matcher m = CREATE.matcher(sql);
                    if (m.find() && a.error() == null) {
                        String t = m.group(1).toLowerCase(Locale.ROOT);
                        s.tables.add(t);
                        s.createStatements.put(t, sql);
                    }
                }
                for (String index : INDEXES) {
                    pg.execute(index);
                }
                pg.execute("VACUUM ANALYZE");
            }
            return s;
        }

        String summary() {
            return tables.size() + " tables; statements PostgreSQL refused there (C functions of regress.so and the like): "
                    + pgErrors.size();
        }

        /** Decides, on {@code probe}, how each table is created on RespSQL, and fills {@link #respsqlLoad}. */
        void buildRespsqlLoad(Respsql probe) throws Exception {
            try (Pg pg = new Pg(peer, "regress_template")) {
                for (String t : tables) {
                    List<String> names = new ArrayList<>();
                    List<String> types = new ArrayList<>();
                    List<List<String>> rows = new ArrayList<>();
                    try (Statement st = pg.conn.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM ONLY " + t)) {
                        ResultSetMetaData md = rs.getMetaData();
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            names.add(md.getColumnName(i));
                            types.add(md.getColumnTypeName(i));
                        }
                        while (rs.next()) {
                            List<String> row = new ArrayList<>();
                            for (int i = 1; i <= names.size(); i++) {
                                row.add(rs.getString(i));
                            }
                            rows.add(row);
                        }
                    }
                    String original = createStatements.get(t);
                    String create = null;
                    // CREATE TABLE ... AS would fill the table itself: its rows come from PostgreSQL like the others'
                    if (Pattern.compile("(?is)\\bAS\\s*\\(?\\s*SELECT\\b").matcher(original).find()) {
                        original = null;
                    }
                    if (original != null && !(probe.run(original) instanceof Reply.Error)) {
                        create = original;
                    } else {
                        List<String> cols = new ArrayList<>();
                        for (int i = 0; i < names.size(); i++) {
                            cols.add(names.get(i) + " " + respsqlType(types.get(i)));
                        }
                        String adapted = "CREATE TABLE " + t + " (" + String.join(", ", cols) + ")";
                        Object r = probe.run(adapted);
                        if (r instanceof Reply.Error e) {
                            adaptations.add(t + ": not created (" + e.text() + ")");
                            continue;
                        }
                        adaptations.add(t + ": created as " + adapted + " (RespSQL refuses test_setup's statement)");
                        create = adapted;
                    }
                    respsqlLoad.add(create);
                    for (int from = 0; from < rows.size(); from += 500) {
                        StringBuilder sb = new StringBuilder("INSERT INTO " + t + " VALUES ");
                        for (int i = from; i < Math.min(rows.size(), from + 500); i++) {
                            sb.append(i > from ? ", (" : "(");
                            for (int col = 0; col < names.size(); col++) {
                                sb.append(col > 0 ? ", " : "").append(literal(rows.get(i).get(col), types.get(col)));
                            }
                            sb.append(')');
                        }
                        Object r = probe.run(sb.toString());
                        if (r instanceof Reply.Error e) {
                            adaptations.add(t + ": rows refused (" + e.text() + ")");
                            break;
                        }
                        respsqlLoad.add(sb.toString());
                    }
                }
            }
            for (String index : INDEXES) {
                Object r = probe.run(index);
                if (r instanceof Reply.Error e) {
                    adaptations.add(index + ": refused (" + e.text() + ")");
                } else {
                    respsqlLoad.add(index);
                }
            }
        }

        private static final Set<String> NUMERIC = Set.of("int2", "int4", "int8", "oid", "float4", "float8", "numeric");

        static String literal(String v, String pgType) {
            if (v == null) {
                return "NULL";
            }
            if (NUMERIC.contains(pgType) && NUMBER.matcher(v).matches()) {
                return v;
            }
            if (pgType.equals("bool")) {
                return v.startsWith("t") ? "TRUE" : "FALSE";
            }
            return "'" + v.replace("'", "''") + "'";
        }

        static String respsqlType(String pgType) {
            return switch (pgType) {
                case "int2" -> "SMALLINT";
                case "int4" -> "INT";
                case "int8" -> "BIGINT";
                case "float4" -> "REAL";
                case "float8" -> "DOUBLE PRECISION";
                case "numeric" -> "NUMERIC";
                case "bool" -> "BOOLEAN";
                case "date" -> "DATE";
                case "timestamp" -> "TIMESTAMP";
                default -> "TEXT"; // name, bpchar, varchar, point, path, ...: their text
            };
        }
    }

    // ---- RespSQL -------------------------------------------------------------------------------

    /**
     * A RespSQL server process (so that a statement that never returns can be ended with SIGKILL)
     * loaded with {@code load}; statements go as {@code QUERY}, in PostgreSQL's dialect where the
     * server has the setting. A statement with no reply within the timeout, or one that closes the
     * connection, is an error, and the server is replaced by a fresh one (the file's earlier
     * statements are not replayed: noted in the answer).
     */
    static final class Respsql implements AutoCloseable {
        private final Path work;
        private List<String> load;
        private ServerProcess process;
        private WireClient client;

        Respsql(Path work, List<String> load) throws IOException {
            this.work = work;
            this.load = load;
            start();
        }

        private void start() throws IOException {
            try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(ServerProcess.HOST))) {
                pgPort = free.getLocalPort();
            }
            process = ServerProcess.start(Files.createTempDirectory(work, "respsql-"), "--save", "",
                    "--pg-port", String.valueOf(pgPort));
            load();
        }

        private int pgPort;

        /**
         * COPY ... FROM STDIN (or a file of the regression directory, as psql's \copy sends it): RespSQL takes COPY
         * on its PostgreSQL port (the CopyIn sub-protocol has no RESP form), so the rows go through a pgwire session
         * to the same tables; the answer is the row count or the error, as for any statement.
         */
        private Object copy(Matcher m, String copyData) {
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + ServerProcess.HOST + ":" + pgPort
                    + "/respsql?preferQueryMode=simple", "respsql", "")) {
                String data = copyData != null ? copyData
                        : m.group(3) != null ? Files.readString(Path.of(m.group(3)), StandardCharsets.UTF_8) : "";
                return c.unwrap(PGConnection.class).getCopyAPI().copyIn(m.group(1) + " STDIN" + m.group(4),
                        new StringReader(data));
            } catch (SQLException | IOException e) {
                String msg = e.getMessage() == null ? e.toString() : e.getMessage().replaceFirst("^ERROR: ", "");
                return new Reply.Error(msg.lines().findFirst().orElse(msg));
            }
        }

        /**
         * A fresh state for the next file on the same process (a process start costs seconds on a
         * loaded machine): a new connection, FLUSHALL (every table and view), the load again.
         * {@code -Dpgregress.freshServer=true} starts a new process instead.
         */
        void reset() throws IOException {
            if (Boolean.getBoolean("pgregress.freshServer")) {
                restart();
                return;
            }
            client.close();
            client = new WireClient(ServerProcess.HOST, process.port(), 60_000);
            Object r = client.sendCommand("FLUSHALL");
            Object size = client.sendCommand("DBSIZE");
            if (r instanceof Reply.Error || !Long.valueOf(0).equals(size)) {
                restart();
                return;
            }
            client.close();
            load();
        }

        private void load() throws IOException {
            client = new WireClient(ServerProcess.HOST, process.port(), 60_000);
            for (String st : load) {
                Object r = client.send("SQL", st);
                if (r instanceof Reply.Error e) {
                    throw new AssertionError("RespSQL refused a load statement it took before: "
                            + st.substring(0, Math.min(100, st.length())) + ": " + e.text());
                }
            }
            client.close();
            client = new WireClient(ServerProcess.HOST, process.port(), STATEMENT_TIMEOUT_MS);
            // PostgreSQL's meaning and pg_regress's time zone, where RespSQL has the settings (issue 25); refused today
            client.send("SQL", "SET sql_dialect TO postgresql");
            client.send("SQL", "SET TimeZone TO 'PST8PDT'");
        }

        Object run(String sql, String copyData) throws IOException {
            Matcher m = COPY_FROM.matcher(sql);
            if (m.matches()) {
                return copy(m, copyData);
            }
            return run(sql);
        }

        Object run(String sql) throws IOException {
            try {
                return client.send("QUERY", sql);
            } catch (SocketTimeoutException e) {
                restart();
                return new Reply.Error("no reply within " + STATEMENT_TIMEOUT_MS + " ms (server replaced, state of the file lost)");
            } catch (EOFException | SocketException e) {
                boolean alive = process.isAlive();
                restart();
                return new Reply.Error("connection lost: " + e.getMessage() + (alive ? "" : " (server process died)")
                        + " (server replaced, state of the file lost)");
            }
        }

        private void restart() throws IOException {
            close();
            start();
        }

        static String summary(Object r) {
            if (r instanceof Reply.Error e) {
                return "ERROR: " + e.text();
            }
            if (r instanceof List<?> l && l.size() >= 2) {
                return (l.size() - 2) + " rows" + (l.size() > 2 ? ": " + l.get(2) + (l.size() > 3 ? " ..." : "") : "")
                        + " types " + l.get(1);
            }
            return r instanceof Long n ? "count " + n : String.valueOf(r);
        }

        @Override
        public void close() throws IOException {
            try {
                client.close();
            } finally {
                process.kill9();
                process.close();
            }
        }
    }
}
