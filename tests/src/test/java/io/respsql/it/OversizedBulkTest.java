package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bulk over proto-max-bulk-len sent whole, as a client sends a too-large value: the client is
 * still writing when the server refuses it, and must still read Redis's error before the close
 * (issue 22). Closing with the client's bytes unread would reset the connection and lose the reply.
 */
class OversizedBulkTest extends ServerTestBase {
    @AfterEach
    void defaults() {
        server.dispatch("CONFIG", "SET", "proto-max-bulk-len", "32mb");
    }

    @Test
    void errorArrivesBeforeTheCloseWhileTheClientIsStillWriting() throws Exception {
        server.dispatch("CONFIG", "SET", "proto-max-bulk-len", "1mb");
        byte[] frame = RespConnection.encode("SET", "k", "v".repeat(8 << 20)); // 8 MB: far past the socket buffers
        for (int round = 0; round < 3; round++) {
            try (RespConnection bystander = server.raw(); RespConnection c = server.raw()) {
                try {
                    c.send(frame);
                } catch (IOException e) {
                    throw new AssertionError("the server reset the connection while the client was writing", e);
                }
                assertEquals("-ERR Protocol error: invalid bulk length\r\n", c.readReply());
                assertTrue(c.awaitClosedByServer(10_000));
                assertEquals("+PONG\r\n", bystander.call("PING"));
            }
        }
    }

    /**
     * A refused client that neither closes nor stops sending is still closed: the server drops its
     * bytes for at most {@code ClientConnection.LINGER_MILLIS} (5 s), then closes its side too.
     */
    @Test
    void aClientThatKeepsTheConnectionOpenIsClosedAfterTheLinger() throws Exception {
        server.dispatch("CONFIG", "SET", "proto-max-bulk-len", "1mb");
        try (RespConnection bystander = server.raw(); RespConnection c = server.raw()) {
            int before = connected(bystander);
            c.send("*2\r\n$4\r\nECHO\r\n$2000000\r\n");
            assertEquals("-ERR Protocol error: invalid bulk length\r\n", c.readReply());
            c.send(new byte[64 * 1024]); // still read (and dropped) during the linger: no reset
            long deadline = System.currentTimeMillis() + 20_000;
            while (connected(bystander) >= before) {
                assertTrue(System.currentTimeMillis() < deadline, "the refused client was never closed");
                Thread.sleep(50); // no event on the wire for another client's close: poll INFO
            }
        }
    }

    private static int connected(RespConnection c) throws IOException {
        for (String line : c.call("INFO", "clients").split("\r\n")) {
            if (line.startsWith("connected_clients:")) {
                return Integer.parseInt(line.substring("connected_clients:".length()));
            }
        }
        throw new AssertionError("no connected_clients");
    }
}
