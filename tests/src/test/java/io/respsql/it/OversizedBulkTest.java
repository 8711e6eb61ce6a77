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
}
