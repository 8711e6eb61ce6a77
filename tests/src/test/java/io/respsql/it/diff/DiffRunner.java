package io.respsql.it.diff;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntSupplier;

/**
 * The differential tester (SQLancer's oracles over the wire): rounds of a random schema and
 * rows, then random statements checked by
 * <ul>
 * <li>TLP (ternary logic partitioning): the rows of Q are the rows of Q WHERE p, Q WHERE NOT p
 *     and Q WHERE p IS NULL together, also for DISTINCT, HAVING and MIN/MAX/SUM/COUNT;</li>
 * <li>NoREC: SELECT COUNT(*) ... WHERE p equals SELECT SUM(CASE WHEN p THEN 1 ELSE 0 END) ...;</li>
 * <li>plan equivalence: a random query with indexes, without ({@code SET use_indexes = off})
 *     and on a background worker ({@code bg-query-min-rows 1}) gives the same rows;</li>
 * <li>writes: the same UPDATE/DELETE through indexes on a table and through scans on its copy
 *     leaves the same rows (and DUMP);</li>
 * <li>PostgreSQL 15: the same random query gives the same rows.</li>
 * </ul>
 * A statement RespSQL refuses with an error is counted and skipped; an internal error, an
 * exception's name in an error or a closed connection is a finding. Each finding is minimized
 * on a scratch server to a short replayable statement list.
 */
final class DiffRunner {
    /** A statement that changed the database in this round, replayed to reproduce a finding. */
    record Logged(String sql, String pgSql, boolean indexesOff) {
    }

    /** One check; run() returns null when it holds, else what differs. */
    interface Check {
        String oracle();

        /** The statements of the check, for the replay (after the logged ones). */
        List<String> statements();

        String run(Env env) throws IOException, Skip;
    }

    /** A statement of a check was refused with an ordinary error: the check is skipped. */
    static final class Skip extends Exception {
        Skip(String why) {
            super(why, null, false, false);
        }
    }

    /** The connections a check runs on. */
    static final class Env {
        final DiffClient on;
        final DiffClient off;
        final PgSide pg;
        final String bgDefault;
        /** Statements sent to RespSQL. */
        long sent;

        Env(DiffClient on, DiffClient off, PgSide pg, String bgDefault) {
            this.on = on;
            this.off = off;
            this.pg = pg;
            this.bgDefault = bgDefault;
        }

        Rows query(DiffClient c, String sql) throws IOException, Skip {
            sent++;
            Rows r = c.query(sql);
            if (r.failed()) {
                if (internal(r.error)) {
                    return r; // a finding: the caller reports it
                }
                throw new Skip(r.error);
            }
            return r;
        }

        Object sql(DiffClient c, String sql) throws IOException {
            sent++;
            return c.sql(sql);
        }
    }

    record Finding(String oracle, long seed, int round, String message, List<String> replay) {
        String report() {
            StringBuilder sb = new StringBuilder();
            sb.append("FINDING [").append(oracle).append("] seed ").append(seed).append(" round ").append(round)
                    .append(": ").append(message).append('\n');
            sb.append("# replay: run these lines in order on one connection (redis-cli: SQL \"<line>\"):\n");
            for (String s : replay) {
                sb.append(s).append('\n');
            }
            return sb.toString();
        }
    }

    static boolean internal(String error) {
        String e = error.toLowerCase(java.util.Locale.ROOT);
        return e.contains("internal error") || e.contains("exception") || e.contains("nullpointer")
                || e.contains("index out of bounds") || e.contains("classcast");
    }

    // ---- configuration and counters --------------------------------------------------------------

    final long seed;
    final Random random;
    private final String host;
    private final int port;
    private final IntSupplier scratchPort;
    private final PgSide pg;
    private final java.io.PrintStream log;
    int checksPerRound = 40;
    int writesPerRound = 12;
    boolean minimize = true;

    long statements;
    long checked;
    long skipped;
    final Map<String, long[]> perOracle = new TreeMap<>(); // checked, skipped, failed
    final Map<String, Integer> skipReasons = new TreeMap<>();
    final List<Finding> findings = new ArrayList<>();
    /** Known findings (by oracle and message head) reported once. */
    private final java.util.Set<String> seen = new java.util.HashSet<>();

    DiffRunner(long seed, String host, int port, IntSupplier scratchPort, PgSide pg, java.io.PrintStream log) {
        this.seed = seed;
        this.random = new Random(seed);
        this.host = host;
        this.port = port;
        this.scratchPort = scratchPort;
        this.pg = pg;
        this.log = log;
    }

    private long[] counter(String oracle) {
        return perOracle.computeIfAbsent(oracle, k -> new long[3]);
    }

