package io.respsql.bench.soak;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One RESP2 reply as the soak needs it: a status, error, integer, bulk string, or an array of
 * bulk strings (a SELECT's rows). {@link #parse} reads a complete reply or nothing.
 */
record Reply(char type, String text, long integer, List<String> items) {

    boolean isStatus(String s) {
        return type == '+' && text.equals(s);
    }

    boolean isError() {
        return type == '-';
    }

    boolean isInteger(long v) {
        return type == ':' && integer == v;
    }

    boolean isArray() {
        return type == '*';
    }

    @Override
    public String toString() {
        return switch (type) {
            case '*' -> items.size() <= 3 ? "array " + items : "array of " + items.size() + " items";
            case ':' -> ":" + integer;
            case '$' -> "bulk '" + text + "'";
            default -> type + text;
        };
    }

    /** Bytes that are not a reply the soak understands. */
    static final class BadReply extends RuntimeException {
        BadReply(String message) {
            super(message);
        }
    }

    /**
     * Reads one complete reply from {@code in}, advancing its reader index past it; returns null
     * (index unchanged) when the reply has not fully arrived.
     */
    static Reply parse(ByteBuf in) {
        int start = in.readerIndex();
        Reply r = parseAt(in);
        if (r == null) {
            in.readerIndex(start);
        }
        return r;
    }

    private static Reply parseAt(ByteBuf in) {
        if (!in.isReadable()) {
            return null;
        }
        char type = (char) in.readByte();
        String line = line(in);
        if (line == null) {
            return null;
        }
        switch (type) {
            case '+', '-' -> {
                return new Reply(type, line, 0, List.of());
            }
            case ':' -> {
                return new Reply(type, line, number(line), List.of());
            }
            case '$' -> {
                long len = number(line);
                if (len < 0) {
                    return new Reply(type, null, 0, List.of());
                }
                String s = bulk(in, (int) len);
                return s == null ? null : new Reply(type, s, 0, List.of());
            }
            case '*' -> {
                long n = number(line);
                List<String> items = new ArrayList<>((int) Math.min(Math.max(n, 0), 1 << 16));
                for (long i = 0; i < n; i++) {
                    if (!in.isReadable()) {
                        return null;
                    }
                    byte t = in.readByte();
                    if (t != '$') {
                        throw new BadReply("array item of type '" + (char) t + "', expected bulk strings");
                    }
                    String itemLine = line(in);
                    if (itemLine == null) {
                        return null;
                    }
                    long len = number(itemLine);
                    if (len < 0) {
                        items.add(null);
                        continue;
                    }
                    String s = bulk(in, (int) len);
                    if (s == null) {
                        return null;
                    }
                    items.add(s);
                }
                return new Reply(type, null, n, items);
            }
            default -> throw new BadReply("unexpected reply type byte 0x" + Integer.toHexString(type & 0xff));
        }
    }

    private static String line(ByteBuf in) {
        int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        if (lf < 0) {
            return null;
        }
        if (lf == in.readerIndex() || in.getByte(lf - 1) != '\r') {
            throw new BadReply("line not ended by CRLF");
        }
        String s = in.toString(in.readerIndex(), lf - 1 - in.readerIndex(), StandardCharsets.UTF_8);
        in.readerIndex(lf + 1);
        return s;
    }

    private static String bulk(ByteBuf in, int len) {
        if (in.readableBytes() < len + 2) {
            return null;
        }
        String s = in.toString(in.readerIndex(), len, StandardCharsets.UTF_8);
        in.skipBytes(len);
        if (in.readByte() != '\r' || in.readByte() != '\n') {
            throw new BadReply("bulk string not followed by CRLF");
        }
        return s;
    }

    private static long number(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new BadReply("bad number '" + s + "' in a reply header");
        }
    }
}
