package io.respsql.plan;

import io.respsql.exec.op.Morsels;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.ReadView;
import io.respsql.storage.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27: a hash aggregation over a read view's table scan split into stripes of morsels on
 * several threads ({@link Morsels}) answers exactly as the serial path, rows in the same order,
 * over randomized data with NULLs in keys and arguments and with empty morsels (rows deleted in
 * runs). Morsels are lowered to 64 rows so that a small table splits into many.
 */
class ParallelAggregateTest {
    private final QueryFixture f = new QueryFixture();
    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @BeforeEach
    void data() {
        Table t = f.table("t", 0, "id int", "g int", "h text", "x float", "v int", "w int");
        Random r = new Random(27);
        int rows = 6_000;
        for (int i = 0; i < rows; i++) {
            // x in quarters, small: sums are exact whatever the order, so serial and split agree bit for bit
            f.row(t, i, r.nextInt(10) == 0 ? null : r.nextInt(40), r.nextInt(12) == 0 ? null : "k" + r.nextInt(25),
                    r.nextInt(9) == 0 ? null : (r.nextInt(4000) - 2000) / 4.0, r.nextInt(7) == 0 ? null : r.nextInt(1000) - 300,
                    r.nextInt(5) == 0 ? null : r.nextInt());
        }
        // empty morsels: whole runs of rows deleted, and scattered single rows
        for (int i = 640; i < 1_280; i++) {
            t.deleteRow(i);
        }
        for (int i = 3_000; i < rows; i += 3) {
            t.deleteRow(i);
        }
        f.table("empty", 0, "id int", "g int", "v int");
    }

    @AfterEach
    void restore() {
        pool.shutdownNow();
    }

    private static final String[] QUERIES = {
        "SELECT COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(v), SUM(x), AVG(x), MIN(x), MAX(x), MIN(h), MAX(h) FROM t",
        "SELECT g, COUNT(*), SUM(v), AVG(x), MIN(h), MAX(h) FROM t GROUP BY g",
        "SELECT h, COUNT(v), SUM(x), MIN(x), MAX(v) FROM t GROUP BY h",
        "SELECT g, h, COUNT(*), SUM(v), AVG(v) FROM t GROUP BY g, h",
        "SELECT h, g, COUNT(*) FROM t WHERE v > 100 GROUP BY h, g",
        "SELECT g % 7, COUNT(*), SUM(x) FROM t WHERE h IS NOT NULL GROUP BY g % 7",
        "SELECT COUNT(*), SUM(v) FROM t WHERE v > 100000",
        "SELECT g, COUNT(*) FROM t WHERE v > 100000 GROUP BY g",
        "SELECT g, SUM(w), MIN(w), COUNT(w) FROM t GROUP BY g",
        "SELECT g, COUNT(*) FILTER (WHERE v > 0), SUM(v) FILTER (WHERE x < 0) FROM t GROUP BY g",
        "SELECT g, COUNT(*) AS n FROM t GROUP BY g HAVING COUNT(*) > 100 ORDER BY n DESC, g LIMIT 5",
        "SELECT id % 1000, COUNT(*), SUM(v), MAX(h) FROM t GROUP BY id % 1000",
        "SELECT id, SUM(x) FROM t WHERE g IS NULL GROUP BY id",
        "SELECT COUNT(*), SUM(v), MIN(v) FROM empty",
        "SELECT g, COUNT(*) FROM empty GROUP BY g",
    };

    private List<String> run(ReadView view, String sql, Morsels m) {
        return run(view, sql, m, false);
    }

    private List<String> run(ReadView view, String sql, Morsels m, boolean postgres) {
        Statement st = SqlParser.parse(sql);
        PlannedQuery p = StatementPlanner.plan(view, ((Statement.QueryStatement) st).query(), sql, postgres);
        QueryFixture.Printer out = new QueryFixture.Printer();
        io.respsql.engine.BackgroundQueries.runSplit(p, out, null, m);
        return out.rows;
    }

    @Test
    void splitAggregationAnswersAsTheSerialPath() {
        ReadView view = f.catalog.readView();
        try {
            for (String q : QUERIES) {
                List<String> serial = run(view, q, null);
                for (int degree : new int[] {2, 3, 5, 64}) {
                    assertEquals(serial, run(view, q, new Morsels(pool, degree, 64)), q + " (degree " + degree + ")");
                }
            }
        } finally {
            view.release();
        }
    }

