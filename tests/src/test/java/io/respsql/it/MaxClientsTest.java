package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MaxClientsTest {
    @Test
    void connectionsBeyondMaxclientsAreRejected() throws Exception {
        try (TestServer server = TestServer.start(config -> config.maxClients(2))) {
            RespConnection a = server.raw();
            RespConnection b = server.raw();
            assertEquals("+PONG\r\n", a.call("PING"));
            assertEquals("+PONG\r\n", b.call("PING"));
            RespConnection c = server.raw();
            assertEquals("-ERR max number of clients reached\r\n", c.readReply());
            assertTrue(c.awaitClosedByServer(10_000));
            String stats = a.call("INFO", "stats");
            assertTrue(stats.contains("rejected_connections:1\r\n"), stats);
            // Once b has left (QUIT, so the server has seen it go), a new client fits again.
            assertEquals("+OK\r\n", b.call("QUIT"));
            assertTrue(b.awaitClosedByServer(10_000));
            RespConnection d = server.raw();
            assertEquals("+PONG\r\n", d.call("PING"));
        }
    }
}
