package io.respsql.exec.op;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeysTest {
    private static final byte[] KINDS = {Keys.LONG, Keys.DOUBLE, Keys.TEXT};

    private static void fill(KeyBuffer b, Long l, Double d, String s) {
        b.reset();
        if (l == null) {
            b.setNull(0);
        } else {
            b.setLong(0, l);
        }
        if (d == null) {
            b.setNull(1);
        } else {
            b.setDouble(1, d);
        }
        if (s == null) {
            b.setNull(2);
        } else {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            b.setText(2, bytes.length == 0 ? null : bytes, 0, bytes.length);
        }
    }

    @Test
    void tableAgreesWithAHashMapOverManyKeysWithNulls() {
        KeyBuffer b = new KeyBuffer(KINDS);
        KeyTable table = new KeyTable(new KeyStore(KINDS));
        Map<String, Integer> expected = new HashMap<>();
        Random rnd = new Random(1);
        for (int i = 0; i < 50_000; i++) {
            Long l = rnd.nextInt(10) == 0 ? null : (long) rnd.nextInt(40);
            Double d = rnd.nextInt(10) == 0 ? null : rnd.nextInt(5) / 2.0;
            String s = rnd.nextInt(10) == 0 ? null : "s" + rnd.nextInt(30);
            if (rnd.nextInt(50) == 0) {
                s = "";
            }
            fill(b, l, d, s);
            String key = l + "|" + d + "|" + (s == null ? "<null>" : "'" + s + "'");
            Integer want = expected.get(key);
            int id = table.findOrAdd(b);
            if (want == null) {
                assertTrue(table.added, key);
                assertEquals(expected.size(), id);
                expected.put(key, id);
            } else {
                assertFalse(table.added, key);
                assertEquals(want, id);
            }
            assertEquals(id, table.find(b));
        }
        fill(b, 1000L, 0.0, "x");
        assertEquals(-1, table.find(b));
    }

    @Test
    void minusZeroEqualsZeroAndAnyNullIsReported() {
        KeyBuffer b = new KeyBuffer(KINDS);
        KeyTable table = new KeyTable(new KeyStore(KINDS));
        fill(b, 1L, 0.0, "a");
        int id = table.findOrAdd(b);
        assertFalse(b.anyNull());
        fill(b, 1L, -0.0, "a");
        assertEquals(id, table.find(b));
        fill(b, 1L, null, "a");
        assertTrue(b.anyNull());
        fill(b, 1L, 0.0, "a");
        assertFalse(b.anyNull());
    }

    @Test
    void storeOrdersNumbersTextAndNulls() {
        KeyBuffer b = new KeyBuffer(KINDS);
        KeyStore s = new KeyStore(KINDS);
        fill(b, 2L, 1.5, "b");
        s.append(b);
        fill(b, 2L, 1.5, "ab");
        s.append(b);
        fill(b, null, -1.0, "");
        s.append(b);
        fill(b, -3L, null, null);
        s.append(b);
        boolean[] asc = {false, false, false};
        boolean[] desc = {true, true, true};
        boolean[] last = {false, false, false};
        boolean[] first = {true, true, true};
        assertTrue(s.compare(1, 0, asc, last) < 0); // "ab" < "b"
        assertTrue(s.compare(1, 0, desc, last) > 0);
        assertTrue(s.compare(2, 0, asc, last) > 0); // NULL last
        assertTrue(s.compare(2, 0, asc, first) < 0); // NULL first
        assertTrue(s.compare(2, 0, desc, last) > 0); // NULL last regardless of direction
        assertTrue(s.compare(3, 0, asc, last) < 0);
        assertEquals(0, s.compare(1, 1, asc, last));
        assertTrue(s.isNull(3, 1));
        assertEquals(-3L, s.getLong(3, 0));
        assertEquals(1.5, s.getDouble(0, 1));
        assertEquals(2, s.textLength(1, 2));
    }

    @Test
    void relationMasks() {
        assertEquals(java.util.List.of(0, 3, 63), java.util.Arrays.stream(TupleBuffer.relationsOf((1L << 63) | 9)).boxed().toList());
        assertEquals((1L << 63) | 9, TupleBuffer.maskOf(new int[] {0, 3, 63}));
    }
}
