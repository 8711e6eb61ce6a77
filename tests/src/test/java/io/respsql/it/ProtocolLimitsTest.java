package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** proto-max-bulk-len, the argument count, malformed headers and client-query-buffer-limit, over raw sockets. */
class ProtocolLimitsTest extends ServerTestBase {
    @AfterEach
    void defaults() {
        server.dispatch("CONFIG", "SET", "proto-max-bulk-len", "32mb", "client-query-buffer-limit", "64mb");
    }

    /** {@code frame} gets exactly {@code reply} and the connection is closed; others are unaffected. */
    private static void assertClosedWith(String reply, byte[] frame) throws Exception {
        try (RespConnection bystander = server.raw(); RespConnection bad = server.raw()) {
            assertEquals("+PONG\r\n", bystander.call("PING"));
            bad.send(frame);
            assertEquals(reply, bad.readReply());
            assertTrue(bad.awaitClosedByServer(10_000), "left open after " + reply);
            assertEquals("+PONG\r\n", bystander.call("PING"));
        }
    }

    private static void assertClosedWith(String reply, String frame) throws Exception {
        assertClosedWith(reply, frame.getBytes(StandardCharsets.US_ASCII));
    }

    private static void assertProtocolErrorThenClose(String frame) throws Exception {
        try (RespConnection bad = server.raw()) {
            bad.send(frame);
            String reply = bad.readReply();
            assertTrue(reply.startsWith("-ERR Protocol error: "), reply);
            assertTrue(bad.awaitClosedByServer(10_000), "left open after " + reply);
        }
    }

    @Test
    void bulkLongerThanTheLimitIsRefusedAtItsHeader() throws Exception {
        assertEquals("OK", server.dispatch("CONFIG", "SET", "proto-max-bulk-len", "1mb"));
        assertEquals(java.util.List.of("proto-max-bulk-len", "1048576"),
                server.dispatch("CONFIG", "GET", "proto-max-bulk-len"));
        // Only the header is sent: the refusal does not wait for (or buffer) the content.
        assertClosedWith("-ERR Protocol error: invalid bulk length\r\n", "*2\r\n$4\r\nECHO\r\n$1048577\r\n");
        // A bulk at the limit is fine.
        try (RespConnection c = server.raw()) {
            String big = "y".repeat(1 << 20);
            assertEquals("$" + big.length() + "\r\n" + big + "\r\n", c.call("ECHO", big));
        }
    }

    @Test
    void bulkOverTheLimitArrivingWholeIsRefusedToo() throws Exception {
        server.dispatch("CONFIG", "SET", "proto-max-bulk-len", "2000");
        byte[] frame = RespConnection.encode("ECHO", "z".repeat(2001));
        assertClosedWith("-ERR Protocol error: invalid bulk length\r\n", frame);
    }

    @Test
    void bulkBeyondWhatTheDecoderHolds() throws Exception {
        assertClosedWith("-ERR Protocol error: invalid bulk length\r\n", "*2\r\n$4\r\nECHO\r\n$99999999999\r\n");
    }

    @Test
    void tooManyArguments() throws Exception {
        assertClosedWith("-ERR Protocol error: invalid multibulk length\r\n", "*1048577\r\n");
        // At the limit the header is accepted (the request is then simply incomplete).
        try (RespConnection c = server.raw()) {
            c.send("*1048576\r\n");
            assertEquals("+PONG\r\n", server.raw().call("PING"));
        }
    }

    @Test
    void malformedHeaders() throws Exception {
        String multibulk = "-ERR Protocol error: invalid multibulk length\r\n";
        String bulk = "-ERR Protocol error: invalid bulk length\r\n";
        assertClosedWith(multibulk, "*abc\r\n");
        assertClosedWith(multibulk, "*-5\r\n");
        assertClosedWith(multibulk, "*99999999999999999999\r\n");
        assertClosedWith(multibulk, "*\r\n");
        assertClosedWith(bulk, "*1\r\n$-5\r\n");
        assertClosedWith(bulk, "*1\r\n$-1\r\n");
        assertClosedWith(bulk, "*1\r\n$99999999999999999999\r\n");
        assertClosedWith(bulk, "*1\r\n$4x\r\nPING\r\n");
        assertClosedWith(bulk, "*1\r\n$\r\n");
        // Content not followed by CRLF.
        assertProtocolErrorThenClose("*1\r\n$4\r\nPINGxx\r\n");
    }

    @Test
    void nullAndEmptyArraysAreIgnored() throws Exception {
        try (RespConnection c = server.raw()) {
            c.send("*-1\r\n*0\r\n");
            assertEquals("+PONG\r\n", c.call("PING"));
        }
    }

    @Test
    void tooLongInlineRequest() throws Exception {
        byte[] line = new byte[70_000];
        Arrays.fill(line, (byte) 'a');
        assertClosedWith("-ERR Protocol error: too big inline request\r\n", line);
    }

    @Test
    void unfinishedRequestOverTheQueryBufferLimitIsDisconnected() throws Exception {
        server.dispatch("CONFIG", "SET", "client-query-buffer-limit", "1mb");
        String before = server.raw().call("INFO", "stats");
        try (RespConnection bystander = server.raw(); RespConnection big = server.raw()) {
            // Three arguments of 600 KB each: every one is under proto-max-bulk-len, together over the limit.
            String part = "q".repeat(600_000);
            big.send("*4\r\n$4\r\nECHO\r\n");
            big.send("$600000\r\n" + part + "\r\n$600000\r\n" + part + "\r\n$600000\r\n" + part.substring(0, 1000));
            assertTrue(big.awaitClosedByServer(10_000), "client over the query buffer limit left open");
            assertEquals("+PONG\r\n", bystander.call("PING"));
            String after = bystander.call("INFO", "stats");
            assertEquals(count(before, "client_query_buffer_limit_disconnections") + 1,
                    count(after, "client_query_buffer_limit_disconnections"), after);
        }
    }

    @Test
    void headerLineWithoutEndIsBoundedByTheQueryBufferLimit() throws Exception {
        server.dispatch("CONFIG", "SET", "client-query-buffer-limit", "1mb");
        try (RespConnection bystander = server.raw(); RespConnection bad = server.raw()) {
            byte[] digits = new byte[256 * 1024];
            Arrays.fill(digits, (byte) '1');
            bad.send("*");
            boolean closed = false;
            try {
                for (int i = 0; i < 8; i++) { // 2 MB of a number that never ends
                    bad.send(digits);
                }
            } catch (java.io.IOException reset) {
                closed = true;
            }
            assertTrue(closed || bad.awaitClosedByServer(10_000), "endless header left open");
            assertEquals("+PONG\r\n", bystander.call("PING"));
        }
    }

    private static long count(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError(field + " missing from " + info);
    }
}
