package io.respsql.it.conformance;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How Seed004Test compares RespSQL's rows with PostgreSQL's, and the data set it generates. */
class Seed004CompareTest {
    @Test
    void orderMattersOnlyWhereTheQueryOrders() {
        assertTrue(Seed004Test.ordered("SELECT a FROM t ORDER BY a"));
        assertFalse(Seed004Test.ordered("SELECT a FROM (SELECT a FROM t ORDER BY a) z"));
        assertTrue(Seed004Test.ordered("SELECT x FROM ( SELECT rank() OVER (ORDER BY a) AS x FROM t ) z ORDER BY x"));
        List<List<String>> pg = List.of(List.of("1", "a"), List.of("2", "b"));
        List<List<Object>> swapped = List.of(row(2L, "b"), row(1L, "a"));
        assertNull(Seed004Test.compare(pg, swapped, false));
        assertNotNull(Seed004Test.compare(pg, swapped, true));
    }

    @Test
    void valuesCompareAsNumbersAndTimestamps() {
        assertTrue(Seed004Test.same("100", "100.0"));
        assertTrue(Seed004Test.same("0.30000000000000004", "0.3"));
        assertFalse(Seed004Test.same("100", "101"));
        assertTrue(Seed004Test.same("2024-06-01 10:00:00", "2024-06-01T10:00:00.000000"));
        assertFalse(Seed004Test.same("2024-06-01 10:00:00", "2024-06-01 10:00:01"));
        assertFalse(Seed004Test.same(null, ""));
        assertTrue(Seed004Test.same(null, null));
        assertFalse(Seed004Test.same("gold", "Gold"));
    }

    @Test
    void typedValuesCompareByTheirType() {
        assertTrue(Seed004Test.same("100.00", 100L, true), "an integer equals PostgreSQL's numeric of its value");
        assertFalse(Seed004Test.same("100.50", 100L, true));
        assertFalse(Seed004Test.same("gold", 0L, true));
        assertTrue(Seed004Test.same("0.30000000000000004", 0.3, true));
        assertFalse(Seed004Test.same("0.31", 0.3, true));
        assertFalse(Seed004Test.same("100", "100.0", true), "typed text is not a number");
        assertTrue(Seed004Test.same("100", "100.0", false), "2010 text may be one");
        assertTrue(Seed004Test.same("2024-06-01 10:00:00", "2024-06-01 10:00:00.000", true));
        assertTrue(Seed004Test.same(null, null, true));
        assertFalse(Seed004Test.same(null, "", true));
        List<List<String>> pg = List.of(List.of("2", "12.50"), List.of("1", "3.00"));
        assertNull(Seed004Test.compare(pg, List.of(row(1L, 3L), row(2L, 12.5)), false, true));
        assertNotNull(Seed004Test.compare(pg, List.of(row(1L, 3L), row(2L, 12L)), false, true));
    }

    @Test
    void rowCountsAndWidthsMustAgree() {
        List<List<String>> pg = List.of(List.of("1", "a"), List.of("2", "b"));
        assertEquals("1 rows, PostgreSQL has 2", Seed004Test.compare(pg, List.of(row(1L, "a")), true));
        assertNotNull(Seed004Test.compare(pg, List.of(row(1L, "a", "x"), row(2L, "b")), true));
        assertNotNull(Seed004Test.compare(List.of(Arrays.asList("1", null)), List.of(row(1L, "")), true));
    }

    @Test
    void theDataSetIsDeterministicAndConsistent() {
        EcomData a = new EcomData(4, 300, 50, 1_000);
        EcomData b = new EcomData(4, 300, 50, 1_000);
        assertEquals(a.inserts(100), b.inserts(100));
        assertEquals(1_000, a.rows("orders"));
        EcomData.Table orders = a.tables.get(2);
        EcomData.Table items = a.tables.get(3);
        long[] totals = new long[1_001];
        for (Object[] it : items.rows()) {
            int order = (Integer) it[1];
            assertEquals(orders.rows().get(order - 1)[1], it[2], "order_items.customer_id is its order's");
            totals[order] += (Long) it[5];
        }
        boolean[] buyer = new boolean[301];
        for (Object[] o : orders.rows()) {
            assertEquals(totals[(Integer) o[0]], o[6], "an order's total is the sum of its lines");
            String ts = (String) o[2];
            assertEquals(Integer.parseInt(ts.substring(0, 4) + ts.substring(5, 7)), o[3], "order_ym of " + ts);
            buyer[(Integer) o[1]] = true;
        }
        for (int c = 9; c <= 300; c += 9) {
            assertFalse(buyer[c], "customer " + c + " has no orders");
        }
        for (Object[] it : items.rows()) {
            int product = (Integer) it[3];
            assertTrue(product >= 1 && product <= 50);
        }
    }

    private static List<Object> row(Object... v) {
        return Arrays.asList(v);
    }
}
