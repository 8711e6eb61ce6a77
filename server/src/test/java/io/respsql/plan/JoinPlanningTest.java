package io.respsql.plan;

import io.respsql.storage.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Join order and join algorithm chosen from row estimates, over a small e-commerce schema
 * (customers 1 : orders 6 : items ~15, products 200), checked by the EXPLAIN lines and, for
 * every plan, by its rows against the same query planned another way.
 */
class JoinPlanningTest {
    private static final int CUSTOMERS = 500;
    private static final int PRODUCTS = 200;
    private static final int ORDERS = 3000;
    private final QueryFixture f = new QueryFixture();

    @BeforeEach
    void data() {
        Table c = f.table("customers", 0, "customer_id int", "country text", "tier text");
        Table p = f.table("products", 0, "product_id int", "category text");
        Table o = f.table("orders", 0, "order_id int", "customer_id int", "order_ym int", "status text");
        Table oi = f.table("order_items", 0, "order_item_id int", "order_id int", "product_id int", "total int");
        String[] tiers = {"bronze", "silver", "gold", "platinum"};
        for (int i = 1; i <= CUSTOMERS; i++) {
            f.row(c, i, "c" + (i % 7), tiers[i % 4]);
        }
        for (int i = 1; i <= PRODUCTS; i++) {
            f.row(p, i, "cat" + (i % 5));
        }
        int item = 0;
        for (int i = 1; i <= ORDERS; i++) {
            f.row(o, i, 1 + (i * 7) % CUSTOMERS, 202101 + (i % 48) / 12 * 100 + i % 12, i % 3 == 0 ? "delivered" : "open");
            for (int k = 0; k < 1 + i % 4; k++) {
                item++;
                f.row(oi, item, i, 1 + (item * 13) % PRODUCTS, item % 100);
            }
        }
        f.index(o, "orders_customer_id", "customer_id");
        f.index(o, "orders_order_ym", "order_ym");
        f.index(oi, "order_items_order_id", "order_id");
        f.index(oi, "order_items_product_id", "product_id");
    }

