package io.respsql.it;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConcurrentClientsTest extends ServerTestBase {
    private static final int CLIENTS = 200;
    private static final int REQUESTS_EACH = 100;

    @Test
    void twoHundredClientsAtOnce() throws Exception {
        CountDownLatch connected = new CountDownLatch(CLIENTS);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                results.add(pool.submit(() -> {
                    try (Jedis j = new Jedis(server.host(), server.port(), 30_000)) {
                        j.clientSetname("c" + client);
                        connected.countDown();
                        assertTrue(go.await(60, TimeUnit.SECONDS));
                        int ok = 0;
                        for (int r = 0; r < REQUESTS_EACH; r++) {
                            String payload = client + ":" + r;
                            if (payload.equals(j.echo(payload))) {
                                ok++;
                            }
                        }
                        assertEquals("c" + client, j.clientGetname());
                        return ok;
                    }
                }));
            }
            assertTrue(connected.await(60, TimeUnit.SECONDS), "clients did not connect");
            String clients = server.lettuce().info("clients");
            assertTrue(ServerCommandsTest.stat(clients, "connected_clients") >= CLIENTS + 1, clients);
            go.countDown();
            for (Future<Integer> f : results) {
                assertEquals(REQUESTS_EACH, f.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals("PONG", server.lettuce().ping());
    }
}
