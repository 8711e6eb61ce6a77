package io.respsql.bench.analytics;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generator, the query constants derived from it, the row formats of the loaders, and the comparison. */
class EcomGenTest {
    @Test
    void sameSeedSameData() {
        EcomGen a = EcomGen.atScale(4, 0.002);
        EcomGen b = EcomGen.atScale(4, 0.002);
        assertArrayEquals(a.oTs, b.oTs);
        assertArrayEquals(a.iProduct, b.iProduct);
        assertArrayEquals(a.cLtv, b.cLtv);
        EcomGen c = EcomGen.atScale(5, 0.002);
        assertFalse(Arrays.equals(a.oTs, c.oTs), "another seed, other data");
    }

    @Test
    void scaleFactorSetsTheTableSizes() {
        EcomGen g = EcomGen.atScale(1, 0.01);
        assertEquals(5_000, g.customers);
        assertEquals(1_000, g.products);
        assertEquals(30_000, g.orders);
        assertTrue(g.items >= g.orders && g.items <= 4 * g.orders);
        assertEquals(g.customers + g.products + g.orders + g.items, g.totalRows());
        assertThrows(IllegalArgumentException.class, () -> EcomGen.atScale(1, 0));
    }

    @Test
    void foreignKeysTotalsAndMonthsAreConsistent() {
        EcomGen g = EcomGen.atScale(4, 0.005);
        long[] totals = new long[g.orders + 1];
        int last = 0;
        for (int i = 0; i < g.items; i++) {
            assertTrue(g.iOrder[i] >= last, "items numbered in order");
            last = g.iOrder[i];
            assertTrue(g.iProduct[i] >= 1 && g.iProduct[i] <= g.products);
            assertTrue(g.iQty[i] >= 1 && g.iQty[i] <= 5);
            totals[g.iOrder[i]] += g.itemLineTotal(i);
            assertEquals(g.oCustomer[g.iOrder[i] - 1], g.itemCustomer(i));
        }
        boolean[] buyer = new boolean[g.customers + 1];
        for (int i = 0; i < g.orders; i++) {
            assertEquals(totals[i + 1], g.oTotal[i], "an order's total is the sum of its lines");
            assertTrue(g.oCustomer[i] >= 1 && g.oCustomer[i] <= g.customers);
            buyer[g.oCustomer[i]] = true;
            LocalDateTime t = LocalDateTime.ofEpochSecond(g.oTs[i], 0, ZoneOffset.UTC);
            assertTrue(t.getYear() >= 2021 && t.getYear() <= 2025);
            assertEquals(t.getYear() * 100 + t.getMonthValue(), g.oYm[i]);
        }
        for (int c = 9; c <= g.customers; c += 9) {
            assertFalse(buyer[c], "customer " + c + " has no orders");
        }
    }

    @Test
    void timestampsFormatAsJavaTimeDoes() {
        DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        EcomGen g = EcomGen.atScale(4, 0.002);
        for (long ts : g.oTs) {
            assertEquals(LocalDateTime.ofEpochSecond(ts, 0, ZoneOffset.UTC).format(f), EcomGen.timestamp(ts));
        }
        for (long ts : new long[] {0, 951_782_400L, 1_709_164_800L, 1_767_225_599L, 4_107_542_400L}) { // leap days, ends of years
            assertEquals(LocalDateTime.ofEpochSecond(ts, 0, ZoneOffset.UTC).format(f), EcomGen.timestamp(ts));
        }
    }

    @Test
    void loaderRowsSpellTheValuesAlike() {
        EcomGen g = new EcomGen(4, 2_000, 200, 8_000);
        Ascii a = new Ascii(16);
        Tables.row(g, 2, 0, a, true);
        String sql = new String(a.b, 0, a.n, StandardCharsets.US_ASCII);
        assertEquals("(1," + g.oCustomer[0] + ",'" + EcomGen.timestamp(g.oTs[0]) + "'," + g.oYm[0] + ",'"
                + EcomGen.STATUSES[g.oStatus[0]] + "','" + EcomGen.CHANNELS[g.oChannel[0]] + "'," + g.oTotal[0] + ")", sql);
        a.reset();
        Tables.row(g, 0, 1665, a, false);
        assertEquals("1666\tuser1666@mail6.example\t" + EcomGen.COUNTRIES[g.cCountry[1665]] + "\t" + EcomGen.TIERS[g.cTier[1665]]
                + "\t" + g.cLtv[1665] + "\n", new String(a.b, 0, a.n, StandardCharsets.US_ASCII));
        a.reset();
        a.num(-1234567890123L).ch(' ').num(0).ch(' ').productName(12);
        assertEquals("-1234567890123 0 Product 12 books", new String(a.b, 0, a.n, StandardCharsets.US_ASCII));
    }

