package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where MULTI/EXEC meets replication, with Redis 7's replies (checked against redis-server 7.0):
 * a write queued on a read-only replica or on a master short of replicas is refused at queue time
 * and fails the EXEC; writes that became impossible between MULTI and EXEC abort the EXEC with the
 * reason; WAIT inside a block answers at once as one element of EXEC's array, never later.
 */
class ReplicatedTransactionTest {
    private static final String OK = "+OK\r\n";
    private static final String QUEUED = "+QUEUED\r\n";
    private static final String READONLY = "-READONLY You can't write against a read only replica.\r\n";
    private static final String NOREPLICAS = "-NOREPLICAS Not enough good replicas to write.\r\n";
    private static final String EXECABORT = "-EXECABORT Transaction discarded because of previous errors.\r\n";
    private static final Duration LINK = Duration.ofSeconds(30);

    static String info(RespConnection c, String section, String field) throws IOException {
        String text = c.call("INFO", section);
        for (String line : text.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        return null;
    }

    /** Makes {@code replica} replicate {@code master} and waits until the link is up. */
    static void replicate(TestServer master, TestServer replica) throws Exception {
        RespConnection c = replica.raw();
        assertEquals(OK, c.call("REPLICAOF", TestServer.HOST, Integer.toString(master.port())));
        long deadline = System.nanoTime() + LINK.toNanos();
        while (!"up".equals(info(c, "replication", "master_link_status"))) {
            assertTrue(System.nanoTime() < deadline, "the replica's link did not come up");
            Thread.sleep(10);
        }
    }

    /**
     * A server without the event-loop bound (loop-statement-max-ms 0): what MULTI/EXEC replicates is
     * under test, and on a loaded machine a one-row SELECT inside MULTI can pass 50 ms and abort the block.
     */
    private static TestServer unbounded() {
        TestServer s = TestServer.start();
        try (RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "loop-statement-max-ms", "0"));
        } catch (java.io.IOException e) {
            s.close();
            throw new java.io.UncheckedIOException(e);
        }
        return s;
    }

    @Test
    void writesQueuedOnAReadOnlyReplicaAreRefusedAtQueueTime() throws Exception {
        try (TestServer master = unbounded(); TestServer replica = unbounded()) {
            RespConnection m = master.raw();
            assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            assertEquals(OK, m.call("SQL", "INSERT INTO t VALUES (1, 10)"));
            replicate(master, replica);
            RespConnection r = replica.raw();
            assertEquals(OK, r.call("MULTI"));
            assertEquals(QUEUED, r.call("SELECT", "*", "FROM", "t"));
            assertEquals(READONLY, r.call("INSERT", "INTO", "t", "VALUES", "(2, 20)"));
            assertEquals(READONLY, r.call("SQL", "UPDATE t SET v = 0"));
            assertEquals(READONLY, r.call("FLUSHALL"));
            assertEquals(EXECABORT, r.call("EXEC"));
            // a block of reads runs, SQL "<a read>" included
            assertEquals(OK, r.call("MULTI"));
            assertEquals(QUEUED, r.call("SQL", "SELECT v FROM t"));
            assertEquals("*1\r\n*1\r\n$2\r\n10\r\n", r.call("EXEC"));
        }
    }

    @Test
    void writesQueuedOnAMasterShortOfReplicasAreRefused() throws Exception {
        try (TestServer master = unbounded()) {
            RespConnection m = master.raw();
            assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            assertEquals(OK, m.call("CONFIG", "SET", "min-replicas-to-write", "1"));
            assertEquals(OK, m.call("MULTI"));
            assertEquals(NOREPLICAS, m.call("SQL", "INSERT INTO t VALUES (1, 1)"));
            assertEquals(EXECABORT, m.call("EXEC"));

            // writes that became impossible after they were queued: EXEC says why, the block is gone
            RespConnection other = master.raw();
            assertEquals(OK, other.call("CONFIG", "SET", "min-replicas-to-write", "0"));
            assertEquals(OK, m.call("MULTI"));
            assertEquals(QUEUED, m.call("SQL", "INSERT INTO t VALUES (2, 2)"));
            assertEquals(OK, other.call("CONFIG", "SET", "min-replicas-to-write", "1"));
            assertEquals("-EXECABORT Transaction discarded because of: NOREPLICAS Not enough good replicas to write.\r\n",
                    m.call("EXEC"));
            assertEquals("-ERR EXEC without MULTI\r\n", m.call("EXEC"));
            assertEquals(":0\r\n", m.call("SQL", "SELECT COUNT(*) FROM t"));
            // a block of reads still runs on that master
            assertEquals(OK, m.call("MULTI"));
            assertEquals(QUEUED, m.call("SQL", "SELECT COUNT(*) FROM t"));
            assertEquals("*1\r\n:0\r\n", m.call("EXEC"));
        }
    }

    @Test
    void waitInsideExecAnswersAtOnceInTheArray() throws Exception {
        try (TestServer master = unbounded(); TestServer replica = unbounded()) {
            RespConnection m = master.raw();
            assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            // no replica: WAIT 1 with a long timeout would block outside a block; inside, it answers 0
            assertEquals(OK, m.call("MULTI"));
            assertEquals(QUEUED, m.call("SQL", "INSERT INTO t VALUES (1, 1)"));
            assertEquals(QUEUED, m.call("WAIT", "1", "60000"));
            assertEquals("*2\r\n+OK\r\n:0\r\n", m.call("EXEC"));
            // the client is not left blocked: its next command answers, and nothing else follows
            assertEquals("+PONG\r\n", m.call("PING"));
            Thread.sleep(200);
            assertEquals(0, m.available(), "a late WAIT reply arrived after EXEC");

            replicate(master, replica);
            assertEquals(":1\r\n", m.call("WAIT", "1", "10000")); // outside a block WAIT still waits for the ack
        }
    }

    @Test
    void psyncInsideMultiIsRefusedAndFailsTheTransaction() throws Exception {
        try (TestServer master = unbounded()) {
            RespConnection c = master.raw();
            assertEquals(OK, c.call("MULTI"));
            // as Redis (no_multi): the connection must not turn into a replica's link inside EXEC
            assertEquals("-ERR Command not allowed inside a transaction\r\n", c.call("PSYNC", "?", "-1"));
            assertEquals(EXECABORT, c.call("EXEC"));
            assertEquals("+PONG\r\n", c.call("PING"));
            assertEquals("0", info(c, "replication", "connected_slaves"));
            assertTrue(c.call("COMMAND", "INFO", "psync").contains("+no_multi\r\n"));
        }
    }
}
