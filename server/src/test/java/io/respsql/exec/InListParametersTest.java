package io.respsql.exec;

import org.junit.jupiter.api.Test;

import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A cached plan's IN list of parameters (integers, decimals, strings) over an unindexed column is
 * probed through a set built per run: each new text of the same shape must see its own values,
 * with NULL and NOT IN as SQL has them. Counts are checked against the same list as an OR chain
 * (never a cached IN) and against arithmetic on the data.
 */
class InListParametersTest {
    private final EngineHarness h = new EngineHarness();

    private String list(int from, int n, String quote, String suffix) {
        StringJoiner j = new StringJoiner(",");
        for (int i = from; i < from + n; i++) {
            j.add(quote + i + suffix + quote);
        }
        return j.toString();
    }

    private String or(String col, int from, int n, String quote, String suffix) {
        StringJoiner j = new StringJoiner(" OR ");
        for (int i = from; i < from + n; i++) {
            j.add(col + " = " + quote + i + suffix + quote);
        }
        return j.toString();
    }

    @Test
    void eachRunProbesItsOwnValues() {
        assertEquals("+OK", h.run("CREATE TABLE t (id int primary key, n int, d float, s text)"));
        StringJoiner rows = new StringJoiner(",", "INSERT INTO t VALUES ", "");
        for (int i = 0; i < 3000; i++) {
            rows.add("(" + i + "," + (i % 700) + "," + (i % 700) + ".5,'" + (i % 700) + "x')");
        }
        assertEquals("+OK", h.run(rows.toString()));
        for (int from : new int[] {0, 100, 650, 5000}) {
            int n = 300; // over the 256 literals that used to keep a statement out of the cache
            long expected = 0;
            for (int i = 0; i < 3000; i++) {
                expected += i % 700 >= from && i % 700 < from + n ? 1 : 0;
            }
            String[][] cases = {{"n", "", ""}, {"d", "", ".5"}, {"s", "'", "x"}};
            for (String[] c : cases) {
                String in = list(from, n, c[1], c[2]);
                String what = c[0] + " from " + from;
                assertEquals(":" + expected, h.run("SELECT COUNT(*) FROM t WHERE " + c[0] + " IN (" + in + ")"), what);
                assertEquals(":" + (3000 - expected), h.run("SELECT COUNT(*) FROM t WHERE " + c[0] + " NOT IN (" + in + ")"), what);
                assertEquals(":" + expected, h.run("SELECT COUNT(*) FROM t WHERE " + c[0] + " IN (" + in + ", NULL)"), what);
                assertEquals(":0", h.run("SELECT COUNT(*) FROM t WHERE " + c[0] + " NOT IN (" + in + ", NULL)"), what);
            }
            // a short list the OR chain can spell (the parser bounds nesting): the same rows
            assertEquals(h.run("SELECT COUNT(*) FROM t WHERE " + or("s", from, 40, "'", "x")),
                    h.run("SELECT COUNT(*) FROM t WHERE s IN (" + list(from, 40, "'", "x") + ")"));
        }
    }
}
