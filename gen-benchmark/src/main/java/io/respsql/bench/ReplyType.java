package io.respsql.bench;

import java.util.Locale;

/** The reply a run expects, named as in the 2010 client's {@code -A}. */
public enum ReplyType {
    /** A status reply ({@code +OK}, {@code +PONG}, ...). */
    OK('+', "status"),
    /** An integer reply. */
    INT(':', "integer"),
    /** A bulk string (a null bulk counts). */
    LINE('$', "bulk string"),
    /** An array (multi-bulk); a null array counts. */
    MULTI('*', "array"),
    /** Anything but an error reply. */
    ANY((byte) 0, "any non-error reply");

    /** RESP type byte of the reply, 0 for ANY. */
    public final byte marker;
    public final String description;

    ReplyType(char marker, String description) {
        this((byte) marker, description);
    }

    ReplyType(byte marker, String description) {
        this.marker = marker;
        this.description = description;
    }

    public boolean accepts(byte replyMarker) {
        if (replyMarker == '-') {
            return false;
        }
        return this == ANY || replyMarker == marker;
    }

    public static ReplyType parse(String s) throws Options.UsageException {
        try {
            return valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Options.UsageException("-A must be OK, INT, LINE, MULTI or ANY, got '" + s + "'");
        }
    }

    /** A readable name for a RESP type byte. */
    public static String describe(byte marker) {
        return switch (marker) {
            case '+' -> "status";
            case '-' -> "error";
            case ':' -> "integer";
            case '$' -> "bulk string";
            case '*' -> "array";
            case '_' -> "null";
            case '#' -> "boolean";
            case ',' -> "double";
            case '(' -> "big number";
            case '!' -> "bulk error";
            case '=' -> "verbatim string";
            case '%' -> "map";
            case '~' -> "set";
            case '>' -> "push";
            case '|' -> "attribute";
            default -> "byte 0x" + Integer.toHexString(marker & 0xff);
        };
    }
}
