package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer a node owns for the TEXT it computes: reset per evaluation, grown only
 * when a value is longer than any before, so steady-state evaluation allocates nothing.
 */
final class TextBuf {
    static final byte[] EMPTY = new byte[0];

    /**
     * The longest TEXT an expression builds (PostgreSQL's limit is 1 GB; this keeps the server alive).
     * Every growth is checked here, so no function can build past it, whatever its size arithmetic.
     */
    static final int MAX = 256 << 20;

    byte[] a = new byte[64];
    int len;

    void reset() {
        len = 0;
    }

    /** Room for {@code extra} more bytes. */
    void ensure(int extra) {
        long need = (long) len + extra; // long: len + extra may pass Integer.MAX_VALUE
        if (need > a.length) {
            grow(need);
        }
    }

    private void grow(long need) {
        if (need > MAX) {
            throw tooLong();
        }
        a = Arrays.copyOf(a, (int) Math.min(MAX, Math.max(need, 2L * a.length)));
    }

    /** PostgreSQL's error for a text past its limit. */
    static SqlException tooLong() {
        return new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large");
    }

    void put(byte[] src, int off, int n) {
        ensure(n);
        System.arraycopy(src, off, a, len, n);
        len += n;
    }

    void put(byte b) {
        ensure(1);
        a[len++] = b;
    }

    /** Publishes the buffer as the TEXT result of an evaluation. */
    byte[] result(EvalContext ctx) {
        ctx.isNull = false;
        ctx.textOffset = 0;
        ctx.textLength = len;
        return a;
    }

    // ---- UTF-8 helpers shared by the text nodes ------------------------------------------

    /** Bytes of the UTF-8 character starting with {@code lead} (1 for a stray continuation byte). */
    static int charLen(byte lead) {
        int b = lead & 0xFF;
        return b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    }

    /** Characters in {@code a[off, off+len)}: the bytes that are not continuation bytes. */
    static int chars(byte[] a, int off, int len) {
        int n = 0;
        for (int i = off, end = off + len; i < end; i++) {
            if ((a[i] & 0xC0) != 0x80) {
                n++;
            }
        }
        return n;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] a, int off, int len) {
        return len == 0 ? "" : new String(a, off, len, StandardCharsets.UTF_8);
    }

    static byte lowerAscii(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }
}
