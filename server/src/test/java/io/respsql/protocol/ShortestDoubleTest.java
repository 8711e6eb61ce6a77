package io.respsql.protocol;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
}
