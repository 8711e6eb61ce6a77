package io.respsql.expr;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The byte form of {@link Doubles#special} reads the same words as the text form, without allocating. */
class DoublesSpecialTest {
    private static double bytes(String s) {
        byte[] b = ("xx" + s + "yy").getBytes(StandardCharsets.ISO_8859_1);
        return Doubles.special(b, 2, b.length - 4);
    }

    @Test
    void theWordsInAnyCaseWithBlanksAround() {
        String[][] cases = {
                {"NaN", "NaN"}, {"nan", "NaN"}, {"NAN", "NaN"}, {" \tnaN\n", "NaN"},
                {"Infinity", "Infinity"}, {"inf", "Infinity"}, {"+inf", "Infinity"}, {"+INFINITY", "Infinity"},
                {"  iNf  ", "Infinity"}, {"-inf", "-Infinity"}, {"-Infinity", "-Infinity"}, {"\r-INF\f", "-Infinity"},
                {"abc", "0.0"}, {"+nan", "0.0"}, {"-nan", "0.0"}, {"infinit", "0.0"}, {"infinityy", "0.0"},
                {"in f", "0.0"}, {"++inf", "0.0"}, {"na", "0.0"}, {"", "0.0"}, {"   ", "0.0"}, {"12", "0.0"},
                {"\u00c9nf", "0.0"}, {"nan\u00a0", "0.0"},
        };
        for (String[] c : cases) {
            double want = Double.parseDouble(c[1]);
            assertEquals(want, Doubles.special(c[0]), "text '" + c[0] + "'");
            assertEquals(want, bytes(c[0]), "bytes '" + c[0] + "'");
        }
        // the byte form looks at no more than 64 bytes (as before), the text form has no such bound
        assertEquals(0.0, bytes("inf" + " ".repeat(70)));
        // and every case mix of the words agrees with the text form
        for (String w : new String[] {"nan", "inf", "infinity", "-inf", "+infinity", "-infinity"}) {
            for (int mask = 0; mask < 1 << w.length(); mask++) {
                StringBuilder sb = new StringBuilder();
                for (int k = 0; k < w.length(); k++) {
                    char ch = w.charAt(k);
                    sb.append((mask >> k & 1) != 0 ? Character.toUpperCase(ch) : ch);
                }
                String s = sb.toString();
                assertEquals(Doubles.special(s), bytes(s), s);
                assertTrue(Doubles.special(s) != 0.0 || Double.isNaN(Doubles.special(s)), s);
            }
        }
    }

    @Test
    void readingNonNumericBytesDoesNotAllocate() {
        byte[][] inputs = {"hello".getBytes(StandardCharsets.UTF_8), "  Infinity ".getBytes(StandardCharsets.UTF_8),
                "nan".getBytes(StandardCharsets.UTF_8), "not a number at all".getBytes(StandardCharsets.UTF_8)};
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double sum = 0;
        for (int i = 0; i < 200_000; i++) { // warm up so the loop is compiled
            byte[] b = inputs[i & 3];
            sum += Doubles.special(b, 0, b.length);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000_000; i++) {
            byte[] b = inputs[i & 3];
            sum += Doubles.special(b, 0, b.length);
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        // a String per call was ~48 bytes, 48 MB here; allow a little for the measuring itself
        assertTrue(allocated < 100_000, "allocated " + allocated + " bytes for 1,000,000 reads (" + sum + ")");
    }
}
