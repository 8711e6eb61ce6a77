package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SLOWLOG GET / LEN / RESET / HELP and the slowlog-* configuration keys, over the wire. */
class SlowlogTest {
    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Stops logging (this CONFIG SET is not logged either), so that reading the log does not add to it. */
    private void stopLogging() {
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "-1");
    }

    private List<?> entries(String count) {
        return (List<?>) (count == null ? server.dispatch("SLOWLOG", "GET") : server.dispatch("SLOWLOG", "GET", count));
    }

    private static List<?> args(Object entry) {
        return (List<?>) ((List<?>) entry).get(3);
    }

    @Test
    void defaultsAndConfigKeys() {
        assertEquals(List.of("slowlog-log-slower-than", "10000"),
                server.dispatch("CONFIG", "GET", "slowlog-log-slower-than"));
        assertEquals(List.of("slowlog-max-len", "128"), server.dispatch("CONFIG", "GET", "slowlog-max-len"));
        assertEquals("OK", server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "-1", "slowlog-max-len", "5"));
        assertEquals(List.of("slowlog-log-slower-than", "-1", "slowlog-max-len", "5"),
                server.dispatch("CONFIG", "GET", "slowlog-*"));
        assertThrows(RedisCommandExecutionException.class,
                () -> server.dispatch("CONFIG", "SET", "slowlog-max-len", "-3"));
        assertThrows(RedisCommandExecutionException.class,
                () -> server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "fast"));
        assertEquals(List.of("slowlog-max-len", "5"), server.dispatch("CONFIG", "GET", "slowlog-max-len"));
        assertEquals(0L, server.dispatch("SLOWLOG", "LEN"));
        List<?> help = (List<?>) server.dispatch("SLOWLOG", "HELP");
        assertTrue(help.get(0).toString().startsWith("SLOWLOG <subcommand>"), help.toString());
    }

    @Test
    void thresholdZeroLogsEveryCommandWithItsArguments() {
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");
        StatefulRedisConnection<String, String> conn = server.newLettuceConnection();
        RedisCommands<String, String> c = conn.sync();
        TestServer.dispatch(c, "CLIENT", "SETNAME", "reporter");
        TestServer.dispatch(c, "ECHO", "hello");
        TestServer.dispatch(c, "PING");
        stopLogging();

        List<?> two = entries("2");
        assertEquals(2, two.size());
        List<?> ping = (List<?>) two.get(0);
        List<?> echo = (List<?>) two.get(1);
        assertEquals(List.of("PING"), args(ping));
        assertEquals(List.of("ECHO", "hello"), args(echo));
        assertEquals(6, ping.size());
        assertTrue((Long) ping.get(0) > (Long) echo.get(0), "ids grow");
        long now = System.currentTimeMillis() / 1000;
        assertTrue(Math.abs((Long) ping.get(1) - now) <= 5, "unix time " + ping.get(1));
        assertTrue((Long) ping.get(2) >= 0);
        assertTrue(ping.get(4).toString().matches("127\\.0\\.0\\.1:\\d+"), ping.get(4).toString());
        assertEquals("reporter", ping.get(5));

        assertTrue((Long) server.dispatch("SLOWLOG", "LEN") >= 4);
        assertEquals(entries("-1").size(), ((Long) server.dispatch("SLOWLOG", "LEN")).intValue());
        assertThrows(RedisCommandExecutionException.class, () -> server.dispatch("SLOWLOG", "GET", "-2"));

        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");
        assertEquals("OK", server.dispatch("SLOWLOG", "RESET"));
        // the RESET itself is logged once it has run
        stopLogging();
        assertEquals(1L, server.dispatch("SLOWLOG", "LEN"));
        assertEquals(List.of("SLOWLOG", "RESET"), args(entries(null).get(0)));
        conn.close();
    }

    @Test
    void passwordsNeverReachTheLog() throws Exception {
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");
        server.dispatch("CONFIG", "SET", "requirepass", "s3cret");
        try (RespConnection raw = server.raw()) {
            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n", raw.call("AUTH", "wrong"));
            assertEquals("+OK\r\n", raw.call("AUTH", "default", "s3cret"));
            assertTrue(raw.call("HELLO", "2", "AUTH", "default", "s3cret").startsWith("*"));
            assertEquals("+PONG\r\n", raw.call("PING"));
        }
        stopLogging();
        for (Object entry : entries("-1")) {
            String logged = args(entry).toString();
            assertFalse(logged.contains("s3cret") || logged.contains("wrong"), logged);
        }
        assertTrue(entries("-1").stream().anyMatch(e -> args(e).equals(List.of("PING"))), "PING is logged");
        assertTrue(entries("-1").stream().anyMatch(e -> args(e).equals(List.of("CONFIG", "SET", "requirepass", "(redacted)"))),
                "CONFIG SET requirepass is logged with its value redacted");
    }

    @Test
    void getDefaultsToTenEntries() {
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");
        for (int i = 0; i < 15; i++) {
            server.dispatch("ECHO", "m" + i);
        }
        stopLogging();
        assertEquals(10, entries(null).size());
        assertEquals(16, entries("-1").size());
        assertEquals(3, entries("3").size());
    }

    @Test
    void maxLenKeepsTheNewestEntries() {
        server.dispatch("CONFIG", "SET", "slowlog-max-len", "3", "slowlog-log-slower-than", "0");
        for (int i = 0; i < 10; i++) {
            server.dispatch("ECHO", "m" + i);
        }
        stopLogging();
        List<?> all = entries("-1");
        assertEquals(3, all.size());
        assertEquals(List.of("ECHO", "m9"), args(all.get(0)));
        assertEquals(List.of("ECHO", "m8"), args(all.get(1)));
        assertEquals(List.of("ECHO", "m7"), args(all.get(2)));
        assertEquals(3L, server.dispatch("SLOWLOG", "LEN"));

        // growing keeps what is there; the oldest goes once the new length is reached
        server.dispatch("CONFIG", "SET", "slowlog-max-len", "5", "slowlog-log-slower-than", "0");
        server.dispatch("ECHO", "after");
        stopLogging();
        List<?> grown = entries("-1");
        assertEquals(5, grown.size());
        assertEquals(List.of("ECHO", "after"), args(grown.get(0)));
        assertEquals(List.of("CONFIG", "SET", "slowlog-max-len", "5", "slowlog-log-slower-than", "0"),
                args(grown.get(1)));
        assertEquals(List.of("ECHO", "m9"), args(grown.get(2)));
        assertEquals(List.of("ECHO", "m7"), args(grown.get(4)));

        // shrinking keeps the newest
        server.dispatch("CONFIG", "SET", "slowlog-max-len", "2", "slowlog-log-slower-than", "0");
        server.dispatch("ECHO", "last");
        stopLogging();
        List<?> shrunk = entries("-1");
        assertEquals(2, shrunk.size());
        assertEquals(List.of("ECHO", "last"), args(shrunk.get(0)));
    }

    @Test
    void longArgumentsAndManyArgumentsAreTruncated() {
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");
        String longArg = "x".repeat(200);
        server.dispatch("ECHO", longArg);
        stopLogging();
        assertEquals(List.of("ECHO", "x".repeat(128) + "... (72 more bytes)"), args(entries("1").get(0)));
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");

        String[] many = new String[40];
        many[0] = "PING";
        for (int i = 1; i < many.length; i++) {
            many[i] = "a" + i;
        }
        assertThrows(RedisCommandExecutionException.class, () -> server.dispatch(many));
        stopLogging();
        List<?> kept = args(entries("1").get(0));
        assertEquals(32, kept.size());
        assertEquals("a30", kept.get(30));
        assertEquals("... (9 more arguments)", kept.get(31));
    }

    @Test
    void negativeThresholdDisables() {
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "0");
        server.dispatch("PING");
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "-1");
        long len = (Long) server.dispatch("SLOWLOG", "LEN");
        for (int i = 0; i < 5; i++) {
            server.dispatch("PING");
        }
        assertEquals(len, server.dispatch("SLOWLOG", "LEN"));
    }

    @Test
    void aFullScanOverManyRowsIsLoggedAboveTheThreshold() {
        StatefulRedisConnection<String, String> conn = server.newLettuceConnection();
        assertEquals("OK", server.dispatch("CREATE", "TABLE", "big", "(id int primary key, v int)"));
        List<String[]> inserts = new ArrayList<>();
        for (int from = 1; from <= 200_000; from += 1_000) {
            inserts.add(new String[] {"SQL", SqlText.insert("big", from, from + 999, n -> n + "," + n % 7)});
        }
        for (Object reply : Pipeline.run(conn, inserts)) {
            assertEquals("OK", reply);
        }
        server.dispatch("CONFIG", "SET", "slowlog-log-slower-than", "1000");
        // 200,000 rows is above bg-query-min-rows: the scan would run on a worker and the slowlog
        // would time only its event-loop part (planning, the read view), under 1 ms in a warm JVM.
        // This test is about a scan on the event loop, so it keeps the query there.
        assertEquals("OK", server.dispatch("CONFIG", "SET", "bg-query-min-rows", "0"));
        server.dispatch("SLOWLOG", "RESET");
        assertEquals(200_000L / 7 + 1, server.dispatch("SELECT", "COUNT(*)", "FROM", "big", "WHERE", "v", "=", "3"));

        List<?> found = new ArrayList<>();
        for (Object e : entries("-1")) {
            if (args(e).equals(List.of("SELECT", "COUNT(*)", "FROM", "big", "WHERE", "v", "=", "3"))) {
                ((List<Object>) found).add(e);
            }
        }
        assertEquals(1, found.size(), "entries: " + entries("-1"));
        assertTrue((Long) ((List<?>) found.get(0)).get(2) >= 1000, "duration " + found.get(0));
        conn.close();
    }
}
