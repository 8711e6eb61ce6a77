package io.respsql.command;

import io.respsql.info.SlowLog;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The arguments of one command (the command name is argument 0), as views on the decoded request
 * buffers. One instance is reused by the event loop for every request: handlers must not keep it
 * or its buffers after they return.
 */
public final class CommandArgs implements SlowLog.Args {
    private ByteBuf[] args = new ByteBuf[16];
    private int count;

    /** Forgets the previous request's arguments. */
    public void clear() {
        Arrays.fill(args, 0, count, null);
        count = 0;
    }

    public void add(ByteBuf arg) {
        if (count == args.length) {
            args = Arrays.copyOf(args, count * 2);
        }
        args[count++] = arg;
    }

    public int count() {
        return count;
    }

    /** Argument {@code i}; its readable bytes are the argument. Do not move its indexes. */
    public ByteBuf get(int i) {
        check(i);
        return args[i];
    }

    public int length(int i) {
        return get(i).readableBytes();
    }

    /** Argument {@code i} decoded as UTF-8 (allocates: not for per-request hot paths). */
    public String string(int i) {
        ByteBuf b = get(i);
        return b.toString(b.readerIndex(), b.readableBytes(), StandardCharsets.UTF_8);
    }

    /** At most the first {@code maxBytes} bytes of argument {@code i}, decoded as UTF-8. */
    public String string(int i, int maxBytes) {
        ByteBuf b = get(i);
        return b.toString(b.readerIndex(), Math.min(maxBytes, b.readableBytes()), StandardCharsets.UTF_8);
    }

    /** Argument {@code i}'s bytes copied into a new array. */
    public byte[] bytes(int i) {
        ByteBuf b = get(i);
        byte[] copy = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), copy);
        return copy;
    }

    /** Whether argument {@code i} equals {@code word}, ignoring ASCII case. */
    public boolean is(int i, String word) {
        ByteBuf b = get(i);
        int len = b.readableBytes();
        if (len != word.length()) {
            return false;
        }
        int base = b.readerIndex();
        for (int k = 0; k < len; k++) {
            if (lower(b.getByte(base + k)) != lower((byte) word.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether argument {@code i} is a decimal integer that fits a long, written as Redis writes
     * them: optional {@code -}, no leading zeros, no {@code +}, no blanks.
     */
    public boolean isLong(int i) {
        return parse(get(i)) != Long.MIN_VALUE || isLongMin(get(i));
    }

    /** Argument {@code i} as a long; call {@link #isLong(int)} first. */
    public long longValue(int i) {
        ByteBuf b = get(i);
        long v = parse(b);
        if (v == Long.MIN_VALUE && !isLongMin(b)) {
            throw new NumberFormatException("not an integer: " + string(i));
        }
        return v;
    }

    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private static boolean isLongMin(ByteBuf b) {
        if (b.readableBytes() != LONG_MIN.length) {
            return false;
        }
        for (int k = 0; k < LONG_MIN.length; k++) {
            if (b.getByte(b.readerIndex() + k) != LONG_MIN[k]) {
                return false;
            }
        }
        return true;
    }

    /** Parses a strict decimal long; returns {@code Long.MIN_VALUE} when it is not one. */
    private static long parse(ByteBuf b) {
        int len = b.readableBytes();
        int p = b.readerIndex();
        int end = p + len;
        if (len == 0 || len > 20) {
            return Long.MIN_VALUE;
        }
        boolean neg = false;
        if (b.getByte(p) == '-') {
            neg = true;
            p++;
            if (p == end) {
                return Long.MIN_VALUE;
            }
        }
        if (b.getByte(p) == '0' && (end - p > 1 || neg)) {
            return Long.MIN_VALUE;
        }
        long v = 0;
        while (p < end) {
            int d = b.getByte(p++) - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            if (v > (Long.MAX_VALUE - d) / 10) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return neg ? -v : v;
    }

    private static int lower(byte c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    private void check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("argument " + i + " of " + count);
        }
    }
}
