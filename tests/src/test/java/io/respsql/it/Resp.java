package io.respsql.it;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Expected replies as they appear on the wire, for comparison with {@link RespConnection#call}:
 * {@code Resp.rows("1,1,7", "2,1,7")} is {@code "*2\r\n$5\r\n1,1,7\r\n$5\r\n2,1,7\r\n"}.
 */
final class Resp {
    static final String OK = "+OK\r\n";
    static final String PONG = "+PONG\r\n";
    /** Every empty result, through an index or not. */
    static final String EMPTY = "*0\r\n";
    /** The null bulk string, which no SQL reply may contain. */
    static final String NULL_BULK = "$-1\r\n";

    private Resp() {
    }

    static String integer(long n) {
        return ":" + n + "\r\n";
    }

    /** An error reply; {@code message} includes the prefix, e.g. {@code "ERR table 't' does not exist"}. */
    static String error(String message) {
        return "-" + message + "\r\n";
    }

    static String bulk(String s) {
        return "$" + s.getBytes(StandardCharsets.UTF_8).length + "\r\n" + s + "\r\n";
    }

    /** A multi-bulk of one bulk string per row. */
    static String rows(String... rows) {
        return rows(List.of(rows));
    }

    static String rows(List<String> rows) {
        StringBuilder sb = new StringBuilder("*").append(rows.size()).append("\r\n");
        for (String r : rows) {
            sb.append(bulk(r));
        }
        return sb.toString();
    }
}
