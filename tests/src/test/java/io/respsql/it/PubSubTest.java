package io.respsql.it;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pub/Sub over the wire, byte for byte as Redis 7.0 answers (checked against redis-server 7.0.15). */
class PubSubTest extends ServerTestBase {
    private static final String PONG_IN_PUBSUB = "*2\r\n$4\r\npong\r\n$0\r\n\r\n";

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    private static String confirm(String kind, String name, int count) {
        return "*3\r\n" + bulk(kind) + (name == null ? "$-1\r\n" : bulk(name)) + ":" + count + "\r\n";
    }

    private static String message(String channel, String payload) {
        return "*3\r\n" + bulk("message") + bulk(channel) + bulk(payload);
    }

    private static String pmessage(String pattern, String channel, String payload) {
        return "*4\r\n" + bulk("pmessage") + bulk(pattern) + bulk(channel) + bulk(payload);
    }

    /** Everything the subscriber received before the answer to a PING sent now (its messages come first). */
    private static List<String> drain(RespConnection sub) throws IOException {
        sub.sendCommand("PING");
        List<String> frames = new ArrayList<>();
        for (String f = sub.readReply(); !f.equals(PONG_IN_PUBSUB); f = sub.readReply()) {
            frames.add(f);
        }
        return frames;
    }

    @Test
    void subscribeConfirmsEachChannelWithTheCount() throws Exception {
        try (RespConnection c = server.raw()) {
            c.sendCommand("SUBSCRIBE", "a", "b", "a");
            assertEquals(confirm("subscribe", "a", 1), c.readReply());
            assertEquals(confirm("subscribe", "b", 2), c.readReply());
            assertEquals(confirm("subscribe", "a", 2), c.readReply()); // again: still two
            c.sendCommand("PSUBSCRIBE", "h*", "x?");
            assertEquals(confirm("psubscribe", "h*", 3), c.readReply());
            assertEquals(confirm("psubscribe", "x?", 4), c.readReply());
            assertEquals(confirm("unsubscribe", "zz", 4), c.call("UNSUBSCRIBE", "zz"));
            c.sendCommand("UNSUBSCRIBE");
            assertEquals(confirm("unsubscribe", "a", 3), c.readReply());
            assertEquals(confirm("unsubscribe", "b", 2), c.readReply());
            // Nothing left of that kind: one confirmation with a null name.
            assertEquals(confirm("unsubscribe", null, 2), c.call("UNSUBSCRIBE"));
            c.sendCommand("PUNSUBSCRIBE");
            assertEquals(confirm("punsubscribe", "h*", 1), c.readReply());
            assertEquals(confirm("punsubscribe", "x?", 0), c.readReply());
            // Out of Pub/Sub mode: plain replies again.
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals(confirm("punsubscribe", null, 0), c.call("PUNSUBSCRIBE"));
            assertEquals(confirm("unsubscribe", null, 0), c.call("UNSUBSCRIBE"));
            assertEquals("$2\r\nhi\r\n", c.call("ECHO", "hi"));
        }
    }

    @Test
    void publishCountsReceiversAndDeliversMessagesAndPatternMessages() throws Exception {
        try (RespConnection pub = server.raw(); RespConnection s1 = server.raw(); RespConnection s2 = server.raw()) {
            assertEquals(":0\r\n", pub.call("PUBLISH", "news.tech", "nobody listens"));
            assertEquals(confirm("subscribe", "news.tech", 1), s1.call("SUBSCRIBE", "news.tech"));
            assertEquals(confirm("psubscribe", "news.*", 2), s1.call("PSUBSCRIBE", "news.*"));
            assertEquals(confirm("psubscribe", "news.*", 1), s2.call("PSUBSCRIBE", "news.*"));
            // s1 twice (channel and pattern), s2 once.
            assertEquals(":3\r\n", pub.call("PUBLISH", "news.tech", "hello world"));
            assertEquals(List.of(message("news.tech", "hello world"), pmessage("news.*", "news.tech", "hello world")),
                    drain(s1));
            assertEquals(List.of(pmessage("news.*", "news.tech", "hello world")), drain(s2));
            assertEquals(":2\r\n", pub.call("PUBLISH", "news.sport", ""));
            assertEquals(List.of(pmessage("news.*", "news.sport", "")), drain(s1));
            assertEquals(List.of(pmessage("news.*", "news.sport", "")), drain(s2));
            assertEquals(":0\r\n", pub.call("PUBLISH", "weather", "rain"));
            assertEquals(List.of(), drain(s1));
            // Payloads are binary-safe bulk strings.
            String odd = "line1\r\n$5\r\nline2\t\u0001";
            assertEquals(":2\r\n", pub.call("PUBLISH", "news.odd", odd));
            assertEquals(List.of(pmessage("news.*", "news.odd", odd)), drain(s1));
            assertEquals(List.of(pmessage("news.*", "news.odd", odd)), drain(s2));
        }
    }

