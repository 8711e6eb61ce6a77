package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.integer;
import static io.respsql.it.Resp.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SQL statements pipelined on one connection, and from many connections at once. */
class PipelinedSqlTest extends SqlTestBase {
    private static final int STATEMENTS = 5_000;
    private static final int CLIENTS = 200;
    private static final int ROWS_PER_CLIENT = 50;

    @BeforeEach
    void createTable() {
        s.expectSql("CREATE TABLE p (id int primary key, client int, name text)", OK);
        s.expectSql("CREATE INDEX p:client:index ON p (client)", OK);
    }

    private static String row(int id) {
        return id + "," + id % 7 + ",name" + id;
    }

    /** The n-th insert, split as redis-cli, as SQL or after the verb in turn. */
    private static String[] insert(int id) {
        String values = "(" + row(id) + ")";
        return Split.values()[id % 3].apply(List.of("INSERT", "INTO", "p", "VALUES", values));
    }

    @Test
    void pipelinedInsertsAndSelectsWithLettuceAnsweredInOrder() {
        List<String[]> commands = new ArrayList<>();
        for (int id = 1; id <= STATEMENTS; id++) {
            commands.add(insert(id));
            commands.add(new String[] {"SELECT", "*", "FROM", "p", "WHERE", "id=" + id});
            if (id % 500 == 0) {
                commands.add(new String[] {"SQL", "SELECT COUNT(*) FROM p"});
                commands.add(new String[] {"SQL", "INSERT INTO p VALUES (" + id + ",0,duplicate)"});
                commands.add(new String[] {"SQL", "UPDATE p SET name=updated" + id + " WHERE id BETWEEN " + (id - 1) + " AND " + id});
            }
        }
        StatefulRedisConnection<String, String> connection = server.newLettuceConnection();
        List<RedisFuture<Object>> replies = Pipeline.send(connection, commands);
        assertEquals(commands.size(), replies.size());

        int i = 0;
        for (int id = 1; id <= STATEMENTS; id++) {
            assertEquals("OK", Pipeline.reply(replies.get(i++)), "insert " + id);
            assertEquals(List.of(row(id)), Pipeline.reply(replies.get(i++)), "select " + id);
            if (id % 500 == 0) {
                assertEquals((long) id, Pipeline.reply(replies.get(i++)), "count after " + id);
                RedisFuture<Object> duplicate = replies.get(i++);
                ExecutionException e = assertThrows(ExecutionException.class, duplicate::get);
                assertInstanceOf(RedisCommandExecutionException.class, e.getCause());
                assertTrue(e.getCause().getMessage().startsWith("ERR INSERT on Existing Data - use UPDATE"), e.getCause().getMessage());
                assertEquals(2L, Pipeline.reply(replies.get(i++)), "update at " + id);
            }
        }
        assertEquals(commands.size(), i);
        // the connection goes on after the pipeline
        assertEquals((long) STATEMENTS, TestServer.dispatch(connection.sync(), "SELECT", "COUNT(*)", "FROM", "p"));
        s.expectSql("SELECT * FROM p WHERE id BETWEEN 499 AND 501 ORDER BY id", rows("499,2,updated500", "500,3,updated500", "501,4,name501"));
        s.expectSql("SELECT COUNT(*) FROM p WHERE name BETWEEN updated AND updatez", integer(2 * STATEMENTS / 500));
    }

