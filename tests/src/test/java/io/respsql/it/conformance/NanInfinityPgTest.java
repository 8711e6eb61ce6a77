package io.respsql.it.conformance;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * NaN, Infinity and -Infinity in a FLOAT column against PostgreSQL 15 itself (issue 22): the same
 * random rows (with NULLs, duplicates and ordinary numbers) in both, then orderings, comparisons,
 * MIN/MAX and grouping compared row for row in PostgreSQL's order, with and without an index.
 * The values are chosen so both write them alike (halves and integers; no -0).
 */
class NanInfinityPgTest {
    private static final String[] WORDS = {"'NaN'", "'Infinity'", "'-Infinity'", "'nan'", "'inf'", "'-inf'"};

    @Test
    void agreesWithPostgresql() throws Exception {
        PgOracle.requirePostgresql();
        Random rnd = new Random(2026_12_07L);
        StringBuilder rows = new StringBuilder("INSERT INTO fl VALUES ");
        for (int i = 1; i <= 300; i++) {
            int pick = rnd.nextInt(10);
            String x = pick == 0 ? "NULL" : pick <= 3 ? WORDS[rnd.nextInt(WORDS.length)]
                    : Double.toString((rnd.nextInt(41) - 20) / 2.0).replace(".0", "");
            rows.append(i == 1 ? "" : ", ").append('(').append(i).append(", ").append(x).append(", ").append(rnd.nextInt(5)).append(')');
        }
        List<String> load = List.of("CREATE TABLE fl (id INT PRIMARY KEY, x FLOAT, g INT)", rows.toString());
        String[] queries = {
            "SELECT id, x FROM fl ORDER BY x, id",
            "SELECT id, x FROM fl ORDER BY x DESC, id",
            "SELECT id, x FROM fl ORDER BY x NULLS FIRST, id",
            "SELECT id FROM fl WHERE x = 'NaN' ORDER BY id",
            "SELECT id FROM fl WHERE x = CAST('NaN' AS FLOAT) ORDER BY id",
            "SELECT id FROM fl WHERE x > CAST('Infinity' AS FLOAT) ORDER BY id",
            "SELECT id FROM fl WHERE x >= CAST('Infinity' AS FLOAT) ORDER BY id",
            "SELECT id FROM fl WHERE x < CAST('NaN' AS FLOAT) ORDER BY id",
            "SELECT id FROM fl WHERE x > 5 ORDER BY id",
            "SELECT id FROM fl WHERE x <= -5 ORDER BY id",
            "SELECT id FROM fl WHERE x <> 'NaN' ORDER BY id",
            "SELECT id FROM fl WHERE x BETWEEN 0 AND CAST('NaN' AS FLOAT) ORDER BY id",
            "SELECT id FROM fl WHERE x BETWEEN CAST('-Infinity' AS FLOAT) AND 0 ORDER BY id",
            "SELECT id FROM fl WHERE x IN (CAST('NaN' AS FLOAT), 1.5, CAST('-Infinity' AS FLOAT)) ORDER BY id",
            "SELECT g, MIN(x), MAX(x), COUNT(x) FROM fl GROUP BY g ORDER BY g",
            "SELECT g, MIN(x), MAX(x) FROM fl WHERE x > 9 GROUP BY g ORDER BY g",
            "SELECT x, COUNT(*) FROM fl GROUP BY x ORDER BY x",
            "SELECT DISTINCT x FROM fl ORDER BY x DESC",
            "SELECT id, x FROM fl ORDER BY x DESC, id LIMIT 7",
            "SELECT id, x FROM fl ORDER BY x, id LIMIT 5 OFFSET 230",
        };
        try (PgPair both = PgPair.start("naninf", load, false, cfg -> {
        })) {
            PgPeer pg = both.pg;
            RespConnection c = both.conn;
            for (int pass = 0; pass < 2; pass++) {
                for (String q : queries) {
                    assertEquals(PgPair.text(pg.query(q)), c.call("SQL", q), (pass == 0 ? "" : "indexed: ") + q);
                }
                if (pass == 0) {
                    assertEquals("+OK\r\n", c.call("SQL", "CREATE INDEX fl_x ON fl (x)"));
                    pg.query("CREATE INDEX fl_x ON fl (x)");
                    String plan = c.call("SQL", "EXPLAIN SELECT id FROM fl WHERE x > CAST('Infinity' AS FLOAT) ORDER BY id");
                    org.junit.jupiter.api.Assertions.assertTrue(plan.contains("using fl_x"), plan);
                }
            }
        }
    }

}
