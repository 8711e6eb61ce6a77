package io.respsql.it.conformance;

import io.respsql.it.process.ServerProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Filters on a ranking window column from an outer query ({@code WHERE rn = 1}, {@code rk <= k},
 * {@code r < k}, {@code k >= r}, BETWEEN) over random data with NULL partition keys, NULL and
 * tied order keys, ASC/DESC and NULLS FIRST/LAST, compared with PostgreSQL 15: without LIMIT,
 * and with {@code ORDER BY partition key [DESC] LIMIT n} (n ending on a partition boundary, so
 * the answer is determined), over an indexed NOT NULL key (the streamed index-walk plan), an
 * indexed key with NULLs and an unindexed one. The server offloads every read of 200 rows or more
 * to the background (planned there without indexes); the streamed plan touches few rows and
 * stays inline, which the test checks through INFO's bg_queries_total.
 */
class WindowTopKTest {
    private static final int ROWS = 700;

    @Test
    void rankingFiltersAgreeWithPostgresql() throws Exception {
        if (!PgPeer.installed()) {
            String why = "no PostgreSQL in " + PgPeer.bin();
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        Random rnd = new Random(2026_12_02L);
        List<String> load = new ArrayList<>();
        load.add("CREATE TABLE t (id INT PRIMARY KEY, g INT, h INT NOT NULL, c INT, a INT, b TEXT)");
        load.add("CREATE INDEX t_g ON t (g)");
        load.add("CREATE INDEX t_h ON t (h)");
        StringBuilder ins = new StringBuilder("INSERT INTO t VALUES ");
        for (int i = 1; i <= ROWS; i++) {
            ins.append(i == 1 ? "" : ", ").append('(').append(i).append(", ")
                    .append(rnd.nextInt(10) == 0 ? "NULL" : Integer.toString(rnd.nextInt(60))).append(", ")
                    .append(rnd.nextInt(80)).append(", ")
                    .append(rnd.nextInt(12) == 0 ? "NULL" : Integer.toString(rnd.nextInt(50))).append(", ")
                    .append(rnd.nextInt(7) == 0 ? "NULL" : Integer.toString(rnd.nextInt(5))).append(", ")
                    .append(rnd.nextInt(9) == 0 ? "NULL" : "'t" + rnd.nextInt(4) + "'").append(')');
        }
        load.add(ins.toString());

        Path work = Files.createTempDirectory("respsql-topk-");
        try (PgPeer pg = PgPeer.start(repoRoot());
             ServerProcess server = ServerProcess.start(work, "--save", "", "--bg-query-min-rows", "200")) {
            Path file = work.resolve("load.sql");
            Files.writeString(file, String.join(";\n", load) + ";\nANALYZE;\n");
            pg.runFile(file);
            try (WireClient client = new WireClient(ServerProcess.HOST, server.port(), 60_000).greet()) {
                for (String st : load) {
                    assertEquals("OK", client.sql(st), st);
                }
                int checked = 0;
                String[] fns = {"row_number()", "rank()", "dense_rank()"};
                String[] orders = {"a DESC, b", "a, b DESC NULLS LAST", "a NULLS FIRST", "b DESC NULLS LAST, a", "a DESC NULLS LAST"};
                String[] filters = {"r = 1", "r <= 3", "r < 3", "2 >= r", "r BETWEEN 2 AND 3", "r <= 1 AND a IS NOT NULL"};
                for (String fn : fns) {
                    for (String key : new String[] {"h", "g", "c"}) {
                        for (int o = 0; o < orders.length; o++) {
                            // ROW_NUMBER's choice among peers is arbitrary in PostgreSQL: id makes it determined
                            String order = fn.startsWith("row_number") ? orders[o] + ", id DESC" : orders[o];
                            String filter = filters[(o + checked) % filters.length];
                            String extra = o % 2 == 0 ? ", lag(a) OVER (PARTITION BY " + key + " ORDER BY " + order + ") AS l"
                                    : ", count(*) OVER (PARTITION BY " + key + ") AS n";
                            String inner = "SELECT " + key + " AS k, id, a, b, " + fn + " OVER (PARTITION BY " + key + " ORDER BY "
                                    + order + ") AS r" + extra + " FROM t" + (o == 3 ? " WHERE id % 3 <> 0" : "");
                            String q = "SELECT k, id, a, b, r FROM (" + inner + ") z WHERE " + filter;
                            compare(pg, client, q, false);
                            for (String dir : new String[] {"", " DESC"}) {
                                String full = q + " ORDER BY k" + dir;
                                List<List<String>> all = pg.query(full);
                                int n = boundary(all, 1 + (checked % 6));
                                long bg = bgTotal(client);
                                String limited = full + " LIMIT " + n;
                                compare(pg, client, limited, true);
                                if (key.equals("h")) { // (stacked windows over h stream too)
                                    assertEquals(bg, bgTotal(client), "the streamed plan runs inline: " + limited + "\n"
                                            + client.sql("EXPLAIN " + limited));
                                }
                                checked++;
                            }
                        }
                    }
                }
                assertTrue(checked > 50);
                // the rewrite is visible, and stays out of the way when a DISTINCT or LIMIT sits in between
                String explain = String.valueOf(client.sql("EXPLAIN SELECT k, id FROM (SELECT h AS k, id, row_number() OVER "
                        + "(PARTITION BY h ORDER BY a, id) AS r FROM t) z WHERE r = 1 ORDER BY k LIMIT 5"));
                assertTrue(explain.contains("stream z in"), explain);
                compare(pg, client, "SELECT k, r FROM (SELECT DISTINCT h AS k, rank() OVER (PARTITION BY h ORDER BY a) AS r FROM t) z "
                        + "WHERE r <= 2", false);
                compare(pg, client, "SELECT k, id, r FROM (SELECT h AS k, id, row_number() OVER (PARTITION BY h ORDER BY id) AS r "
                        + "FROM t ORDER BY id LIMIT 50) z WHERE r <= 1", false);
            }
        } finally {
            try (var s = Files.walk(work)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The rows of the first {@code parts} distinct keys (column 0) of {@code rows}: a LIMIT that ends on a partition boundary. */
    private static int boundary(List<List<String>> rows, int parts) {
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            seen.add(String.valueOf(rows.get(i).get(0)));
            if (seen.size() > parts) {
                return i;
            }
        }
        return rows.size();
    }

    /** Same rows as PostgreSQL (as multisets; with {@code keyOrdered}, RespSQL's rows also come in PostgreSQL's key order). */
    private static void compare(PgPeer pg, WireClient client, String sql, boolean keyOrdered) throws Exception {
        List<List<String>> expected = pg.query(sql);
        ResultDecoder decoder = ResultDecoder.named("typed");
        int columns = expected.isEmpty() ? 0 : expected.get(0).size();
        Object reply = client.send(decoder.command(), sql);
        ResultDecoder.Decoded d = decoder.decode(reply, columns);
        if (d.failed()) {
            fail(sql + " failed on RespSQL: " + d.error());
        }
        if (expected.isEmpty()) {
            assertEquals(0, d.rows().size(), sql);
            return;
        }
        assertNull(Seed004Test.compare(expected, d.rows(), false, d.typed()), sql);
        if (keyOrdered) {
            for (int i = 0; i < expected.size(); i++) {
                Object k = d.rows().get(i).get(0);
                assertTrue(Seed004Test.same(expected.get(i).get(0), k, d.typed()), sql + ": row " + (i + 1) + " key " + k
                        + ", PostgreSQL's " + expected.get(i).get(0));
            }
        }
    }

    private static long bgTotal(WireClient client) throws IOException {
        Matcher m = Pattern.compile("bg_queries_total:(\\d+)").matcher(String.valueOf(client.send("INFO", "stats")));
        assertTrue(m.find(), "bg_queries_total in INFO");
        return Long.parseLong(m.group(1));
    }

    private static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("scripts").resolve("pg-peer.sh"))) {
                return d;
            }
        }
        throw new AssertionError("no scripts/pg-peer.sh above " + Path.of("").toAbsolutePath());
    }
}
