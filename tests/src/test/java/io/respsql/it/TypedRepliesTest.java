package io.respsql.it;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The typed reply form ({@code QUERY <statement>}) over the wire: column names, column types,
 * then one array per row with RESP integers, FLOATs as shortest round-trip text (RESP3 doubles
 * under RESP3), text as bulk strings byte for byte and NULL as a RESP null; through raw RESP2
 * and RESP3 frames, redis-cli -2/-3, lettuce and jedis in both protocols. The 2010 form of the
 * same SELECT is unchanged.
 */
class TypedRepliesTest extends ServerTestBase {
    /** Text that the comma-joined 2010 row cannot carry unambiguously. */
    private static final String COMMAS = "say \"hi\", it's";
    private static final String UTF8 = "żółw \uD83D\uDC22";
    private static final String SELECT = "SELECT id, f, t, i FROM typed ORDER BY id";

    @BeforeAll
    static void data() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE typed (id bigint primary key, f float, t text, i int)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO typed VALUES "
                    + "(-9223372036854775807, 0.1, 'say \"hi\", it''s', -2147483648), "
                    + "(2, 1e21, '" + UTF8 + "', 2147483647), "
                    + "(3, -0.0, '', 0), "
                    + "(9223372036854775807, 5e-324, 'a,b', 7)"));
        }
    }

    private static final String HEADER = "*6\r\n*4\r\n$2\r\nid\r\n$1\r\nf\r\n$1\r\nt\r\n$1\r\ni\r\n"
            + "*4\r\n$6\r\nBIGINT\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n$3\r\nINT\r\n";

    private static String bulk(String s) {
        return "$" + s.getBytes(StandardCharsets.UTF_8).length + "\r\n" + s + "\r\n";
    }

    private static String row(String id, String f, String t, String i) {
        return "*4\r\n:" + id + "\r\n" + f + bulk(t) + ":" + i + "\r\n";
    }

    private static String expected(boolean resp3) {
        return HEADER
                + row("-9223372036854775807", resp3 ? ",0.1\r\n" : bulk("0.1"), COMMAS, "-2147483648")
                + row("2", resp3 ? ",1.0E21\r\n" : bulk("1.0E21"), UTF8, "2147483647")
                + row("3", resp3 ? ",-0.0\r\n" : bulk("-0.0"), "", "0")
                + row("9223372036854775807", resp3 ? ",4.9E-324\r\n" : bulk("4.9E-324"), "a,b", "7");
    }

    @Test
    void rawResp2AndResp3Frames() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals(expected(false), c.call("QUERY", SELECT));
            // The arguments are joined with spaces, as for every SQL verb.
            assertEquals(expected(false), c.call("QUERY", "SELECT", "id,", "f,", "t,", "i", "FROM", "typed", "ORDER BY id"));
            c.call("HELLO", "3");
            assertEquals(expected(true), c.call("QUERY", SELECT));
        }
    }

    @Test
    void form2010Unchanged() throws Exception {
        String rows = "*4\r\n" + bulk("-9223372036854775807,0.1," + COMMAS + ",-2147483648")
                + bulk("2,1.0E21," + UTF8 + ",2147483647") + bulk("3,-0.0,,0")
                + bulk("9223372036854775807,4.9E-324,a,b,7");
        try (RespConnection c = server.raw()) {
            assertEquals(rows, c.call("SQL", SELECT));
            assertEquals(":4\r\n", c.call("SELECT", "COUNT(*)", "FROM", "typed"));
            assertEquals("*1\r\n$0\r\n\r\n", c.call("SELECT", "SUM(f)", "FROM", "typed", "WHERE", "id = 5"));
            c.call("HELLO", "3");
            assertEquals(rows, c.call("SQL", SELECT), "RESP3 keeps the 2010 rows for the SQL verbs");
            assertEquals(":4\r\n", c.call("SELECT", "COUNT(*)", "FROM", "typed"));
        }
    }

    @Test
    void aggregatesExpressionsAndNull() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("*3\r\n*1\r\n$8\r\nCOUNT(*)\r\n*1\r\n$6\r\nBIGINT\r\n*1\r\n:4\r\n",
                    c.call("QUERY", "SELECT COUNT(*) FROM typed"));
            assertEquals("*3\r\n*2\r\n$6\r\nSUM(i)\r\n$6\r\nMAX(t)\r\n*2\r\n$6\r\nBIGINT\r\n$4\r\nTEXT\r\n*2\r\n:6\r\n"
                    + bulk(UTF8), c.call("QUERY", "SELECT SUM(i), MAX(t) FROM typed"));
            // No rows: the aggregate has no value, a RESP null (the 2010 form writes an empty field).
            String none = "*3\r\n*2\r\n$6\r\nSUM(f)\r\n$6\r\nMIN(t)\r\n*2\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n*2\r\n";
            assertEquals(none + "$-1\r\n$-1\r\n", c.call("QUERY", "SELECT SUM(f), MIN(t) FROM typed WHERE id = 5"));
            // Expressions are named as written; integer arithmetic is BIGINT, mixed FLOAT.
            assertEquals("*3\r\n*3\r\n$4\r\ni*10\r\n$5\r\nf * 4\r\n$3\r\n'x'\r\n*3\r\n$6\r\nBIGINT\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n"
                    + "*3\r\n:70\r\n$8\r\n2.0E-323\r\n$1\r\nx\r\n",
                    c.call("QUERY", "SELECT i*10, f * 4, 'x' FROM typed WHERE id = 9223372036854775807"));
            assertEquals("*2\r\n*4\r\n$2\r\nid\r\n$1\r\nf\r\n$1\r\nt\r\n$1\r\ni\r\n*4\r\n$6\r\nBIGINT\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n$3\r\nINT\r\n",
                    c.call("QUERY", "SELECT * FROM typed WHERE id = 5"), "no rows: the columns alone");
            c.call("HELLO", "3");
            assertEquals(none + "_\r\n_\r\n", c.call("QUERY", "SELECT SUM(f), MIN(t) FROM typed WHERE id = 5"));
            assertEquals("*3\r\n*1\r\n$6\r\nAVG(i)\r\n*1\r\n$5\r\nFLOAT\r\n*1\r\n,3.5\r\n",
                    c.call("QUERY", "SELECT AVG(i) FROM typed WHERE id >= 3"));
        }
    }

    @Test
    void joinColumnsAreNamedPerTable() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE qdept (id bigint primary key, title text)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO qdept VALUES (7, 'ops, west')"));
            // * over two tables: every column of each, in FROM order, names as declared.
            assertEquals("*3\r\n*6\r\n$2\r\nid\r\n$1\r\nf\r\n$1\r\nt\r\n$1\r\ni\r\n$2\r\nid\r\n$5\r\ntitle\r\n"
                    + "*6\r\n$6\r\nBIGINT\r\n$5\r\nFLOAT\r\n$4\r\nTEXT\r\n$3\r\nINT\r\n$6\r\nBIGINT\r\n$4\r\nTEXT\r\n"
                    + "*6\r\n:9223372036854775807\r\n$8\r\n4.9E-324\r\n$3\r\na,b\r\n:7\r\n:7\r\n$9\r\nops, west\r\n",
                    c.call("QUERY", "SELECT * FROM typed, qdept WHERE typed.i = qdept.id"));
            // A qualified column is named by the column alone, as PostgreSQL does.
            assertEquals("*3\r\n*2\r\n$1\r\nt\r\n$5\r\ntitle\r\n*2\r\n$4\r\nTEXT\r\n$4\r\nTEXT\r\n*2\r\n$3\r\na,b\r\n$9\r\nops, west\r\n",
                    c.call("QUERY", "SELECT typed.t, qdept.title FROM typed, qdept WHERE typed.i = qdept.id"));
            c.call("DROP", "TABLE", "qdept");
        }
    }

    @Test
    void otherStatementsAndErrorsKeepTheirReplies() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("QUERY", "CREATE TABLE qother (id int primary key, v int)"));
            assertEquals("+OK\r\n", c.call("QUERY", "INSERT INTO qother VALUES (1, 1), (2, 2)"));
            assertEquals(":2\r\n", c.call("QUERY", "UPDATE qother SET v = v + 1 WHERE id >= 1"));
            assertEquals("*3\r\n*1\r\n$1\r\nv\r\n*1\r\n$3\r\nINT\r\n*1\r\n:3\r\n", c.call("QUERY", "SELECT v FROM qother WHERE id = 2"));
            String err = c.call("QUERY", "SELECT nope FROM qother");
            assertTrue(err.startsWith("-ERR ") && err.contains("nope"), err);
            assertTrue(c.call("QUERY").startsWith("-ERR wrong number of arguments"), "QUERY needs a statement");
            assertEquals(":2\r\n", c.call("QUERY", "DROP TABLE qother")); // the table and its primary key
        }
    }

    @Test
    void streamedLargeTypedReplyArrivesComplete() throws Exception {
        int n = 100_000;
        try (RespConnection c = server.raw()) {
            c.call("CREATE", "TABLE", "qbig", "(id int primary key, v float, name text)");
            for (int from = 1; from <= n; from += 10_000) {
                StringBuilder values = new StringBuilder();
                for (int i = from; i < from + 10_000; i++) {
                    values.append(i == from ? "" : ",").append('(').append(i).append(',').append(i).append(".5,'n,").append(i).append("')");
                }
                assertEquals("+OK\r\n", c.call("INSERT", "INTO", "qbig", "VALUES", values.toString()));
            }
            for (int proto : new int[] {2, 3}) {
                c.call("HELLO", Integer.toString(proto));
                String reply = c.call("QUERY", "SELECT * FROM qbig");
                assertTrue(reply.length() > 20 * 64 * 1024, "several chunks: " + reply.length());
                assertTrue(reply.startsWith("*" + (n + 2) + "\r\n*3\r\n$2\r\nid\r\n$1\r\nv\r\n$4\r\nname\r\n"), reply.substring(0, 60));
                String first = proto == 3 ? "*3\r\n:1\r\n,1.5\r\n$3\r\nn,1\r\n" : "*3\r\n:1\r\n$3\r\n1.5\r\n$3\r\nn,1\r\n";
                assertTrue(reply.contains("$4\r\nTEXT\r\n" + first), reply.substring(0, 120));
                String last = proto == 3 ? "*3\r\n:100000\r\n,100000.5\r\n$8\r\nn,100000\r\n"
                        : "*3\r\n:100000\r\n$8\r\n100000.5\r\n$8\r\nn,100000\r\n";
                assertTrue(reply.endsWith(last), reply.substring(reply.length() - 60));
                assertEquals(n, reply.split("\r\n\\*3\r\n:", -1).length - 1, "every row");
                assertEquals("+PONG\r\n", c.call("PING"), "the connection goes on after the streamed reply");
            }
            c.call("DROP", "TABLE", "qbig");
        }
    }

    private static String cli(String... args) {
        RedisCli.assumeAvailable();
        RedisCli.Result r = RedisCli.run(server, List.of(args));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    /** How redis-cli --no-raw quotes a string: bytes outside printable ASCII as \\xhh. */
    private static String cliQuoted(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            sb.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xff));
        }
        return sb.append('"').toString();
    }

    @Test
    void redisCliResp2AndResp3() {
        String q = "SELECT id, f, t FROM typed WHERE id >= 2 AND id <= 3";
        String names = "1) 1) \"id\"\n   2) \"f\"\n   3) \"t\"\n2) 1) \"BIGINT\"\n   2) \"FLOAT\"\n   3) \"TEXT\"\n";
        assertEquals(names + "3) 1) (integer) 2\n   2) \"1.0E21\"\n   3) " + cliQuoted(UTF8) + "\n"
                + "4) 1) (integer) 3\n   2) \"-0.0\"\n   3) \"\"\n", cli("-2", "--no-raw", "QUERY", q));
        assertEquals(names + "3) 1) (integer) 2\n   2) (double) 1.0E21\n   3) " + cliQuoted(UTF8) + "\n"
                + "4) 1) (integer) 3\n   2) (double) -0.0\n   3) \"\"\n", cli("-3", "--no-raw", "QUERY", q));
        assertEquals("1) 1) \"SUM(f)\"\n2) 1) \"FLOAT\"\n3) 1) (nil)\n",
                cli("-3", "--no-raw", "QUERY", "SELECT SUM(f) FROM typed WHERE id = 5"));
        assertEquals("2,1.0E21," + UTF8 + "\n3,-0.0,\n", cli("-3", "SQL", q), "the 2010 form for the SQL verbs");
    }

    @Test
    void lettuceResp3AndResp2() {
        // Default options: lettuce says HELLO 3, so FLOATs arrive as doubles and NULL as null.
        Object reply = TestServer.dispatch(server.lettuce(), "QUERY", SELECT);
        List<?> all = (List<?>) reply;
        assertEquals(List.of("id", "f", "t", "i"), all.get(0));
        assertEquals(List.of("BIGINT", "FLOAT", "TEXT", "INT"), all.get(1));
        assertEquals(Arrays.asList(-9223372036854775807L, 0.1, COMMAS, -2147483648L), all.get(2));
        assertEquals(Arrays.asList(2L, 1e21, UTF8, 2147483647L), all.get(3));
        List<?> third = (List<?>) all.get(4);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) third.get(1)), "-0.0 keeps its sign");
        assertEquals("", third.get(2));
        assertEquals(Arrays.asList(9223372036854775807L, 5e-324, "a,b", 7L), all.get(5));
        List<?> none = (List<?>) TestServer.dispatch(server.lettuce(), "QUERY", "SELECT MAX(f) FROM typed WHERE id = 5");
        assertNull(((List<?>) none.get(2)).get(0));

        RedisClient client = RedisClient.create(server.uri());
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
        try (StatefulRedisConnection<String, String> conn = client.connect()) {
            RedisCommands<String, String> sync = conn.sync();
            List<?> two = (List<?>) TestServer.dispatch(sync, "QUERY", SELECT);
            assertEquals(Arrays.asList(-9223372036854775807L, "0.1", COMMAS, -2147483648L), two.get(2));
            assertEquals(Arrays.asList(9223372036854775807L, "4.9E-324", "a,b", 7L), two.get(5));
            assertEquals(5e-324, Double.parseDouble((String) ((List<?>) two.get(5)).get(1)), "the text round-trips");
        } finally {
            client.shutdown();
        }
    }

    private static List<Object> decoded(Object reply) {
        List<Object> out = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            out.add(o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : o instanceof List<?> l ? decoded(l) : o);
        }
        return out;
    }

    @Test
    void jedisResp2AndResp3() {
        List<Object> two = decoded(server.jedis().sendCommand(() -> "QUERY".getBytes(StandardCharsets.US_ASCII), SELECT));
        assertEquals(List.of("id", "f", "t", "i"), two.get(0));
        assertEquals(List.of("BIGINT", "FLOAT", "TEXT", "INT"), two.get(1));
        assertEquals(List.of(-9223372036854775807L, "0.1", COMMAS, -2147483648L), two.get(2));
        assertEquals(List.of(3L, "-0.0", "", 0L), two.get(4));
        assertEquals(Arrays.asList((Object) null), ((List<?>) decoded(server.jedis().sendCommand(() -> "QUERY".getBytes(),
                "SELECT SUM(i) FROM typed WHERE id = 5")).get(2)));

        try (Jedis jedis = new Jedis(new HostAndPort(TestServer.HOST, server.port()),
                DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).timeoutMillis(30_000).build())) {
            List<Object> three = decoded(jedis.sendCommand(() -> "QUERY".getBytes(), SELECT));
            assertEquals(List.of("id", "f", "t", "i"), three.get(0));
            assertEquals(List.of(-9223372036854775807L, 0.1, COMMAS, -2147483648L), three.get(2));
            assertEquals(List.of(2L, 1e21, UTF8, 2147483647L), three.get(3));
            assertInstanceOf(Double.class, ((List<?>) three.get(4)).get(1));
            assertEquals(List.of(9223372036854775807L, 5e-324, "a,b", 7L), three.get(5));
            JedisDataException e = assertThrows(JedisDataException.class, () -> jedis.sendCommand(() -> "QUERY".getBytes(),
                    "SELECT nope FROM typed"));
            assertTrue(e.getMessage().startsWith("ERR "), e.getMessage());
        }
    }
}
