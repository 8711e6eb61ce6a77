package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtocolErrorTest extends ServerTestBase {
    private static void assertProtocolErrorThenClose(String frame) throws Exception {
        try (RespConnection bystander = server.raw(); RespConnection bad = server.raw()) {
            assertEquals("+PONG\r\n", bystander.call("PING"));
            bad.send(frame);
            String reply = bad.readReply();
            assertTrue(reply.startsWith("-ERR Protocol error: "), reply);
            assertTrue(bad.awaitClosedByServer(10_000), "connection left open after " + reply);
            assertEquals("+PONG\r\n", bystander.call("PING"));
        }
        try (RespConnection fresh = server.raw()) {
            assertEquals("+PONG\r\n", fresh.call("PING"));
        }
    }

    @Test
    void badArrayLength() throws Exception {
        assertProtocolErrorThenClose("*x\r\n");
    }

    @Test
    void badBulkLength() throws Exception {
        assertProtocolErrorThenClose("*1\r\n$abc\r\nPING\r\n");
    }

    @Test
    void bulkWithoutCrlf() throws Exception {
        assertProtocolErrorThenClose("*1\r\n$4\r\nPINGxx");
    }

    @Test
    void integerInsteadOfBulk() throws Exception {
        assertProtocolErrorThenClose("*2\r\n$4\r\nECHO\r\n:1\r\n");
    }

    @Test
    void nestedArray() throws Exception {
        assertProtocolErrorThenClose("*2\r\n$4\r\nECHO\r\n*1\r\n$1\r\na\r\n");
    }

    @Test
    void unbalancedQuotesInline() throws Exception {
        assertProtocolErrorThenClose("ECHO \"oops\r\n");
    }

    @Test
    void repliesBeforeTheErrorAreKept() throws Exception {
        try (RespConnection c = server.raw()) {
            c.send("PING\r\n*1\r\n$4\r\nECHO\r\n*1\r\n$-5\r\n");
            assertEquals("+PONG\r\n", c.readReply());
            assertEquals("-ERR wrong number of arguments for 'echo' command\r\n", c.readReply());
            assertTrue(c.readReply().startsWith("-ERR Protocol error: "));
            assertTrue(c.awaitClosedByServer(10_000));
        }
    }

    @Test
    void inlineCommands() throws Exception {
        try (RespConnection c = server.raw()) {
            c.send("PING\r\n");
            assertEquals("+PONG\r\n", c.readReply());
            c.send("ECHO \"hello world\"\r\n");
            assertEquals("$11\r\nhello world\r\n", c.readReply());
            c.send("echo 'it''s'\r\n");
            // 'it''s' closes a quote before a letter: unbalanced, like Redis
            assertTrue(c.readReply().startsWith("-ERR Protocol error: "));
        }
        try (RespConnection c = server.raw()) {
            c.send("\r\n   \r\nSELECT 0\r\nECHO \"a\\x41\\n\"\r\n");
            assertEquals("+OK\r\n", c.readReply());
            assertEquals("$3\r\naA\n\r\n", c.readReply());
            c.send("CLIENT SETNAME telnet\r\nCLIENT GETNAME\r\n");
            assertEquals("+OK\r\n", c.readReply());
            assertEquals("$6\r\ntelnet\r\n", c.readReply());
        }
    }

    @Test
    void emptyAndNullArraysAreIgnored() throws Exception {
        try (RespConnection c = server.raw()) {
            c.send("*0\r\n*-1\r\n*1\r\n$4\r\nPING\r\n");
            assertEquals("+PONG\r\n", c.readReply());
        }
    }
}
