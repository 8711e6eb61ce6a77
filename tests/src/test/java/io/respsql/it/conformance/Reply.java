package io.respsql.it.conformance;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One RESP2 or RESP3 reply read into plain Java values: simple and bulk strings as
 * {@link String}, integers as {@link Long}, RESP3 doubles as {@link Double}, null bulk / null
 * array / RESP3 null as {@code null}, arrays (also RESP3 sets and pushes) as {@code List<Object>},
 * RESP3 maps as a flat key, value, ... list, errors as {@link Error}.
 */
final class Reply {
    /** An error reply; {@code text} without the leading {@code -}. */
    record Error(String text) {
    }

    private Reply() {
    }

    /** Reads one complete reply; EOF before its first byte is an {@link EOFException}. */
    static Object read(InputStream in) throws IOException {
        int t = in.read();
        if (t < 0) {
            throw new EOFException("connection closed by the server");
        }
        String head = line(in);
        switch (t) {
            case '+':
                return head;
            case '-', '!':
                return new Error(t == '!' ? bulkText(in, head) : head);
            case ':':
                return Long.parseLong(head);
            case ',':
                return parseDouble(head);
            case '_':
                return null;
            case '#':
                return head.equals("t");
            case '(':
                return new java.math.BigInteger(head);
            case '$', '=': {
                int len = Integer.parseInt(head);
                return len < 0 ? null : bulkText(in, head);
            }
            case '*', '~', '>', '%', '|': {
                int n = Integer.parseInt(head);
                if (n < 0) {
                    return null;
                }
                if (t == '%' || t == '|') {
                    n *= 2;
                }
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(read(in));
                }
                if (t == '|') {
                    return read(in); // an attribute precedes the reply it describes
                }
                return items;
            }
            default:
                throw new IOException("not a RESP reply: type byte 0x" + Integer.toHexString(t));
        }
    }

    private static Double parseDouble(String s) {
        return switch (s) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    private static String bulkText(InputStream in, String head) throws IOException {
        int len = Integer.parseInt(head);
        byte[] b = in.readNBytes(len);
        if (b.length < len || in.read() != '\r' || in.read() != '\n') {
            throw new EOFException("reply cut short inside a bulk string of " + len + " bytes");
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed inside a reply header '" + sb + "'");
            }
            if (c == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("CR not followed by LF after '" + sb + "'");
                }
                return sb.toString();
            }
            sb.append((char) c);
        }
    }
}
