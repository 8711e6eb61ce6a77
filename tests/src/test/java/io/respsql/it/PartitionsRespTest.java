package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A partition tree made in PostgreSQL's dialect, written and read by a RESP session in the 2010
 * dialect: the statements the routing writes for itself ({@code FROM ONLY}) and the parent's read
 * (a UNION ALL of its partitions) are PostgreSQL's text, which the 2010 dialect refused ("table
 * 'ONLY' does not exist"); they are now read in PostgreSQL's dialect whatever the session's.
 */
class PartitionsRespTest {
    @Test
    void aRespSessionWritesAndReadsAPartitionTree() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection pg = s.raw(); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", pg.call("SQL", "SET sql_dialect TO postgresql"));
            assertEquals("+OK\r\n", pg.call("SQL", "CREATE TABLE p (k INT, v INT) PARTITION BY RANGE (k)"));
            assertEquals("+OK\r\n", pg.call("SQL", "CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10)"));
            assertEquals("+OK\r\n", pg.call("SQL", "CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO p VALUES (1, 0)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO p VALUES (15, 0), (2, 1)"));
            assertEquals(":1\r\n", c.call("SQL", "UPDATE p SET k = 12 WHERE k = 1")); // moves the row to p2
            assertEquals(":1\r\n", c.call("SQL", "DELETE FROM p WHERE k = 2"));
            assertEquals("*2\r\n$4\r\n12,0\r\n$4\r\n15,0\r\n", c.call("SQL", "SELECT k, v FROM p ORDER BY k"));
            assertEquals("*2\r\n$2\r\n12\r\n$2\r\n15\r\n", c.call("SQL", "SELECT k FROM p2 ORDER BY k"));
            assertEquals("*0\r\n", c.call("SQL", "SELECT k FROM p1"));
            String none = c.call("SQL", "INSERT INTO p VALUES (30, 0)");
            assertEquals(true, none.startsWith("-") && none.contains("no partition"), none);
        }
    }
}
