package io.respsql.engine;

import io.respsql.expr.ParamValues;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LiteralScanTest {
    private static String key(String sql) {
        LiteralScan s = new LiteralScan();
        assertTrue(s.scan(sql), sql);
        String k = s.key();
        assertTrue(s.matches(k), "a text matches its own key: " + sql);
        return k.replace(LiteralScan.INTEGER, 'I').replace(LiteralScan.DECIMAL, 'D').replace(LiteralScan.STRING, 'S');
    }

    @Test
    void numbersAndQuotedStringsBecomeMarkersOfTheirKind() {
        assertEquals("SELECT v FROM t WHERE id = I", key("SELECT v FROM t WHERE id = 5"));
        assertEquals("UPDATE message_list SET count=I WHERE fk=I", key("UPDATE message_list SET count=100 WHERE fk=000000000001"));
        assertEquals("SELECT * FROM t WHERE f > D AND g < D AND h = D AND k = D", key("SELECT * FROM t WHERE f > 2.5 AND g < 1e3 AND h = .5 AND k = 5."));
        assertEquals("SELECT * FROM t WHERE s = S OR s = S", key("SELECT * FROM t WHERE s = 'it''s' OR s = ''"));
    }

    @Test
    void namesQuotedNamesAndUnquotedTextStayInTheKey() {
        assertEquals("SELECT t1.c2 FROM t1 WHERE \"x 5\" = I AND `a1` = I AND [b 2] = I",
                key("SELECT t1.c2 FROM t1 WHERE \"x 5\" = 1 AND `a1` = 2 AND [b 2] = 3"));
        assertEquals("UPDATE t SET s = 12abc WHERE id = I", key("UPDATE t SET s = 12abc WHERE id = 9"));
        assertEquals("SELECT * FROM m WHERE ix = message_list:fk:index", key("SELECT * FROM m WHERE ix = message_list:fk:index"));
    }

    @Test
    void aLimitOrOffsetCountStaysInTheKey() {
        // the count shapes the plan (a top-n sort): statements differing in it are planned apart
        assertEquals("SELECT v FROM t WHERE id = I ORDER BY v LIMIT 10", key("SELECT v FROM t WHERE id = 5 ORDER BY v LIMIT 10"));
        assertEquals("SELECT v FROM t limit  3 offset\n20", key("SELECT v FROM t limit  3 offset\n20"));
        assertNotEquals(key("SELECT v FROM t LIMIT 1"), key("SELECT v FROM t LIMIT 2"));
        // only a plain integer right after the word: other numbers stay literals (the statement is then not cached)
        assertEquals("SELECT v FROM t LIMIT D", key("SELECT v FROM t LIMIT 2.5"));
        assertEquals("SELECT v FROM t LIMIT -I", key("SELECT v FROM t LIMIT -1"));
        assertEquals("SELECT v FROM t LIMIT (I)", key("SELECT v FROM t LIMIT (1)"));
        assertEquals("SELECT limits FROM t WHERE limit_ = I AND offset = I", key("SELECT limits FROM t WHERE limit_ = 4 AND offset = 5"));
        LiteralScan a = new LiteralScan();
        assertTrue(a.scan("SELECT v FROM t WHERE id = 7 LIMIT 4"));
        assertEquals(1, a.count);
        LiteralScan b = new LiteralScan();
        assertTrue(b.scan("SELECT v FROM t WHERE id = 8 LIMIT 5"));
        assertFalse(b.matches(a.key()));
        assertTrue(b.scan("SELECT v FROM t WHERE id = 9 LIMIT 4"));
        assertTrue(b.matches(a.key()));
    }

    @Test
    void kindsAndSpacingTellKeysApart() {
        assertNotEquals(key("SELECT v FROM t WHERE id = 5"), key("SELECT v FROM t WHERE id = '5'"));
        assertNotEquals(key("SELECT v FROM t WHERE id = 5"), key("SELECT v FROM t WHERE id = 5.0"));
        assertNotEquals(key("SELECT v FROM t WHERE id = 5"), key("SELECT v FROM t WHERE id=5"));
        LiteralScan a = new LiteralScan();
        LiteralScan b = new LiteralScan();
        a.scan("SELECT v FROM t WHERE id = 5");
        b.scan("SELECT v FROM t WHERE id = 123456");
        assertEquals(a.hash, b.hash);
        assertTrue(b.matches(a.key()));
        b.scan("SELECT v FROM t WHERE id = 'x'");
        assertFalse(b.matches(a.key()));
        b.scan("SELECT w FROM t WHERE id = 5");
        assertFalse(b.matches(a.key()));
    }

    @Test
    void valuesAreParsedAndUnescaped() {
        LiteralScan s = new LiteralScan();
        assertTrue(s.scan("UPDATE t SET a = 000000000001, b = 2.5, c = 'it''s é' WHERE id = 9223372036854775807"));
        ParamValues p = new ParamValues(1);
        s.fill(p);
        assertEquals(4, p.size());
        assertEquals(1, p.longs[0]);
        assertEquals(2.5, p.doubles[1]);
        assertEquals("it's é", new String(p.texts[2], StandardCharsets.UTF_8));
        assertEquals(Long.MAX_VALUE, p.longs[3]);
    }

    @Test
    void integersBeyond64BitsAndOpenQuotesAreNotCached() {
        LiteralScan s = new LiteralScan();
        assertFalse(s.scan("SELECT v FROM t WHERE id = 9223372036854775808"));
        assertFalse(s.scan("SELECT v FROM t WHERE s = 'open"));
    }
}
