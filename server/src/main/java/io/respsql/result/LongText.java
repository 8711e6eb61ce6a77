package io.respsql.result;

import java.nio.charset.StandardCharsets;

/**
 * A whole number's decimal text written into a caller's buffer without allocating: shared by the
 * reply encoders of both protocols (RESP's RespWriter, pgwire's DataRows), so neither imports the
 * other for it.
 */
public final class LongText {
    private static final byte[] LONG_MIN = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);

    /** The longest text: {@link Long#MIN_VALUE}'s 20 characters. */
    public static final int MAX_LENGTH = 20;

    private LongText() {
    }

    /** Formats {@code v} right-aligned at the end of {@code buf}; returns the number of bytes. */
    public static int formatLong(long v, byte[] buf) {
        if (v == Long.MIN_VALUE) {
            System.arraycopy(LONG_MIN, 0, buf, buf.length - LONG_MIN.length, LONG_MIN.length);
            return LONG_MIN.length;
        }
        int pos = buf.length;
        boolean neg = v < 0;
        if (neg) {
            v = -v;
        }
        do {
            buf[--pos] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v != 0);
        if (neg) {
            buf[--pos] = '-';
        }
        return buf.length - pos;
    }
}
