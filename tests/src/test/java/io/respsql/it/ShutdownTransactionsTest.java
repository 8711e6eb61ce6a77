package io.respsql.it;

import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SHUTDOWN (no append-only file, a final snapshot) beside an open interactive transaction that
 * holds the write token, with writers parked behind it: an acknowledged write is never lost, the
 * transaction's uncommitted writes are never saved, and a failed save leaves the transaction open.
 */
class ShutdownTransactionsTest {
    private static final int AWAIT_MILLIS = 20_000;

    @TempDir
    Path dir;

    private TestServer start(Path where, Consumer<ServerConfig> more) {
        return TestServer.start(c -> {
            c.dir(where);
            c.save("3600 1");
            more.accept(c);
        });
    }

    /** One INFO stats field of {@code c}. */
    private static long parkedNow(RespConnection c) throws IOException {
        for (String line : c.call("INFO", "stats").split("\r\n")) {
            if (line.startsWith("tx_parked_statements:")) {
                return Long.parseLong(line.substring("tx_parked_statements:".length()).trim());
            }
        }
        throw new AssertionError("no tx_parked_statements in INFO stats");
    }

    private static void awaitParked(RespConnection c, long n) throws Exception {
        long deadline = System.currentTimeMillis() + AWAIT_MILLIS;
        while (parkedNow(c) < n) {
            assertTrue(System.currentTimeMillis() < deadline, "the writers did not park");
            Thread.sleep(5); // no event over the wire to await: poll INFO
        }
    }

    @Test
    void aWriterParkedBehindAnOpenTransactionIsNeverAcknowledgedAndLost() throws Exception {
        boolean[] acked = new boolean[3];
        try (TestServer s = start(dir, c -> { })) {
            try (RespConnection a = s.raw(); RespConnection b1 = s.raw(); RespConnection b2 = s.raw();
                 RespConnection admin = s.raw()) {
                assertEquals("+OK\r\n", a.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
                assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO t VALUES (0)"));
                assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
                assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO t VALUES (100)"));
                b1.sendCommand("SQL", "INSERT INTO t VALUES (1)");
                b2.sendCommand("SQL", "INSERT INTO t VALUES (2)");
                awaitParked(admin, 2);
                admin.sendCommand("SHUTDOWN");
                assertTrue(admin.awaitClosedByServer(AWAIT_MILLIS), "SHUTDOWN closes the connection");
                RespConnection[] writers = {b1, b2};
                for (int i = 0; i < 2; i++) {
                    try {
                        String reply = writers[i].readReply();
                        acked[i + 1] = reply.equals("+OK\r\n");
                        assertTrue(acked[i + 1], "a parked writer either succeeds or never hears back: " + reply);
                    } catch (IOException closed) {
                        acked[i + 1] = false; // the server closed the connection: never acknowledged
                    }
                }
            }
            assertTrue(s.server().awaitTermination(AWAIT_MILLIS, TimeUnit.MILLISECONDS), "the server stopped");
        }
        try (TestServer s = start(dir, c -> { }); RespConnection c = s.raw()) {
            assertEquals("*1\r\n$1\r\n0\r\n", c.call("SQL", "SELECT id FROM t WHERE id = 0"));
            assertEquals("*0\r\n", c.call("SQL", "SELECT id FROM t WHERE id = 100"), "an uncommitted write was saved");
            for (int i = 1; i <= 2; i++) {
                if (acked[i]) {
                    assertEquals("*1\r\n$1\r\n" + i + "\r\n", c.call("SQL", "SELECT id FROM t WHERE id = " + i),
                            "the acknowledged write of row " + i + " was lost");
                }
            }
        }
    }

    @Test
    void aShutdownWhoseSaveFailsLeavesTheOpenTransactionAsItWas() throws Exception {
        Path gone = Files.createDirectory(dir.resolve("gone"));
        try (TestServer s = start(gone, c -> { });
             RespConnection a = s.raw(); RespConnection b = s.raw(); RespConnection admin = s.raw()) {
            assertEquals("+OK\r\n", a.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
            assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO t VALUES (1)"));
            b.sendCommand("SQL", "INSERT INTO t VALUES (2)");
            awaitParked(admin, 1);
            Files.delete(gone);
            String reply = admin.call("SHUTDOWN");
            assertTrue(reply.startsWith("-ERR Errors trying to SHUTDOWN: saving the snapshot failed: "), reply);
            // the transaction is still open: its own writes, then its commit
            assertEquals("*1\r\n$1\r\n1\r\n", a.call("SQL", "SELECT id FROM t"));
            assertEquals("+OK\r\n", a.call("SQL", "SAVEPOINT s")); // refused outside a transaction block
            assertEquals("+OK\r\n", a.call("SQL", "COMMIT"));
            assertEquals("+OK\r\n", b.readReply()); // the parked writer runs after the commit
            assertEquals("*2\r\n$1\r\n1\r\n$1\r\n2\r\n", admin.call("SQL", "SELECT id FROM t ORDER BY id"));
            assertEquals("PONG", s.lettuce().ping());
        }
    }
}
