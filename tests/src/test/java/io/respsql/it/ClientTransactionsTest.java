package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** jedis's {@code multi()/exec()} and lettuce's {@code multi()/exec()}, unchanged, against SQL blocks. */
class ClientTransactionsTest extends ServerTestBase {
    private static final ProtocolCommand SQL = () -> "SQL".getBytes(StandardCharsets.UTF_8);

    @AfterEach
    void dropTables() {
        server.dispatch("FLUSHALL");
    }

    @Test
    void jedisTransaction() {
        Jedis j = server.newJedis();
        j.sendCommand(SQL, "CREATE TABLE jt (id int primary key, v int)");
        Transaction tx = j.multi();
        Response<Object> insert = tx.sendCommand(SQL, "INSERT INTO jt VALUES (1, 10), (2, 20)");
        Response<Object> update = tx.sendCommand(SQL, "UPDATE jt SET v = v + 1");
        List<Object> results = tx.exec();
        assertEquals(2, results.size());
        assertEquals("OK", new String((byte[]) insert.get(), StandardCharsets.UTF_8));
        assertEquals(2L, update.get());

        Transaction failing = j.multi();
        failing.sendCommand(SQL, "DELETE FROM jt");
        failing.sendCommand(SQL, "INSERT INTO jt VALUES (1, 0)");
        failing.sendCommand(SQL, "INSERT INTO jt VALUES (1, 0)");
        JedisDataException e = assertThrows(JedisDataException.class, failing::exec);
        assertEquals("ERR EXEC aborted: statement 3 of 3 failed: INSERT on Existing Data - use UPDATE "
                + "(table 'jt' already has id=1); no change of this transaction was kept", e.getMessage());
        assertEquals(List.of("1,11", "2,21"), strings(j.sendCommand(SQL, "SELECT * FROM jt ORDER BY id")));
    }

    @Test
    void lettuceTransaction() {
        StatefulRedisConnection<String, String> c = server.newLettuceConnection();
        RedisCommands<String, String> sync = c.sync();
        TestServer.dispatch(sync, "SQL", "CREATE TABLE lt (id int primary key, v int)");
        assertEquals("OK", sync.multi());
        assertNull(TestServer.dispatch(sync, "SQL", "INSERT INTO lt VALUES (1, 10)"));
        assertNull(TestServer.dispatch(sync, "SQL", "UPDATE lt SET v = v * 2"));
        TransactionResult r = sync.exec();
        assertEquals(2, r.size());
        assertEquals(1L, (Long) r.get(1));

        assertEquals("OK", sync.multi());
        TestServer.dispatch(sync, "SQL", "DELETE FROM lt");
        TestServer.dispatch(sync, "SQL", "SELECT * FROM nosuch");
        RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class, sync::exec);
        assertTrue(e.getMessage().startsWith("ERR EXEC aborted: statement 2 of 2 failed: table 'nosuch' does not exist"),
                e.getMessage());
        assertEquals(List.of("1,20"), TestServer.dispatch(sync, "SQL", "SELECT * FROM lt"));
    }

    private static List<String> strings(Object reply) {
        return ((List<?>) reply).stream().map(o -> new String((byte[]) o, StandardCharsets.UTF_8)).toList();
    }
}
