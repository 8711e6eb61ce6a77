package io.respsql.it;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real RESP3 clients against the server: redis-cli -3, lettuce with its defaults, jedis with RESP3. */
class Resp3ClientsTest extends ServerTestBase {
    private static String cli(String... args) {
        RedisCli.assumeAvailable();
        RedisCli.Result r = RedisCli.run(server, List.of(args));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    @Test
    void redisCliThreeShowsResp3Types() {
        // --no-raw: redis-cli prints each reply's RESP3 type (maps as "1# k => v", nulls as (nil)).
        String hello = cli("-3", "--no-raw", "HELLO", "3");
        assertTrue(hello.startsWith("1# \"server\" => \"respsql\"\n2# \"version\" => \"7.2.0\"\n3# \"proto\" => (integer) 3\n"),
                hello);
        assertTrue(hello.endsWith("7# \"modules\" => (empty array)\n"), hello);
        assertEquals("1# \"maxclients\" => \"10000\"\n", cli("-3", "--no-raw", "CONFIG", "GET", "maxclients"));
        assertEquals("(nil)\n", cli("-3", "--no-raw", "CLIENT", "GETNAME"));
        assertEquals("(error) NOPROTO unsupported protocol version\n", cli("-3", "--no-raw", "HELLO", "4"));
        // The same under RESP2: a flat array and a null bulk.
        assertEquals("1) \"maxclients\"\n2) \"10000\"\n", cli("-2", "--no-raw", "CONFIG", "GET", "maxclients"));
        // A verbatim string is printed as its text, without the "txt:" format (and its CRLFs kept).
        String info = cli("-3", "--no-raw", "INFO", "server");
        assertTrue(info.startsWith("# Server\r\n"), info);
        assertTrue(info.contains("\r\ntcp_port:" + server.port() + "\r\n"), info);
        String me = cli("-3", "CLIENT", "INFO");
        assertTrue(me.contains(" resp=3 "), me);
    }

    @Test
    void redisCliThreeRunsSql() {
        assertEquals("OK\n", cli("-3", "CREATE", "TABLE", "cli3", "(id int primary key, name text)"));
        assertEquals("OK\n", cli("-3", "INSERT", "INTO", "cli3", "VALUES", "(1,ann),(2,bob)"));
        assertEquals("1,ann\n2,bob\n", cli("-3", "SELECT", "*", "FROM", "cli3", "ORDER", "BY", "id"));
        assertEquals("1) \"1,ann\"\n2) \"2,bob\"\n", cli("-3", "--no-raw", "SELECT", "*", "FROM", "cli3", "ORDER", "BY", "id"));
        assertEquals("(integer) 2\n", cli("-3", "--no-raw", "SELECT", "COUNT(*)", "FROM", "cli3"));
        assertEquals("(empty array)\n", cli("-3", "--no-raw", "SELECT", "*", "FROM", "cli3", "WHERE", "id", "=", "7"));
        assertEquals("2\n", cli("-3", "DROP", "TABLE", "cli3"));
    }

    @Test
    void lettuceDefaultsSpeakResp3() {
        RedisClient client = server.lettuceClient();
        try (StatefulRedisConnection<String, String> conn = client.connect()) {
            RedisCommands<String, String> sync = conn.sync();
            assertEquals("PONG", sync.ping());
            assertTrue(sync.clientInfo().contains(" resp=3 "), sync.clientInfo());
            assertEquals(Map.of("maxclients", "10000"), sync.configGet("maxclients"));
            assertEquals(Map.of("port", Integer.toString(server.port()), "maxclients", "10000"),
                    sync.configGet("port", "maxclients"));
            String info = sync.info("server");
            assertTrue(info.startsWith("# Server\r\n"), info); // the verbatim "txt:" prefix is lettuce's to strip
            assertNull(sync.clientGetname());

            assertEquals("OK", TestServer.dispatch(sync, "CREATE", "TABLE", "let3", "(id int primary key, v float, name text)"));
            assertEquals("OK", TestServer.dispatch(sync, "SQL", "INSERT INTO let3 VALUES (1, 1.5, 'ann'), (2, 3, 'bob')"));
            assertEquals(List.of("1,1.5,ann", "2,3,bob"), TestServer.dispatch(sync, "SELECT", "*", "FROM", "let3", "ORDER", "BY", "id"));
            assertEquals(2L, TestServer.dispatch(sync, "SELECT", "COUNT(*)", "FROM", "let3"));
            assertEquals(List.of(), TestServer.dispatch(sync, "SELECT", "*", "FROM", "let3", "WHERE", "id", "=", "9"));
            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                    () -> TestServer.dispatch(sync, "SELECT", "nope", "FROM", "let3"));
            assertTrue(e.getMessage().startsWith("ERR "), e.getMessage());
            assertEquals(2L, TestServer.dispatch(sync, "DROP", "TABLE", "let3"));
        }
    }

    private static Jedis jedisResp3() {
        return new Jedis(new HostAndPort(TestServer.HOST, server.port()),
                DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).timeoutMillis(30_000).build());
    }

    private static List<String> strings(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            out.add(new String((byte[]) o, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void jedisWithResp3() {
        try (Jedis jedis = jedisResp3()) {
            assertEquals("PONG", jedis.ping());
            assertTrue(jedis.clientInfo().startsWith("txt:id=") && jedis.clientInfo().contains(" resp=3 "), jedis.clientInfo());
            assertEquals(Map.of("maxclients", "10000"), jedis.configGet("maxclients"));
            // jedis hands verbatim strings over with their format prefix: the same with redis-server 7.
            String info = jedis.info("server");
            assertTrue(info.startsWith("txt:# Server\r\n"), info);
            assertTrue(info.contains("\r\ntcp_port:" + server.port() + "\r\n"), info);
            assertNull(jedis.clientGetname());

            assertEquals("OK", new String((byte[]) jedis.sendCommand(() -> "CREATE".getBytes(), "TABLE", "jed3",
                    "(id int primary key, name text)"), StandardCharsets.UTF_8));
            jedis.sendCommand(() -> "INSERT".getBytes(), "INTO", "jed3", "VALUES", "(1,'ann'),(2,'bob')");
            assertEquals(List.of("1,ann", "2,bob"),
                    strings(jedis.sendCommand(() -> "SELECT".getBytes(), "*", "FROM", "jed3", "ORDER", "BY", "id")));
            assertEquals(2L, jedis.sendCommand(() -> "SELECT".getBytes(), "COUNT(*)", "FROM", "jed3"));
            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> jedis.sendCommand(() -> "SELECT".getBytes(), "nope", "FROM", "jed3"));
            assertTrue(e.getMessage().startsWith("ERR "), e.getMessage());
            assertEquals(2L, jedis.sendCommand(() -> "DROP".getBytes(), "TABLE", "jed3"));
        }
    }
}
