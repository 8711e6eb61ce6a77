package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writes of issue 24 over RESP: RETURNING replies rows as a SELECT of the same values would
 * (the 2010 form with SQL, the typed form with QUERY, RESP3 too), the replies of writes without it
 * are unchanged, MULTI/EXEC keeps a block all-or-nothing around them, and the append-only file
 * replays every one of them to the same tables.
 */
class ReturningWireTest {
    @TempDir
    Path dir;

    private static void setUp(RespConnection c) throws Exception {
        assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE r (id INT PRIMARY KEY, v INT, s TEXT)"));
        assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO r VALUES (1, 10, 'a'), (2, 20, 'b')"));
    }

    @Test
    void returningRepliesAsASelectInTheDefaultDialect() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            setUp(c);
            String inserted = c.call("SQL", "INSERT INTO r VALUES (3, 30, 'c') RETURNING id, v");
            assertEquals(c.call("SQL", "SELECT id, v FROM r WHERE id = 3"), inserted);
            assertEquals("*1\r\n$4\r\n3,30\r\n", inserted);
            String typed = c.call("QUERY", "INSERT INTO r VALUES (4, 40, 'd') RETURNING *");
            assertEquals(c.call("QUERY", "SELECT * FROM r WHERE id = 4"), typed);
            String updated = c.call("QUERY", "UPDATE r SET v = v + 1 WHERE id >= 3 RETURNING id, v, s");
            assertEquals(c.call("QUERY", "SELECT id, v, s FROM r WHERE id >= 3 ORDER BY id"), updated);
            String before = c.call("SQL", "SELECT s, id FROM r WHERE id = 4");
            assertEquals(before, c.call("SQL", "DELETE FROM r WHERE id = 4 RETURNING s, id"));
            assertEquals("*0\r\n", c.call("SQL", "DELETE FROM r WHERE id = 4 RETURNING s, id"));
            c.call("HELLO", "3");
            String resp3 = c.call("QUERY", "UPDATE r SET s = 'x' WHERE id = 1 RETURNING id, s");
            assertEquals(c.call("QUERY", "SELECT id, s FROM r WHERE id = 1"), resp3);
            c.call("HELLO", "2");
            // the replies of writes without RETURNING are the 2010 ones
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO r VALUES (5, 50, 'e')"));
            assertEquals(":1\r\n", c.call("SQL", "UPDATE r SET v = 51 WHERE id = 5"));
            assertEquals(":1\r\n", c.call("SQL", "DELETE FROM r WHERE id = 5"));
            // upsert in the default dialect: +OK as an INSERT
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO r VALUES (1, 11, 'y') ON CONFLICT (id) DO UPDATE SET v = excluded.v"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO r VALUES (2, 0, 'z') ON CONFLICT DO NOTHING"));
            assertEquals("*1\r\n$11\r\n1,11,x,2,20\r\n", c.call("SQL", "SELECT a.id, a.v, a.s, b.id, b.v FROM r a, r b WHERE a.id = 1 AND b.id = 2"));
            assertEquals("*1\r\n$1\r\n6\r\n", c.call("SQL", "INSERT INTO r (id) VALUES (6) RETURNING id"));
            assertTrue(c.call("SQL", "INSERT INTO r VALUES (7, 1, 'q') RETURNING nosuch").startsWith("-ERR"));
            assertEquals("*0\r\n", c.call("SQL", "SELECT * FROM r WHERE id = 7"), "a refused RETURNING inserts nothing");
        }
    }

    @Test
    void blocksStayAllOrNothing() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            setUp(c);
            assertEquals("+OK\r\n", c.call("MULTI"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "INSERT INTO r VALUES (3, 30, 'c') RETURNING id"));
            assertEquals("+QUEUED\r\n", c.call("SQL", "UPDATE r SET v = 0 WHERE id <= 2 RETURNING id, v"));
            assertEquals("*2\r\n*1\r\n$1\r\n3\r\n*2\r\n$3\r\n1,0\r\n$3\r\n2,0\r\n", c.call("EXEC"));
            String rows = c.call("SQL", "SELECT * FROM r ORDER BY id");
            assertEquals("+OK\r\n", c.call("MULTI"));
            c.call("SQL", "INSERT INTO r VALUES (4, 40, 'd') ON CONFLICT (id) DO NOTHING RETURNING id");
            c.call("SQL", "DELETE FROM r WHERE id = 3 RETURNING *");
            c.call("SQL", "INSERT INTO r VALUES (1, 1, 'dup')");
            assertTrue(c.call("EXEC").startsWith("-"), "the duplicate key fails the block");
            assertEquals(rows, c.call("SQL", "SELECT * FROM r ORDER BY id"), "the block's writes were taken back");
        }
    }

    @Test
    void theAppendOnlyFileReplaysThem() throws Exception {
        String before;
        String others;
        java.util.function.Consumer<io.respsql.config.ServerConfig> durable =
                c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS);
        try (TestServer s = TestServer.start(durable); RespConnection c = s.raw()) {
            setUp(c);
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE o (k INT, x INT)"));
            c.call("SQL", "INSERT INTO o VALUES (1, 100), (2, 200), (9, 900)");
            c.call("SQL", "INSERT INTO r VALUES (3, 30, 'c') RETURNING *");
            assertEquals("+OK\r\n", c.call("SQL", "SET sql_dialect TO postgresql"));
            assertTrue(c.call("SQL", "UPDATE r SET v = o.x + r.v FROM o WHERE o.k = r.id RETURNING r.id").startsWith("*2"));
            assertTrue(c.call("SQL", "INSERT INTO r VALUES (2, 0, 'n'), (4, DEFAULT, 'd') ON CONFLICT (id)"
                    + " DO UPDATE SET s = excluded.s || r.s RETURNING id").startsWith("*2"));
            assertTrue(c.call("SQL", "DELETE FROM o USING r WHERE r.id = o.k AND r.v > 150 RETURNING o.k").startsWith("*1"));
            assertTrue(c.call("SQL", "INSERT INTO o DEFAULT VALUES RETURNING *").startsWith("*1"));
            before = c.call("SQL", "SELECT * FROM r ORDER BY id");
            others = c.call("SQL", "SELECT * FROM o ORDER BY k");
            assertTrue(before.contains("2,220,nb"), before);
        }
        try (TestServer s = TestServer.start(durable); RespConnection c = s.raw()) {
            assertEquals(before, c.call("SQL", "SELECT * FROM r ORDER BY id"));
            assertEquals(others, c.call("SQL", "SELECT * FROM o ORDER BY k"));
        }
    }
}
