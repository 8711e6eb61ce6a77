package io.respsql.it;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PipeliningTest extends ServerTestBase {
    private static final int REQUESTS = 10_000;

    @Test
    void tenThousandPipelinedRequestsAnsweredInOrder() {
        StatefulRedisConnection<String, String> connection = server.newLettuceConnection();
        RedisAsyncCommands<String, String> async = connection.async();
        connection.setAutoFlushCommands(false);
        List<RedisFuture<String>> futures = new ArrayList<>(REQUESTS);
        for (int i = 0; i < REQUESTS; i++) {
            futures.add(i % 2 == 0 ? async.echo("payload-" + i) : async.ping());
        }
        connection.flushCommands();
        assertTrue(LettuceFutures.awaitAll(Duration.ofSeconds(60), futures.toArray(new RedisFuture[0])));
        for (int i = 0; i < REQUESTS; i++) {
            assertEquals(i % 2 == 0 ? "payload-" + i : "PONG", futures.get(i).toCompletableFuture().join(), "reply " + i);
        }
        connection.setAutoFlushCommands(true);
    }

    @Test
    void pipelineInOneWriteOnTheWire() throws Exception {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < REQUESTS; i++) {
            batch.writeBytes(RespConnection.encode("ECHO", Integer.toString(i)));
        }
        batch.writeBytes("PING\r\n".getBytes()); // an inline command in the middle of a pipeline
        batch.writeBytes(RespConnection.encode("nosuch"));
        batch.writeBytes(RespConnection.encode("ECHO", "last"));
        try (RespConnection c = server.raw()) {
            c.send(batch.toByteArray());
            for (int i = 0; i < REQUESTS; i++) {
                String s = Integer.toString(i);
                assertEquals("$" + s.length() + "\r\n" + s + "\r\n", c.readReply());
            }
            assertEquals("+PONG\r\n", c.readReply());
            assertEquals("-ERR unknown command 'nosuch', with args beginning with: \r\n", c.readReply());
            assertEquals("$4\r\nlast\r\n", c.readReply());
        }
    }

    @Test
    void largeArgumentsSplitAcrossReads() throws Exception {
        String big = "x".repeat(3 * 1024 * 1024);
        try (RespConnection c = server.raw()) {
            String reply = c.call("ECHO", big);
            assertEquals("$" + big.length() + "\r\n" + big + "\r\n", reply);
            assertEquals("+PONG\r\n", c.call("PING"));
        }
    }
}
