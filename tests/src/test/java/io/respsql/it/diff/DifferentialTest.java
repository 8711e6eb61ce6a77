package io.respsql.it.diff;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The differential suite's CI budget (issue 22): fixed seeds, a fixed number of rounds each,
 * against a server of its own, PostgreSQL 15 beside it when installed (required under CI with
 * {@code RESPSQL_REQUIRE_CONFORMANCE=1}). It prints the statements generated and checked per
 * oracle and fails with each finding's minimized statement list.
 * {@code -Ddifftest.seeds=1,2,3}, {@code -Ddifftest.rounds=N} and {@code -Ddifftest.seconds=N}
 * (a cap on the whole run) change the budget; {@code scripts/difftest.sh} runs it for minutes.
 */
class DifferentialTest {
    @Test
    void seededBudget() throws Exception {
        String[] seeds = System.getProperty("difftest.seeds", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30").split(",");
        int rounds = Integer.getInteger("difftest.rounds", 30);
        long cap = Long.getLong("difftest.seconds", 200);
        long deadline = System.nanoTime() + cap * 1_000_000_000L;
        PgSide pg = null;
        if (PgSide.installed()) {
            pg = PgSide.start();
        } else if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
            fail("no PostgreSQL in " + PgSide.bin());
        }
        List<DiffRunner.Finding> findings = new ArrayList<>();
        java.util.Map<String, long[]> perOracle = new java.util.TreeMap<>();
        long statements = 0;
        long checked = 0;
        long skipped = 0;
        long started = System.nanoTime();
        try (TestServer server = TestServer.start(); TestServer scratch = TestServer.start()) {
            for (String s : seeds) {
                DiffRunner r = new DiffRunner(Long.parseLong(s.strip()), server.host(), server.port(), scratch::port, pg,
                        System.out);
                r.run(rounds, deadline);
                System.out.println(r.summary());
                System.out.print(r.topSkipReasons(8));
                statements += r.statements;
                checked += r.checked;
                skipped += r.skipped;
                findings.addAll(r.findings);
                r.perOracle.forEach((k, v) -> {
                    long[] t = perOracle.computeIfAbsent(k, x -> new long[3]);
                    for (int i = 0; i < 3; i++) {
                        t[i] += v[i];
                    }
                });
            }
        } finally {
            if (pg != null) {
                pg.close();
            }
        }
        boolean capped = System.nanoTime() >= deadline;
        perOracle.forEach((k, v) -> System.out.printf("differential: %-13s %7d checked, %5d skipped, %d failed%n", k, v[0], v[1], v[2]));
        System.out.printf("differential: %d statements, %d queries checked, %d skipped (seeds %s, %d rounds each, %s, %.1f s)%n",
                statements, checked, skipped, String.join(",", seeds), rounds,
                pg == null ? "without PostgreSQL" : "with PostgreSQL 15", (System.nanoTime() - started) / 1e9);
        if (capped) {
            System.out.println("differential: stopped by the " + cap + " s cap before the last rounds ran (a loaded machine)");
        }
        if (!findings.isEmpty()) {
            StringBuilder sb = new StringBuilder(findings.size() + " finding(s):\n");
            for (DiffRunner.Finding f : findings) {
                sb.append(f.report()).append('\n');
            }
            fail(sb.toString());
        }
    }
}
