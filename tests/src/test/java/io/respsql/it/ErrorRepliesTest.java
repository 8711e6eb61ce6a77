package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ErrorRepliesTest extends ServerTestBase {
    @Test
    void unknownCommandHasRedisWording() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("-ERR unknown command 'foo', with args beginning with: 'a' 'b' \r\n", c.call("foo", "a", "b"));
            assertEquals("-ERR unknown command 'FOO', with args beginning with: \r\n", c.call("FOO"));
            String longArg = "x".repeat(200);
            assertEquals("-ERR unknown command 'foo', with args beginning with: '" + "x".repeat(128) + "' \r\n",
                    c.call("foo", longArg, "next"));
            assertEquals("+PONG\r\n", c.call("PING"));
        }
        RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> server.dispatch("foo", "a", "b"));
        assertEquals("ERR unknown command 'foo', with args beginning with: 'a' 'b' ", e.getMessage());

        ProtocolCommand foo = () -> "foo".getBytes(StandardCharsets.UTF_8);
        JedisDataException je = assertThrows(JedisDataException.class, () -> server.jedis().sendCommand(foo, "x"));
        assertEquals("ERR unknown command 'foo', with args beginning with: 'x' ", je.getMessage());
    }

    @Test
    void wrongArityHasRedisWording() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("-ERR wrong number of arguments for 'echo' command\r\n", c.call("ECHO"));
            assertEquals("-ERR wrong number of arguments for 'echo' command\r\n", c.call("echo", "a", "b"));
            assertEquals("-ERR wrong number of arguments for 'client' command\r\n", c.call("CLIENT"));
            assertEquals("-ERR wrong number of arguments for 'client|setname' command\r\n", c.call("CLIENT", "SETNAME"));
            assertEquals("-ERR wrong number of arguments for 'config|get' command\r\n", c.call("CONFIG", "GET"));
            assertEquals("-ERR wrong number of arguments for 'dbsize' command\r\n", c.call("DBSIZE", "x"));
            assertEquals("-ERR wrong number of arguments for 'create' command\r\n", c.call("CREATE"));
        }
        JedisDataException je = assertThrows(JedisDataException.class,
                () -> server.jedis().sendCommand(Protocol.Command.ECHO));
        assertEquals("ERR wrong number of arguments for 'echo' command", je.getMessage());
    }

    @Test
    void unknownSubcommand() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("-ERR unknown subcommand 'nope'. Try CLIENT HELP.\r\n", c.call("client", "nope"));
            assertEquals("-ERR unknown subcommand 'x'. Try CONFIG HELP.\r\n", c.call("CONFIG", "x"));
            assertEquals("-ERR unknown subcommand 'x'. Try COMMAND HELP.\r\n", c.call("COMMAND", "x"));
        }
    }

    @Test
    void sqlVerbsReachTheEngine() throws Exception {
        // Whatever the engine answers, each verb gets exactly one reply and the connection stays usable.
        try (RespConnection c = server.raw()) {
            for (String[] cmd : new String[][] {
                {"CREATE", "TABLE", "t", "(id int primary key, v int)"},
                {"INSERT", "INTO", "t", "VALUES", "(1,2)"},
                {"SELECT", "*", "FROM", "t"},
                {"SCANSELECT", "v", "FROM", "t", "WHERE", "v=2"},
                {"SQL", "SELECT * FROM t"},
                {"DESC", "t"}, {"DESCRIBE", "t"}, {"DUMP", "t"}, {"SHOW", "TABLES"}, {"EXPLAIN", "SELECT * FROM t"},
                {"UPDATE", "t", "SET", "v=3", "WHERE", "id=1"}, {"DELETE", "FROM", "t", "WHERE", "id=1"},
                {"DROP", "TABLE", "t"}}) {
                String reply = c.call(cmd);
                assertEquals(false, reply.isEmpty(), String.join(" ", cmd));
                assertEquals("+PONG\r\n", c.call("PING"), "after " + String.join(" ", cmd));
            }
        }
    }
}
