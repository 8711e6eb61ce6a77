package io.respsql.it;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A strict reader of RESP2 and RESP3 replies: every frame must have a known type byte, header
 * lines must end in CRLF with no stray CR or LF inside, lengths must be numbers in range and
 * match the bytes that follow, and every bulk payload must be followed by exactly CRLF. It
 * keeps only the top-level type and the first line of each reply (or the text of a bulk), so
 * it can check megabytes of replies without building them.
 *
 * <p>{@link #next()} returns null at a clean end of stream (between frames) and throws
 * {@link Malformed} for anything else, including a stream that ends inside a frame.
 */
final class RespFrameReader {
    /** Longest text kept from a top-level reply. */
    private static final int KEEP = 300;
    /** Deepest nesting accepted before the stream is called malformed. */
    private static final int MAX_DEPTH = 64;

    /** One complete top-level reply: its type byte and the start of its text. */
    record Frame(char type, String text) {
        boolean isError() {
            return type == '-' || type == '!';
        }

        @Override
        public String toString() {
            return type + text;
        }
    }

    /** Bytes that are not a well-formed RESP reply stream. */
    static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    private final InputStream in;
    private final StringBuilder line = new StringBuilder();
    private long offset;

    RespFrameReader(InputStream in) {
        this.in = in;
    }

    /** Bytes consumed so far. */
    long offset() {
        return offset;
    }

    /** The next top-level reply, or null when the stream ends cleanly between replies. */
    Frame next() throws IOException {
        int t = in.read();
        if (t < 0) {
            return null;
        }
        offset++;
        StringBuilder text = new StringBuilder();
        element((char) t, 0, text);
        return new Frame((char) t, text.toString());
    }

    private void element(char type, int depth, StringBuilder keep) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new Malformed("replies nested deeper than " + MAX_DEPTH + " at byte " + offset);
        }
        String head = readLine();
        switch (type) {
            case '+', '-' -> keep(keep, head);
            case ':' -> {
                number(head, Long.MIN_VALUE, Long.MAX_VALUE, "integer");
                keep(keep, head);
            }
            case '(' -> {
                if (!head.matches("-?[0-9]+")) {
                    throw new Malformed("bad big number '" + head + "' at byte " + offset);
                }
                keep(keep, head);
            }
            case '_' -> {
                if (!head.isEmpty()) {
                    throw new Malformed("null with a payload '" + head + "' at byte " + offset);
                }
            }
            case '#' -> {
                if (!head.equals("t") && !head.equals("f")) {
                    throw new Malformed("bad boolean '" + head + "' at byte " + offset);
                }
                keep(keep, head);
            }
            case ',' -> {
                if (!head.matches("inf|-inf|nan|-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
                    throw new Malformed("bad double '" + head + "' at byte " + offset);
                }
                keep(keep, head);
            }
            case '$', '!', '=' -> {
                long len = number(head, type == '$' ? -1 : 0, 512L * 1024 * 1024, "bulk length");
                if (len >= 0) {
                    bulk((int) len, type, keep);
                }
            }
            case '*', '~', '>', '%', '|' -> {
                long n = number(head, type == '*' ? -1 : 0, Integer.MAX_VALUE, "aggregate length");
                if (type == '%' || type == '|') {
                    n *= 2;
                }
                keep(keep, head);
                for (long i = 0; i < n; i++) {
                    element(readType(), depth + 1, null);
                }
                if (type == '|') {
                    // An attribute comes before the reply it describes.
                    element(readType(), depth + 1, null);
                }
            }
            default -> throw new Malformed("unknown reply type byte 0x" + Integer.toHexString(type & 0xff)
                    + " at byte " + (offset - 1));
        }
    }

    private char readType() throws IOException {
        int t = in.read();
        if (t < 0) {
            throw new EOFException("stream ended inside an aggregate reply at byte " + offset);
        }
        offset++;
        return (char) t;
    }

    private void bulk(int len, char type, StringBuilder keep) throws IOException {
        byte[] start = new byte[Math.min(len, KEEP)];
        readFully(start, start.length);
        long rest = len - start.length;
        while (rest > 0) {
            long skipped = in.skip(rest);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("stream ended inside a bulk payload at byte " + offset);
                }
                skipped = 1;
            }
            rest -= skipped;
            offset += skipped;
        }
        if (type == '=' && (len < 4 || start[3] != ':')) {
            throw new Malformed("verbatim string without a 3-letter format and ':' at byte " + offset);
        }
        int cr = in.read();
        int lf = in.read();
        if (cr < 0 || lf < 0) {
            throw new EOFException("stream ended before the CRLF after a bulk payload at byte " + offset);
        }
        offset += 2;
        if (cr != '\r' || lf != '\n') {
            throw new Malformed("bulk payload of " + len + " bytes not followed by CRLF at byte " + offset);
        }
        keep(keep, new String(start, StandardCharsets.UTF_8));
    }

    private void readFully(byte[] b, int n) throws IOException {
        int got = 0;
        while (got < n) {
            int r = in.read(b, got, n - got);
            if (r < 0) {
                throw new EOFException("stream ended inside a bulk payload at byte " + offset);
            }
            got += r;
            offset += r;
        }
    }

    /** A header line without its CRLF; CR and LF may appear only as that final pair. */
    private String readLine() throws IOException {
        line.setLength(0);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("stream ended inside a header line '" + line + "' at byte " + offset);
            }
            offset++;
            if (c == '\r') {
                int lf = in.read();
                if (lf < 0) {
                    throw new EOFException("stream ended between CR and LF at byte " + offset);
                }
                offset++;
                if (lf != '\n') {
                    throw new Malformed("CR not followed by LF in '" + line + "' at byte " + offset);
                }
                return line.toString();
            }
            if (c == '\n') {
                throw new Malformed("LF without CR in '" + line + "' at byte " + offset);
            }
            if (line.length() < 1 << 20) {
                line.append((char) c);
            }
        }
    }

    private long number(String s, long min, long max, String what) throws Malformed {
        if (!s.matches("-?[0-9]{1,19}")) {
            throw new Malformed("bad " + what + " '" + s + "' at byte " + offset);
        }
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new Malformed("bad " + what + " '" + s + "' at byte " + offset);
        }
        if (v < min || v > max) {
            throw new Malformed(what + " " + v + " out of range at byte " + offset);
        }
        return v;
    }

    private static void keep(StringBuilder keep, String s) {
        if (keep != null && keep.length() < KEEP) {
            keep.append(s, 0, Math.min(s.length(), KEEP - keep.length()));
        }
    }
}