    @Test
    void constantsExistInTheDataAtEveryScale() {
        for (double sf : new double[] {0.001, 0.01, 0.05}) {
            EcomGen g = EcomGen.atScale(4, sf);
            Map<String, String> c = Queries.constants(g);
            int pk = Integer.parseInt(c.get("PK_CUSTOMER"));
            assertTrue(pk >= 1 && pk <= g.customers);
            assertEquals(EcomGen.email(pk), c.get("PK_EMAIL"));
            int needle = Integer.parseInt(c.get("NEEDLE_CUSTOMER"));
            int orders = 0;
            for (int o : g.oCustomer) {
                orders += o == needle ? 1 : 0;
            }
            assertTrue(orders >= 2, "SF " + sf + ": the needle customer has " + orders + " orders");
            long threshold = Long.parseLong(c.get("Q17_THRESHOLD"));
            java.util.TreeMap<Integer, Long> monthly = new java.util.TreeMap<>();
            for (int i = 0; i < g.orders; i++) {
                monthly.merge(g.oYm[i], g.oTotal[i], Long::sum);
            }
            long passing = monthly.values().stream().filter(v -> v > threshold).count();
            assertTrue(passing >= monthly.size() / 3 && passing < monthly.size(), "SF " + sf + ": " + passing + " months pass");
        }
    }

    /** The templates are Seed004Test's queries with its four constants taken out: one text for the test and the bench. */
    @Test
    void templatesAreSeed004TestsQueries() throws IOException {
        Path dir = Path.of("..", "tests", "src", "test", "resources", "seed004");
        Map<String, String> rendered = Queries.render(Queries.testConstants());
        assertEquals(31, rendered.size());
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, String> q : rendered.entrySet()) {
            String test = Files.readString(dir.resolve(q.getKey() + ".sql"), StandardCharsets.UTF_8).strip();
            if (test.endsWith(";")) {
                test = test.substring(0, test.length() - 1).strip();
            }
            if (!test.equals(q.getValue())) {
                differ.add(q.getKey());
            }
        }
        assertEquals(List.of(), differ, "templates that differ from tests/src/test/resources/seed004");
    }

    @Test
    void comparisonFindsDifferences() {
        List<List<String>> pg = List.of(List.of("1", "a"), List.of("2", "b"));
        assertNull(Rows.compare(pg, List.of(List.of("2", "b"), List.of("1.0", "a")), false));
        assertNotNull(Rows.compare(pg, List.of(List.of("2", "b"), List.of("1", "a")), true));
        assertEquals("1 rows, PostgreSQL has 2", Rows.compare(pg, List.of(List.of("1", "a")), true));
        assertNotNull(Rows.compare(pg, List.of(List.of("1", "a"), List.of("2", "c")), true));
        assertTrue(Rows.same("2024-06-01 10:00:00", "2024-06-01T10:00:00.0"));
        assertFalse(Rows.same("2024-06-01 10:00:00", "2024-06-01 10:00:01"));
        assertFalse(Rows.same(null, ""));
        assertTrue(Queries.ordered("SELECT a FROM t ORDER BY a"));
        assertFalse(Queries.ordered("SELECT a FROM (SELECT a FROM t ORDER BY a) z"));
    }

    @Test
    void respReplyFormsDecodeToRows() {
        assertEquals(List.of(List.of("7")), RespEngine.decode(7L));
        assertEquals(List.of(List.of("1", "x y"), List.of("2", "z")), RespEngine.decode(List.of("1,x y", "2,z")));
        assertEquals(List.of(Arrays.asList("1", null)), RespEngine.decode(List.of(Arrays.asList(1L, null))));
        assertNull(RespEngine.decode("OK"));
        // QUERY's typed form: names, types, then the rows; a NULL stays null (not '')
        assertEquals(List.of(Arrays.asList("202101", null), Arrays.asList("202102", "a, b")),
                RespEngine.decode(List.of(List.of("m", "prev"), List.of("INT", "TEXT"),
                        Arrays.asList(202101L, null), Arrays.asList(202102L, "a, b"))));
    }
}
