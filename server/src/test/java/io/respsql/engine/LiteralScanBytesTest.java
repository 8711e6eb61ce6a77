package io.respsql.engine;

import io.respsql.expr.ParamValues;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plan cache reads a statement sent as arguments from their joined bytes ({@link AsciiText}),
 * and every other statement from its String: for random statements (literals of every kind,
 * quoting and escapes, signs, NULL, TIMESTAMP, comments, LIMIT counts, open quotes) both forms
 * must give the same answer, hash, key, literal spans and parameter values, and match each
 * other's keys; and the view must be only what it claims (ASCII, its String made once).
 */
class LiteralScanBytesTest {
    private static final String[] PIECES = {
        "SELECT", "UPDATE", "DELETE", "INSERT", "INTO", "VALUES", "FROM", "WHERE", "SET", "AND", "OR", "NOT",
        "LIMIT", "limit", "OFFSET", "offset", "NULL", "null", "TIMESTAMP", "DATE", "IN", "BETWEEN", "LIKE",
        "kv", "t1", "v", "id", "c_2", "message_list:fk:index", "@x", "$y", "#z",
        "=", "<>", "<", ">=", "+", "-", "*", "/", "(", ")", ",", ";", ".", "||", "?",
        "0", "5", "-5", "007", "123456789012345678", "1234567890123456789", "9223372036854775807",
        "9223372036854775808", "99999999999999999999", "1.5", ".5", "5.", "1e3", "1E+3", "2e-7", "1e", "1e+",
        "12abc", "3.x", "0x1F",
        "'x'", "''", "'it''s'", "'a b  c'", "'5'", "'2020-01-02 03:04:05'", "'--not a comment'", "'/*'",
        "\"q\"", "\"x 5\"", "\"a\"\"b\"", "`b 1`", "`x``y`", "[c 2]", "[]",
        "-- a comment\n", "/* c */", "/*", "*/",
        "'open", "\"open", "`open", "[open",
    };
    private static final String[] SPACES = {" ", " ", " ", "  ", "\t", "\n", "\r\n", ""};

