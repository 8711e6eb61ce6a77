package io.respsql.exec.op;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LongKeyTableTest {
    @Test
    void denseIdsInFirstSeenOrderAcrossRehashes() {
        LongKeyTable t = new LongKeyTable();
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            long k = (i * 7919L) - 50_000L * 7919L; // negatives, zero and positives, spread out
            assertEquals(i, t.findOrAdd(k));
            assertTrue(t.added);
        }
        assertEquals(n, t.size());
        for (int i = 0; i < n; i++) {
            long k = (i * 7919L) - 50_000L * 7919L;
            assertEquals(i, t.find(k));
            assertEquals(i, t.findOrAdd(k));
            assertFalse(t.added);
            assertEquals(k, t.key(i));
        }
        assertEquals(-1, t.find(1));
        assertEquals(-1, t.find(Long.MIN_VALUE));
    }

    @Test
    void nullHasItsOwnIdBesideZero() {
        LongKeyTable t = new LongKeyTable();
        assertEquals(0, t.findOrAdd(0));
        int nul = t.findOrAddNull();
        assertTrue(t.added);
        assertEquals(1, nul);
        assertEquals(1, t.findOrAddNull());
        assertFalse(t.added);
        assertTrue(t.isNull(1));
        assertFalse(t.isNull(0));
        assertEquals(0, t.find(0));
        assertEquals(2, t.findOrAdd(Long.MAX_VALUE));
        assertEquals(3, t.size());
    }
}
