package io.respsql.it;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** requirepass, AUTH, HELLO ... AUTH and the per-connection authentication state. */
class AuthTest {
    private static final String PASSWORD = "s3cret pass";
    private static final String NOAUTH = "-NOAUTH Authentication required.\r\n";
    private static final String WRONGPASS = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(c -> c.requirePass(PASSWORD));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void everyCommandButAuthHelloAndQuitNeedsAuthentication() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals(NOAUTH, c.call("PING"));
            assertEquals(NOAUTH, c.call("ECHO", "x"));
            assertEquals(NOAUTH, c.call("CREATE", "TABLE", "t", "(id int primary key)"));
            assertEquals(NOAUTH, c.call("SELECT", "*", "FROM", "t"));
            assertEquals(NOAUTH, c.call("SQL", "SELECT 1"));
            assertEquals(NOAUTH, c.call("CONFIG", "GET", "requirepass"));
            assertEquals(NOAUTH, c.call("CONFIG", "SET", "requirepass", ""));
            assertEquals(NOAUTH, c.call("FLUSHALL"));
            assertEquals(NOAUTH, c.call("CLIENT", "LIST"));
            assertEquals(NOAUTH, c.call("INFO"));
            assertEquals(NOAUTH, c.call("COMMAND", "COUNT"));
            // As Redis: an unknown command and a wrong arity are reported before the lock.
            assertTrue(c.call("NOSUCHCOMMAND").startsWith("-ERR unknown command 'NOSUCHCOMMAND'"));
            assertEquals("-ERR wrong number of arguments for 'echo' command\r\n", c.call("ECHO"));
            assertEquals("+OK\r\n", c.call("AUTH", PASSWORD));
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "t", "(id int primary key)"));
            assertEquals("+OK\r\n", c.call("QUIT"));
        }
    }

    @Test
    void quitWorksBeforeAuthentication() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("QUIT"));
            assertTrue(c.awaitClosedByServer(10_000));
        }
    }

    @Test
    void authWithDefaultUserName() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("AUTH", "default", PASSWORD));
            assertEquals("+PONG\r\n", c.call("PING"));
        }
    }

    @Test
    void wrongPasswordOrUserIsRefused() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals(WRONGPASS, c.call("AUTH", "wrong"));
            assertEquals(WRONGPASS, c.call("AUTH", "default", "wrong"));
            assertEquals(WRONGPASS, c.call("AUTH", "alice", PASSWORD));
            assertEquals(WRONGPASS, c.call("AUTH", PASSWORD + "x"));
            assertEquals(WRONGPASS, c.call("AUTH", ""));
            assertEquals("-ERR syntax error\r\n", c.call("AUTH", "default", PASSWORD, "extra"));
            assertEquals("-ERR wrong number of arguments for 'auth' command\r\n", c.call("AUTH"));
            assertEquals(NOAUTH, c.call("PING"));
        }
    }

    @Test
    void authWithoutConfiguredPassword() throws Exception {
        try (TestServer open = TestServer.start(); RespConnection c = open.raw()) {
            assertEquals("-ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?\r\n", c.call("AUTH", "anything"));
            // As Redis's nopass default user: the two-argument form accepts any password.
            assertEquals("+OK\r\n", c.call("AUTH", "default", "anything"));
            assertEquals(WRONGPASS, c.call("AUTH", "alice", "anything"));
            assertEquals("+PONG\r\n", c.call("PING"));
        }
    }

    @Test
    void helloAuthenticates() throws Exception {
        try (RespConnection c = server.raw()) {
            String reply = c.call("HELLO", "2", "AUTH", "default", PASSWORD, "SETNAME", "app1");
            assertTrue(reply.startsWith("*14\r\n$6\r\nserver\r\n"), reply);
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals("$4\r\napp1\r\n", c.call("CLIENT", "GETNAME"));
        }
    }

    @Test
    void helloWithWrongPasswordChangesNothing() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals(WRONGPASS, c.call("HELLO", "2", "AUTH", "default", "wrong", "SETNAME", "app1"));
            assertEquals(WRONGPASS, c.call("HELLO", "2", "AUTH", "bob", PASSWORD));
            assertEquals(NOAUTH, c.call("PING"));
            assertEquals("+OK\r\n", c.call("AUTH", PASSWORD));
            assertEquals("$-1\r\n", c.call("CLIENT", "GETNAME"));
        }
    }

    @Test
    void helloWithoutAuthIsRefusedUntilAuthenticated() throws Exception {
        try (RespConnection c = server.raw()) {
            String reply = c.call("HELLO", "2");
            assertTrue(reply.startsWith("-NOAUTH HELLO must be called with the client already authenticated"), reply);
            // The protocol version is checked before the credentials, as in Redis.
            assertTrue(c.call("HELLO", "4", "AUTH", "default", PASSWORD).startsWith("-NOPROTO"));
            assertEquals(NOAUTH, c.call("PING"));
            assertEquals("+OK\r\n", c.call("AUTH", PASSWORD));
            assertTrue(c.call("HELLO", "2").startsWith("*14\r\n"));
        }
    }

    @Test
    void authenticationBelongsToOneConnection() throws Exception {
        try (RespConnection first = server.raw(); RespConnection second = server.raw()) {
            assertEquals("+OK\r\n", first.call("AUTH", PASSWORD));
            assertEquals("+PONG\r\n", first.call("PING"));
            assertEquals(NOAUTH, second.call("PING"));
            assertEquals("+PONG\r\n", first.call("PING"));
        }
    }

    @Test
    void configGetHidesThePassword() throws Exception {
        // issue 28: a password is never printed, CONFIG GET included (Redis shows it): only that one is set
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("AUTH", PASSWORD));
            assertEquals("*2\r\n$11\r\nrequirepass\r\n$8\r\n********\r\n", c.call("CONFIG", "GET", "requirepass"));
        }
    }

    @Test
    void configSetRequirepassAppliesToNewConnections() throws Exception {
        try (TestServer open = TestServer.start(); RespConnection admin = open.raw()) {
            assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "requirepass", "newpass"));
            // As Redis: a connection made while no password was set stays authenticated.
            assertEquals("+PONG\r\n", admin.call("PING"));
            try (RespConnection later = open.raw()) {
                assertEquals(NOAUTH, later.call("PING"));
                assertEquals(WRONGPASS, later.call("AUTH", PASSWORD));
                assertEquals("+OK\r\n", later.call("AUTH", "newpass"));
                assertEquals("+OK\r\n", later.call("CONFIG", "SET", "requirepass", ""));
            }
            try (RespConnection free = open.raw()) {
                assertEquals("+PONG\r\n", free.call("PING"));
            }
        }
    }

    @Test
    void lettuceWithPasswordRunsSql() {
        RedisURI uri = RedisURI.builder().withHost(TestServer.HOST).withPort(server.port())
                .withPassword(PASSWORD.toCharArray()).withTimeout(Duration.ofSeconds(30)).build();
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> conn = client.connect()) {
            RedisCommands<String, String> sync = conn.sync();
            assertEquals("PONG", sync.ping());
            assertEquals("OK", TestServer.dispatch(sync, "CREATE", "TABLE", "lt", "(id int primary key, name text)"));
            TestServer.dispatch(sync, "INSERT", "INTO", "lt", "VALUES", "(1, 'ann')");
            Object rows = TestServer.dispatch(sync, "SELECT", "name", "FROM", "lt", "WHERE", "id", "=", "1");
            assertTrue(rows.toString().contains("ann"), String.valueOf(rows));
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(5));
        }
    }

    @Test
    void jedisWithPasswordRunsSql() {
        try (Jedis jedis = new Jedis(new HostAndPort(TestServer.HOST, server.port()),
                DefaultJedisClientConfig.builder().password(PASSWORD).timeoutMillis(30_000).build())) {
            assertEquals("PONG", jedis.ping());
            assertEquals("OK", jedis.sendCommand(() -> "CREATE".getBytes(), "TABLE", "jt",
                    "(id int primary key, name text)") instanceof byte[] b ? new String(b) : "?");
            jedis.sendCommand(() -> "INSERT".getBytes(), "INTO", "jt", "VALUES", "(7, 'bo')");
            Object rows = jedis.sendCommand(() -> "SELECT".getBytes(), "name", "FROM", "jt");
            assertTrue(rows instanceof List<?> l && !l.isEmpty(), String.valueOf(rows));
            assertTrue(flatten(rows).contains("bo"), flatten(rows));
        }
    }

    private static String flatten(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b);
        }
        if (reply instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : l) {
                sb.append(flatten(o)).append(',');
            }
            return sb.append(']').toString();
        }
        return String.valueOf(reply);
    }
}