    private static String statement(Random r) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(14);
        for (int i = 0; i < n; i++) {
            b.append(PIECES[r.nextInt(PIECES.length)]);
            b.append(SPACES[r.nextInt(SPACES.length)]);
        }
        return b.toString();
    }

    private static AsciiText view(String sql) {
        byte[] b = Arrays.copyOf(sql.getBytes(StandardCharsets.US_ASCII), sql.length() + 7); // room past the end: only len is read
        assertTrue(AsciiText.isAscii(b, sql.length()));
        return new AsciiText().set(b, sql.length());
    }

    @Test
    void theBytesAndTheStringOfAStatementScanTheSame() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        LiteralScan a = new LiteralScan();
        LiteralScan b = new LiteralScan();
        ParamValues pa = new ParamValues(4);
        ParamValues pb = new ParamValues(4);
        int scanned = 0;
        for (int round = 0; round < 20000; round++) {
            String sql = statement(r);
            String why = "seed " + seed + ": " + sql;
            boolean okA = a.scan(sql);
            boolean okB = b.scan(view(sql));
            assertEquals(okA, okB, why);
            assertEquals(PlanCache.candidate(sql), PlanCache.candidate(view(sql)), why);
            if (!okA) {
                continue;
            }
            scanned++;
            assertEquals(a.hash, b.hash, why);
            assertEquals(a.count, b.count, why);
            assertArrayEquals(Arrays.copyOf(a.starts, a.count), Arrays.copyOf(b.starts, b.count), why);
            assertArrayEquals(Arrays.copyOf(a.ends, a.count), Arrays.copyOf(b.ends, b.count), why);
            assertArrayEquals(Arrays.copyOf(a.kinds, a.count), Arrays.copyOf(b.kinds, b.count), why);
            assertArrayEquals(Arrays.copyOf(a.integers, a.count), Arrays.copyOf(b.integers, b.count), why);
            String key = a.key();
            assertEquals(key, b.key(), why);
            assertTrue(a.matches(key) && b.matches(key), why);
            assertFalse(b.matches(key + " "), why);
            assertFalse(key.length() > 0 && b.matches(key.substring(0, key.length() - 1)), why);
            // the byte-for-byte match of a view against an ASCII key (PlanCache.Entry#keyAscii) answers the same
            byte[] keyAscii = key.getBytes(StandardCharsets.US_ASCII);
            assertTrue(a.matches(key, keyAscii) && b.matches(key, keyAscii), why);
            assertFalse(b.matches(key + " ", (key + " ").getBytes(StandardCharsets.US_ASCII)), why);
            assertFalse(key.length() > 0 && b.matches(key.substring(0, key.length() - 1),
                    Arrays.copyOf(keyAscii, keyAscii.length - 1)), why);
            String other = statement(r);
            LiteralScan o = new LiteralScan(); // not a: its scan of sql is compared below
            if (o.scan(other)) {
                String otherKey = o.key();
                assertEquals(b.matches(otherKey), b.matches(otherKey, otherKey.getBytes(StandardCharsets.US_ASCII)),
                        why + " against the key of " + other);
            }
            a.fill(pa);
            b.fill(pb);
            assertEquals(pa.size(), pb.size(), why);
            for (int i = 0; i < pa.size(); i++) {
                assertEquals(pa.longs[i], pb.longs[i], why);
                assertEquals(Double.doubleToRawLongBits(pa.doubles[i]), Double.doubleToRawLongBits(pb.doubles[i]), why);
                assertArrayEquals(pa.texts[i], pb.texts[i], why);
                assertEquals(pa.nulls[i], pb.nulls[i], why);
                assertEquals(pa.sourceText(i), pb.sourceText(i), why);
            }
        }
        assertTrue(scanned > 5000, "most random statements scan: " + scanned);
    }

    @Test
    void aKeyMatchesOnlyTheTextsOfItsShapeInEitherForm() {
        LiteralScan s = new LiteralScan();
        assertTrue(s.scan("UPDATE kv SET v = v + 1 WHERE id = 5"));
        String key = s.key();
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE id = 123456")));
        assertTrue(s.matches(key));
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE id = '5'")));
        assertFalse(s.matches(key));
        assertTrue(s.scan(view("update kv SET v = v + 1 WHERE id = 5")));
        assertFalse(s.matches(key)); // case stays in the key, as for a String
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE id = 5 LIMIT 3")));
        assertFalse(s.matches(key));
        byte[] keyAscii = key.getBytes(StandardCharsets.US_ASCII);
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE id = 123456")));
        assertTrue(s.matches(key, keyAscii));
        assertTrue(s.scan(view("UPDATE kv SET v = v + 2 WHERE id = 123456")));
        assertTrue(s.matches(key, keyAscii));
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE iD = 5")));
        assertFalse(s.matches(key, keyAscii));
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE id = '5'")));
        assertFalse(s.matches(key, keyAscii));
        assertTrue(s.scan(view("UPDATE kv SET v = v + 1 WHERE id = 5 ")));
        assertFalse(s.matches(key, keyAscii));
    }

    @Test
    void theViewIsAsciiOnlyAndMakesItsStringOnce() {
        byte[] utf8 = "SELECT 'é'".getBytes(StandardCharsets.UTF_8);
        assertFalse(AsciiText.isAscii(utf8, utf8.length));
        assertTrue(AsciiText.isAscii(utf8, 8));
        AsciiText t = view("DELETE FROM t WHERE id = 1");
        String s = t.toString();
        assertEquals("DELETE FROM t WHERE id = 1", s);
        assertTrue(s == t.toString());
        assertEquals("FROM", t.subSequence(7, 11).toString());
        assertEquals('D', t.charAt(0));
    }
}
