package io.respsql.bench;

import io.netty.buffer.ByteBuf;

/**
 * A small streaming RESP reply reader. It does not build values: it walks one reply at a time,
 * across as many reads as it takes, and remembers only what a benchmark needs: the type of the
 * reply, the value of an integer reply and the text of an error (or of an unexpected reply).
 * Arrays, maps and sets of any depth are skipped element by element.
 */
public final class ReplyParser {

    /** Longest text kept from an error or unexpected reply. */
    static final int MAX_TEXT = 512;

    private static final int TYPE = 0;
    private static final int LINE = 1;
    private static final int BULK = 2;

    private final ReplyType expected;

    private int state = TYPE;
    private boolean topLevel = true;
    private byte type;
    private boolean negative;
    private long number;
    private int digits;
    private boolean capture;
    private final StringBuilder text = new StringBuilder();
    private long bulkLeft;
    private long[] pending = new long[8];
    private int depth;

    private byte replyType;
    private long intValue;
    private String replyText;

    public ReplyParser(ReplyType expected) {
        this.expected = expected;
    }

    /** Type byte of the last complete reply. */
    public byte replyType() {
        return replyType;
    }

    /** Value of the last complete reply when it was an integer. */
    public long intValue() {
        return intValue;
    }

    /**
     * First line of the last complete reply when it was an error or not of the expected type
     * (truncated to {@value #MAX_TEXT} characters), else null.
     */
    public String replyText() {
        return replyText;
    }

    /**
     * Consumes bytes of {@code in} up to the end of one reply.
     *
     * @return true when a whole reply was read (its bytes consumed, the rest left in {@code in}),
     *     false when {@code in} ran out first (all of it consumed)
     * @throws ProtocolException on bytes that are not RESP
     */
    public boolean parse(ByteBuf in) {
        while (in.isReadable()) {
            switch (state) {
                case TYPE -> startElement(in.readByte());
                case LINE -> {
                    if (readLine(in) && endLine()) {
                        return true;
                    }
                }
                default -> {
                    int n = (int) Math.min(bulkLeft, in.readableBytes());
                    in.skipBytes(n);
                    bulkLeft -= n;
                    if (bulkLeft == 0 && elementDone()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private void startElement(byte t) {
        if (!isKnownType(t)) {
            throw new ProtocolException("unexpected byte 0x" + Integer.toHexString(t & 0xff)
                    + " where a reply type was expected");
        }
        type = t;
        if (topLevel) {
            replyType = t;
            replyText = null;
            capture = !expected.accepts(t);
            text.setLength(0);
            if (capture) {
                text.append((char) t);
            }
        }
        negative = false;
        number = 0;
        digits = 0;
        state = LINE;
    }

    private static boolean isKnownType(byte t) {
        return switch (t) {
            case '+', '-', ':', '$', '*', '_', '#', ',', '(', '!', '=', '%', '~', '>', '|' -> true;
            default -> false;
        };
    }

    /** Reads up to and including '\n'; true when the line is complete. */
    private boolean readLine(ByteBuf in) {
        int end = in.writerIndex();
        for (int i = in.readerIndex(); i < end; i++) {
            byte b = in.getByte(i);
            if (b == '\n') {
                in.readerIndex(i + 1);
                return true;
            }
            if (b == '\r') {
                continue;
            }
            if (capture && topLevel && text.length() < MAX_TEXT) {
                text.append((char) (b & 0xff));
            }
            if (isNumeric(type)) {
                if (b == '-' && digits == 0 && !negative) {
                    negative = true;
                } else if (b >= '0' && b <= '9') {
                    number = number * 10 + (b - '0');
                    digits++;
                } else if (type != ':' && type != '(') {
                    throw new ProtocolException("bad length in RESP header: byte 0x"
                            + Integer.toHexString(b & 0xff));
                }
            }
        }
        in.readerIndex(end);
        return false;
    }

    private static boolean isNumeric(byte t) {
        return t == ':' || t == '$' || t == '*' || t == '!' || t == '=' || t == '%' || t == '~'
                || t == '>' || t == '|' || t == '(';
    }

    /** Handles a finished header line; true when the whole reply is complete. */
    private boolean endLine() {
        long n = negative ? -number : number;
        switch (type) {
            case '$', '!', '=' -> {
                if (n < 0) {
                    return elementDone();
                }
                bulkLeft = n + 2;
                state = BULK;
                if (topLevel && capture) {
                    text.append(' ');
                }
                return false;
            }
            case '*', '%', '~', '>', '|' -> {
                if (type == '%' || type == '|') {
                    n *= 2;
                }
                if (type == '|') {
                    // An attribute precedes the real reply: skip its pairs, then read one more.
                    n += 1;
                }
                if (n <= 0) {
                    return elementDone();
                }
                push(n);
                state = TYPE;
                return false;
            }
            case ':' -> {
                if (topLevel) {
                    intValue = n;
                }
                return elementDone();
            }
            default -> {
                return elementDone();
            }
        }
    }

    private void push(long n) {
        if (depth == pending.length) {
            pending = java.util.Arrays.copyOf(pending, depth * 2);
        }
        pending[depth++] = n;
        topLevel = false;
    }

    /** One element finished; true when that completed the whole reply. */
    private boolean elementDone() {
        state = TYPE;
        while (depth > 0) {
            if (--pending[depth - 1] > 0) {
                return false;
            }
            depth--;
        }
        topLevel = true;
        replyText = capture ? text.toString() : null;
        return true;
    }

    /** Bytes that are not a RESP reply. */
    public static final class ProtocolException extends RuntimeException {
        public ProtocolException(String message) {
            super(message);
        }
    }
}
