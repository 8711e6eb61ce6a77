package io.respsql.replication;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Cuts the replication stream into its records: RESP multibulks, the form the append-only file
 * writes ({@code *2 $3 SQL $<n> <statement>}, {@code *1 $8 FLUSHALL}). Reads a record only when
 * all of it has arrived, so the replica's offset always ends on a record boundary.
 */
final class StreamParser {
    /** Most arguments a record may have. */
    private static final int MAX_ARGS = 16;
    private final int[] argStart = new int[MAX_ARGS];
    private final int[] argLen = new int[MAX_ARGS];
    private int args;
    private String problem;
    private final long[] num = new long[1];

    /**
     * Parses the record at {@code in}'s reader index without consuming it. Returns its length in
     * bytes, 0 when it has not fully arrived, -1 when the bytes are not a record ({@link #problem()}).
     */
    int next(ByteBuf in) {
        int start = in.readerIndex();
        int limit = in.writerIndex();
        if (start >= limit) {
            return 0;
        }
        if (in.getByte(start) != '*') {
            problem = "expected '*' at the start of a record, got byte " + (in.getByte(start) & 0xff);
            return -1;
        }
        int p = number(in, start + 1, limit, num);
        if (p <= 0) {
            return p;
        }
        if (num[0] < 1 || num[0] > MAX_ARGS) {
            problem = "bad argument count " + num[0];
            return -1;
        }
        args = (int) num[0];
        for (int i = 0; i < args; i++) {
            if (p >= limit) {
                return 0;
            }
            if (in.getByte(p) != '$') {
                problem = "expected '$' before an argument";
                return -1;
            }
            p = number(in, p + 1, limit, num);
            if (p <= 0) {
                return p;
            }
            if (num[0] < 0 || num[0] > Integer.MAX_VALUE - 2) {
                problem = "bad argument length " + num[0];
                return -1;
            }
            int len = (int) num[0];
            if ((long) p + len + 2 > limit) {
                return 0;
            }
            argStart[i] = p;
            argLen[i] = len;
            p += len;
            if (in.getByte(p) != '\r' || in.getByte(p + 1) != '\n') {
                problem = "argument not followed by CRLF";
                return -1;
            }
            p += 2;
        }
        return p - start;
    }

    /** Reads a decimal ending in CRLF from {@code p}; returns the index after the CRLF, 0 if incomplete, -1 if bad. */
    private int number(ByteBuf in, int p, int limit, long[] out) {
        long v = 0;
        int digits = 0;
        while (p < limit) {
            byte b = in.getByte(p);
            if (b == '\r') {
                if (p + 1 >= limit) {
                    return 0;
                }
                if (in.getByte(p + 1) != '\n' || digits == 0) {
                    problem = "bad number in a record header";
                    return -1;
                }
                out[0] = v;
                return p + 2;
            }
            if (b < '0' || b > '9' || digits > 11) {
                problem = "bad number in a record header";
                return -1;
            }
            v = v * 10 + (b - '0');
            digits++;
            p++;
        }
        return 0;
    }

    int args() {
        return args;
    }

    /** Whether argument {@code i} of the last record is {@code word} (ASCII, any case). */
    boolean argIs(ByteBuf in, int i, String word) {
        if (argLen[i] != word.length()) {
            return false;
        }
        for (int k = 0; k < argLen[i]; k++) {
            int c = in.getByte(argStart[i] + k);
            if (c >= 'a' && c <= 'z') {
                c -= 32;
            }
            int w = word.charAt(k);
            if (w >= 'a' && w <= 'z') {
                w -= 32;
            }
            if (c != w) {
                return false;
            }
        }
        return true;
    }

    String arg(ByteBuf in, int i) {
        return in.toString(argStart[i], argLen[i], StandardCharsets.UTF_8);
    }

    byte[] argBytes(ByteBuf in, int i) {
        byte[] b = new byte[argLen[i]];
        in.getBytes(argStart[i], b);
        return b;
    }

    /** Argument {@code i} of the last record as a view of {@code in} (valid until {@code in} changes). */
    ByteBuf argSlice(ByteBuf in, int i) {
        return in.slice(argStart[i], argLen[i]);
    }

    String problem() {
        return problem;
    }
}
