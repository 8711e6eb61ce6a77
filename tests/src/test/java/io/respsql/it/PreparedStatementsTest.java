package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PREPARE / EXECUTE / DEALLOCATE over the wire, their errors, a restart through the log, and INFO's plan cache lines. */
class PreparedStatementsTest {
    @TempDir
    Path dir;

    private static void fill(RespConnection c) throws java.io.IOException {
        assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "kv", "(id INT PRIMARY KEY, v INT, s TEXT)"));
        assertEquals("+OK\r\n", c.call("INSERT", "INTO", "kv", "VALUES", "(1, 10, 'a'), (2, 20, 'b b')"));
    }

    @Test
    void prepareExecuteDeallocateAndTheirErrors() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("PREPARE", "get", "SELECT v, s FROM kv WHERE id = ?"));
            assertEquals("*1\r\n$6\r\n20,b b\r\n", c.call("EXECUTE", "get", "2"));
            assertEquals("+OK\r\n", c.call("PREPARE", "bump", "UPDATE kv SET v = v + ?, s = ? WHERE id = ?"));
            assertEquals(":1\r\n", c.call("EXECUTE", "bump", "5", "it's x", "1"));
            assertEquals("*1\r\n$9\r\n15,it's x\r\n", c.call("EXECUTE", "get", "1"));
            assertEquals("+OK\r\n", c.call("PREPARE", "put", "INSERT INTO kv VALUES (?, ?, ?)"));
            assertEquals("+OK\r\n", c.call("EXECUTE", "put", "3", "30", "c"));
            assertEquals("*1\r\n$4\r\n30,c\r\n", c.call("EXECUTE", "get", "3"));

            assertEquals("-ERR prepared statement 'nope' does not exist\r\n", c.call("EXECUTE", "nope", "1"));
            assertEquals("-ERR prepared statement 'get' takes 1 value(s), not 2\r\n", c.call("EXECUTE", "get", "1", "2"));
            assertEquals("-ERR value 'x' for parameter 1 of prepared statement 'get' does not fit its type INT (column 'id')\r\n",
                    c.call("EXECUTE", "get", "x"));
            assertEquals("-ERR value '3000000000' for parameter 2 of prepared statement 'put' does not fit its type INT"
                    + " (column 'v')\r\n", c.call("EXECUTE", "put", "4", "3000000000", "d"));
            String bad = c.call("PREPARE", "bad", "SELECT v FROM kv WHERE id = = ?");
            assertTrue(bad.startsWith("-ERR "), bad);
            assertEquals("-ERR prepared statement 'bad' does not exist\r\n", c.call("EXECUTE", "bad", "1"));
            assertEquals("+OK\r\n", c.call("DEALLOCATE", "get"));
            assertEquals("-ERR prepared statement 'get' does not exist\r\n", c.call("EXECUTE", "get", "1"));
            assertEquals("-ERR prepared statement 'get' does not exist\r\n", c.call("DEALLOCATE", "get"));
        }
    }

    @Test
    void preparedStatementsSurviveARestartThroughTheLog() throws Exception {
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
             RespConnection c = s.raw()) {
            fill(c);
            assertEquals("+OK\r\n", c.call("PREPARE", "get", "SELECT v FROM kv WHERE id = ?"));
            assertEquals("+OK\r\n", c.call("PREPARE", "gone", "SELECT v FROM kv"));
            assertEquals("+OK\r\n", c.call("DEALLOCATE", "gone"));
            assertEquals("+OK\r\n", c.call("PREPARE", "set", "UPDATE kv SET v = ? WHERE id = ?"));
            assertEquals(":1\r\n", c.call("EXECUTE", "set", "77", "2"));
        }
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true)); RespConnection c = s.raw()) {
            assertEquals("*1\r\n$2\r\n77\r\n", c.call("EXECUTE", "get", "2"));
            assertEquals("-ERR prepared statement 'gone' does not exist\r\n", c.call("EXECUTE", "gone"));
        }
    }

    @Test
    void infoShowsThePlanCacheAndConfigSetBoundsIt() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            fill(c);
            for (int i = 0; i < 10; i++) {
                c.call("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", Integer.toString(i % 2 + 1));
            }
            String info = c.call("INFO", "stats");
            assertTrue(info.contains("plan_cache_hits:9\r\n"), info);
            // fill's INSERT is planned (a miss) and kept too
            assertTrue(info.contains("plan_cache_misses:2\r\n"), info);
            assertTrue(info.contains("plan_cache_entries:2\r\n"), info);
            assertEquals("+OK\r\n", c.call("CREATE", "INDEX", "kv_v", "ON", "kv", "(v)"));
            assertTrue(c.call("INFO", "stats").contains("plan_cache_entries:0\r\n"), "DDL empties the cache");
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "plan-cache-max-entries", "0"));
            c.call("SELECT", "v", "FROM", "kv", "WHERE", "id", "=", "1");
            info = c.call("INFO", "stats");
            assertTrue(info.contains("plan_cache_entries:0\r\n") && info.contains("plan_cache_hits:9\r\n"), info);
        }
    }
}
