package io.respsql.it.diff;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code SET use_indexes = off|on} and {@code SHOW use_indexes}: a connection's statements planned
 * with full scans only (the reference side of the differential suite's plan equivalence), for
 * that connection alone, never served a cached plan that uses an index, back on after RESET.
 */
class UseIndexesSettingTest {
    @Test
    void indexesOffPlansScansForThisConnectionOnly() throws Exception {
        try (TestServer s = TestServer.start();
             DiffClient a = new DiffClient(s.host(), s.port());
             DiffClient b = new DiffClient(s.host(), s.port())) {
            assertEquals("OK", a.sql("CREATE TABLE t (id INT PRIMARY KEY, k INT, v TEXT)"));
            assertEquals("OK", a.sql("CREATE INDEX t_k ON t (k)"));
            for (int i = 0; i < 50; i++) {
                assertEquals("OK", a.sql("INSERT INTO t VALUES (" + i + ", " + (i % 5) + ", 'v" + i + "')"));
            }
            assertEquals("on", a.sql("SHOW use_indexes"));
            assertEquals(List.of("index probe on t using t_k (k = 3)"), a.sql("EXPLAIN SELECT * FROM t WHERE k = 3"));
            assertEquals(List.of("primary key probe on t using t:id:pk (id = 7)"), a.sql("EXPLAIN SELECT v FROM t WHERE id = 7"));

            assertEquals("OK", a.sql("SET use_indexes = off"));
            assertEquals("off", a.sql("SHOW use_indexes"));
            assertEquals(List.of("full scan of t; filter k = 3"), a.sql("EXPLAIN SELECT * FROM t WHERE k = 3"));
            assertEquals(List.of("full scan of t; filter id = 7"), a.sql("EXPLAIN SELECT v FROM t WHERE id = 7"));
            // the other connection keeps its indexes
            assertEquals("on", b.sql("SHOW use_indexes"));
            assertEquals(List.of("index probe on t using t_k (k = 3)"), b.sql("EXPLAIN SELECT * FROM t WHERE k = 3"));

            // same answers both ways, reads and writes
            Rows with = b.query("SELECT id FROM t WHERE k = 3 AND id BETWEEN 10 AND 40");
            Rows without = a.query("SELECT id FROM t WHERE k = 3 AND id BETWEEN 10 AND 40");
            assertEquals(with.multiset(), without.multiset());
            assertEquals(6, with.size()); // 13, 18, ..., 38
            assertEquals(10L, a.sql("UPDATE t SET v = 'x' WHERE k = 1"));

            // a text cached by the indexed connection is not served to the index-off one (nor cached by it)
            b.sql("SELECT v FROM t WHERE id = 8");
            b.sql("SELECT v FROM t WHERE id = 9");
            long hits = cacheHits(b);
            assertEquals("v12", ((List<?>) a.sql("SELECT v FROM t WHERE id = 12")).get(0));
            assertEquals(hits, cacheHits(b), "the index-off connection took a cached plan");
            b.sql("SELECT v FROM t WHERE id = 13");
            assertEquals(hits + 1, cacheHits(b));

            assertEquals("OK", a.sql("SET use_indexes TO on"));
            assertEquals(List.of("index probe on t using t_k (k = 3)"), a.sql("EXPLAIN SELECT * FROM t WHERE k = 3"));
            assertEquals("OK", a.sql("set USE_INDEXES 'off'"));
            assertEquals("RESET", a.call("RESET"));
            assertEquals("on", a.sql("SHOW use_indexes"));

            Object bad = a.sql("SET use_indexes = sometimes");
            assertInstanceOf(DiffClient.Err.class, bad);
            assertEquals("ERR invalid value 'sometimes' for setting 'use_indexes': use on or off", ((DiffClient.Err) bad).text());
            assertEquals("on", a.call("QUERY", "SHOW use_indexes"));
        }
    }

    private static long cacheHits(DiffClient c) throws Exception {
        String info = (String) c.call("INFO", "stats");
        for (String line : info.split("\r\n")) {
            if (line.startsWith("plan_cache_hits:")) {
                return Long.parseLong(line.substring("plan_cache_hits:".length()));
            }
        }
        throw new AssertionError("no plan_cache_hits in INFO stats");
    }
}
