package io.respsql.exec.op;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Text keys longer than a word: hashed eight bytes a step, equal wherever their bytes sit. */
class KeyTableTextTest {
    private static void load(KeyBuffer b, String s, int pad) {
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        byte[] at = new byte[raw.length + pad];
        System.arraycopy(raw, 0, at, pad, raw.length);
        b.reset();
        b.setText(0, at, pad, raw.length);
    }

    @Test
    void keysOfEveryLengthAroundAWordFindThemselvesAtAnyOffset() {
        byte[] kinds = {Keys.TEXT};
        KeyBuffer b = new KeyBuffer(kinds);
        KeyTable t = new KeyTable(new KeyStore(kinds));
        String base = "category-0123456789-abcdefghij";
        int n = 0;
        for (int len = 0; len <= base.length(); len++) {
            load(b, base.substring(0, len), 0);
            assertEquals(n++, t.findOrAdd(b));
            assertTrue(t.added);
            // the same length differing in the last byte only: a key of its own
            if (len > 0) {
                load(b, base.substring(0, len - 1) + "#", 0);
                assertEquals(n++, t.findOrAdd(b));
                assertTrue(t.added);
            }
        }
        int id = 0;
        for (int len = 0; len <= base.length(); len++) {
            for (int pad = 1; pad < 9; pad += 3) {
                load(b, base.substring(0, len), pad);
                assertEquals(id, t.findOrAdd(b), "length " + len + " at offset " + pad);
                assertFalse(t.added);
            }
            id += len > 0 ? 2 : 1;
        }
        assertEquals(n, t.size());
    }
}