    @Test
    void patternsMatchAsRedisGlobs() throws Exception {
        String[] patterns = {"h?llo", "h*llo", "h[ae]llo", "h[^e]llo", "h[a-b]llo", "a\\*b", "*"};
        try (RespConnection pub = server.raw(); RespConnection sub = server.raw()) {
            sub.sendCommand(prefixed("PSUBSCRIBE", patterns));
            for (int i = 0; i < patterns.length; i++) {
                assertEquals(confirm("psubscribe", patterns[i], i + 1), sub.readReply());
            }
            assertMatched(pub, sub, "hello", "h?llo", "h*llo", "h[ae]llo", "*");
            assertMatched(pub, sub, "hallo", "h?llo", "h*llo", "h[ae]llo", "h[^e]llo", "h[a-b]llo", "*");
            assertMatched(pub, sub, "hxxllo", "h*llo", "*");
            assertMatched(pub, sub, "Hello", "*"); // case-sensitive
            assertMatched(pub, sub, "a*b", "a\\*b", "*");
            assertMatched(pub, sub, "axb", "*");
            assertMatched(pub, sub, "", "*");
        }
    }

    private static String[] prefixed(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static void assertMatched(RespConnection pub, RespConnection sub, String channel, String... expected)
            throws IOException {
        assertEquals(":" + expected.length + "\r\n", pub.call("PUBLISH", channel, "m"), "receivers of '" + channel + "'");
        List<String> want = new ArrayList<>();
        for (String p : expected) {
            want.add(pmessage(p, channel, "m"));
        }
        assertEquals(want, drain(sub), "messages for '" + channel + "'");
    }

    @Test
    void aSubscribedConnectionAcceptsOnlyTheSubscribeFamilyPingQuitAndReset() throws Exception {
        try (RespConnection c = server.raw(); RespConnection pub = server.raw()) {
            assertEquals(confirm("subscribe", "a", 1), c.call("SUBSCRIBE", "a"));
            String only = "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n";
            assertEquals("-ERR Can't execute 'select" + only, c.call("SELECT", "*", "FROM", "t"));
            assertEquals("-ERR Can't execute 'client|list" + only, c.call("CLIENT", "LIST"));
            assertEquals("-ERR Can't execute 'pubsub|numpat" + only, c.call("PUBSUB", "NUMPAT"));
            assertEquals("-ERR Can't execute 'publish" + only, c.call("PUBLISH", "a", "x"));
            // Arity is checked first, as Redis does.
            assertEquals("-ERR wrong number of arguments for 'subscribe' command\r\n", c.call("SUBSCRIBE"));
            assertEquals(PONG_IN_PUBSUB, c.call("PING"));
            assertEquals("*2\r\n$4\r\npong\r\n$2\r\nhi\r\n", c.call("PING", "hi"));
            // The rejected PUBLISH delivered nothing; the connection still receives.
            assertEquals(":1\r\n", pub.call("PUBLISH", "a", "still here"));
            assertEquals(List.of(message("a", "still here")), drain(c));
            assertTrue(pub.call("CLIENT", "LIST").matches("(?s).*flags=P db=0 sub=1 psub=0 .*"));
            assertEquals("+RESET\r\n", c.call("RESET"));
            assertEquals(":0\r\n", pub.call("PUBLISH", "a", "gone"));
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals(confirm("psubscribe", "p*", 1), c.call("PSUBSCRIBE", "p*"));
            assertEquals("+OK\r\n", c.call("QUIT"));
            assertTrue(c.awaitClosedByServer(10_000));
            awaitNumpat(pub, 0);
        }
    }

    @Test
    void pubsubIntrospection() throws Exception {
        try (RespConnection q = server.raw(); RespConnection a = server.raw(); RespConnection b = server.raw()) {
            a.sendCommand("SUBSCRIBE", "chan:1", "chan:2", "other");
            for (int i = 0; i < 3; i++) {
                a.readReply();
            }
            String bAddr = b.call("CLIENT", "INFO").replaceAll("(?s).* addr=(\\S+) .*", "$1");
            assertEquals(confirm("subscribe", "chan:1", 1), b.call("SUBSCRIBE", "chan:1"));
            assertEquals(confirm("psubscribe", "p.*", 2), b.call("PSUBSCRIBE", "p.*"));
            assertEquals(confirm("psubscribe", "p.*", 4), a.call("PSUBSCRIBE", "p.*"));
            assertEquals(confirm("psubscribe", "q.*", 5), a.call("PSUBSCRIBE", "q.*"));
            assertEquals(List.of("chan:1", "chan:2", "other"), sortedBulks(q.call("PUBSUB", "CHANNELS")));
            assertEquals(List.of("chan:1", "chan:2"), sortedBulks(q.call("PUBSUB", "CHANNELS", "chan:*")));
            assertEquals("*0\r\n", q.call("PUBSUB", "CHANNELS", "nothing*"));
            assertEquals("*6\r\n" + bulk("chan:1") + ":2\r\n" + bulk("other") + ":1\r\n" + bulk("p.x") + ":0\r\n",
                    q.call("PUBSUB", "NUMSUB", "chan:1", "other", "p.x"));
            assertEquals("*0\r\n", q.call("PUBSUB", "NUMSUB"));
            assertEquals(":2\r\n", q.call("PUBSUB", "NUMPAT")); // distinct patterns
            assertEquals("-ERR wrong number of arguments for 'pubsub|numpat' command\r\n", q.call("PUBSUB", "NUMPAT", "x"));
            assertEquals("-ERR unknown subcommand 'FOO'. Try PUBSUB HELP.\r\n", q.call("PUBSUB", "FOO"));
            assertEquals("-ERR wrong number of arguments for 'publish' command\r\n", q.call("PUBLISH", "a"));
            // A client that goes away leaves no subscription behind.
            a.close();
            awaitNumsub(q, "chan:1", 1);
            assertEquals(List.of("chan:1"), sortedBulks(q.call("PUBSUB", "CHANNELS")));
            assertEquals(":1\r\n", q.call("PUBSUB", "NUMPAT"));
            // CLIENT KILL of a subscriber drops its subscriptions at once.
            assertEquals("+OK\r\n", q.call("CLIENT", "KILL", bAddr));
            assertEquals("*0\r\n", q.call("PUBSUB", "CHANNELS"));
            assertEquals(":0\r\n", q.call("PUBSUB", "NUMPAT"));
        }
    }

    private static List<String> sortedBulks(String reply) {
        List<String> out = new ArrayList<>();
        String[] lines = reply.split("\r\n");
        for (int i = 1; i < lines.length; i += 2) {
            out.add(lines[i + 1]);
        }
        out.sort(null);
        return out;
    }

    private static void awaitNumsub(RespConnection q, String channel, int n) throws Exception {
        String want = "*2\r\n" + bulk(channel) + ":" + n + "\r\n";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String got;
        while (!(got = q.call("PUBSUB", "NUMSUB", channel)).equals(want)) {
            assertTrue(System.nanoTime() < deadline, "NUMSUB still " + got);
            Thread.onSpinWait();
        }
    }

    private static void awaitNumpat(RespConnection q, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String got;
        while (!(got = q.call("PUBSUB", "NUMPAT")).equals(":" + n + "\r\n")) {
            assertTrue(System.nanoTime() < deadline, "NUMPAT still " + got);
            Thread.onSpinWait();
        }
    }

    /**
     * A subscriber that never reads is disconnected by the pubsub output limit, while the publisher
     * is answered at once throughout: delivery never waits for a subscriber.
     */
    @Test
    void aSubscriberThatDoesNotReadIsCutOffByThePubsubOutputLimit() throws Exception {
        try (RespConnection admin = server.raw(); Socket slow = new Socket()) {
            long before = statsField(admin, "client_output_buffer_limit_disconnections");
            assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 256kb 60"));
            slow.setReceiveBufferSize(64 * 1024);
            slow.connect(new InetSocketAddress(TestServer.HOST, server.port()), 10_000);
            OutputStream o = slow.getOutputStream();
            o.write(RespConnection.encode("SUBSCRIBE", "firehose"));
            o.flush();
            InputStream in = slow.getInputStream();
            byte[] first = in.readNBytes(confirm("subscribe", "firehose", 1).length());
            assertEquals(confirm("subscribe", "firehose", 1), new String(first));
            String payload = "x".repeat(64 * 1024);
            int published = 0;
            long worstNanos = 0;
            // Far more than the limit plus the kernel's socket buffers: the server must cut it off.
            while (published < 400 && !admin.call("PUBSUB", "NUMSUB", "firehose").endsWith(":0\r\n")) {
                long t0 = System.nanoTime();
                String r = admin.call("PUBLISH", "firehose", payload);
                worstNanos = Math.max(worstNanos, System.nanoTime() - t0);
                assertTrue(r.equals(":1\r\n") || r.equals(":0\r\n"), r);
                published++;
            }
            assertTrue(published < 400, "the slow subscriber was never disconnected");
            assertEquals(before + 1, statsField(admin, "client_output_buffer_limit_disconnections"));
            assertTrue(worstNanos < TimeUnit.SECONDS.toNanos(5), "a PUBLISH waited " + worstNanos / 1_000_000 + " ms");
            assertEquals(":0\r\n", admin.call("PUBLISH", "firehose", "after"));
        } finally {
            try (RespConnection admin = server.raw()) {
                admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 32mb 8mb 60");
            }
        }
    }

    private static long statsField(RespConnection c, String field) throws IOException {
        String info = c.call("INFO", "stats");
        return Long.parseLong(info.replaceAll("(?s).*" + field + ":(\\d+).*", "$1"));
    }

    /** What Sentinel's failover sends: CLIENT KILL TYPE normal, then TYPE pubsub; subscribers are their own class. */
    @Test
    void clientListAndKillByType() throws Exception {
        try (TestServer own = TestServer.start(); RespConnection admin = own.raw(); RespConnection normal = own.raw();
             RespConnection sub = own.raw()) {
            long subId = Long.parseLong(sub.call("CLIENT", "ID").substring(1).trim());
            long normalId = Long.parseLong(normal.call("CLIENT", "ID").substring(1).trim());
            assertEquals(confirm("subscribe", "x", 1), sub.call("SUBSCRIBE", "x"));
            String pubsubList = admin.call("CLIENT", "LIST", "TYPE", "pubsub");
            assertTrue(pubsubList.contains("id=" + subId + " ") && !pubsubList.contains("id=" + normalId + " "), pubsubList);
            assertTrue(!admin.call("CLIENT", "LIST", "TYPE", "normal").contains("id=" + subId + " "));
            assertEquals("$0\r\n\r\n", admin.call("CLIENT", "LIST", "TYPE", "replica"));
            assertEquals("-ERR Unknown client type 'bogus'\r\n", admin.call("CLIENT", "KILL", "TYPE", "bogus"));
            assertEquals(":0\r\n", admin.call("CLIENT", "KILL", "TYPE", "master"));
            // The caller is spared (SKIPME yes), the subscriber is not of type normal.
            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "TYPE", "normal"));
            assertTrue(normal.awaitClosedByServer(10_000));
            assertEquals(List.of(), drain(sub));
            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "TYPE", "pubsub"));
            assertTrue(sub.awaitClosedByServer(10_000));
            assertEquals(":0\r\n", admin.call("PUBLISH", "x", "nobody"));
        }
    }

    /** lettuce's Pub/Sub connection (RESP3 handshake refused, so RESP2 arrays) receives both kinds of message. */
    @Test
    void lettucePubSub() throws Exception {
        BlockingQueue<String> got = new ArrayBlockingQueue<>(10);
        try (StatefulRedisPubSubConnection<String, String> c = server.lettuceClient().connectPubSub()) {
            c.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    got.add("message " + channel + " " + message);
                }

                @Override
                public void message(String pattern, String channel, String message) {
                    got.add("pmessage " + pattern + " " + channel + " " + message);
                }
            });
            c.sync().subscribe("lc");
            c.sync().psubscribe("l*");
            assertEquals(2L, server.lettuce().publish("lc", "v1"));
            assertEquals("message lc v1", got.poll(10, TimeUnit.SECONDS));
            assertEquals("pmessage l* lc v1", got.poll(10, TimeUnit.SECONDS));
            assertEquals(1L, server.lettuce().pubsubNumsub("lc").get("lc"));
            c.sync().unsubscribe("lc");
            c.sync().punsubscribe("l*");
            assertEquals(0L, server.lettuce().publish("lc", "v2"));
        }
    }
}
