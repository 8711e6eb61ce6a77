package io.respsql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.result.ResultColumns;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 2010 reply writes a FLOAT as it always did ({@link RespWriter#doubleText}: whole values as
 * integers, anything else Java 17's {@code Double.toString}) while taking the allocation-free
 * {@link ShortestDouble#plain} path where that answers. Each value is encoded twice, once as a
 * double and once as the old text, and the two replies must be the same bytes.
 */
class Rows2010DoubleTest {
    private static final ResultColumns COLS = ResultColumns.of(List.of("a", "b", "c"), List.of("FLOAT", "FLOAT", "FLOAT"));

    private static final double[] EDGES = {
        0.0, -0.0, 1.0, -1.0, 0.1, -0.1, 0.5, 0.001, -0.001, Math.nextDown(0.001), Math.nextUp(0.001), 1e-4,
        9999999.5, 9999999.999, Math.nextDown(1e7), 1e7, 1e7 + 0.5, 1e15, 1e15 + 0.5, 999999999999999.9, 1e16, 1e21,
        0.1 + 0.2, 1.0 / 3, 2.0 / 3, 8.006318767135034E17, 2e23, 1e23, Double.MIN_VALUE, Double.MIN_NORMAL,
        Double.MAX_VALUE, -Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        123.456, 4.35, 2.675, 1.005, 0.3, 100.01, 1234567.125, 0.0020, 5e-3,
    };

    /** Rows of three values each; {@code asText}: the old encoding's text for every value. */
    private static byte[] encode(double[] vs, int n, boolean asText) {
        ByteBuf buf = Unpooled.buffer();
        RespWriter w = new RespWriter().target(buf).protocol(2);
        Rows2010 s = new Rows2010().on(w);
        int rows = (n + 2) / 3;
        s.columns(COLS, rows);
        for (int i = 0; i < n; i += 3) {
            s.beginRow();
            for (int j = i; j < Math.min(n, i + 3); j++) {
                if (asText) {
                    byte[] t = RespWriter.doubleText(vs[j]).getBytes(StandardCharsets.US_ASCII);
                    s.textValue(t, 0, t.length);
                } else {
                    s.doubleValue(vs[j]);
                }
            }
            s.endRow();
        }
        s.end();
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }

    private static void assertSameAsText(double[] vs, int n) {
        assertArrayEquals(encode(vs, n, true), encode(vs, n, false));
    }

    @Test
    void edgeCasesAreByteIdentical() {
        assertSameAsText(EDGES, EDGES.length);
    }

    /** Decimals of every length up to 16 digits at every scale the plain path covers, and random doubles. */
    @Test
    void randomValuesAreByteIdentical() {
        SplittableRandom r = new SplittableRandom(20261202);
        double[] vs = new double[30_000];
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < vs.length; i++) {
                double v = switch (i % 4) {
                    case 0 -> r.nextLong(1, 9_007_199_254_740_992L >> r.nextInt(0, 45)) / Math.pow(10, r.nextInt(1, 17));
                    case 1 -> r.nextInt(-10_000_000, 10_000_000) / Math.pow(10, r.nextInt(1, 10));
                    case 2 -> Math.pow(10, r.nextDouble(-3.5, 7.5)) * (r.nextBoolean() ? 1 : -1);
                    default -> Double.longBitsToDouble(r.nextLong());
                };
                vs[i] = r.nextInt(8) == 0 ? -v : v;
            }
            assertSameAsText(vs, vs.length);
        }
    }

    /** Small decimals exhaustively: every m / 10^k for m up to 200,000 and k up to 8. */
    @Test
    void shortDecimalsExhaustivelyByteIdentical() {
        double[] vs = new double[200_000];
        for (int k = 1; k <= 8; k++) {
            double p = Math.pow(10, k);
            for (int m = 0; m < vs.length; m++) {
                vs[m] = (m + 1) / p;
            }
            assertSameAsText(vs, vs.length);
        }
    }

    /** A fractional FLOAT costs no allocation per row (it cost a Double.toString String, ~24 bytes, before). */
    @Test
    void fractionalValuesAllocateNothingPerRow() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] vs = new double[3 * 10_000];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = (i * 7919 % 1_000_000 * 10 + 3) / 1000.0; // x.yz3: fractional, three decimals
        }
        ByteBuf buf = Unpooled.buffer(4 << 20);
        RespWriter w = new RespWriter().target(buf).protocol(2);
        Rows2010 s = new Rows2010().on(w);
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 20; round++) {
            buf.clear();
            long before = mx.getCurrentThreadAllocatedBytes();
            s.columns(COLS, vs.length / 3);
            for (int i = 0; i < vs.length; i += 3) {
                s.beginRow();
                s.doubleValue(vs[i]);
                s.doubleValue(vs[i + 1]);
                s.doubleValue(vs[i + 2]);
                s.endRow();
            }
            s.end();
            best = Math.min(best, mx.getCurrentThreadAllocatedBytes() - before);
        }
        assertTrue(best < 10_000, best + " bytes for 10,000 rows of three fractional FLOATs");
    }
}
