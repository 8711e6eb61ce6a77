package io.respsql.result;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The typed form's FLOAT text is the shortest decimal that parses back to the same double. Java
 * 17's {@code Double.toString} is not always that (JDK-4511638, fixed in Java 19), so this pins
 * the edge cases to Java 19+'s answers and checks the property itself on random doubles.
 */
class ShortestDoubleTest {
    @Test
    void edgeCasesAsJava19Writes() {
        assertEquals("0.1", ShortestDouble.text(0.1));
        assertEquals("1.0E21", ShortestDouble.text(1e21));
        assertEquals("-0.0", ShortestDouble.text(-0.0));
        assertEquals("0.0", ShortestDouble.text(0.0));
        assertEquals("4.9E-324", ShortestDouble.text(5e-324)); // the closest two-digit decimal, as Java 19
        assertEquals("1.7976931348623157E308", ShortestDouble.text(Double.MAX_VALUE));
        assertEquals("2.2250738585072014E-308", ShortestDouble.text(Double.MIN_NORMAL));
        assertEquals("2.0E23", ShortestDouble.text(2e23));
        assertEquals("1.0E23", ShortestDouble.text(1e23));
        assertEquals("0.001", ShortestDouble.text(0.001));
        assertEquals("1.0E-4", ShortestDouble.text(1e-4));
        assertEquals("9999999.999", ShortestDouble.text(9999999.999));
        assertEquals("1.0E7", ShortestDouble.text(1e7));
        assertEquals("0.30000000000000004", ShortestDouble.text(0.1 + 0.2));
    }

    @Test
    void whereJava17IsOneDigitTooLong() {
        double v = 8.006318767135034E17;
        // Java 17 writes 8.0063187671350336E17 (17 digits); 16 are enough. On Java 19+ both agree.
        assertEquals("8.006318767135034E17", ShortestDouble.text(v));
        assertEquals(v, Double.parseDouble("8.006318767135034E17"));
        if (Runtime.version().feature() < 19) {
            assertNotEquals(ShortestDouble.text(v), Double.toString(v));
        }
    }

    @Test
    void randomDoublesRoundTripWithNoShorterDecimal() {
        SplittableRandom r = new SplittableRandom(20261201);
        for (int i = 0; i < 200_000; i++) {
            double v = i % 2 == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextDouble() * Math.pow(10, r.nextInt(-30, 30));
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            String s = ShortestDouble.text(v);
            assertEquals(v, Double.parseDouble(s), s);
            BigDecimal d = new BigDecimal(s).stripTrailingZeros();
            int digits = d.precision();
            if (digits > 2) {
                // Any shorter decimal that rounds to v lies between v's neighbours, and then so does
                // the truncation or the rounding-up of s to one digit fewer: neither may parse to v.
                for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
                    BigDecimal shorter = d.round(new MathContext(digits - 1, mode));
                    assertFalse(shorter.doubleValue() == v, s + " has a shorter form " + shorter);
                }
            }
        }
    }

    /** The allocation-free path gives exactly Schubfach's text wherever it answers, and answers for most table values. */
    @Test
    void plainPathAgreesWithSchubfach() {
        SplittableRandom r = new SplittableRandom(7);
        byte[] buf = new byte[32];
        int decimalsAnswered = 0;
        int decimals = 0;
        for (int i = 0; i < 1_000_000; i++) {
            double v;
            boolean decimal = false;
            switch (i % 4) {
                case 0 -> v = Double.longBitsToDouble(r.nextLong());
                case 1 -> v = Math.pow(10, r.nextDouble(-3.5, 7.5)) * (r.nextBoolean() ? 1 : -1);
                case 2 -> {
                    // what people store: a decimal with a few digits
                    v = r.nextLong(-100_000_000_000L, 100_000_000_000L) / Math.pow(10, r.nextInt(1, 12));
                    decimal = Math.abs(v) >= 1e-3 && Math.abs(v) < 1e7 && v != Math.rint(v);
                }
                default -> {
                    // binade edges, where the rounding interval is lopsided
                    double p = Math.scalb(1.0, r.nextInt(-10, 24));
                    v = switch (r.nextInt(3)) {
                        case 0 -> p;
                        case 1 -> Math.nextUp(p);
                        default -> Math.nextDown(p);
                    };
                }
            }
            int n = ShortestDouble.plain(v, buf);
            if (decimal) {
                decimals++;
                decimalsAnswered += n > 0 ? 1 : 0;
            }
            if (n > 0) {
                assertEquals(ShortestDouble.text(v), new String(buf, 0, n, java.nio.charset.StandardCharsets.US_ASCII),
                        "bits " + Long.toHexString(Double.doubleToRawLongBits(v)));
            }
        }
        assertTrue(decimalsAnswered > decimals * 0.95, decimalsAnswered + " of " + decimals);
        assertEquals(-1, ShortestDouble.plain(5.0, buf), "whole values are written as integers elsewhere");
        assertEquals(-1, ShortestDouble.plain(1e21, buf));
        assertEquals(-1, ShortestDouble.plain(Double.NaN, buf));
        int n = ShortestDouble.plain(-0.001, buf);
        assertEquals("-0.001", new String(buf, 0, n, java.nio.charset.StandardCharsets.US_ASCII));
    }
}