    @Test
    void pipelineInOneWriteOnTheWire() throws Exception {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int id = 1; id <= STATEMENTS; id++) {
            batch.writeBytes(RespConnection.encode(insert(id)));
            batch.writeBytes(RespConnection.encode("SELECT", "name", "FROM", "p", "WHERE", "client = " + id % 7, "AND", "id = " + id));
            batch.writeBytes(RespConnection.encode("UPDATE", "p", "SET", "client=client+7", "WHERE", "id=" + id));
        }
        batch.writeBytes(RespConnection.encode("SQL", "SELECT COUNT(*) FROM p WHERE client BETWEEN 7 AND 13"));
        batch.writeBytes(RespConnection.encode("SQL", "SELECT * FROM p WHERE id = 0"));
        RespConnection c = s.raw();
        c.send(batch.toByteArray());
        for (int id = 1; id <= STATEMENTS; id++) {
            assertEquals(OK, c.readReply(), "insert " + id);
            assertEquals(rows("name" + id), c.readReply(), "select " + id);
            assertEquals(integer(1), c.readReply(), "update " + id);
        }
        assertEquals(integer(STATEMENTS), c.readReply());
        assertEquals(Resp.EMPTY, c.readReply());
        s.expectSql("SELECT COUNT(*) FROM p WHERE client < 7", integer(0));
    }

    /** Replies of megabytes each, more than the server buffers for one client, still come whole and in order. */
    @Test
    void largeRepliesPipelinedInOrder() {
        int rows = 100_000;
        List<String[]> commands = new ArrayList<>();
        for (int from = 1; from <= rows; from += 1000) {
            commands.add(new String[] {"SQL", SqlText.insert("p", from, from + 999, PipelinedSqlTest::row)});
        }
        StatefulRedisConnection<String, String> connection = server.newLettuceConnection();
        Pipeline.run(connection, commands).forEach(r -> assertEquals("OK", r));

        List<List<String>> halves = List.of(new ArrayList<>(), new ArrayList<>());
        for (int id = 1; id <= rows; id++) {
            halves.get(id <= rows / 2 ? 0 : 1).add(row(id));
        }
        commands.clear();
        for (int i = 0; i < 20; i++) {
            int from = i % 2 == 0 ? 1 : rows / 2 + 1;
            commands.add(new String[] {"SELECT", "*", "FROM", "p", "WHERE", "id BETWEEN " + from + " AND " + (from + rows / 2 - 1),
                "ORDER", "BY", "id"});
            commands.add(new String[] {"SQL", "SELECT COUNT(*) FROM p WHERE client = " + i % 7});
        }
        List<Object> replies = Pipeline.run(connection, commands);
        for (int i = 0; i < 20; i++) {
            assertEquals(halves.get(i % 2), replies.get(2 * i), "select " + i);
            long expectedCount = (rows - i % 7) / 7 + (i % 7 == 0 ? 0 : 1);
            assertEquals(expectedCount, replies.get(2 * i + 1), "count " + i);
        }
    }

    @Test
    void twoHundredConnectionsInsertAndReadTheirOwnRanges() throws Exception {
        CountDownLatch ready = new CountDownLatch(CLIENTS);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<List<Object>>> results = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                results.add(pool.submit(() -> {
                    RedisCommands<String, String> sync = server.newLettuceConnection().sync();
                    ready.countDown();
                    assertTrue(go.await(60, TimeUnit.SECONDS));
                    int first = client * ROWS_PER_CLIENT + 1;
                    for (int id = first; id < first + ROWS_PER_CLIENT; id++) {
                        Object reply = TestServer.dispatch(sync, "INSERT", "INTO", "p", "VALUES",
                                "(" + id + "," + client + ",c" + client + "-" + id + ")");
                        assertEquals("OK", reply, "client " + client + " row " + id);
                    }
                    Object count = TestServer.dispatch(sync, "SELECT", "COUNT(*)", "FROM", "p", "WHERE", "client = " + client);
                    assertEquals((long) ROWS_PER_CLIENT, count, "client " + client);
                    return List.of(TestServer.dispatch(sync, "SELECT", "id,name", "FROM", "p", "WHERE",
                            "id BETWEEN " + first + " AND " + (first + ROWS_PER_CLIENT - 1) + " ORDER BY id"),
                            TestServer.dispatch(sync, "SQL", "SELECT id FROM p WHERE client = " + client + " ORDER BY id DESC LIMIT 1"));
                }));
            }
            assertTrue(ready.await(60, TimeUnit.SECONDS), "clients did not connect");
            go.countDown();
            for (int c = 0; c < CLIENTS; c++) {
                List<Object> replies = results.get(c).get(120, TimeUnit.SECONDS);
                int first = c * ROWS_PER_CLIENT + 1;
                List<String> expected = new ArrayList<>();
                for (int id = first; id < first + ROWS_PER_CLIENT; id++) {
                    expected.add(id + ",c" + c + "-" + id);
                }
                assertEquals(expected, replies.get(0), "client " + c);
                assertEquals(List.of(Integer.toString(first + ROWS_PER_CLIENT - 1)), replies.get(1), "client " + c);
            }
        } finally {
            pool.shutdownNow();
        }
        s.expectSql("SELECT COUNT(*) FROM p", integer((long) CLIENTS * ROWS_PER_CLIENT));
        s.expectSql("SELECT COUNT(*) FROM p WHERE client BETWEEN 0 AND " + (CLIENTS - 1), integer((long) CLIENTS * ROWS_PER_CLIENT));
        s.expectSql("SELECT id FROM p WHERE id BETWEEN 1 AND " + CLIENTS * ROWS_PER_CLIENT + " ORDER BY id DESC LIMIT 2",
                rows(Integer.toString(CLIENTS * ROWS_PER_CLIENT), Integer.toString(CLIENTS * ROWS_PER_CLIENT - 1)));
    }
}