    @Test
    void theSplitPathIsTaken() {
        // a DISTINCT aggregate cannot merge: serial; the others split (seen through a counting pool)
        java.util.concurrent.atomic.AtomicInteger helpers = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Executor counting = task -> {
            helpers.incrementAndGet();
            pool.execute(task);
        };
        ReadView view = f.catalog.readView();
        try {
            run(view, "SELECT g, COUNT(DISTINCT v) FROM t GROUP BY g", new Morsels(counting, 4, 64));
            assertEquals(0, helpers.get());
            run(view, "SELECT g % 3, COUNT(v) FROM t GROUP BY g % 3", new Morsels(counting, 4, 64));
            assertEquals(3, helpers.get());
            // many groups in the first morsel (one per row): the rest is scanned on this thread
            run(view, "SELECT id, COUNT(v) FROM t GROUP BY id", new Morsels(counting, 4, 64));
            assertEquals(3, helpers.get());
            // the live tables (not a read view) are never split
            QueryFixture.Printer out = new QueryFixture.Printer();
            io.respsql.engine.BackgroundQueries.runSplit(f.plan("SELECT g, COUNT(v) FROM t GROUP BY g"), out, null,
                    new Morsels(counting, 4, 64));
            assertEquals(3, helpers.get());
            // an expression node with a buffer of its own (lower(), ||) in a key, the filter or an
            // argument is not re-entrant: serial
            run(view, "SELECT g % 3, COUNT(v) FROM t WHERE lower(h) = 'k1' GROUP BY g % 3", new Morsels(counting, 4, 64));
            run(view, "SELECT h || 'x', COUNT(v) FROM t GROUP BY h || 'x'", new Morsels(counting, 4, 64));
            run(view, "SELECT g % 3, MAX(upper(h)) FROM t GROUP BY g % 3", new Morsels(counting, 4, 64));
            assertEquals(3, helpers.get());
            run(view, "SELECT g % 3, SUM(CASE WHEN v > 0 THEN v ELSE 0 END) FROM t WHERE h LIKE 'k1%' GROUP BY g % 3",
                    new Morsels(counting, 4, 64));
            assertEquals(6, helpers.get());
        } finally {
            view.release();
        }
    }

    @Test
    void floatSumsDoNotDependOnWhichThreadRanAStripe() {
        Table d = f.table("d", 0, "id int", "g int", "x float");
        Random r = new Random(4);
        for (int i = 0; i < 5_000; i++) {
            f.row(d, i, r.nextInt(3), r.nextDouble() * 1e6 - 3e5);
        }
        ReadView view = f.catalog.readView();
        try {
            String q = "SELECT g, SUM(x), AVG(x) FROM d GROUP BY g";
            List<String> serial = run(view, q, null);
            List<String> first = run(view, q, new Morsels(pool, 4, 64));
            for (int i = 0; i < 20; i++) {
                assertEquals(first, run(view, q, new Morsels(pool, 4, 64)), "run " + i);
            }
            assertEquals(serial.size(), first.size());
            for (int i = 0; i < serial.size(); i++) {
                String[] a = serial.get(i).split("\\|");
                String[] b = first.get(i).split("\\|");
                assertEquals(a[0], b[0]);
                for (int c = 1; c < a.length; c++) {
                    double x = Double.parseDouble(a[c]);
                    double y = Double.parseDouble(b[c]);
                    assertTrue(Math.abs(x - y) <= 1e-9 * Math.abs(x), a[c] + " vs " + b[c]);
                }
            }
        } finally {
            view.release();
        }
    }

    @Test
    void aFailingStripeFailsTheStatement() {
        Table z = f.table("z", 0, "id int", "v int");
        for (int i = 0; i < 1_000; i++) {
            f.row(z, i, i == 900 ? 0 : 1);
        }
        ReadView view = f.catalog.readView();
        try {
            String q = "SELECT SUM(100 / v) FROM z";
            String serial;
            try {
                run(view, q, null, true);
                serial = "no error";
            } catch (io.respsql.sql.SqlException e) {
                serial = e.getMessage();
            }
            assertNotEquals("no error", serial);
            String split;
            try {
                run(view, q, new Morsels(pool, 4, 64), true);
                split = "no error";
            } catch (io.respsql.sql.SqlException e) {
                split = e.getMessage();
            }
            assertEquals(serial, split);
        } finally {
            view.release();
        }
    }

    @Test
    void computedTextKeysFiltersAndArgumentsAnswerAsTheSerialPath() {
        // expression nodes keep computed TEXT in a buffer of their own (docs/expressions.md: not
        // re-entrant): stripes on several threads must not share them
        Table c = f.table("c", 0, "id int", "h text", "v int");
        Random r = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            f.row(c, i, "key-" + r.nextInt(12) + "-" + "x".repeat(20 * r.nextInt(3)), r.nextInt(100));
        }
        String[] qs = {
            "SELECT upper(h), COUNT(*), SUM(v) FROM c GROUP BY upper(h)",
            "SELECT substr(h, 1, 6) || '/' || lower(h), COUNT(*) FROM c GROUP BY substr(h, 1, 6) || '/' || lower(h)",
            "SELECT COUNT(*), MAX(upper(h)), MIN(lower(h) || 'z') FROM c",
            "SELECT COUNT(*) FROM c WHERE upper(h) LIKE 'KEY-1%X'",
            // node kinds that keep no state of their own still split (and agree)
            "SELECT h, COUNT(*), SUM(CASE WHEN v > 50 THEN v ELSE 0 END) FROM c WHERE h LIKE 'key-1%x' AND v BETWEEN 3 AND 90 GROUP BY h",
        };
        ReadView view = f.catalog.readView();
        try {
            for (String q : qs) {
                List<String> serial = run(view, q, null);
                for (int i = 0; i < 10; i++) {
                    assertEquals(serial, run(view, q, new Morsels(pool, 4, 1024)), q + " (run " + i + ")");
                }
            }
        } finally {
            view.release();
        }
    }
}
