package io.respsql.engine;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the plan cache's differential tests share: random statements from templates, blocks ended on both sides, tables compared. */
final class DifferentialSupport {
    private DifferentialSupport() {
    }

    /** The text of a {@code %k} placeholder ({@code k} is the letter after the percent sign). */
    interface Values {
        String of(char kind, Random r);
    }

    /** A random template with each {@code %k} replaced by {@code values.of(k, r)}, left to right. */
    static String statement(String[] templates, Random r, Values values) {
        String t = templates[r.nextInt(templates.length)];
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c != '%') {
                b.append(c);
                continue;
            }
            b.append(values.of(t.charAt(++i), r));
        }
        return b.toString();
    }

    /** Commits (or rolls back) the open block of every engine alike. */
    static void endBlock(boolean commit, SqlEngine... engines) {
        for (SqlEngine e : engines) {
            if (commit) {
                e.commitBlock();
            } else {
                e.rollbackBlock();
            }
        }
    }

    /** Each table's DUMP is the same through both runners. */
    static void assertSameDumps(PlanCacheDifferentialTest.Side expected, PlanCacheDifferentialTest.Side actual,
                                String context, String... tables) {
        for (String t : tables) {
            assertEquals(expected.run("DUMP " + t), actual.run("DUMP " + t), "DUMP " + t + context);
        }
    }
}
