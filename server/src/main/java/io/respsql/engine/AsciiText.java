package io.respsql.engine;

import java.nio.charset.StandardCharsets;

/**
 * A statement's text as a view on bytes that are all ASCII (each byte is its own char), so a
 * statement sent as several arguments can be scanned and matched against the plan cache without
 * a String ({@link LiteralScan} reads any CharSequence). The String is made only when something
 * needs one (a cache miss parses it, a block keeps it) and then kept for the rest of the statement.
 * Reused per request by its owner (event loop only): whoever keeps the text copies it ({@link #toString()}).
 */
public final class AsciiText implements CharSequence {
    private byte[] bytes = new byte[0];
    private int length;
    private String string;

    /**
     * Views {@code b[0, len)}, which must all be ASCII ({@link #isAscii}); the array is the
     * caller's and must stay unchanged while this text is used.
     */
    public AsciiText set(byte[] b, int len) {
        bytes = b;
        length = len;
        string = null;
        return this;
    }

    /** Whether every byte of {@code b[0, len)} is below 0x80 (then chars and UTF-8 bytes are the same). */
    public static boolean isAscii(byte[] b, int len) {
        int or = 0;
        for (int i = 0; i < len; i++) {
            or |= b[i];
        }
        return or >= 0;
    }

    /** The viewed bytes: {@code [0, length())} of it (the array is the caller's; do not change it). */
    byte[] bytes() {
        return bytes;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return (char) bytes[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return string != null ? string.substring(start, end) : new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** The text as a String, made once per {@link #set}. */
    @Override
    public String toString() {
        String s = string;
        if (s == null) {
            s = new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            string = s;
        }
        return s;
    }
}
