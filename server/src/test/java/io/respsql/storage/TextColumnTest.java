package io.respsql.storage;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextColumnTest {
    private final TextColumn col = new TextColumn("s", 0);
    private final RowAllocator rows = new RowAllocator();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Allocates {@code n} rows with storage behind them. */
    private void rows(int n) {
        for (int i = 0; i < n; i++) {
            col.ensureCapacity(rows.allocate() + 1);
        }
    }

    private static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }

    @Test
    void newSlotsHoldTheEmptyString() {
        rows(3);
        assertEquals("", col.getString(2));
        assertEquals(0, col.length(2));
        assertTrue(col.equalsBytes(2, new byte[0]));
    }

    @Test
    void setAndGetRoundTrip() {
        rows(4);
        col.set(0, utf8("marieanne"));
        col.set(1, utf8("bob smith, \"jr\" 'x'"));
        col.set(2, utf8("zoë ✓"));
        col.set(3, utf8(""));
        assertEquals("marieanne", col.getString(0));
        assertEquals("bob smith, \"jr\" 'x'", col.getString(1));
        assertEquals("zoë ✓", col.getString(2));
        assertEquals(utf8("zoë ✓").length, col.length(2));
        assertEquals("", col.getString(3));
        assertEquals('m', (char) col.bytes(0)[col.offset(0)]);
    }

    @Test
    void overwriteKeepsNeighboursAndCountsGarbage() {
        rows(3);
        col.set(0, utf8("aaaa"));
        col.set(1, utf8("bbbb"));
        col.set(2, utf8("cccc"));
        col.set(1, utf8("a much longer value"));
        col.set(0, utf8("x"));
        assertEquals("x", col.getString(0));
        assertEquals("a much longer value", col.getString(1));
        assertEquals("cccc", col.getString(2));
        assertEquals(2 * (4 + 4), col.garbageBytes(), "each overwritten value leaves its bytes and length prefix");
        col.set(2, utf8(""));
        assertEquals(3 * (4 + 4), col.garbageBytes());
        assertEquals("", col.getString(2));
    }

    @Test
    void clearMakesTheSlotEmpty() {
        rows(2);
        col.set(0, utf8("gone"));
        col.set(1, utf8("kept"));
        col.clear(0);
        assertEquals("", col.getString(0));
        assertEquals("kept", col.getString(1));
        assertEquals(4 + 4, col.garbageBytes());
    }

    @Test
    void valuesLargerThanAnArenaChunk() {
        rows(2);
        String big = repeat('q', 3 << 20);
        col.set(0, utf8("small"));
        col.set(1, utf8(big));
        assertEquals(big, col.getString(1));
        assertEquals("small", col.getString(0));
    }

    @Test
    void compactionKeepsEveryValue() {
        int n = 2000;
        rows(n);
        for (int round = 0; round < 5; round++) {
            for (int r = 0; r < n; r++) {
                col.set(r, utf8(r % 10 == 0 ? "" : "row " + r + " round " + round + " " + repeat('x', r % 300)));
            }
        }
        rows.release(17);
        col.clear(17);
        assertTrue(col.needsCompaction(), "garbage " + col.garbageBytes());
        long before = col.memoryBytes();

        col.compact(rows);

        assertEquals(0, col.garbageBytes());
        assertFalse(col.needsCompaction());
        assertTrue(col.memoryBytes() < before, col.memoryBytes() + " < " + before);
        for (int r = 0; r < n; r++) {
            String expected = r == 17 || r % 10 == 0 ? "" : "row " + r + " round 4 " + repeat('x', r % 300);
            assertEquals(expected, col.getString(r), "row " + r);
        }
        col.set(5, utf8("after compaction"));
        assertEquals("after compaction", col.getString(5));
        assertEquals("row 6 round 4 " + repeat('x', 6), col.getString(6));
    }

    @Test
    void smallGarbageDoesNotAskForCompaction() {
        rows(10);
        for (int i = 0; i < 100; i++) {
            col.set(i % 10, utf8("value " + i));
        }
        assertTrue(col.garbageBytes() > 0);
        assertFalse(col.needsCompaction(), "garbage below one arena chunk is not worth a rewrite");
    }

    @Test
    void garbageBelowLiveBytesDoesNotAskForCompaction() {
        rows(3000);
        for (int r = 0; r < 3000; r++) {
            col.set(r, utf8(repeat('a', 1000)));
        }
        for (int r = 0; r < 1500; r++) {
            col.set(r, utf8(repeat('b', 1000)));
        }
        assertTrue(col.garbageBytes() > 1 << 20);
        assertFalse(col.needsCompaction(), "garbage 1.5 MB against 3 MB live");
    }

    @Test
    void comparisonsUseUnsignedByteOrder() {
        rows(4);
        col.set(0, utf8("abc"));
        col.set(1, utf8("abd"));
        col.set(2, utf8("é"));
        // row 3 stays empty
        assertTrue(col.compareTo(0, utf8("abd")) < 0);
        assertTrue(col.compareTo(0, utf8("ab")) > 0);
        assertEquals(0, col.compareTo(0, utf8("abc")));
        assertTrue(col.compareTo(2, utf8("z")) > 0, "bytes above 0x7f sort after ASCII");
        assertTrue(col.compareTo(3, utf8("a")) < 0);
        assertEquals(0, col.compareTo(3, new byte[0]));
        assertTrue(col.compareRows(0, col, 1) < 0);
        assertTrue(col.compareRows(1, col, 0) > 0);
        assertTrue(col.compareRows(3, col, 0) < 0);
        assertEquals(0, col.compareRows(3, col, 3));
        assertTrue(col.equalsBytes(1, utf8("abd")));
        assertFalse(col.equalsBytes(1, utf8("abc")));
        assertFalse(col.equalsBytes(1, utf8("abdd")));
    }

    @Test
    void indexKeysPreserveOrder() {
        rows(5);
        String[] sorted = {"", "a", "abcdefgh", "abcdefgh1", "b"};
        for (int r = 0; r < sorted.length; r++) {
            col.set(r, utf8(sorted[r]));
        }
        for (int r = 1; r < sorted.length; r++) {
            assertTrue(col.indexKey(r - 1) <= col.indexKey(r), sorted[r - 1] + " <= " + sorted[r]);
        }
        assertEquals(col.indexKey(2), col.indexKey(3), "texts sharing their first 8 bytes share a key");
    }
}
