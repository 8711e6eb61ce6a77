package io.respsql.bench.analytics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The run's verdict: a result that differs from the reference's fails it, an error fails it only
 * with --strict; every execution is in runs.tsv. Systems are stand-ins here (the real ones run in
 * scripts/analytics-bench.sh, which .ci/run calls); DuckDB's loader and answers are checked for real.
 */
class AnalyticsBenchTest {
    @TempDir
    Path dir;

    /** A stand-in system: answers each query with {@code answer.apply(sql)}, an error when it returns null. */
    static class Fake implements Engine {
        final String name;
        final Function<String, List<List<String>>> answer;
        int calls;

        Fake(String name, Function<String, List<List<String>>> answer) {
            this.name = name;
            this.answer = answer;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String key() {
            return name.toLowerCase();
        }

        @Override
        public String clock() {
            return "fake";
        }

        @Override
        public List<Step> load(EcomGen g) {
            return List.of(new Step(name, "load", g.totalRows(), 0.001, ""));
        }

        @Override
        public Answer run(String sql, long capMillis) {
            calls++;
            List<List<String>> rows = answer.apply(sql);
            return rows == null ? Answer.error("ERR no", false, 1000) : new Answer(rows, null, false, 1000, -1);
        }

        @Override
        public String describe() {
            return "";
        }

        @Override
        public void close() {
        }
    }

    static List<List<String>> truth(String sql) {
        return List.of(List.of(Integer.toString(sql.length()), "x"), List.of("2", "y"));
    }

    private int run(List<Engine> engines, boolean strict) throws Exception {
        Map<String, String> o = new HashMap<>(Map.of("out", dir.toString(), "sf", "0.001", "pg-url", "unused"));
        if (strict) {
            o.put("strict", "1");
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        return AnalyticsBench.runWith(engines, o, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @Test
    void agreeingSystemsPassAndEveryRunIsRecorded() throws Exception {
        Fake pg = new Fake("PostgreSQL", AnalyticsBenchTest::truth);
        Fake duck = new Fake("DuckDB", AnalyticsBenchTest::truth);
        assertEquals(0, run(List.of(pg, duck), true));
        assertEquals(31 * 5, pg.calls);
        assertEquals(31 * 5, duck.calls);
        List<String> runs = Files.readAllLines(dir.resolve("runs.tsv"));
        assertEquals(1 + 2 * 31 * 5, runs.size());
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("| Answered (matching PostgreSQL) | 31 of 31 | 31 of 31 |"), summary);
    }

    @Test
    void aDifferentAnswerIsAMismatchAndFailsTheRun() throws Exception {
        Fake pg = new Fake("PostgreSQL", AnalyticsBenchTest::truth);
        Fake resp = new Fake("RespSQL", sql -> sql.contains("COUNT(*) FROM order_items") ? List.of(List.of("-1")) : truth(sql));
        assertEquals(1, run(List.of(pg, resp), false));
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("RespSQL Q13: MISMATCH"), summary);
    }

    @Test
    void rowsInAnotherOrderMismatchOnlyWhereTheQueryOrders() throws Exception {
        Fake pg = new Fake("PostgreSQL", AnalyticsBenchTest::truth);
        Fake duck = new Fake("DuckDB", sql -> {
            List<List<String>> r = new ArrayList<>(truth(sql));
            java.util.Collections.reverse(r);
            return r;
        });
        assertEquals(1, run(List.of(pg, duck), false));
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("DuckDB Q02: MISMATCH"), "Q02 orders its rows");
        assertTrue(!summary.contains("DuckDB Q01: MISMATCH"), "Q01 has no ORDER BY: compared as a multiset");
    }

    @Test
    void errorsAreReportedAndFailOnlyWhenStrict() throws Exception {
        Fake resp = new Fake("RespSQL", sql -> sql.startsWith("SELECT COUNT(*) FROM order_items") ? truth(sql) : null);
        assertEquals(0, run(List.of(new Fake("PostgreSQL", AnalyticsBenchTest::truth), resp), false));
        assertEquals(31 + 4, resp.calls, "an error is not repeated: one run each, five for the query answered");
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("| Errors | 0 | 30 |"), summary);
        assertEquals(1, run(List.of(new Fake("PostgreSQL", AnalyticsBenchTest::truth), new Fake("RespSQL", sql -> null)), true));
    }

