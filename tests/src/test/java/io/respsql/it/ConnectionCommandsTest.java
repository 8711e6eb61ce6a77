package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionCommandsTest extends ServerTestBase {
    @Test
    void pingAndEchoWithLettuce() {
        assertEquals("PONG", server.lettuce().ping());
        assertEquals("hello world", server.lettuce().echo("hello world"));
        assertEquals("", server.lettuce().echo(""));
        assertEquals("héllo ✓", server.dispatch("PING", "héllo ✓"));
    }

    @Test
    void pingAndEchoWithJedis() {
        assertEquals("PONG", server.jedis().ping());
        assertEquals("abc", server.jedis().echo("abc"));
    }

    @Test
    void pingAndEchoOnTheWire() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals("$2\r\nhi\r\n", c.call("PING", "hi"));
            assertEquals("$0\r\n\r\n", c.call("ECHO", ""));
            assertEquals("-ERR wrong number of arguments for 'ping' command\r\n", c.call("PING", "a", "b"));
            assertEquals("+PONG\r\n", c.call("ping"));
        }
    }

    @Test
    void selectZeroOnlyDatabase() throws Exception {
        assertEquals("OK", server.lettuce().select(0));
        assertEquals("OK", server.jedis().select(0));
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SELECT", "0"));
            assertEquals("-ERR DB index is out of range\r\n", c.call("SELECT", "1"));
            assertEquals("-ERR DB index is out of range\r\n", c.call("select", "-1"));
        }
    }

    @Test
    void helloTwoRepliesTheServerMap() throws Exception {
        try (RespConnection c = server.raw()) {
            long id = Long.parseLong(c.call("CLIENT", "ID").substring(1).trim());
            String reply = c.call("HELLO", "2", "SETNAME", "greeter");
            assertEquals("*14\r\n$6\r\nserver\r\n$7\r\nrespsql\r\n$7\r\nversion\r\n$5\r\n7.2.0\r\n"
                    + "$5\r\nproto\r\n:2\r\n$2\r\nid\r\n:" + id + "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n"
                    + "$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n", reply);
            assertEquals("$7\r\ngreeter\r\n", c.call("CLIENT", "GETNAME"));
            assertTrue(c.call("HELLO").startsWith("*14\r\n"));
            assertTrue(c.call("HELLO", "2", "AUTH", "default", "anything").startsWith("*14\r\n"));
        }
    }

    @Test
    void helloRefusesUnknownVersionsAndOptions() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("-NOPROTO unsupported protocol version\r\n", c.call("HELLO", "4"));
            assertEquals("-NOPROTO unsupported protocol version\r\n", c.call("HELLO", "1"));
            assertEquals("-NOPROTO unsupported protocol version\r\n", c.call("HELLO", "-3"));
            assertEquals("-ERR Protocol version is not an integer or out of range\r\n", c.call("HELLO", "x"));
            assertEquals("-ERR Syntax error in HELLO option 'bogus'\r\n", c.call("HELLO", "2", "bogus"));
            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
                    c.call("HELLO", "2", "AUTH", "alice", "secret"));
            assertEquals("+PONG\r\n", c.call("PING"));
        }
    }

    @Test
    void lettuceWithDefaultOptionsConnectsOverResp3() {
        StatefulRedisConnection<String, String> c = server.newLettuceConnection();
        assertEquals("PONG", c.sync().ping());
        String info = c.sync().clientInfo();
        assertTrue(info.contains(" resp=3 "), info);
        // lettuce announces itself with CLIENT SETINFO after the handshake
        assertTrue(info.contains("lib-name=Lettuce"), info);
    }

    @Test
    void clientNameWithLettuce() {
        StatefulRedisConnection<String, String> c = server.newLettuceConnection();
        assertNull(c.sync().clientGetname());
        assertEquals("OK", c.sync().clientSetname("worker-1"));
        assertEquals("worker-1", c.sync().clientGetname());
        assertTrue(c.sync().clientList().contains("name=worker-1 "));
        RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> TestServer.dispatch(c.sync(), "CLIENT", "SETNAME", "two words"));
        assertEquals("ERR Client names cannot contain spaces, newlines or special characters.", e.getMessage());
    }

    @Test
    void clientNameAndIdWithJedis() {
        Jedis j = server.newJedis();
        assertEquals("OK", j.clientSetname("jedis-client"));
        assertEquals("jedis-client", j.clientGetname());
        long id = j.clientId();
        assertTrue(id > 0);
        String info = j.clientInfo();
        assertTrue(info.startsWith("id=" + id + " "), info);
        assertTrue(info.contains(" name=jedis-client "), info);
        assertTrue(info.contains("lib-name=jedis"), info);
        assertTrue(j.clientList().contains("id=" + id + " "));
        JedisDataException e = assertThrows(JedisDataException.class, () -> j.clientSetname("bad\nname"));
        assertEquals("ERR Client names cannot contain spaces, newlines or special characters.", e.getMessage());
    }

    @Test
    void clientIdsAreMonotonic() throws Exception {
        try (RespConnection a = server.raw(); RespConnection b = server.raw()) {
            long first = Long.parseLong(a.call("CLIENT", "ID").substring(1).trim());
            long second = Long.parseLong(b.call("CLIENT", "ID").substring(1).trim());
            assertTrue(second > first);
        }
    }

    @Test
    void clientSetinfo() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("CLIENT", "SETINFO", "LIB-NAME", "mylib"));
            assertEquals("+OK\r\n", c.call("CLIENT", "SETINFO", "lib-ver", "1.2.3"));
            assertEquals("-ERR Unrecognized option 'color'\r\n", c.call("CLIENT", "SETINFO", "color", "red"));
            String info = c.call("CLIENT", "INFO");
            assertTrue(info.contains(" lib-name=mylib lib-ver=1.2.3\n"), info);
            assertTrue(info.contains(" cmd=client|info "), info);
        }
    }

    @Test
    void clientListFilters() throws Exception {
        try (RespConnection c = server.raw()) {
            long id = Long.parseLong(c.call("CLIENT", "ID").substring(1).trim());
            String one = (String) server.dispatch("CLIENT", "LIST", "ID", Long.toString(id), "999999");
            assertEquals(1, one.split("\n").length, one);
            assertTrue(one.startsWith("id=" + id + " "), one);
            assertTrue(c.call("CLIENT", "LIST", "TYPE", "normal").contains("id=" + id + " "));
            assertEquals("-ERR syntax error\r\n", c.call("CLIENT", "LIST", "bogus"));
            List<?> help = (List<?>) server.dispatch("CLIENT", "HELP");
            assertTrue(help.size() > 3);
        }
    }

    @Test
    void quitRepliesOkThenCloses() throws Exception {
        try (RespConnection c = server.raw()) {
            c.send(new String(RespConnection.encode("QUIT")) + new String(RespConnection.encode("PING")));
            assertEquals("+OK\r\n", c.readReply());
            assertTrue(c.awaitClosedByServer(10_000));
        }
    }
}
