package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.respsql.command.CommandArgs;
import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestParserTest {
    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** A QUIT, a kill or a protocol error discards the parser inside a read; the read's end must still work. */
    @Test
    void endAfterDiscardIsSafe() {
        RequestParser p = new RequestParser(1024, new ServerConfig());
        ByteBuf read = bytes("*1\r\n$4\r\nQUIT\r\n*1\r\n$4\r\nPING\r\n");
        p.begin(read, ByteBufAllocator.DEFAULT);
        assertTrue(p.next());
        p.reset();
        p.discard();
        p.end();
        assertEquals(0, read.refCnt());
        assertEquals(0, p.bufferedBytes());
        // and the parser still parses a later read
        p.begin(bytes("*1\r\n$4\r\nPING\r\n"), ByteBufAllocator.DEFAULT);
        assertTrue(p.next());
        assertEquals("PING", p.args().string(0));
        p.reset();
        p.end();
    }

    /** The same after a half-received request had been kept in the query buffer. */
    @Test
    void endAfterDiscardWithQueryBuffer() {
        RequestParser p = new RequestParser(1024, new ServerConfig());
        p.begin(bytes("*2\r\n$3\r\nGET\r\n$1"), ByteBufAllocator.DEFAULT);
        assertFalse(p.next());
        p.end();
        assertTrue(p.bufferedBytes() > 0);
        ByteBuf read = bytes("\r\nk\r\n");
        p.begin(read, ByteBufAllocator.DEFAULT);
        p.discard();
        p.end();
        assertEquals(0, read.refCnt());
        assertEquals(0, p.bufferedBytes());
    }

    /** What a parser makes of a byte stream: each request's arguments, then the error (or none). */
    private static List<String> parse(RequestParser p, byte[] input, int[] cuts) {
        List<String> got = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : input.length;
            p.begin(Unpooled.copiedBuffer(input, from, to - from), ByteBufAllocator.DEFAULT);
            try {
                while (p.next()) {
                    CommandArgs a = p.args();
                    StringBuilder sb = new StringBuilder();
                    for (int j = 0; j < a.count(); j++) {
                        sb.append('[').append(a.string(j)).append(']');
                    }
                    got.add(sb.toString());
                    p.reset();
                }
                if (p.error() != null) {
                    got.add("error: " + p.error());
                    p.discard();
                    return got;
                }
            } finally {
                p.end();
            }
            from = to;
        }
        got.add("buffered " + p.bufferedBytes() + " inArray " + p.inArray());
        return got;
    }

    private static String randomRequest(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int kind = rnd.nextInt(20);
        if (kind == 0) {
            return "PING\r\n"; // inline
        }
        int n = kind == 1 ? 0 : 1 + rnd.nextInt(6);
        sb.append('*').append(n).append("\r\n");
        for (int i = 0; i < n; i++) {
            int len = rnd.nextInt(10) == 0 ? 100 + rnd.nextInt(3000) : rnd.nextInt(12);
            StringBuilder arg = new StringBuilder();
            for (int j = 0; j < len; j++) {
                arg.append((char) (rnd.nextInt(5) == 0 ? "\r\n$*"  .charAt(rnd.nextInt(4)) : 'a' + rnd.nextInt(26)));
            }
            sb.append('$').append(rnd.nextInt(30) == 0 ? "0" : "").append(len).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString();
    }

    /** A malformed tail, so the error paths are compared too. */
    private static String randomBreakage(Random rnd) {
        return switch (rnd.nextInt(8)) {
            case 0 -> "*2\r\n$3\r\nGET\r\n+x\r\n";
            case 1 -> "*1\r\n$-3\r\n";
            case 2 -> "*1\r\n$3\r\nabcd\r\n";
            case 3 -> "*x\r\n";
            case 4 -> "*2\r\n$3x\r\nGET\r\n";
            case 5 -> "*1\r\n$ 3\r\nGET\r\n";
            case 6 -> "*1\r\n$3\nGET\r\n";
            default -> "*1\r\n$99999999999999999999\r\n";
        };
    }

    /**
     * The fast path (a whole array in one buffer) against the element-by-element one: the same
     * stream, whole or split at random places, gives the same requests and the same error.
     */
    @Test
    void wholeArrayFastPathMatchesTheGeneralPath() {
        Random rnd = new Random(13);
        ServerConfig config = new ServerConfig();
        for (int round = 0; round < 2000; round++) {
            StringBuilder sb = new StringBuilder();
            int requests = 1 + rnd.nextInt(20);
            for (int i = 0; i < requests; i++) {
                sb.append(randomRequest(rnd));
            }
            if (rnd.nextInt(4) == 0) {
                sb.append(randomBreakage(rnd));
            } else if (rnd.nextInt(3) == 0) {
                String extra = randomRequest(rnd);
                sb.append(extra, 0, rnd.nextInt(extra.length())); // an unfinished request at the end
            }
            byte[] input = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
            List<String> general = parse(new RequestParser(1024, config, false), input, new int[0]);
            assertEquals(general, parse(new RequestParser(1024, config, true), input, new int[0]), sb.toString());
            int k = rnd.nextInt(Math.min(8, input.length));
            int[] cuts = rnd.ints(k, 0, input.length + 1).sorted().toArray();
            assertEquals(general, parse(new RequestParser(1024, config, true), input, cuts), sb + " cut at " + java.util.Arrays.toString(cuts));
            assertEquals(general, parse(new RequestParser(1024, config, false), input, cuts), sb + " cut at " + java.util.Arrays.toString(cuts));
        }
    }

    @Test
    void fastPathReadsAPipelineWhole() {
        RequestParser p = new RequestParser(1024, new ServerConfig());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            sb.append("*2\r\n$3\r\nGET\r\n$").append(String.valueOf(i).length()).append("\r\n").append(i).append("\r\n");
        }
        p.begin(bytes(sb.toString()), ByteBufAllocator.DEFAULT);
        for (int i = 0; i < 16; i++) {
            assertTrue(p.next());
            assertEquals(2, p.args().count());
            assertEquals(String.valueOf(i), p.args().string(1));
            p.reset();
        }
        assertFalse(p.next());
        assertNull(p.error());
        p.end();
        assertEquals(0, p.bufferedBytes());
    }

    /** Two parsers taking turns on one thread (they share its mirror array) each read their own bytes. */
    @Test
    void parsersTakingTurnsOnOneThread() {
        RequestParser a = new RequestParser(1024, new ServerConfig());
        RequestParser b = new RequestParser(1024, new ServerConfig());
        a.begin(bytes("*1\r\n$2\r\nA1\r\n*1\r\n$2\r\nA2\r\n"), ByteBufAllocator.DEFAULT);
        assertTrue(a.next());
        assertEquals("A1", a.args().string(0));
        a.reset();
        b.begin(bytes("*1\r\n$2\r\nB1\r\n*1\r\n$2\r\nB2\r\n"), ByteBufAllocator.DEFAULT);
        assertTrue(b.next());
        assertEquals("B1", b.args().string(0));
        b.reset();
        assertTrue(a.next());
        assertEquals("A2", a.args().string(0));
        a.reset();
        a.end();
        assertTrue(b.next());
        assertEquals("B2", b.args().string(0));
        b.reset();
        b.end();
    }
}
