package io.respsql.plan;

import io.respsql.storage.ReadView;
import io.respsql.storage.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eager aggregation below the join to a dimension's unique key: every query is run with the
 * transform and without it ({@link EagerAggregation#enabled}) and must give the same rows; the
 * EXPLAIN lines say whether it applied. The data has items whose product is missing, NULL
 * product and order keys, products with NULL categories, an empty table, and a "dimension"
 * whose join column is not unique (where it must not apply).
 */
class EagerAggregationTest {
    private final QueryFixture f = new QueryFixture();

    @BeforeEach
    void data() {
        Random rnd = new Random(2026_12_02L);
        Table c = f.table("customers", 0, "customer_id int", "country text");
        Table p = f.table("products", 0, "product_id int", "category text", "price int");
        Table o = f.table("orders", 0, "order_id int", "customer_id int");
        Table oi = f.table("order_items", 0, "order_item_id int", "order_id int", "product_id int", "total int", "qty int");
        Table dup = f.table("tags", 0, "tag_id int", "product_id int", "tag text"); // product_id not unique
        Table u = f.table("skus", 0, "sku_id int", "product_id int", "code text"); // product_id unique (index)
        f.table("nothing", 0, "id int", "product_id int", "v int");
        for (int i = 1; i <= 40; i++) {
            f.row(c, i, rnd.nextInt(8) == 0 ? null : "c" + i % 5);
        }
        for (int i = 1; i <= 60; i++) { // products 61..80 are missing
            f.row(p, i, rnd.nextInt(6) == 0 ? null : "cat" + i % 4, rnd.nextInt(5) == 0 ? null : rnd.nextInt(100));
        }
        for (int i = 1; i <= 300; i++) {
            f.row(o, i, rnd.nextInt(15) == 0 ? null : 1 + rnd.nextInt(45)); // customers 41..45 missing
        }
        for (int i = 1; i <= 1500; i++) {
            f.row(oi, i, rnd.nextInt(20) == 0 ? null : 1 + rnd.nextInt(310), rnd.nextInt(12) == 0 ? null : 1 + rnd.nextInt(80),
                    rnd.nextInt(10) == 0 ? null : rnd.nextInt(1000) - 100, 1 + rnd.nextInt(4));
        }
        for (int i = 1; i <= 90; i++) {
            f.row(dup, i, 1 + rnd.nextInt(70), "t" + i % 3);
        }
        for (int i = 1; i <= 50; i++) {
            f.row(u, i, i + 5, "s" + i % 6);
        }
        f.index(oi, "order_items_product_id", "product_id");
        f.index(oi, "order_items_order_id", "order_id");
        f.index(o, "orders_customer_id", "customer_id");
        u.createIndex("skus_product_id", List.of(u.column("product_id")), true, new boolean[1]);
        f.catalog.registerIndex("skus_product_id", u);
        EagerAggregation.enabled = true;
    }

    @AfterEach
    void restore() {
        EagerAggregation.enabled = true;
    }

    private static final String Q26 = "SELECT p.category, p.product_id, SUM(oi.total) AS revenue, rank() OVER (PARTITION BY p.category"
            + " ORDER BY SUM(oi.total) DESC) AS rk FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
            + " GROUP BY p.category, p.product_id";

    private static final String Q30 = "SELECT c.country, c.customer_id, SUM(oi.total) AS revenue, rank() OVER (PARTITION BY c.country"
            + " ORDER BY SUM(oi.total) DESC) AS rk FROM order_items oi JOIN orders o ON o.order_id = oi.order_id"
            + " JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = oi.product_id"
            + " GROUP BY c.country, c.customer_id";

    @Test
    void sameRowsWithAndWithoutTheTransform() {
        String[] applies = {
            Q26,
            "SELECT category, product_id, revenue, rk FROM (" + Q26 + ") z WHERE rk <= 3 ORDER BY category, rk, product_id",
            Q30,
            "SELECT country, customer_id, revenue, rk FROM (" + Q30 + ") z WHERE rk <= 5 ORDER BY country, rk, customer_id",
            // every decomposable aggregate, DISTINCT ones, a bare column and MIN/MAX of the dimension
            "SELECT p.product_id, p.category, COUNT(*), COUNT(oi.total), SUM(oi.total), AVG(oi.total), MIN(oi.total), MAX(oi.total),"
                + " COUNT(DISTINCT oi.qty), SUM(DISTINCT oi.qty), MAX(p.price), MIN(p.category), TOTAL(oi.qty)"
                + " FROM order_items oi JOIN products p ON oi.product_id = p.product_id GROUP BY p.product_id, p.category",
            // the fact column as the key, an expression of the dimension's columns as another
            "SELECT oi.product_id, p.price * 2, SUM(oi.qty) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " GROUP BY oi.product_id, p.price * 2",
            // HAVING, ORDER BY an aggregate, LIMIT
            "SELECT p.category, p.product_id, SUM(oi.total) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " GROUP BY p.category, p.product_id HAVING SUM(oi.total) > 500 ORDER BY SUM(oi.total) DESC, p.product_id LIMIT 7",
            "SELECT p.product_id, COUNT(*) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " GROUP BY p.product_id HAVING COUNT(*) >= 20 AND MAX(p.price) > 10 ORDER BY 2 DESC, 1",
            // conditions on either side, on the dimension alone
            "SELECT p.product_id, p.category, SUM(oi.total) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " WHERE p.category = 'cat1' AND oi.qty > 1 AND p.price IS NOT NULL GROUP BY p.category, p.product_id",
            "SELECT p.product_id, SUM(oi.total) FROM order_items oi, products p WHERE oi.product_id = p.product_id"
                + " AND oi.total BETWEEN 0 AND 500 GROUP BY p.product_id",
            // a unique secondary index as the key; a join that finds nothing; an empty fact table
            "SELECT s.product_id, s.code, COUNT(*), SUM(oi.total) FROM order_items oi JOIN skus s ON s.product_id = oi.product_id"
                + " GROUP BY s.product_id, s.code",
            "SELECT p.product_id, COUNT(*) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " WHERE oi.product_id > 70 GROUP BY p.product_id",
            "SELECT p.product_id, p.category, COUNT(*), SUM(oi.total), MAX(p.price) FROM order_items oi JOIN products p"
                + " ON p.product_id = oi.product_id WHERE oi.total > 100000 GROUP BY p.product_id, p.category",
            "SELECT DISTINCT p.category, COUNT(*) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " GROUP BY p.category, p.product_id",
            // the fact side a derived table; a scalar subquery in the select list over the group's key
            "SELECT p.product_id, p.category, SUM(x.t) FROM (SELECT product_id AS pid, total AS t FROM order_items WHERE qty < 4) x"
                + " JOIN products p ON p.product_id = x.pid GROUP BY p.product_id, p.category",
            "SELECT p.product_id, COUNT(*), (SELECT COUNT(*) FROM tags t WHERE t.product_id = p.product_id) FROM order_items oi"
                + " JOIN products p ON p.product_id = oi.product_id GROUP BY p.product_id",
        };
        for (String q : applies) {
            if (!q.contains(") z")) {
                assertTrue(String.join("\n", f.explain(q)).contains("eager aggregation"), q + "\n" + f.explain(q));
            } else { // a derived table's EXPLAIN shows its materialization only: the operators show the rest
                List<String> tree = new ArrayList<>();
                f.plan(q).root().explain(tree, 0);
                String t = String.join("\n", tree);
                assertTrue(t.contains("] into eager") && t.contains("per partition"), q + "\n" + t); // (and the top-k cut)
            }
            same(q);
        }
        String[] not = {
            // a key that is not unique: each item would count once per tag
            "SELECT t.product_id, COUNT(*), SUM(oi.total) FROM order_items oi JOIN tags t ON t.product_id = oi.product_id"
                + " GROUP BY t.product_id",
            // the dimension's key does not fix the group
            "SELECT p.category, SUM(oi.total) FROM order_items oi JOIN products p ON p.product_id = oi.product_id GROUP BY p.category",
            // an aggregate of the dimension that counts rows; one over both sides
            "SELECT p.product_id, SUM(p.price) FROM order_items oi JOIN products p ON p.product_id = oi.product_id GROUP BY p.product_id",
            "SELECT p.product_id, SUM(oi.qty * p.price) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " GROUP BY p.product_id",
            // a LEFT JOIN keeps items without a product
            "SELECT p.product_id, COUNT(*) FROM order_items oi LEFT JOIN products p ON p.product_id = oi.product_id GROUP BY p.product_id",
            // a second condition between the dimension and the rest
            "SELECT p.product_id, COUNT(*) FROM order_items oi JOIN products p ON p.product_id = oi.product_id AND p.price > oi.qty"
                + " GROUP BY p.product_id",
            // GROUP_CONCAT's order would follow the plan
            "SELECT p.product_id, GROUP_CONCAT(oi.qty) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                + " GROUP BY p.product_id",
        };
        for (String q : not) {
            assertFalse(String.join("\n", f.explain(q)).contains("eager aggregation"), q + "\n" + f.explain(q));
        }
        for (int i = 0; i < 4; i++) {
            same(not[i]);
        }
        // an empty fact table (the early grouping would not pay there: either plan, the same rows)
        same("SELECT p.product_id, COUNT(*), SUM(n.v) FROM nothing n JOIN products p ON p.product_id = n.product_id GROUP BY p.product_id");
    }

    @Test
    void aReadViewKeepsThePrimaryKeyAsUnique() {
        ReadView view = f.catalog.readView();
        try {
            String[] queries = {Q26, Q30, "SELECT p.product_id, COUNT(*) FROM order_items oi JOIN products p ON p.product_id = oi.product_id"
                    + " WHERE p.category IS NOT NULL GROUP BY p.product_id"};
            for (String q : queries) {
                io.respsql.sql.tree.Statement st = io.respsql.sql.SqlParser.parse(q);
                io.respsql.sql.tree.Query query = ((io.respsql.sql.tree.Statement.QueryStatement) st).query();
                PlannedQuery planned = StatementPlanner.plan(view, query, q);
                String explain = String.join("\n", planned.explain());
                assertTrue(explain.contains("eager aggregation") && explain.contains("hash join (hash table on "), explain);
                QueryFixture.Printer eager = new QueryFixture.Printer();
                planned.run(eager);
                EagerAggregation.enabled = false;
                QueryFixture.Printer plain = new QueryFixture.Printer();
                StatementPlanner.plan(view, query, q).run(plain);
                EagerAggregation.enabled = true;
                assertEquals(sorted(plain.rows), sorted(eager.rows), q);
            }
        } finally {
            view.release();
        }
    }

    private void same(String q) {
        List<String> with = f.rows(q);
        EagerAggregation.enabled = false;
        List<String> without;
        try {
            assertFalse(String.join("\n", f.explain(q)).contains("eager aggregation"));
            without = f.rows(q);
        } finally {
            EagerAggregation.enabled = true;
        }
        boolean ordered = q.contains("ORDER BY") && !q.contains("OVER");
        assertEquals(ordered ? without : sorted(without), ordered ? with : sorted(with), q);
        assertTrue(q.contains("nothing") || q.contains("> 70") || q.contains("> 100000") || !with.isEmpty(), "rows expected: " + q);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> s = new ArrayList<>(rows);
        Collections.sort(s);
        return s;
    }
}