    @Test
    void aSmallDimensionIsHashedAndTheBigTableStreamsThroughIt() {
        String q = "SELECT p.category, COUNT(*), SUM(oi.total) FROM order_items oi JOIN orders o ON o.order_id = oi.order_id"
                + " JOIN products p ON p.product_id = oi.product_id GROUP BY p.category ORDER BY p.category";
        List<String> plan = f.explain(q);
        // The 200 products are hashed and the 7,500 items stream through (a hash table that small stays in
        // cache: cheaper than 200 probes of order_items_product_id reaching 7,500 rows at random); then the
        // 3,000 orders are hashed rather than probed 7,500 times.
        assertEquals("join order: p -> oi -> o", plan.get(0), plan.toString());
        assertEquals("full scan of products", plan.get(1), plan.toString());
        assertTrue(plan.get(2).startsWith("hash join (hash table on the joined rows) with full scan of order_items"), plan.toString());
        assertTrue(plan.get(3).startsWith("hash join (hash table on o) with full scan of orders"), plan.toString());
        long lines = 0;
        for (String r : f.rows(q)) {
            lines += Long.parseLong(r.split("\\|")[1]);
        }
        assertEquals(7500, lines);
        String c = "SELECT c.country, COUNT(*) FROM order_items oi JOIN orders o ON o.order_id = oi.order_id"
                + " JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.country ORDER BY c.country";
        long[] perCountry = new long[7]; // the generator's rows counted here: order i has 1 + i % 4 items, customer 1 + 7i % 500
        for (int i = 1; i <= ORDERS; i++) {
            perCountry[(1 + (i * 7) % CUSTOMERS) % 7] += 1 + i % 4;
        }
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 7; k++) {
            expected.add("c" + k + "|" + perCountry[k]);
        }
        assertEquals(expected, f.rows(c));
    }

    @Test
    void withoutAnIndexTheSmallerSideIsHashedAndTheBiggerStreams() {
        // No index on order_items.total: the 50 or so platinum customers are hashed, the 7,500 items probe.
        String q = "SELECT COUNT(*) FROM customers c JOIN order_items oi ON oi.total = c.customer_id WHERE c.tier = 'platinum'";
        List<String> plan = f.explain(q);
        assertEquals("join order: c -> oi", plan.get(0), plan.toString());
        assertTrue(plan.get(2).startsWith("hash join (hash table on the joined rows) with full scan of order_items"), plan.toString());
        long n = 0;
        for (int item = 1; item <= 7500; item++) {
            int total = item % 100;
            n += total >= 1 && total <= CUSTOMERS && total % 4 == 3 ? 1 : 0; // tier platinum: id % 4 == 3
        }
        assertEquals(List.of("count=" + n), f.rows(q));
    }

    @Test
    void selectiveFiltersStartTheOrderAndFewRowsAreJoinedByIndexProbes() {
        String q = "SELECT p.category, COUNT(*) FROM order_items oi JOIN orders o ON o.order_id = oi.order_id"
                + " JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = oi.product_id"
                + " WHERE o.order_ym BETWEEN 202401 AND 202402 AND c.tier = 'platinum' AND o.status = 'delivered'"
                + " GROUP BY p.category ORDER BY p.category";
        List<String> plan = f.explain(q);
        // The filtered relations first (about 50 platinum customers, about 75 delivered orders of the two
        // months); the few joined rows then reach order_items and products by index probes, not by hashing them.
        assertTrue(plan.get(0).startsWith("join order: c -> o -> ") || plan.get(0).startsWith("join order: o -> c -> "),
                plan.toString());
        assertTrue(plan.get(3).startsWith("index probe on order_items using order_items_order_id"), plan.toString());
        assertTrue(plan.get(4).startsWith("primary key probe on products"), plan.toString());
        assertEquals(f.rows(q), f.rows(q.replace("JOIN customers c ON c.customer_id = o.customer_id",
                "JOIN customers c ON c.customer_id + 0 = o.customer_id + 0")), "the same rows by another plan");
    }

    @Test
    void orderByAnIndexedColumnWithALimitWalksTheIndexAndProbes() {
        String q = "SELECT oi.order_item_id, o.order_id, c.tier, p.category FROM order_items oi"
                + " JOIN orders o ON o.order_id = oi.order_id JOIN customers c ON c.customer_id = o.customer_id"
                + " JOIN products p ON p.product_id = oi.product_id ORDER BY oi.order_item_id LIMIT 5";
        List<String> plan = f.explain(q);
        assertTrue(plan.get(0).startsWith("join order: oi -> o -> "), plan.toString());
        assertEquals("primary key range on order_items using order_items:order_item_id:pk (all keys), in key order", plan.get(1));
        for (int k = 2; k <= 4; k++) { // each joined row found by a key probe: the walk stops after 5 rows
            assertTrue(plan.get(k).startsWith("primary key probe on "), plan.toString());
        }
        assertEquals(List.of("limit 5 offset 0"), plan.subList(5, plan.size()), "no sort: " + plan);
        List<String> sorted = f.rows(q.replace(" LIMIT 5", "")); // by hash joins (below)
        assertEquals(7500, sorted.size());
        assertEquals(sorted.subList(0, 5), f.rows(q));
        for (int i = 0; i < sorted.size(); i++) {
            assertTrue(sorted.get(i).startsWith((i + 1) + "|"), sorted.get(i));
        }
        // Without a LIMIT every row is joined: hash tables on the three smaller relations, probed by the
        // items in key order (the order kept, so still no sort).
        List<String> all = f.explain(q.replace(" LIMIT 5", ""));
        assertEquals("primary key range on order_items using order_items:order_item_id:pk (all keys), in key order", all.get(1));
        assertEquals(3, all.stream().filter(l -> l.startsWith("hash join (hash table on ")).count(), all.toString());
        assertTrue(all.stream().noneMatch(l -> l.startsWith("sort by")), all.toString());
    }

    @Test
    void aLeftJoinBuildsItsNullableSideAndKeepsEveryPreservedRow() {
        // The 500 customers are fewer than the 7,500 items, yet the items are hashed: the preserved rows must probe.
        String q = "SELECT COUNT(*), COUNT(oi.order_item_id) FROM customers c LEFT JOIN order_items oi ON oi.total = c.customer_id";
        List<String> plan = f.explain(q);
        assertEquals("join order: c -> oi", plan.get(0), plan.toString());
        assertTrue(plan.get(2).startsWith("hash join (hash table on oi) with full scan of order_items"), plan.toString());
        long[] matches = new long[CUSTOMERS + 1];
        for (int item = 1; item <= 7500; item++) {
            int total = item % 100;
            if (total >= 1) {
                matches[total]++;
            }
        }
        long rows = 0;
        long matched = 0;
        for (int c = 1; c <= CUSTOMERS; c++) {
            rows += Math.max(1, matches[c]);
            matched += matches[c];
        }
        assertEquals(List.of(rows + "|" + matched), f.rows(q));
        assertEquals(List.of("1|NULL", "2|NULL", "3|NULL"), f.rows("SELECT c.customer_id, o.order_id FROM customers c"
                + " LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'none' WHERE c.customer_id <= 3"
                + " ORDER BY c.customer_id"));
    }
}
