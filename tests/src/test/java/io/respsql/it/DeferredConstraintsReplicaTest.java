package io.respsql.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction whose deferred foreign key was satisfied only at its COMMIT (the referencing row
 * written before the referenced one) reaches a replica by the stream, which applies it in the same
 * order (regress24).
 */
@Timeout(60)
class DeferredConstraintsReplicaTest {
    private static String await(RespConnection c, String sql, String want) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String got = c.call("SQL", sql);
        while (!want.equals(got) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            got = c.call("SQL", sql);
        }
        return got;
    }

    @Test
    void aDeferredTransactionReplicates() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start(); RespConnection m = master.raw()) {
            assertEquals("+OK\r\n", m.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals("+OK\r\n", m.call("SQL", "CREATE TABLE p (id int4 PRIMARY KEY)"));
            assertEquals("+OK\r\n", m.call("SQL", "CREATE TABLE c (r int4 REFERENCES p DEFERRABLE INITIALLY DEFERRED)"));
            ReplicatedTransactionTest.replicate(master, replica);
            RespConnection r = replica.raw();
            assertTrue(!m.call("SQL", "BEGIN").startsWith("-"));
            assertTrue(!m.call("SQL", "INSERT INTO c VALUES (5)").startsWith("-"));
            assertTrue(!m.call("SQL", "INSERT INTO p VALUES (5)").startsWith("-"));
            assertTrue(!m.call("SQL", "COMMIT").startsWith("-"));
            assertTrue(!m.call("MULTI").startsWith("-"));
            m.call("SQL", "INSERT INTO c VALUES (6)");
            m.call("SQL", "INSERT INTO p VALUES (6)");
            assertTrue(m.call("EXEC").startsWith("*2\r\n"));
            assertEquals("*2\r\n$1\r\n5\r\n$1\r\n6\r\n", await(r, "SELECT * FROM c ORDER BY r", "*2\r\n$1\r\n5\r\n$1\r\n6\r\n"));
            assertEquals("*2\r\n$1\r\n5\r\n$1\r\n6\r\n", r.call("SQL", "SELECT * FROM p ORDER BY id"));
        }
    }
}