    String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append("differential: seed ").append(seed).append(": ").append(statements).append(" statements, ")
                .append(checked).append(" queries checked, ").append(skipped).append(" skipped, ")
                .append(findings.size()).append(" finding(s)");
        for (Map.Entry<String, long[]> e : perOracle.entrySet()) {
            sb.append("\n  ").append(e.getKey()).append(": ").append(e.getValue()[0]).append(" checked, ")
                    .append(e.getValue()[1]).append(" skipped, ").append(e.getValue()[2]).append(" failed");
        }
        return sb.toString();
    }

    /** The most frequent reasons for skipping, for the report. */
    String topSkipReasons(int n) {
        List<Map.Entry<String, Integer>> l = new ArrayList<>(skipReasons.entrySet());
        l.sort((a, b) -> b.getValue() - a.getValue());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(n, l.size()); i++) {
            sb.append("  ").append(l.get(i).getValue()).append(" x ").append(l.get(i).getKey()).append('\n');
        }
        return sb.toString();
    }

    // ---- the run ----------------------------------------------------------------------------

    /** Runs {@code rounds} rounds, or until {@code deadlineNanos} (System.nanoTime) passes. */
    void run(int rounds, long deadlineNanos) throws IOException {
        try (DiffClient on = new DiffClient(host, port); DiffClient off = new DiffClient(host, port)) {
            expectOk(off.sql("SET use_indexes = off"), "SET use_indexes = off");
            String bg = bgDefault(on);
            Env env = new Env(on, off, pg, bg);
            for (int round = 0; round < rounds && System.nanoTime() < deadlineNanos; round++) {
                round(env, round, deadlineNanos);
            }
            statements += env.sent;
        }
    }

    private static String bgDefault(DiffClient c) throws IOException {
        Object r = c.call("CONFIG", "GET", "bg-query-min-rows");
        return r instanceof List<?> l && l.size() == 2 ? String.valueOf(l.get(1)) : "100000";
    }

    private static void expectOk(Object reply, String what) throws IOException {
        if (!"OK".equals(reply)) {
            throw new IOException(what + " replied " + reply);
        }
    }

    private void round(Env env, int round, long deadline) throws IOException {
        Gen g = new Gen(random);
        List<Logged> logged = new ArrayList<>();
        List<Pending> pending = new ArrayList<>();
        env.sent++;
        expectOk(env.on.call("FLUSHALL"), "FLUSHALL");
        boolean pgOk = pg != null;
        if (pgOk) {
            try {
                pg.reset();
            } catch (java.sql.SQLException e) {
                pgOk = false;
            }
        }
        // schema and rows
        int nt = 1 + random.nextInt(3);
        List<Gen.Table> base = new ArrayList<>();
        for (int i = 0; i < nt; i++) {
            Gen.Table t = g.newTable("t" + i);
            base.add(t);
            pgOk &= setup(env, logged, g.createTable(t, false), g.createTable(t, true), pgOk);
            int rows = random.nextInt(100) < 10 ? 100 + random.nextInt(300) : random.nextInt(36); // now and then enough rows for other plans
            for (int k = 0; k < rows; k++) {
                String ins = g.insert(t, k, rows);
                pgOk &= setup(env, logged, ins, ins, pgOk);
            }
            t.rows = rows;
            int ni = random.nextInt(4);
            for (int k = 0; k < ni; k++) {
                String ddl = g.createIndex(t, "i" + i + "_" + k);
                Object r = env.sql(env.on, ddl);
                if ("OK".equals(r)) {
                    logged.add(new Logged(ddl, null, false));
                    if (ddl.startsWith("CREATE UNIQUE")) {
                        t.uniqueIndexDdl.add(ddl);
                    }
                } else {
                    skipStatement("setup", r);
                }
            }
        }
        if (random.nextInt(100) < 40) { // a view over one table, usable as a relation
            Gen.Table src = g.pick(base);
            Gen.Ref ref = new Gen.Ref(src, "s0");
            List<Gen.Scoped> scope = Gen.scope(ref);
            Gen.Table v = new Gen.Table("v0");
            v.view = true;
            StringBuilder sb = new StringBuilder("CREATE VIEW v0 AS SELECT ");
            int n = 1 + random.nextInt(src.cols.size());
            for (int i = 0; i < n; i++) {
                Gen.Scoped s = scope.get(i);
                sb.append(i == 0 ? "" : ", ").append(s.text()).append(" AS c").append(i);
                v.cols.add(new Gen.Col("c" + i, s.type()));
            }
            sb.append(" FROM ").append(src.name).append(" AS s0");
            if (g.chance(60)) {
                sb.append(" WHERE ").append(g.predicate(scope, 1));
            }
            g.resetAliases();
            String ddl = sb.toString();
            Object r = env.sql(env.on, ddl);
            if ("OK".equals(r)) {
                logged.add(new Logged(ddl, ddl, false));
                if (pgOk && pg.exec(ddl) != null) {
                    pgOk = false;
                }
                v.rows = src.rows;
                g.tables.add(v);
            } else {
                skipStatement("setup", r);
            }
        }
        // read checks, PostgreSQL among them
        for (int i = 0; i < checksPerRound && System.nanoTime() < deadline; i++) {
            g.resetAliases();
            Check c = readCheck(g, pgOk);
            check(env, c, logged, pending, round);
        }
        // writes: each table beside a copy without its non-unique indexes, written by the index-off connection
        List<Gen.Table> copies = new ArrayList<>();
        for (Gen.Table t : base) {
            String copy = t.name + "_c";
            String ddl = g.createTable(t, false).replaceFirst("CREATE TABLE " + t.name + " ", "CREATE TABLE " + copy + " ");
            boolean ok = setup(env, logged, ddl, null, false);
            for (String u : t.uniqueIndexDdl) {
                String cu = u.replace(" ON " + t.name + " (", " ON " + copy + " (").replaceFirst("INDEX (\\S+)", "INDEX $1_c");
                ok &= setup(env, logged, cu, null, false);
            }
            ok &= setup(env, logged, "INSERT INTO " + copy + " SELECT * FROM " + t.name, null, false);
            if (ok) {
                copies.add(t);
            }
        }
        for (int i = 0; i < writesPerRound && !copies.isEmpty() && System.nanoTime() < deadline; i++) {
            g.resetAliases();
            Gen.Table t = g.pick(copies);
            String w = g.write(t);
            WriteCheck wc = new WriteCheck(t.name, w);
            if (check(env, wc, logged, pending, round)) {
                logged.add(new Logged(wc.onTable(), null, false));
                logged.add(new Logged(wc.onCopy(), null, true));
            } else {
                break; // the tables differ now: later writes would report the same
            }
            for (int k = 0; k < 2; k++) {
                g.resetAliases();
                check(env, readCheck(g, false), logged, pending, round);
            }
        }
        for (Pending p : pending) {
            report(p, round);
        }
    }

    /** A setup statement (DDL, INSERT) on RespSQL and, when pgSql is given, on PostgreSQL; false when PostgreSQL failed. */
    private boolean setup(Env env, List<Logged> logged, String sql, String pgSql, boolean pgOk) throws IOException {
        Object r = env.sql(env.on, sql);
        if ("OK".equals(r) || r instanceof Long) {
            logged.add(new Logged(sql, pgSql, false));
            if (pgOk && pgSql != null) {
                return pg.exec(pgSql) == null;
            }
            return true;
        }
        skipStatement("setup", r);
        if (r instanceof DiffClient.Err e && internal(e.text())) {
            findingNow("setup", "internal error for " + sql + ": " + e.text(), logged, List.of(sql));
        }
        return false;
    }

    private void skipStatement(String oracle, Object reply) {
        skipped++;
        counter(oracle)[1]++;
        String why = reply instanceof DiffClient.Err e ? e.text() : String.valueOf(reply);
        skipReasons.merge(oracle + ": " + head(why), 1, Integer::sum);
    }

    private static String head(String error) {
        String s = error.replaceAll("'[^']*'", "'…'").replaceAll("\\([^)]*\\)", "(…)").replaceAll("\\d+", "N");
        return s.length() > 90 ? s.substring(0, 90) : s;
    }

    private record Pending(Check check, String message, List<Logged> log) {
    }

    /** Runs a check; a mismatch is kept (with the log so far) for the end of the round. True when it held. */
    private boolean check(Env env, Check c, List<Logged> logged, List<Pending> pending, int round) throws IOException {
        String result;
        try {
            result = c.run(env);
        } catch (Skip s) {
            skipped++;
            counter(c.oracle())[1]++;
            skipReasons.merge(c.oracle() + ": " + head(s.getMessage()), 1, Integer::sum);
            return true;
        } catch (IOException e) {
            result = "connection failed: " + e; // e.g. the server closed it
        }
        if (result == null) {
            checked++;
            counter(c.oracle())[0]++;
            return true;
        }
        counter(c.oracle())[2]++;
        pending.add(new Pending(c, result, new ArrayList<>(logged)));
        return false;
    }

    private void findingNow(String oracle, String message, List<Logged> logged, List<String> statements) {
        List<String> replay = new ArrayList<>();
        for (Logged l : logged) {
            replay.add(l.sql());
        }
        replay.addAll(statements);
        Finding f = new Finding(oracle, seed, -1, message, replay);
        findings.add(f);
        log.println(f.report());
    }

    private void report(Pending p, int round) {
        String key = p.check.oracle() + ": " + head(p.message).replaceAll("\\s+", " ");
        List<Logged> log0 = p.log;
        String message = p.message;
        if (minimize && scratchPort != null) {
            try {
                log0 = minimizeLog(p.check, p.log);
                // the message as the minimized statements give it
                String again = replayAndRun(p.check, log0);
                if (again != null) {
                    message = again;
                }
            } catch (IOException e) {
                log.println("differential: minimizing failed: " + e);
            }
        }
        List<String> replay = new ArrayList<>();
        boolean off = false;
        for (Logged l : log0) {
            if (l.indexesOff() != off) {
                replay.add("SET use_indexes = " + (l.indexesOff() ? "off" : "on"));
                off = l.indexesOff();
            }
            replay.add(l.sql());
        }
        if (off) {
            replay.add("SET use_indexes = on");
        }
        replay.addAll(p.check.statements());
        for (String line : message.split("\n")) {
            replay.add("# " + line);
        }
        Finding f = new Finding(p.check.oracle(), seed, round, message.split("\n")[0], replay);
        findings.add(f);
        if (seen.add(key)) {
            log.println(f.report());
        }
    }

    // ---- minimization -----------------------------------------------------------------------

    private DiffClient scratchOn;
    private DiffClient scratchOff;
    private Env scratch;

    private Env scratch() throws IOException {
        if (scratch == null) {
            int p = scratchPort.getAsInt();
            scratchOn = new DiffClient(host, p);
            scratchOff = new DiffClient(host, p);
            expectOk(scratchOff.sql("SET use_indexes = off"), "SET use_indexes = off");
            scratch = new Env(scratchOn, scratchOff, pg, bgDefault(scratchOn));
        }
        return scratch;
    }

    /** The check's result after the log alone was replayed on the scratch server (and PostgreSQL). */
    private String replayAndRun(Check c, List<Logged> log) throws IOException {
        Env e = scratch();
        e.on.call("FLUSHALL");
        boolean usesPg = c instanceof PgCheck;
        if (usesPg) {
            try {
                pg.reset();
            } catch (java.sql.SQLException x) {
                return null;
            }
        }
        for (Logged l : log) {
            e.sql(l.indexesOff() ? e.off : e.on, l.sql());
            if (usesPg && l.pgSql() != null) {
                pg.exec(l.pgSql());
            }
        }
        try {
            return c.run(e);
        } catch (Skip s) {
            return null;
        }
    }

    /** Drops logged statements (halves, quarters, ... single ones) while the check still fails. */
    private List<Logged> minimizeLog(Check c, List<Logged> log) throws IOException {
        List<Logged> cur = new ArrayList<>(log);
        if (replayAndRun(c, cur) == null) {
            return cur; // does not reproduce alone (it may need the rest of the round): keep all
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        int tries = 0;
        for (int chunk = Math.max(1, cur.size() / 2); chunk >= 1; chunk = chunk == 1 ? 0 : Math.max(1, chunk / 2)) {
            for (int i = 0; i < cur.size() && tries < 600 && System.nanoTime() < deadline; ) {
                List<Logged> trial = new ArrayList<>(cur.subList(0, i));
                trial.addAll(cur.subList(Math.min(cur.size(), i + chunk), cur.size()));
                tries++;
                if (replayAndRun(c, trial) != null) {
                    cur = trial;
                } else {
                    i += chunk;
                }
            }
        }
        return cur;
    }

    // ---- the checks ---------------------------------------------------------------------------

    private Check readCheck(Gen g, boolean pgOk) {
        int k = random.nextInt(100);
        if (k < 22) {
            return tlpWhere(g);
        } else if (k < 32) {
            return tlpDistinct(g);
        } else if (k < 45) {
            return tlpAggregate(g);
        } else if (k < 55) {
            return tlpHaving(g);
        } else if (k < 67) {
            return norec(g);
        } else if (pgOk && k < 84) {
            Gen.Query q = g.query();
            return new PgCheck(q.sql(), q.ordered());
        } else if (k < 88) {
            Gen.Query q = g.query();
            return new PlanCheck(q.sql(), q.ordered());
        } else if (k < 93) {
            Gen.Query q = g.query();
            return new PreparedCheck(q.sql(), q.ordered());
        } else {
            Gen.Query q = g.query();
            List<String> texts = new ArrayList<>(List.of(q.sql()));
            for (int i = 0; i < 3; i++) {
                texts.add(otherLiterals(q.sql()));
            }
            return new CacheCheck(texts, q.ordered());
        }
    }

    private static final java.util.regex.Pattern INTEGER = java.util.regex.Pattern.compile("(?<![\\w.'])\\d+(?![\\w.'])");

    /** The text with each integer literal replaced by another: the same plan-cache key, other values. */
    private String otherLiterals(String sql) {
        java.util.regex.Matcher m = INTEGER.matcher(sql);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Integer.toString(random.nextInt(26)));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private Check tlpWhere(Gen g) {
        Gen.From f = g.from(true);
        int n = 1 + random.nextInt(3);
        List<String> outs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            outs.add(g.output(f.scope(), 1).sql());
        }
        String base = "SELECT " + String.join(", ", outs) + " FROM " + f.sql();
        String p = g.predicate(f.scope(), 2);
        boolean unionOnServer = random.nextInt(100) < 30;
        return new Tlp("tlp-where", base, " WHERE ", p, Tlp.Combine.ALL, unionOnServer);
    }

    private Check tlpDistinct(Gen g) {
        Gen.From f = g.from(true);
        int n = 1 + random.nextInt(2);
        List<String> outs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            outs.add(g.output(f.scope(), 0).sql());
        }
        String base = "SELECT DISTINCT " + String.join(", ", outs) + " FROM " + f.sql();
        return new Tlp("tlp-distinct", base, " WHERE ", g.predicate(f.scope(), 2), Tlp.Combine.SET,
                random.nextInt(100) < 30);
    }

    private Check tlpAggregate(Gen g) {
        Gen.From f = g.from(true);
        String fn = g.pick(List.of("MIN", "MAX", "SUM", "COUNT", "COUNT*"));
        String arg;
        if (fn.equals("COUNT*")) {
            fn = "COUNT";
            arg = "*";
        } else if (fn.equals("SUM")) {
            arg = g.num(f.scope(), random.nextBoolean() ? Gen.Kind.I : Gen.Kind.F, 1);
        } else {
            arg = g.output(f.scope(), 1).sql();
        }
        String base = "SELECT " + fn + "(" + arg + ") FROM " + f.sql();
        return new Tlp("tlp-" + fn.toLowerCase(java.util.Locale.ROOT), base, " WHERE ", g.predicate(f.scope(), 2),
                Tlp.Combine.valueOf(fn), false);
    }

    private Check tlpHaving(Gen g) {
        Gen.From f = g.from(random.nextInt(100) < 40);
        List<Gen.Scoped> keys = new ArrayList<>();
        keys.add(g.pick(f.scope()));
        Gen.Scoped second = g.pick(f.scope());
        if (random.nextBoolean() && !keys.contains(second)) {
            keys.add(second);
        }
        List<Gen.Scoped> aggs = g.aggregates(f.scope(), 1 + random.nextInt(2));
        List<String> outs = new ArrayList<>();
        for (Gen.Scoped s : keys) {
            outs.add(s.text());
        }
        for (Gen.Scoped s : aggs) {
            outs.add(s.text());
        }
        StringBuilder base = new StringBuilder("SELECT ").append(String.join(", ", outs)).append(" FROM ").append(f.sql());
        if (random.nextInt(100) < 40) {
            base.append(" WHERE ").append(g.predicate(f.scope(), 1));
        }
        base.append(" GROUP BY ");
        for (int i = 0; i < keys.size(); i++) {
            base.append(i == 0 ? "" : ", ").append(keys.get(i).text());
        }
        List<Gen.Scoped> hs = new ArrayList<>(keys);
        hs.addAll(g.aggregates(f.scope(), 2));
        return new Tlp("tlp-having", base.toString(), " HAVING ", g.having(hs), Tlp.Combine.ALL, false);
    }

    private Check norec(Gen g) {
        Gen.From f = g.from(true);
        String p = g.predicate(f.scope(), 2);
        return new NoRec(f.sql(), p);
    }

    /** Q against Q WHERE p, Q WHERE NOT p, Q WHERE p IS NULL, combined by {@link Combine}. */
    static final class Tlp implements Check {
        enum Combine {
            ALL, SET, MIN, MAX, SUM, COUNT
        }

        final String oracle;
        final String q;
        final String[] parts;
        final Combine combine;
        final boolean unionOnServer;

        Tlp(String oracle, String q, String clause, String p, Combine combine, boolean unionOnServer) {
            this.oracle = oracle;
            this.q = q;
            this.parts = new String[] {q + clause + p, q + clause + "NOT (" + p + ")", q + clause + "(" + p + ") IS NULL"};
            this.combine = combine;
            this.unionOnServer = unionOnServer;
        }

        @Override
        public String oracle() {
            return oracle;
        }

        @Override
        public List<String> statements() {
            List<String> l = new ArrayList<>();
            l.add(q);
            Collections.addAll(l, parts);
            if (unionOnServer) {
                l.add(union());
            }
            return l;
        }

        private String union() {
            String op = combine == Combine.SET ? " UNION " : " UNION ALL ";
            return parts[0] + op + parts[1] + op + parts[2];
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            Rows whole = env.query(env.on, q);
            if (whole.failed()) {
                return "internal error: " + q + " -> " + whole.error;
            }
            Rows[] rs = new Rows[3];
            for (int i = 0; i < 3; i++) {
                rs[i] = env.query(env.on, parts[i]);
                if (rs[i].failed()) {
                    return "internal error: " + parts[i] + " -> " + rs[i].error;
                }
            }
            String got;
            String expected;
            switch (combine) {
                case ALL -> {
                    expected = String.join(" ", whole.multiset());
                    List<String> all = new ArrayList<>();
                    for (Rows r : rs) {
                        all.addAll(r.keys());
                    }
                    Collections.sort(all);
                    got = String.join(" ", all);
                }
                case SET -> {
                    List<String> keys = whole.keys();
                    if (new java.util.HashSet<>(keys).size() != keys.size()) {
                        return "DISTINCT returned duplicate rows: " + q + " -> " + whole.show();
                    }
                    expected = String.join(" ", whole.set());
                    java.util.TreeSet<String> all = new java.util.TreeSet<>();
                    for (Rows r : rs) {
                        all.addAll(r.keys());
                    }
                    got = String.join(" ", all);
                }
                default -> {
                    expected = Rows.key(whole.scalar());
                    got = Rows.key(combine(rs));
                }
            }
            if (!expected.equals(got)) {
                return "Q gives " + abbreviate(expected) + " but its three partitions together give " + abbreviate(got)
                        + "\nQ: " + whole.show() + "\nWHERE p: " + rs[0].show() + "\nWHERE NOT p: " + rs[1].show()
                        + "\nWHERE p IS NULL: " + rs[2].show();
            }
            if (unionOnServer) {
                Rows u = env.query(env.on, union());
                if (u.failed()) {
                    return "internal error: " + union() + " -> " + u.error;
                }
                List<String> uk = combine == Combine.SET ? u.set() : u.multiset();
                List<String> qk = combine == Combine.SET ? whole.set() : whole.multiset();
                if (!uk.equals(qk)) {
                    return "the partitions joined by UNION on the server give " + u.show() + ", Q gives " + whole.show();
                }
            }
            return null;
        }

        private Object combine(Rows[] rs) {
            Object acc = null;
            for (Rows r : rs) {
                Object v = r.scalar();
                if (v == null) {
                    continue;
                }
                if (acc == null) {
                    acc = v;
                    continue;
                }
                switch (combine) {
                    case SUM, COUNT -> acc = number(acc).add(number(v));
                    case MIN, MAX -> {
                        int c = compare(acc, v);
                        if (combine == Combine.MIN ? c > 0 : c < 0) {
                            acc = v;
                        }
                    }
                    default -> throw new IllegalStateException();
                }
            }
            if (acc == null && combine == Combine.COUNT) {
                return 0L;
            }
            return acc;
        }

        private static BigDecimal number(Object v) {
            return v instanceof Double d ? BigDecimal.valueOf(d) : new BigDecimal(v.toString());
        }

        private static int compare(Object a, Object b) {
            if (a instanceof String s && b instanceof String t) {
                return s.compareTo(t);
            }
            return number(a).compareTo(number(b));
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }

    /** NoREC: COUNT(*) with WHERE p against the count of rows p holds for, computed in the select list. */
    static final class NoRec implements Check {
        final String optimized;
        final String reference;

        NoRec(String from, String p) {
            optimized = "SELECT COUNT(*) FROM " + from + " WHERE " + p;
            reference = "SELECT SUM(CASE WHEN " + p + " THEN 1 ELSE 0 END) FROM " + from;
        }

        @Override
        public String oracle() {
            return "norec";
        }

        @Override
        public List<String> statements() {
            return List.of(optimized, reference);
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            Rows a = env.query(env.on, optimized);
            Rows b = env.query(env.on, reference);
            if (a.failed() || b.failed()) {
                return "internal error: " + (a.failed() ? optimized + " -> " + a.error : reference + " -> " + b.error);
            }
            Object ref = b.scalar() == null ? 0L : b.scalar(); // SUM over no rows is NULL
            if (!Rows.key(a.scalar()).equals(Rows.key(ref))) {
                return "COUNT(*) with WHERE p gives " + Rows.key(a.scalar()) + ", the rows where p holds are " + Rows.key(ref);
            }
            return null;
        }
    }

    /** One query with indexes, without them, and on a background worker. */
    static final class PlanCheck implements Check {
        final String sql;
        final boolean ordered;

        PlanCheck(String sql, boolean ordered) {
            this.sql = sql;
            this.ordered = ordered;
        }

        @Override
        public String oracle() {
            return "plan";
        }

        @Override
        public List<String> statements() {
            return List.of(sql, "SET use_indexes = off", sql, "SET use_indexes = on", "CONFIG SET bg-query-min-rows 1 (a redis command, not SQL)",
                    sql, "CONFIG SET bg-query-min-rows 100000");
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            Rows with = env.query(env.on, sql);
            if (with.failed()) {
                return "internal error: " + sql + " -> " + with.error;
            }
            Rows without;
            try {
                without = env.query(env.off, sql);
            } catch (Skip s) {
                return "with indexes " + with.show() + "; without indexes the error " + s.getMessage();
            }
            String d = differ(with, without, ordered);
            if (d != null) {
                return "with indexes " + with.show() + "\nwithout indexes " + without.show() + (d.isEmpty() ? "" : "\n" + d);
            }
            Rows bg;
            env.on.call("CONFIG", "SET", "bg-query-min-rows", "1");
            // issue 27: on the long lane, its scans split in morsels of 64 rows over the workers
            env.on.call("CONFIG", "SET", "bg-query-short-rows", "0");
            env.on.call("CONFIG", "SET", "bg-query-morsel-rows", "64");
            try {
                bg = env.query(env.on, sql);
            } catch (Skip s) {
                return "inline " + with.show() + "; on a worker the error " + s.getMessage();
            } finally {
                env.on.call("CONFIG", "SET", "bg-query-min-rows", env.bgDefault);
                env.on.call("CONFIG", "SET", "bg-query-short-rows", "1000000");
                env.on.call("CONFIG", "SET", "bg-query-morsel-rows", "65536");
            }
            d = differ(with, bg, ordered);
            if (d != null) {
                return "on the event loop " + with.show() + "\non a worker " + bg.show() + (d.isEmpty() ? "" : "\n" + d);
            }
            return null;
        }
    }

    /**
     * The plan cache: texts that differ only in their integer literals share one cached plan on the
     * indexed connection (the index-off one never uses the cache); each must answer as planned afresh.
     */
    static final class CacheCheck implements Check {
        final List<String> texts;
        final boolean ordered;

        CacheCheck(List<String> texts, boolean ordered) {
            this.texts = texts;
            this.ordered = ordered;
        }

        @Override
        public String oracle() {
            return "plan-cache";
        }

        @Override
        public List<String> statements() {
            List<String> l = new ArrayList<>(texts);
            l.add("SET use_indexes = off");
            l.addAll(texts);
            l.add("SET use_indexes = on");
            return l;
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            Rows[] cached = new Rows[texts.size()];
            for (int i = 0; i < texts.size(); i++) {
                try {
                    cached[i] = env.query(env.on, texts.get(i));
                } catch (Skip s) {
                    cached[i] = Rows.error(s.getMessage());
                }
            }
            int compared = 0;
            for (int i = 0; i < texts.size(); i++) {
                Rows fresh;
                try {
                    fresh = env.query(env.off, texts.get(i));
                } catch (Skip s) {
                    if (!cached[i].failed()) {
                        return texts.get(i) + ": through the plan cache " + cached[i].show() + ", planned afresh the error " + s.getMessage();
                    }
                    continue;
                }
                if (cached[i].failed()) {
                    return texts.get(i) + ": through the plan cache the error " + cached[i].error + ", planned afresh " + fresh.show();
                }
                String d = differ(fresh, cached[i], ordered);
                if (d != null) {
                    return texts.get(i) + ":\nthrough the plan cache " + cached[i].show() + "\nplanned afresh without indexes " + fresh.show()
                            + (d.isEmpty() ? "" : "\n" + d);
                }
                compared++;
            }
            if (compared == 0) {
                throw new Skip("every variant refused");
            }
            return null;
        }
    }

    /**
     * PREPARE with each integer literal made a {@code ?} parameter, EXECUTE with the literals as
     * values: the same reply (2010 rows) as the text itself.
     */
    static final class PreparedCheck implements Check {
        final String sql;
        final String prepared;
        final List<String> values = new ArrayList<>();
        final boolean ordered;

        PreparedCheck(String sql, boolean ordered) {
            this.sql = sql;
            this.ordered = ordered;
            java.util.regex.Matcher m = INTEGER.matcher(sql);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                values.add(m.group());
                m.appendReplacement(sb, "?");
            }
            m.appendTail(sb);
            prepared = sb.toString();
        }

        @Override
        public String oracle() {
            return "prepared";
        }

        @Override
        public List<String> statements() {
            return List.of(sql, "PREPARE diffp " + prepared, "EXECUTE diffp " + String.join(" ", values) + "  (a redis command)",
                    "DEALLOCATE diffp");
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            if (values.isEmpty()) {
                throw new Skip("no literal to make a parameter");
            }
            Object text = env.sql(env.on, sql);
            if (text instanceof DiffClient.Err e) {
                if (internal(e.text())) {
                    return "internal error: " + sql + " -> " + e.text();
                }
                throw new Skip(e.text());
            }
            env.sent++;
            Object p = env.on.call("PREPARE", "diffp", prepared);
            if (p instanceof DiffClient.Err e) {
                if (internal(e.text())) {
                    return "internal error: PREPARE diffp " + prepared + " -> " + e.text();
                }
                throw new Skip("PREPARE: " + e.text());
            }
            try {
                List<String> args = new ArrayList<>(List.of("EXECUTE", "diffp"));
                args.addAll(values);
                env.sent++;
                Object x = env.on.call(args.toArray(new String[0]));
                if (x instanceof DiffClient.Err e) {
                    if (internal(e.text())) {
                        return "internal error: EXECUTE -> " + e.text();
                    }
                    throw new Skip("EXECUTE: " + e.text());
                }
                List<String> a = lines(text);
                List<String> b = lines(x);
                if (!ordered) {
                    Collections.sort(a);
                    Collections.sort(b);
                }
                if (!a.equals(b)) {
                    return "the text gives " + abbreviate(String.join(" | ", a)) + "\nEXECUTE gives " + abbreviate(String.join(" | ", b));
                }
                return null;
            } finally {
                env.on.call("DEALLOCATE", "diffp");
            }
        }

        private static List<String> lines(Object reply) {
            List<String> out = new ArrayList<>();
            if (reply instanceof List<?> l) {
                for (Object o : l) {
                    out.add(String.valueOf(o));
                }
            } else {
                out.add(String.valueOf(reply));
            }
            return out;
        }
    }

    /** Null when the answers are the same (in order when {@code ordered}), else a note (maybe empty). */
    static String differ(Rows a, Rows b, boolean ordered) {
        if (b.failed()) {
            return "internal error: " + b.error;
        }
        if (ordered) {
            List<String> ka = a.keys();
            List<String> kb = b.keys();
            if (ka.equals(kb)) {
                return null;
            }
            if (a.multiset().equals(b.multiset())) {
                return "same rows in another order: " + abbreviate(String.join(" ", ka)) + " / " + abbreviate(String.join(" ", kb));
            }
            return "";
        }
        return a.multiset().equals(b.multiset()) ? null : "";
    }

    /** The same query on PostgreSQL 15. */
    static final class PgCheck implements Check {
        final String sql;
        final boolean ordered;

        PgCheck(String sql, boolean ordered) {
            this.sql = sql;
            this.ordered = ordered;
        }

        @Override
        public String oracle() {
            return "postgresql";
        }

        @Override
        public List<String> statements() {
            return List.of(sql);
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            Rows ours = env.query(env.on, sql);
            if (ours.failed()) {
                return "internal error: " + sql + " -> " + ours.error;
            }
            Rows theirs = env.pg.query(sql);
            if (theirs.failed()) {
                throw new Skip("PostgreSQL: " + theirs.error.split("\n")[0]);
            }
            String d = differ(theirs, ours, ordered);
            if (d != null) {
                return "PostgreSQL " + theirs.show() + "\nRespSQL " + ours.show() + (d.isEmpty() ? "" : "\n" + d);
            }
            return null;
        }
    }

    /** An UPDATE or DELETE on a table (indexes in use) and on its copy (written without indexes): same reply, same rows. */
    static final class WriteCheck implements Check {
        final String table;
        final String template;

        WriteCheck(String table, String template) {
            this.table = table;
            this.template = template;
        }

        String onTable() {
            return template.replace("{T}", table);
        }

        String onCopy() {
            return template.replace("{T}", table + "_c");
        }

        @Override
        public String oracle() {
            return "write";
        }

        @Override
        public List<String> statements() {
            return List.of(onTable(), "SET use_indexes = off", onCopy(), "SET use_indexes = on",
                    "SELECT * FROM " + table, "SELECT * FROM " + table + "_c", "DUMP " + table, "DUMP " + table + "_c");
        }

        @Override
        public String run(Env env) throws IOException, Skip {
            // both copies alike before the write (a minimized replay may have dropped rows from one)
            if (!env.query(env.on, "SELECT * FROM " + table).multiset()
                    .equals(env.query(env.on, "SELECT * FROM " + table + "_c").multiset())) {
                throw new Skip("the table and its copy differ before the write");
            }
            Object a = env.sql(env.on, onTable());
            Object b = env.sql(env.off, onCopy());
            if (a instanceof DiffClient.Err e && internal(e.text())) {
                return "internal error: " + onTable() + " -> " + e.text();
            }
            if (b instanceof DiffClient.Err e && internal(e.text())) {
                return "internal error: " + onCopy() + " -> " + e.text();
            }
            if (a instanceof DiffClient.Err && b instanceof DiffClient.Err) {
                throw new Skip(((DiffClient.Err) a).text());
            }
            // a statement of the setup left out while minimizing: not the finding being looked for
            for (Object x : new Object[] {a, b}) {
                if (x instanceof DiffClient.Err e && e.text().contains("does not exist")) {
                    throw new Skip(e.text());
                }
            }
            if (!String.valueOf(a).equals(String.valueOf(b))) {
                return "through indexes the write replied " + a + ", through scans " + b;
            }
            Rows ra = env.query(env.on, "SELECT * FROM " + table);
            Rows rb = env.query(env.on, "SELECT * FROM " + table + "_c");
            if (!ra.multiset().equals(rb.multiset())) {
                return "after the write, through indexes: " + ra.show() + "\nthrough scans: " + rb.show();
            }
            String stale = indexesAgree(env, ra);
            if (stale != null) {
                return stale;
            }
            Object da = env.sql(env.on, "DUMP " + table);
            Object db = env.sql(env.on, "DUMP " + table + "_c");
            List<String> na = dumpRows(da, table);
            List<String> nb = dumpRows(db, table + "_c");
            if (!na.equals(nb)) {
                return "DUMP differs: " + abbreviate(String.join(" | ", na)) + "\nvs " + abbreviate(String.join(" | ", nb));
            }
            return null;
        }

        /**
         * After the write, every column's values looked up as keys (an IN list of all of them, which
         * an index on the column answers by probes) find the same rows as a scan: no index entry
         * stale, lost or left behind.
         */
        private String indexesAgree(Env env, Rows all) throws IOException, Skip {
            if (all.rows.isEmpty()) {
                return null;
            }
            int columns = all.rows.get(0).size();
            List<Object> names = new ArrayList<>();
            for (int c = 0; c < columns; c++) {
                names.add("c" + c);
            }
            for (int c = 0; c < columns; c++) {
                java.util.LinkedHashSet<String> values = new java.util.LinkedHashSet<>();
                for (List<Object> row : all.rows) {
                    Object v = row.get(c);
                    if (v != null) {
                        values.add(v instanceof String t ? "'" + t.replace("'", "''") + "'" : v.toString());
                    }
                }
                if (values.isEmpty() || values.size() > 400) {
                    continue;
                }
                String probe = "SELECT * FROM " + table + " WHERE " + names.get(c) + " IN (" + String.join(", ", values) + ")";
                String scan = "SELECT * FROM " + table + " WHERE " + names.get(c) + " IS NOT NULL";
                Rows a = env.query(env.on, probe);
                Rows b = env.query(env.off, scan);
                if (!a.multiset().equals(b.multiset())) {
                    return "after the write, " + probe + " finds " + a.show() + "\nbut " + scan + " (a scan) finds " + b.show();
                }
            }
            return null;
        }

        /** A DUMP's INSERT lines with the table's name taken out, sorted. */
        private static List<String> dumpRows(Object dump, String name) {
            List<String> out = new ArrayList<>();
            if (dump instanceof List<?> lines) {
                for (Object l : lines) {
                    String s = String.valueOf(l);
                    if (s.startsWith("INSERT INTO " + name + " ")) {
                        out.add(s.substring(("INSERT INTO " + name + " ").length()));
                    }
                }
            } else {
                out.add("not a DUMP: " + dump);
            }
            Collections.sort(out);
            return out;
        }
    }

    /** For the report: the configuration of a run in one line. */
    static Map<String, Object> describe(DiffRunner r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seed", r.seed);
        m.put("checksPerRound", r.checksPerRound);
        m.put("writesPerRound", r.writesPerRound);
        m.put("postgresql", r.pg != null);
        return m;
    }
}
