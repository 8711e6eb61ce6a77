package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INSERT through the plan cache over the wire: the same session (2010 texts split any way, the
 * gen-benchmark's zero-padded keys, unquoted text, every kind of refusal, MULTI/EXEC with a failing
 * statement, WATCH) sent to a server with the cache and to one with {@code CONFIG SET
 * plan-cache-max-entries 0} gives the same replies byte for byte and the same tables; INFO counts
 * the cached INSERTs as hits; the append-only log of the cached server replays to the same tables.
 */
class PlanCacheInsertTest {
    @TempDir
    Path dir;

    private static final String[][] SETUP = {
        {"CREATE", "TABLE", "message_list", "(id int primary key, fk int, count INT)"},
        {"CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(fk)"},
        {"CREATE", "TABLE", "employee", "(id int primary key, division int, salary FLOAT, name TEXT)"},
        {"SQL", "CREATE TABLE tags (id INT PRIMARY KEY, tag TEXT UNIQUE, n INT NOT NULL DEFAULT 3, code TEXT)"},
    };

    private static final String[] TABLES = {"message_list", "employee", "tags"};

    /** The session: each repeated shape is cached after its first run. */
    private static List<String[]> session() {
        List<String[]> out = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            String id = String.format("%012d", i);
            String fk = String.format("%012d", i % 3);
            out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(" + id + "," + fk + ",4)"});
        }
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000007,000000000001,4)"}); // duplicate
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000041,000000000001,2147483648)"});
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000041,000000000001,'x')"});
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000042,000000000001,'5')"});
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000043,000000000001,2.0)"});
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000044,000000000001,2.5)"});
        out.add(new String[] {"INSERT", "INTO", "message_list", "VALUES", "(000000000045,000000000001)"});
        out.add(new String[] {"INSERT", "INTO", "message_list", "(id,", "nosuch)", "VALUES", "(46,1)"});
        for (int i = 1; i <= 12; i++) {
            // the same statement split into arguments three ways
            out.add(new String[] {"INSERT", "INTO", "employee", "VALUES", "(" + i + ",22,15000.99,marie" + (i % 2) + ")"});
            out.add(new String[] {"INSERT", "INTO", "employee", "VALUES", "(" + (100 + i) + ",", "33,", "9000.5,", "0" + i + ")"});
            out.add(new String[] {"SQL", "INSERT INTO employee VALUES (" + (200 + i) + ", 22, 12000, 'bob smith'),("
                    + (300 + i) + ",33,-" + i + ".5,'o''brien')"});
            out.add(new String[] {"INSERT", "INTO", "employee", "VALUES", "(" + (400 + i) + ",1,1,x)", "RETURN", "SIZE"});
            out.add(new String[] {"SQL", "INSERT INTO tags (id, tag) VALUES (" + i + ", 't" + (i % 9) + "')"}); // UNIQUE from 10 on
            out.add(new String[] {"SQL", "INSERT INTO tags (id, tag, n) VALUES (" + (50 + i) + ", 'u" + i + "', "
                    + (i % 4 == 0 ? "NULL" : Integer.toString(i)) + ")"}); // NOT NULL
            out.add(new String[] {"SQL", "INSERT INTO tags VALUES (" + (80 + i) + ", 'v" + i + "', " + i + ", " + i + "), ("
                    + (80 + i % 5) + ", 'w" + i + "', 1, '" + i + "')"}); // the second row's key is taken from row 6 on
        }
        return out;
    }

    @Test
    void cachedAndUncachedServersAnswerTheSame() throws Exception {
        try (TestServer cachedServer = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
             TestServer plainServer = TestServer.start();
             RespConnection cached = cachedServer.raw(); RespConnection plain = plainServer.raw();
             RespConnection cachedWatcher = new RespConnection(TestServer.HOST, cachedServer.port());
             RespConnection plainWatcher = new RespConnection(TestServer.HOST, plainServer.port())) {
            assertEquals("+OK\r\n", plain.call("CONFIG", "SET", "plan-cache-max-entries", "0"));
            for (String[] s : SETUP) {
                assertEquals("+OK\r\n", cached.call(s), String.join(" ", s));
                assertEquals("+OK\r\n", plain.call(s), String.join(" ", s));
            }
            long hitsBefore = stat(cached, "plan_cache_hits");
            int errors = 0;
            for (String[] s : session()) {
                String reply = cached.call(s);
                assertEquals(plain.call(s), reply, String.join(" ", s));
                errors += reply.startsWith("-") ? 1 : 0;
            }
            assertTrue(errors >= 15, "the session refuses statements of cached shapes: " + errors);
            long hits = stat(cached, "plan_cache_hits") - hitsBefore;
            assertTrue(hits >= 60, "cached INSERTs are hits: " + hits); // 83: unquoted text (marie0) is not cached
            assertEquals(0, stat(plain, "plan_cache_hits"));

            // A block whose second INSERT fails (a duplicate key) leaves nothing of the first.
            for (RespConnection c : List.of(cached, plain)) {
                assertEquals("+OK\r\n", c.call("MULTI"));
                assertEquals("+QUEUED\r\n", c.call("INSERT", "INTO", "message_list", "VALUES", "(000000000050,000000000001,4)"));
                assertEquals("+QUEUED\r\n", c.call("INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)"));
            }
            String exec = cached.call("EXEC");
            assertEquals(plain.call("EXEC"), exec);
            assertTrue(exec.startsWith("-ERR EXEC aborted") && exec.contains("INSERT on Existing Data"), exec);
            assertEquals("*0\r\n", cached.call("SELECT", "*", "FROM", "message_list", "WHERE", "id = 50"));

            // WATCH sees a cached INSERT of another client: the watcher's EXEC is refused.
            for (RespConnection[] pair : List.of(new RespConnection[] {cachedWatcher, cached},
                    new RespConnection[] {plainWatcher, plain})) {
                assertEquals("+OK\r\n", pair[0].call("WATCH", "message_list"));
                assertEquals("+OK\r\n", pair[1].call("INSERT", "INTO", "message_list", "VALUES", "(000000000060,000000000001,4)"));
                assertEquals("+OK\r\n", pair[0].call("MULTI"));
                assertEquals("+QUEUED\r\n", pair[0].call("SELECT", "COUNT(*)", "FROM", "message_list"));
                assertEquals("*-1\r\n", pair[0].call("EXEC"));
            }
            for (String t : TABLES) {
                assertEquals(plain.call("DUMP", t), cached.call("DUMP", t), "DUMP " + t);
            }
            assertEquals("*1\r\n$16\r\n105,33,9000.5,05\r\n", cached.call("SELECT", "*", "FROM", "employee", "WHERE", "id = 105"));
        }
        // The log holds the cached INSERTs' texts: replayed, the same tables as the uncached server.
        try (TestServer replayed = TestServer.start(c -> c.dir(dir).appendOnly(true));
             TestServer plainServer = TestServer.start();
             RespConnection r = replayed.raw(); RespConnection plain = plainServer.raw()) {
            assertEquals("+OK\r\n", plain.call("CONFIG", "SET", "plan-cache-max-entries", "0"));
            for (String[] s : SETUP) {
                plain.call(s);
            }
            for (String[] s : session()) {
                plain.call(s);
            }
            plain.call("INSERT", "INTO", "message_list", "VALUES", "(000000000060,000000000001,4)");
            for (String t : TABLES) {
                assertEquals(plain.call("DUMP", t), r.call("DUMP", t), "DUMP " + t + " after the log's replay");
            }
        }
    }

    private static long stat(RespConnection c, String field) throws IOException {
        String info = c.call("INFO", "stats");
        int at = info.indexOf(field + ":");
        assertTrue(at >= 0, info);
        int end = info.indexOf("\r\n", at);
        return Long.parseLong(info.substring(at + field.length() + 1, end));
    }
}
