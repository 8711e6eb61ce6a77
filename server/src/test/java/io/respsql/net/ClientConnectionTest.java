package io.respsql.net;

import io.respsql.client.ClientRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.respsql.command.CommandDispatcher;
import io.respsql.command.CommandSpec;
import io.respsql.command.CommandTable;
import io.respsql.config.ServerConfig;
import io.respsql.info.ServerStats;
import io.respsql.protocol.RespWriter;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientConnectionTest {
    private final ServerStats stats = new ServerStats();
    private final ClientRegistry clients = new ClientRegistry();

    private static final int NAP_MILLIS = 30;
    private CommandTable table;

    private EmbeddedChannel channel() {
        table = new CommandTable(List.of(
            CommandSpec.builder("ping", -1).handler((s, a, out) -> out.simple("PONG")).build(),
            CommandSpec.builder("boom", 1).handler((s, a, out) -> {
                out.arrayHeader(2);
                out.bulk("half a reply");
                throw new IllegalStateException("boom");
            }).build(),
            CommandSpec.builder("stream", 1).handler((s, a, out) -> {
                out.arrayHeader(10_000);
                for (int i = 0; i < 5_000; i++) {
                    out.bulk("row number " + i);
                }
                throw new IllegalStateException("failed after 5000 rows");
            }).build(),
            CommandSpec.builder("bigreply", 1).handler((s, a, out) -> {
                out.arrayHeader(10_000);
                for (int i = 0; i < 10_000; i++) {
                    out.bulk("row number " + i);
                }
            }).build(),
            CommandSpec.builder("nap", 1).handler((s, a, out) -> {
                try {
                    Thread.sleep(NAP_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                out.ok();
            }).build(),
            CommandSpec.builder("silent", 1).handler((s, a, out) -> { }).build(),
            CommandSpec.builder("echo", 2).handler((s, a, out) -> out.bulk(a.bytes(1))).build(),
            CommandSpec.builder("quit", -1).handler((s, a, out) -> {
                out.ok();
                s.closeAfterReply();
            }).build()));
        CommandDispatcher dispatcher = new CommandDispatcher(table, stats);
        return new EmbeddedChannel(new ClientConnection(new ServerConfig(), stats, clients,
                dispatcher, new RespWriter(), 1024));
    }

    private static String exchange(EmbeddedChannel ch, String input) {
        ch.writeInbound(Unpooled.copiedBuffer(input, StandardCharsets.UTF_8));
        StringBuilder sb = new StringBuilder();
        ByteBuf out;
        while ((out = ch.readOutbound()) != null) {
            sb.append(out.toString(StandardCharsets.UTF_8));
            out.release();
        }
        return sb.toString();
    }

    @Test
    void failingHandlerGetsOneErrorAndTheConnectionLives() {
        EmbeddedChannel ch = channel();
        assertEquals("-ERR internal error: boom\r\n+PONG\r\n", exchange(ch, "*1\r\n$4\r\nBOOM\r\nPING\r\n"));
        assertTrue(ch.isActive());
        assertEquals(1, stats.totalErrorReplies);
        assertEquals(2, stats.totalCommandsProcessed);
        assertEquals(1, clients.size());
        ch.finishAndReleaseAll();
        assertEquals(0, clients.size());
    }

    @Test
    void largeReplyIsHandedOverInChunksAndArrivesWhole() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(Unpooled.copiedBuffer("BIGREPLY\r\nPING\r\n", StandardCharsets.UTF_8));
        int buffers = 0;
        StringBuilder sb = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            buffers++;
            assertTrue(b.readableBytes() < 2 * RespWriter.CHUNK_BYTES, "one buffer of " + b.readableBytes());
            sb.append(b.toString(StandardCharsets.UTF_8));
            b.release();
        }
        assertTrue(buffers > 2, "buffers: " + buffers);
        StringBuilder expected = new StringBuilder("*10000\r\n");
        for (int i = 0; i < 10_000; i++) {
            String row = "row number " + i;
            expected.append('$').append(row.length()).append("\r\n").append(row).append("\r\n");
        }
        expected.append("+PONG\r\n");
        assertEquals(expected.toString(), sb.toString());
        assertTrue(ch.isActive());
        ch.finishAndReleaseAll();
    }

    @Test
    void failureAfterChunksLeftClosesInsteadOfCorruptingTheStream() {
        EmbeddedChannel ch = channel();
        String sent = exchange(ch, "STREAM\r\nPING\r\n");
        assertTrue(sent.startsWith("*10000\r\n$12\r\nrow number 0\r\n"), sent.substring(0, 40));
        assertFalse(sent.contains("-ERR"), "an error inside a partial reply");
        assertFalse(sent.contains("+PONG"), "requests after the broken reply are not served");
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedCommandIsTimedFromTheEndOfThePreviousOneNotAcrossReads() throws InterruptedException {
        EmbeddedChannel ch = channel();
        CommandSpec nap = table.lookup("nap");
        CommandSpec ping = table.lookup("ping");
        // One read: PING's time starts where NAP's ended (one clock read each), so NAP is not in it.
        assertEquals("+OK\r\n+PONG\r\n+PONG\r\n", exchange(ch, "NAP\r\nPING\r\nPING\r\n"));
        assertTrue(nap.usec() >= NAP_MILLIS * 1000L, "nap usec " + nap.usec());
        assertTrue(ping.usec() < NAP_MILLIS * 1000L, "ping usec " + ping.usec());
        // The time between two reads (the client's) is not charged to the next read's first command.
        Thread.sleep(2 * NAP_MILLIS);
        assertEquals("+PONG\r\n", exchange(ch, "PING\r\n"));
        assertEquals(3, ping.calls());
        assertTrue(ping.usec() < NAP_MILLIS * 1000L, "ping usec " + ping.usec());
        // A rejected request (ECHO without its argument) is not timed; the PING after it still is.
        assertTrue(exchange(ch, "ECHO\r\nPING\r\n").endsWith("+PONG\r\n"));
        assertEquals(4, ping.calls());
        assertTrue(ping.usec() < NAP_MILLIS * 1000L, "ping usec " + ping.usec());
        ch.finishAndReleaseAll();
    }

    @Test
    void handlerWithoutReplyStillAnswers() {
        EmbeddedChannel ch = channel();
        assertEquals("-ERR internal error: no reply\r\n", exchange(ch, "SILENT\r\n"));
        ch.finishAndReleaseAll();
    }

    @Test
    void protocolErrorClosesAfterEarlierReplies() {
        EmbeddedChannel ch = channel();
        String reply = exchange(ch, "PING\r\n*1\r\n$x\r\nPING\r\n");
        assertTrue(reply.startsWith("+PONG\r\n-ERR Protocol error: "), reply);
        assertEquals(1, reply.split("\r\n", -1).length - 2, reply);
        ch.runPendingTasks();
        assertFalse(ch.isOpen());
        assertEquals(0, clients.size());
        ch.finishAndReleaseAll();
    }

    @Test
    void quitClosesAndIgnoresTheRest() {
        EmbeddedChannel ch = channel();
        assertEquals("+OK\r\n", exchange(ch, "QUIT\r\nPING\r\n"));
        ch.runPendingTasks();
        assertFalse(ch.isOpen());
        assertEquals(0, clients.size());
        ch.finishAndReleaseAll();
    }

    @Test
    void requestFedOneByteAtATimeIsAnsweredOnce() {
        EmbeddedChannel ch = channel();
        String request = "*2\r\n$4\r\nPING\r\n$5\r\nhello\r\n";
        StringBuilder replies = new StringBuilder();
        for (int i = 0; i < request.length(); i++) {
            replies.append(exchange(ch, request.substring(i, i + 1)));
        }
        assertEquals("+PONG\r\n", replies.toString());
        ch.finishAndReleaseAll();
    }

    @Test
    void largeArgumentArrivingInPiecesIsReassembled() {
        EmbeddedChannel ch = channel();
        String payload = "x".repeat(100_000);
        String request = "*2\r\n$4\r\nECHO\r\n$" + payload.length() + "\r\n" + payload + "\r\n";
        StringBuilder replies = new StringBuilder();
        for (int i = 0; i < request.length(); i += 7_000) {
            replies.append(exchange(ch, request.substring(i, Math.min(request.length(), i + 7_000))));
        }
        assertEquals("$" + payload.length() + "\r\n" + payload + "\r\n", replies.toString());
        ch.finishAndReleaseAll();
    }

    @Test
    void nestedArrayIsAProtocolError() {
        EmbeddedChannel ch = channel();
        assertEquals("-ERR Protocol error: expected '$', got '*'\r\n", exchange(ch, "*2\r\n*1\r\n$4\r\nPING\r\n"));
        assertFalse(ch.isActive());
        ch.finishAndReleaseAll();
    }

    @Test
    void emptyArraysAreIgnored() {
        EmbeddedChannel ch = channel();
        assertEquals("+PONG\r\n", exchange(ch, "*0\r\n*-1\r\n*1\r\n$4\r\nPING\r\n"));
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelineSplitAtEveryByteGivesTheSameReplies() {
        String requests = "*1\r\n$4\r\nPING\r\n*2\r\n$4\r\nECHO\r\n$0\r\n\r\nPING\r\n"
                + "*2\r\n$4\r\necho\r\n$4\r\na\r\nb\r\n*1\r\n$4\r\nping\r\n";
        String expected = "+PONG\r\n$0\r\n\r\n+PONG\r\n$4\r\na\r\nb\r\n+PONG\r\n";
        for (int cut = 1; cut < requests.length(); cut++) {
            EmbeddedChannel ch = channel();
            String replies = exchange(ch, requests.substring(0, cut)) + exchange(ch, requests.substring(cut));
            assertEquals(expected, replies, "split at " + cut);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void argumentBuffersAreReusedWithoutLeakingEarlierBytes() {
        EmbeddedChannel ch = channel();
        assertEquals("$6\r\nlonger\r\n", exchange(ch, "*2\r\n$4\r\nECHO\r\n$6\r\nlonger\r\n"));
        assertEquals("$1\r\nx\r\n", exchange(ch, "*2\r\n$4\r\nECHO\r\n$1\r\nx\r\n"));
        assertEquals("$2\r\nyz\r\n", exchange(ch, "ECHO yz\r\n"));
        ch.finishAndReleaseAll();
    }

    @Test
    void malformedFramesAreProtocolErrorsNamingTheProblem() {
        String[][] cases = {
            {"*1\r\n$-1\r\n", "invalid bulk length"},
            {"*1\r\n$4x\r\nPING\r\n", "invalid bulk length"},
            {"*-5\r\n", "invalid multibulk length"},
            {"*1x\r\n", "invalid multibulk length"},
            {"*1025\r\n", "invalid multibulk length"}, // the channel's limit is 1024 arguments
            {"*1\r\n$4\r\nPINGxx", "expected CRLF after a bulk string of 4 bytes"},
            {"*2\r\n$4\r\nECHO\r\n:1\r\n", "expected '$', got ':'"},
            {"ECHO \"open\r\n", "unbalanced quotes in request"},
        };
        for (String[] c : cases) {
            EmbeddedChannel ch = channel();
            assertEquals("-ERR Protocol error: " + c[1] + "\r\n", exchange(ch, c[0]), c[0]);
            assertFalse(ch.isActive(), c[0]);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void inlineLineWithoutEndIsRefusedPastTheInlineLimit() {
        EmbeddedChannel ch = channel();
        assertEquals("", exchange(ch, "a".repeat(RequestParser.INLINE_MAX)));
        assertTrue(ch.isActive());
        assertEquals("-ERR Protocol error: too big inline request\r\n", exchange(ch, "aa"));
        assertFalse(ch.isActive());
        ch.finishAndReleaseAll();
    }
}
