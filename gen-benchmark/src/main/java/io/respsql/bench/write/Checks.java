package io.respsql.bench.write;

import java.io.PrintWriter;
import java.util.Objects;

/**
 * Invariant checks: each one is written to the check log with its query, expected and actual
 * value; the first mismatch throws, so a run with a wrong answer fails instead of reporting a time.
 */
final class Checks {

    private final PrintWriter log;
    private long passed;

    Checks(PrintWriter log) {
        this.log = log;
    }

    long passed() {
        return passed;
    }

    void equal(String what, Object expected, Object actual) {
        boolean ok = Objects.equals(String.valueOf(expected), String.valueOf(actual));
        log.println((ok ? "ok   " : "FAIL ") + what + ": expected " + expected + ", got " + actual);
        log.flush();
        if (!ok) {
            throw new BenchFailure("invariant failed: " + what + ": expected " + expected + ", got " + actual);
        }
        passed++;
    }

    void note(String line) {
        log.println("# " + line);
        log.flush();
    }

    /** One row by id, compared as "id,grp,v,tag". */
    void row(Target t, long id, long expectedV, String why) {
        equal(t.name() + " row id=" + id + " (" + why + ") [SELECT id, grp, v, tag FROM t WHERE id = " + id + "]",
                "[" + Target.row(id, expectedV) + "]",
                t.query("SELECT id, grp, v, tag FROM t WHERE id = " + id).toString());
    }

    void sum(Target t, long expected, String why) {
        equal(t.name() + " SUM(v) (" + why + ") [SELECT SUM(v) FROM t]", expected, t.scalar("SELECT SUM(v) FROM t"));
    }

    void count(Target t, long expected, String why) {
        equal(t.name() + " COUNT(*) (" + why + ") [SELECT COUNT(*) FROM t]", expected,
                t.scalar("SELECT COUNT(*) FROM t"));
    }
}
