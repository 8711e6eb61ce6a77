package io.respsql.exec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Expected replies in {@link EngineHarness} form (CRLF shown as a space), and a decoder for array replies. */
final class Replies {
    static final String OK = "+OK";
    static final String EMPTY = "*0";

    private Replies() {
    }

    /** A multi-bulk of one bulk string per row: {@code *2 $5 1,1,7 $5 2,1,7}; {@code *0} when there is none. */
    static String rows(String... rows) {
        return rows(List.of(rows));
    }

    static String rows(List<String> rows) {
        if (rows.isEmpty()) {
            return EMPTY;
        }
        StringBuilder sb = new StringBuilder("*").append(rows.size());
        for (String r : rows) {
            sb.append(" $").append(r.getBytes(StandardCharsets.UTF_8).length).append(' ').append(r);
        }
        return sb.toString();
    }

    static String integer(long n) {
        return ":" + n;
    }

    static String error(String message) {
        return "-ERR " + message;
    }

    /** Runs statements that must all succeed with +OK (schema and data set-up). */
    static void ok(EngineHarness h, String... statements) {
        for (String s : statements) {
            assertEquals(OK, h.run(s), s);
        }
    }

    /** The statement text a server builds from RESP arguments: joined by single spaces. */
    static String joined(String... args) {
        return String.join(" ", args);
    }

    /** The bulk strings of an array reply, decoded exactly (values may hold spaces, commas or line breaks). */
    static List<String> bulks(EngineHarness h, String sql) {
        ByteBuf buf = Unpooled.buffer();
        EngineReplies.run(h.engine, sql, new RespWriter().target(buf));
        byte[] b = new byte[buf.readableBytes()];
        buf.readBytes(b);
        buf.release();
        String raw = new String(b, StandardCharsets.ISO_8859_1);
        if (!raw.startsWith("*")) {
            fail(sql + " did not return an array: " + raw.trim());
        }
        int pos = raw.indexOf("\r\n");
        int n = Integer.parseInt(raw.substring(1, pos));
        pos += 2;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int eol = raw.indexOf("\r\n", pos);
            int len = Integer.parseInt(raw.substring(pos + 1, eol));
            out.add(new String(b, eol + 2, len, StandardCharsets.UTF_8));
            pos = eol + 2 + len + 2;
        }
        assertEquals(b.length, pos, "trailing bytes after the array reply of " + sql);
        return out;
    }

    /** The value of an integer reply. */
    static long integerOf(EngineHarness h, String sql) {
        String r = h.run(sql);
        if (!r.startsWith(":")) {
            fail(sql + " did not return an integer: " + r);
        }
        return Long.parseLong(r.substring(1));
    }
}
