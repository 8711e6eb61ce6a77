package io.respsql.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyParserTest {

    private static ByteBuf buf(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Feeds the text in pieces of {@code chunk} bytes; returns the number of complete replies. */
    private static List<Byte> feed(ReplyParser p, String s, int chunk) {
        List<Byte> types = new ArrayList<>();
        for (int i = 0; i < s.length(); i += chunk) {
            ByteBuf b = buf(s.substring(i, Math.min(s.length(), i + chunk)));
            while (b.isReadable()) {
                if (p.parse(b)) {
                    types.add(p.replyType());
                }
            }
        }
        return types;
    }

    @Test
    void simpleReplies() {
        ReplyParser p = new ReplyParser(ReplyType.OK);
        assertTrue(p.parse(buf("+OK\r\n")));
        assertEquals('+', p.replyType());
        assertNull(p.replyText());
        assertTrue(p.parse(buf(":-42\r\n")));
        assertEquals(':', p.replyType());
        assertEquals(-42, p.intValue());
        assertEquals(":-42", p.replyText()); // not the expected type: its text is kept
    }

    @Test
    void errorTextIsKept() {
        ReplyParser p = new ReplyParser(ReplyType.INT);
        assertTrue(p.parse(buf("-ERR Table does not exist\r\n")));
        assertEquals('-', p.replyType());
        assertEquals("-ERR Table does not exist", p.replyText());
        assertTrue(p.parse(buf(":3\r\n")));
        assertNull(p.replyText());
        assertEquals(3, p.intValue());
    }

    @Test
    void longErrorTextIsTruncated() {
        ReplyParser p = new ReplyParser(ReplyType.OK);
        assertTrue(p.parse(buf("-" + "x".repeat(5000) + "\r\n")));
        assertEquals(ReplyParser.MAX_TEXT, p.replyText().length());
    }

    @Test
    void bulkAndNullBulk() {
        ReplyParser p = new ReplyParser(ReplyType.LINE);
        ByteBuf b = buf("$5\r\nhello\r\n$-1\r\n$0\r\n\r\n");
        assertTrue(p.parse(b));
        assertTrue(p.parse(b));
        assertTrue(p.parse(b));
        assertFalse(b.isReadable());
        assertEquals('$', p.replyType());
    }

    @Test
    void bulkBodyMayHoldCrlfAndBinary() {
        ReplyParser p = new ReplyParser(ReplyType.LINE);
        ByteBuf b = buf("$6\r\n\r\n*\r\n\u00ff\r\n+OK\r\n");
        assertTrue(p.parse(b));
        assertEquals('$', p.replyType());
        assertTrue(p.parse(b));
        assertEquals('+', p.replyType());
    }

    @Test
    void arraysOfAnyDepth() {
        String select = "*3\r\n$5\r\n1,1,7\r\n$5\r\n2,1,7\r\n$5\r\n3,2,4\r\n";
        String nested = "*2\r\n*2\r\n:1\r\n$1\r\na\r\n*0\r\n";
        String empties = "*0\r\n*-1\r\n";
        String all = select + nested + empties + "+OK\r\n";
        for (int chunk = 1; chunk <= all.length(); chunk++) {
            ReplyParser p = new ReplyParser(ReplyType.MULTI);
            assertEquals(List.of((byte) '*', (byte) '*', (byte) '*', (byte) '*', (byte) '+'),
                    feed(p, all, chunk), "chunk " + chunk);
        }
    }

    @Test
    void integerSplitAcrossReads() {
        ReplyParser p = new ReplyParser(ReplyType.INT);
        assertFalse(p.parse(buf(":123")));
        assertFalse(p.parse(buf("45\r")));
        assertTrue(p.parse(buf("\n")));
        assertEquals(12345, p.intValue());
    }

    @Test
    void leavesTheNextReplyInTheBuffer() {
        ReplyParser p = new ReplyParser(ReplyType.OK);
        ByteBuf b = buf("+OK\r\n+PONG\r\n");
        assertTrue(p.parse(b));
        assertEquals("+PONG\r\n", b.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void resp3Shapes() {
        ReplyParser p = new ReplyParser(ReplyType.ANY);
        String s = "%2\r\n+a\r\n:1\r\n+b\r\n:2\r\n_\r\n#t\r\n,1.5\r\n~1\r\n$1\r\nx\r\n!3\r\nERR\r\n";
        assertEquals(6, feed(p, s, 3).size());
    }

    @Test
    void garbageIsAProtocolError() {
        ReplyParser p = new ReplyParser(ReplyType.OK);
        assertThrows(ReplyParser.ProtocolException.class, () -> p.parse(buf("HTTP/1.1 200 OK\r\n")));
        ReplyParser q = new ReplyParser(ReplyType.LINE);
        assertThrows(ReplyParser.ProtocolException.class, () -> q.parse(buf("$x\r\n")));
    }
}
