package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replica authenticates with its master as an ACL user (masteruser/masterauth) with Redis's least permissions. */
class AclReplicationTest {
    private static final String OK = "+OK\r\n";

    @Test
    void replicaLogsInAsMasteruser() throws Exception {
        try (TestServer master = TestServer.start(c -> c.requirePass("admin-pw")
                .addUserLine("repl on >repl-pw +psync +replconf +ping"));
             TestServer replica = TestServer.start()) {
            RespConnection m = master.raw();
            assertEquals(OK, m.call("AUTH", "admin-pw"));
            assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            RespConnection r = replica.raw();
            // a wrong password first: the master's ACL LOG records the replica's failed AUTH as repl
            assertEquals(OK, r.call("CONFIG", "SET", "masteruser", "repl"));
            assertEquals(OK, r.call("CONFIG", "SET", "masterauth", "wrong"));
            assertEquals(OK, r.call("REPLICAOF", TestServer.HOST, Integer.toString(master.port())));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!m.call("ACL", "LOG").contains("$8\r\nusername\r\n$4\r\nrepl\r\n")) {
                assertTrue(System.nanoTime() < deadline, "the replica's AUTH as repl was not seen");
                Thread.sleep(20);
            }
            assertEquals(OK, r.call("REPLICAOF", "NO", "ONE"));
            assertEquals(OK, r.call("CONFIG", "SET", "masterauth", "repl-pw"));
            ReplicatedTransactionTest.replicate(master, replica);
            assertEquals(OK, m.call("SQL", "INSERT INTO t VALUES (1, 10)"));
            deadline = System.nanoTime() + 20_000_000_000L;
            while (!r.call("SQL", "SELECT v FROM t").contains("10")) {
                assertTrue(System.nanoTime() < deadline, "the write did not reach the replica");
                Thread.sleep(20);
            }
            assertTrue(m.call("CLIENT", "LIST").contains("user=repl"), "the replica's link is repl's");
        }
    }
}
