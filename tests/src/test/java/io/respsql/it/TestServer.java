package io.respsql.it;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An in-JVM RespSQL server on a free port, with clients attached to it. Everything it hands out
 * is closed by {@link #close()}.
 *
 * <pre>{@code
 * try (TestServer s = TestServer.start()) {
 *     s.lettuce().ping();                                   // lettuce, sync
 *     Object rows = s.dispatch("SELECT", "*", "FROM", "t"); // any command, reply as Java objects
 *     s.jedis().echo("hi");                                 // jedis
 *     try (RespConnection raw = s.raw()) {                  // exact wire bytes
 *         assertEquals("+PONG\r\n", raw.call("PING"));
 *     }
 * }
 * }</pre>
 */
public final class TestServer implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** One set of lettuce threads for every test server in the JVM. */
    private static ClientResources sharedResources;

    private final RespSqlServer server;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private RedisClient lettuceClient;
    private StatefulRedisConnection<String, String> connection;
    private Jedis jedis;
    /** The directory made for this server (deleted on close if the test left it empty). */
    private Path tempDir;

    private TestServer(RespSqlServer server) {
        this.server = server;
    }

    /** Starts a server with the default configuration on a free port. */
    public static TestServer start() {
        return start(config -> { });
    }

    /**
     * Starts a server on a free port after {@code configure} adjusted the configuration. Snapshots
     * are off ({@code save ""}) and {@code dir} is a fresh temporary directory unless
     * {@code configure} says otherwise, so no test reads or writes files in the working directory.
     */
    public static TestServer start(Consumer<ServerConfig> configure) {
        Path dir;
        try {
            dir = Files.createTempDirectory("respsql-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ServerConfig config = new ServerConfig().bind(HOST).port(0).save("").dir(dir);
        configure.accept(config);
        TestServer s = new TestServer(RespSqlServer.start(config));
        s.tempDir = dir;
        return s;
    }

    public RespSqlServer server() {
        return server;
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return server.port();
    }

    public RedisURI uri() {
        return RedisURI.builder().withHost(HOST).withPort(port()).withTimeout(TIMEOUT).build();
    }

    // ---- lettuce -------------------------------------------------------------------------------

    /** A lettuce client with default options for this server (it says HELLO 3 and speaks RESP3). */
    public synchronized RedisClient lettuceClient() {
        if (lettuceClient == null) {
            lettuceClient = RedisClient.create(resources(), uri());
        }
        return lettuceClient;
    }

    /** The shared lettuce connection. */
    public synchronized StatefulRedisConnection<String, String> connection() {
        if (connection == null) {
            connection = lettuceClient().connect();
        }
        return connection;
    }

    /** Synchronous commands on the shared lettuce connection. */
    public RedisCommands<String, String> lettuce() {
        return connection().sync();
    }

    /** Asynchronous commands on the shared lettuce connection. */
    public RedisAsyncCommands<String, String> lettuceAsync() {
        return connection().async();
    }

    /** A new lettuce connection of its own (closed by {@link #close()}). */
    public synchronized StatefulRedisConnection<String, String> newLettuceConnection() {
        StatefulRedisConnection<String, String> c = lettuceClient().connect();
        opened.add(c);
        return c;
    }

    /**
     * Sends any command on the shared lettuce connection, e.g.
     * {@code dispatch("CREATE", "TABLE", "t", "(id int primary key)")}. The reply keeps its shape:
     * status and bulk strings as {@link String}, a null bulk as {@code null}, integers as
     * {@link Long}, arrays as {@code List<Object>}. An error reply throws
     * {@link io.lettuce.core.RedisCommandExecutionException} whose message is the error text
     * without the leading {@code -}.
     */
    public Object dispatch(String... words) {
        return dispatch(lettuce(), words);
    }

    /** {@link #dispatch(String...)} on a given lettuce connection. */
    public static Object dispatch(RedisCommands<String, String> commands, String... words) {
        return commands.dispatch(keyword(words), new AnyReplyOutput(), arguments(words));
    }

    /**
     * {@link #dispatch(String...)} without waiting, on an asynchronous connection: the future
     * completes with the reply, or exceptionally with a RedisCommandExecutionException.
     */
    public static RedisFuture<Object> dispatchAsync(RedisAsyncCommands<String, String> commands, String... words) {
        return commands.dispatch(keyword(words), new AnyReplyOutput(), arguments(words));
    }

    private static CommandArgs<String, String> arguments(String... words) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        for (int i = 1; i < words.length; i++) {
            args.add(words[i]);
        }
        return args;
    }

    private static ProtocolKeyword keyword(String... words) {
        if (words.length == 0) {
            throw new IllegalArgumentException("no command");
        }
        return keyword(words[0]);
    }

    private static ProtocolKeyword keyword(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        return new ProtocolKeyword() {
            @Override
            public byte[] getBytes() {
                return bytes;
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    // ---- jedis ---------------------------------------------------------------------------------

    /** The shared jedis connection (not thread-safe: one test thread at a time). */
    public synchronized Jedis jedis() {
        if (jedis == null) {
            jedis = newJedis();
        }
        return jedis;
    }

    /** A new jedis connection of its own (closed by {@link #close()}). */
    public synchronized Jedis newJedis() {
        Jedis j = new Jedis(new HostAndPort(HOST, port()),
                DefaultJedisClientConfig.builder().timeoutMillis((int) TIMEOUT.toMillis()).build());
        opened.add(j);
        return j;
    }

    // ---- raw socket ----------------------------------------------------------------------------

    /** A new raw connection for byte-exact assertions (closed by {@link #close()} if still open). */
    public synchronized RespConnection raw() {
        try {
            RespConnection c = new RespConnection(HOST, port());
            opened.add(c);
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes every client handed out, then the server (its port is free afterwards). */
    @Override
    public synchronized void close() {
        for (AutoCloseable c : opened) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        opened.clear();
        if (connection != null) {
            connection.close();
        }
        if (lettuceClient != null) {
            lettuceClient.shutdown(Duration.ZERO, TIMEOUT);
        }
        server.close();
        try {
            Files.deleteIfExists(tempDir);
        } catch (IOException notEmpty) {
            // a test that saved into it chose its own directory; this one is left to the OS
        }
    }

    private static synchronized ClientResources resources() {
        if (sharedResources == null) {
            sharedResources = DefaultClientResources.create();
        }
        return sharedResources;
    }
}