    @Test
    void aQueryStoppedAtTheCapRunsOnceAndFailsOnlyWhenStrict() throws Exception {
        Fake slow = new Fake("DuckDB", AnalyticsBenchTest::truth) {
            @Override
            public Answer run(String sql, long capMillis) {
                if (!sql.contains("b.product_id")) {
                    return super.run(sql, capMillis);
                }
                calls++;
                return Answer.error("cancelled", true, capMillis * 1_000_000);
            }
        };
        assertEquals(0, run(List.of(new Fake("PostgreSQL", AnalyticsBenchTest::truth), slow), false));
        assertEquals(30 * 5 + 1, slow.calls, "Q11 capped once, not run again");
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("| Killed at the cap | 0 | 1 |"), summary);
        assertEquals(1, run(List.of(new Fake("PostgreSQL", AnalyticsBenchTest::truth), slow), true));
    }

    @Test
    void withoutAReferenceAnAnswerIsUncheckedNotPassed() throws Exception {
        Fake pg = new Fake("PostgreSQL", sql -> null) {
            @Override
            public Answer run(String sql, long capMillis) {
                calls++;
                return Answer.error("canceling statement due to statement timeout", true, capMillis * 1_000_000);
            }
        };
        assertEquals(0, run(List.of(pg, new Fake("DuckDB", AnalyticsBenchTest::truth)), false));
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("(unchecked)"), summary);
        assertTrue(summary.contains("| Answered (matching PostgreSQL) | 0 of 31 | 0 of 31 |"), summary);
    }

    @Test
    void duckdbThreadSettingsParse() {
        assertEquals(List.of(1, 2), AnalyticsBench.duckThreads(null, 2));
        assertEquals(List.of(1), AnalyticsBench.duckThreads(null, 1), "one core: one setting, not two of the same");
        assertEquals(List.of(1, 4), AnalyticsBench.duckThreads("1,4,1", 2));
        assertEquals(List.of(2), AnalyticsBench.duckThreads("2", 8));
        assertEquals(List.of(), AnalyticsBench.duckThreads("0", 2), "0 leaves DuckDB out");
        assertThrows(IllegalArgumentException.class, () -> AnalyticsBench.duckThreads("1,x", 2));
        assertThrows(IllegalArgumentException.class, () -> AnalyticsBench.duckThreads("-1", 2));
    }

    @Test
    void eachDuckdbSettingHasItsColumnsRatiosAndGeometricMeans() throws Exception {
        Fake pg = new Fake("PostgreSQL", AnalyticsBenchTest::truth);
        Fake d1 = new Fake("DuckDB-1t", AnalyticsBenchTest::truth);
        Fake d2 = new Fake("DuckDB-2t", sql -> sql.contains("COUNT(*) FROM order_items") ? List.of(List.of("-1")) : truth(sql));
        Fake resp = new Fake("RespSQL", AnalyticsBenchTest::truth);
        assertEquals(1, run(List.of(pg, d1, d2, resp), false), "DuckDB-2t's wrong Q13 is a mismatch of its own");
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("| query | PostgreSQL | DuckDB-1t | DuckDB-2t | RespSQL | RespSQL server | DuckDB-1t/PG | DuckDB-2t/PG "
                + "| RespSQL/PG | RespSQL/DuckDB-1t | RespSQL/DuckDB-2t | RespSQL outcome |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"),
                summary);
        assertTrue(summary.contains("| Q01 | 0.001 | 0.001 | 0.001 | 0.001 |  | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | matches PostgreSQL |"), summary);
        assertTrue(summary.contains("| Q13 | 0.001 | 0.001 | MISMATCH | 0.001 |  | 1.00 |  | 1.00 | 1.00 |  | matches PostgreSQL |"), summary);
        assertTrue(summary.contains("DuckDB-1t/PostgreSQL 1.000 (31), DuckDB-2t/PostgreSQL 1.000 (30), RespSQL/PostgreSQL 1.000 (31), "
                + "RespSQL/DuckDB-1t 1.000 (31), RespSQL/DuckDB-2t 1.000 (30)."), summary);
        assertTrue(summary.contains("target (set at SF 1), geometric mean RespSQL/DuckDB <= 1.0, in this run: DuckDB-1t 1.000 (met); DuckDB-2t 1.000 (met)."), summary);
        assertTrue(summary.contains("| Answered (matching PostgreSQL) | 31 of 31 | 31 of 31 | 30 of 31 | 31 of 31 |"), summary);
        assertTrue(summary.contains("DuckDB-2t Q13: MISMATCH"), summary);
        long d2runs = Files.readAllLines(dir.resolve("runs.tsv")).stream().filter(l -> l.split("\t")[1].equals("DuckDB-2t")).count();
        assertEquals(31 * 5, d2runs, "runs.tsv names each setting");
    }

    @Test
    void aReferenceOverTheCapIsTakenFromOneUntimedRunAndTheOthersAreChecked() throws Exception {
        List<Long> caps = new ArrayList<>();
        Fake pg = new Fake("PostgreSQL", AnalyticsBenchTest::truth) {
            @Override
            public Answer run(String sql, long capMillis) {
                if (!sql.contains("b.product_id")) { // Q11 only is over the cap
                    return super.run(sql, capMillis);
                }
                calls++;
                caps.add(capMillis);
                return capMillis <= 10_000 ? Answer.error("canceling statement due to statement timeout", true, capMillis * 1_000_000)
                        : new Answer(truth(sql), null, false, 20_000_000_000L, -1);
            }
        };
        Fake resp = new Fake("RespSQL", sql -> sql.contains("b.product_id") ? List.of(List.of("wrong")) : truth(sql));
        assertEquals(1, run(List.of(pg, resp), false), "RespSQL's Q11 is checked against the un-timed answer: a mismatch");
        assertEquals(List.of(10_000L, 120_000L), caps, "one timed run at the seed's cap, one un-timed run at the reference cap");
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("| Q11 | cap |"), summary);
        assertTrue(summary.contains("PostgreSQL over the cap: answer from an un-timed run"), summary);
        assertTrue(summary.contains("RespSQL Q11: MISMATCH"), summary);
        assertTrue(Files.readString(dir.resolve("reference-untimed.tsv")).contains("q11\tPostgreSQL\t20000.000\t120000\treference\t2\t"));

        Fake agreeing = new Fake("RespSQL", AnalyticsBenchTest::truth);
        caps.clear();
        assertEquals(0, run(List.of(pg, agreeing), false));
        summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.contains("matches PostgreSQL (PostgreSQL over the cap: answer from an un-timed run (20,000 ms, cap 120000 ms)) |"), summary);
        assertTrue(summary.contains("| Answered (matching PostgreSQL) | 30 of 31 | 31 of 31 |"), summary);
    }

    @Test
    void duckdbLoadsTheDataSetAndAnswers() throws Exception {
        EcomGen g = EcomGen.atScale(4, 0.002);
        try (DuckEngine duck = new DuckEngine(1, null)) {
            List<Engine.Step> steps = duck.load(g); // checks each table's row count itself
            assertEquals(g.totalRows(), steps.get(steps.size() - 1).rows());
            Map<String, String> q = Queries.render(Queries.constants(g));
            Engine.Answer items = duck.run(q.get("q13"), 10_000);
            assertEquals(List.of(List.of(Long.toString(g.items))), items.rows());
            Engine.Answer one = duck.run(q.get("q01"), 10_000);
            int pk = g.customers / 3;
            assertEquals(List.of(List.of(Integer.toString(pk), EcomGen.email(pk), EcomGen.COUNTRIES[g.cCountry[pk - 1]],
                    EcomGen.TIERS[g.cTier[pk - 1]], Integer.toString(g.cLtv[pk - 1]))), one.rows());
            Engine.Answer ts = duck.run("SELECT order_ts FROM orders WHERE order_id = 1", 10_000);
            assertEquals(EcomGen.timestamp(g.oTs[0]), ts.rows().get(0).get(0));
            assertTrue(duck.run("SELECT nope FROM orders", 10_000).failed());
            DuckEngine two = duck.withThreads(2);
            assertEquals("DuckDB-2t", two.name());
            assertEquals(List.of(), two.load(g), "the second setting shares the loaded database");
            assertEquals(List.of(List.of("2")), two.run("SELECT current_setting('threads')", 10_000).rows());
            assertEquals(items.rows(), two.run(q.get("q13"), 10_000).rows());
            assertEquals(List.of(List.of("1")), duck.run("SELECT current_setting('threads')", 10_000).rows());
            two.close(); // the owner's database stays open
            assertEquals(items.rows(), duck.run(q.get("q13"), 10_000).rows());
        }
    }
}
