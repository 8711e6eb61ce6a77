package io.respsql.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.respsql.it.Resp.EMPTY;
import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.PONG;
import static io.respsql.it.Resp.error;
import static io.respsql.it.Resp.integer;
import static io.respsql.it.Resp.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULTI / EXEC / DISCARD / WATCH / UNWATCH over the wire: Redis 7's replies for queueing and its
 * errors (checked against redis-server 7.0), and the SQL promise beyond Redis: a block whose
 * statement fails leaves no change (DUMP of every table and the index probes are compared) and
 * answers one error naming the statement; another client never sees part of a block.
 */
class TransactionTest extends SqlTestBase {
    private static final String QUEUED = "+QUEUED\r\n";
    private static final String EXECABORT = error("EXECABORT Transaction discarded because of previous errors.");

    /** t: (id, v, name) for id 1..100, v = id * 10, name = 'n' + id; indexes on v and name. */
    @BeforeEach
    void createTable() {
        s.expectSql("CREATE TABLE t (id int primary key, v int, name text)", OK);
        s.expectSql("CREATE INDEX t:v ON t (v)", OK);
        s.expectSql("CREATE INDEX t:name ON t (name)", OK);
        s.expectSql(SqlText.insert("t", 1, 100, n -> n + "," + n * 10 + ",n" + n), OK);
        s.expectSql("CREATE TABLE other (k int primary key, x float)", OK);
        s.expectSql("INSERT INTO other VALUES (1, 1.5), (2, 2.5)", OK);
    }

    private String queue(String statement) {
        return s.sql(statement);
    }

    @Test
    void queueingRepliesAsRedis() {
        assertEquals(error("ERR EXEC without MULTI"), s.send("EXEC"));
        assertEquals(error("ERR DISCARD without MULTI"), s.send("DISCARD"));
        assertEquals(OK, s.send("MULTI"));
        // neither nested MULTI nor WATCH inside MULTI fails the transaction (as Redis)
        assertEquals(error("ERR MULTI calls can not be nested"), s.send("MULTI"));
        assertEquals(error("ERR WATCH inside MULTI is not allowed"), s.send("WATCH", "t"));
        assertEquals(QUEUED, queue("INSERT INTO t VALUES (101, 1010, n101)"));
        assertEquals(QUEUED, s.send("PING"));
        assertEquals(QUEUED, queue("SELECT * FROM t WHERE id = 101"));
        assertEquals(QUEUED, queue("UPDATE t SET v = v + 1 WHERE id >= 100"));
        assertEquals(QUEUED, s.send("SELECT", "0"));
        assertEquals("*5\r\n" + OK + PONG + rows("101,1010,n101") + integer(2) + OK, s.send("EXEC"));
        assertEquals(error("ERR EXEC without MULTI"), s.send("EXEC"));
        s.expectSql("SELECT * FROM t WHERE id >= 100 ORDER BY id", rows("100,1001,n100", "101,1011,n101"));
        // an empty block
        assertEquals(OK, s.send("MULTI"));
        assertEquals("*0\r\n", s.send("EXEC"));
    }

    @Test
    void discardForgetsTheQueuedCommands() {
        Map<String, List<String>> before = s.snapshot();
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, queue("DELETE FROM t"));
        assertEquals(QUEUED, queue("DROP TABLE other"));
        assertEquals(OK, s.send("DISCARD"));
        assertEquals(error("ERR DISCARD without MULTI"), s.send("DISCARD"));
        assertEquals(before, s.snapshot());
        // commands run at once again
        s.expectSql("SELECT COUNT(*) FROM t", integer(100));
    }

    @Test
    void errorsWhileQueueingAbortTheExec() {
        Map<String, List<String>> before = s.snapshot();
        String[][] refused = {
            {"NOSUCHCOMMAND", "x"},
            {"ECHO"},
            {"SQL", "INSERT INTO t VALUES (200 2000 'x'"},
            {"UPDATE", "t", "SET"},
            {"CONFIG", "NOSUCHSUB"},
        };
        for (String[] bad : refused) {
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("INSERT INTO t VALUES (200, 2000, 'x')"));
            String reply = s.send(bad);
            assertTrue(reply.startsWith("-ERR "), String.join(" ", bad) + " -> " + reply);
            assertEquals(QUEUED, queue("DELETE FROM t"));
            assertEquals(EXECABORT, s.send("EXEC"), String.join(" ", bad));
            assertEquals(before, s.snapshot(), String.join(" ", bad));
        }
        assertEquals(OK, s.send("MULTI"));
        assertEquals(error("ERR unknown command 'NOSUCH', with args beginning with: 'a' "), s.send("NOSUCH", "a"));
        assertEquals(error("ERR wrong number of arguments for 'echo' command"), s.send("ECHO"));
        assertEquals(error("ERR syntax error: expected ')' to close the value list, found end of statement"),
                queue("INSERT INTO t VALUES (5 50 'x'"));
        assertEquals(EXECABORT, s.send("EXEC"));
        // the failed EXEC ended the transaction
        assertEquals(error("ERR EXEC without MULTI"), s.send("EXEC"));
    }

    /** Index probes, key ranges and counts of t and other, compared as a whole. */
    private List<String> probes() {
        List<String> out = new ArrayList<>();
        out.add(s.sql("SELECT * FROM t ORDER BY id"));
        out.add(s.sql("SELECT * FROM t WHERE v BETWEEN 0 AND 100000 ORDER BY id"));
        out.add(s.sql("SELECT * FROM t WHERE v >= 500 ORDER BY v DESC"));
        out.add(s.sql("SELECT * FROM t WHERE name BETWEEN 'a' AND 'z' ORDER BY id"));
        out.add(s.sql("SELECT * FROM t WHERE id BETWEEN 40 AND 60 ORDER BY id"));
        out.add(s.sql("SELECT COUNT(*) FROM t"));
        out.add(s.sql("SELECT * FROM other ORDER BY k"));
        out.add(s.sql("SHOW TABLES"));
        for (int id = 1; id <= 100; id += 7) {
            out.add(s.sql("SELECT * FROM t WHERE v = " + id * 10));
            out.add(s.sql("SELECT * FROM t WHERE name = n" + id));
        }
        return out;
    }

    /** Statements that change t and other in every way there is: rows, keys, text, indexes, tables. */
    private static final String[] CHANGES = {
        "INSERT INTO t VALUES (101, 1010, n101), (102, 1020, n102)",
        "UPDATE t SET id = id + 1000, v = v + 1, name = 'moved' WHERE id BETWEEN 40 AND 60",
        "DELETE FROM t WHERE v < 200",
        "UPDATE t SET name = 'renamed' WHERE v >= 900",
        "INSERT INTO t VALUES (1, 5, n1)",
        "DELETE FROM t WHERE id = 1045",
        "DROP INDEX t:name",
        "CREATE INDEX t:v2 ON t (v)",
        "CREATE TABLE fresh (a int, b text)",
        "INSERT INTO fresh VALUES (1, x), (2, y)",
        "DROP TABLE other",
        "CREATE TABLE other (k int primary key, x float)",
        "INSERT INTO other VALUES (7, 7.5)",
    };

    private void assertBlockRolledBack(String[] block, int failing, String failure) {
        Map<String, List<String>> dumps = s.snapshot();
        List<String> probes = probes();
        assertEquals(OK, s.send("MULTI"));
        for (String st : block) {
            assertEquals(QUEUED, queue(st), st);
        }
        assertEquals(error("ERR EXEC aborted: statement " + failing + " of " + block.length + " failed: " + failure
                + "; no change of this transaction was kept"), s.send("EXEC"));
        assertEquals(dumps, s.snapshot());
        assertEquals(probes, probes());
        s.assertAlive();
    }

    private static String[] with(String[] head, String failing, String... tail) {
        List<String> all = new ArrayList<>(List.of(head));
        all.add(failing);
        all.addAll(List.of(tail));
        return all.toArray(new String[0]);
    }

    @Test
    void aFailureAtTheEndTakesBackTheWholeBlock() {
        assertBlockRolledBack(with(CHANGES, "INSERT INTO t VALUES (2000, 1, a), (2000, 2, b)"), CHANGES.length + 1,
                "INSERT on Existing Data - use UPDATE (table 't' already has id=2000)");
    }

    @Test
    void aFailureInTheMiddleTakesBackTheBlockAndRunsNothingAfterIt() {
        // (the failing statement was a division by zero, which SQL now defines as NULL)
        assertBlockRolledBack(with(CHANGES, "UPDATE t SET id = 101", "INSERT INTO t VALUES (3000, 3, c)",
                "DELETE FROM t"), CHANGES.length + 1, "UPDATE would duplicate primary key id=101 in table 't'");
        s.expectSql("SELECT * FROM t WHERE id = 3000", EMPTY);
        // the block that failed was not logged as applied: the same block without the failure runs
        assertEquals(OK, s.send("MULTI"));
        for (String st : CHANGES) {
            assertEquals(QUEUED, queue(st));
        }
        String reply = s.send("EXEC");
        assertTrue(reply.startsWith("*" + CHANGES.length + "\r\n+OK\r\n:21\r\n"), reply);
        s.expectSql("SELECT * FROM t WHERE id = 1050", rows("1050,501,moved"));
        s.expectSql("SELECT * FROM fresh ORDER BY a", rows("1,x", "2,y"));
        s.expectSql("SELECT * FROM other", rows("7,7.5"));
    }

    @Test
    void failuresOfEachKindAreTakenBack() {
        String[][] cases = {
            {"SELECT * FROM nosuch", "table 'nosuch' does not exist"},
            {"UPDATE t SET id = 100 WHERE id = 99", "UPDATE would duplicate primary key id=100 in table 't'"},
            {"INSERT INTO t VALUES (5000, abc, x)", "value abc is not a valid INT for column 'v'"},
            {"CREATE TABLE t (a int)", "table 't' already exists"},
            {"DROP INDEX nosuch", "index 'nosuch' does not exist"},
        };
        for (String[] c : cases) {
            assertBlockRolledBack(with(new String[] {CHANGES[0], CHANGES[1], CHANGES[2]}, c[0], CHANGES[3]), 4, c[1]);
        }
    }

    @Test
    void commandsOtherThanSqlCountInTheNumberingAndFlushAllIsTakenBack() {
        Map<String, List<String>> dumps = s.snapshot();
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, s.send("PING"));
        assertEquals(QUEUED, queue("DELETE FROM t WHERE id < 50"));
        assertEquals(QUEUED, s.send("FLUSHALL"));
        // A table has a primary key only where one is declared (issue 10; the 2010 server made the first column one).
        assertEquals(QUEUED, queue("CREATE TABLE t (a int primary key)"));
        assertEquals(QUEUED, queue("INSERT INTO t VALUES (1), (1)"));
        assertEquals(error("ERR EXEC aborted: statement 5 of 5 failed: INSERT on Existing Data - use UPDATE "
                + "(table 't' already has a=1); no change of this transaction was kept"), s.send("EXEC"));
        assertEquals(dumps, s.snapshot());
    }

    @Test
    void aLargeReplyInsideAFailingBlockIsReplacedByTheError() {
        s.expectSql(SqlText.insert("t", 1000, 9000, n -> n + "," + n + ",'" + "x".repeat(40) + "'"), OK);
        Map<String, List<String>> dumps = s.snapshot();
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, queue("SELECT * FROM t")); // ~400 KB, more than one 64 KiB chunk
        assertEquals(QUEUED, queue("DELETE FROM t WHERE id >= 1000"));
        assertEquals(QUEUED, queue("SELECT * FROM nosuch"));
        assertEquals(error("ERR EXEC aborted: statement 3 of 3 failed: table 'nosuch' does not exist; "
                + "no change of this transaction was kept"), s.send("EXEC"));
        assertEquals(dumps, s.snapshot());
        // and a block with a large reply that succeeds answers it whole
        String all = s.sql("SELECT * FROM t ORDER BY id");
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, queue("SELECT COUNT(*) FROM t"));
        assertEquals(QUEUED, queue("SELECT * FROM t ORDER BY id"));
        assertEquals("*2\r\n" + integer(8101) + all, s.send("EXEC"));
    }

    @Test
    void snapshotsAreRefusedInsideABlockAndTheRestOfItRuns() {
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, queue("INSERT INTO t VALUES (500, 5000, x)"));
        for (String[] c : new String[][] {{"SAVE"}, {"BGSAVE"}, {"BGREWRITEAOF"}, {"CONFIG", "SET", "appendonly", "yes"},
                {"SHUTDOWN", "NOSAVE"}}) {
            assertEquals(QUEUED, s.send(c));
        }
        String refused = " is not allowed inside MULTI: a snapshot would hold part of the transaction";
        assertEquals("*6\r\n" + OK + error("ERR SAVE" + refused) + error("ERR BGSAVE" + refused)
                + error("ERR BGREWRITEAOF" + refused) + error("ERR CONFIG SET appendonly" + refused)
                + error("ERR SHUTDOWN" + refused), s.send("EXEC"));
        s.expectSql("SELECT * FROM t WHERE id = 500", rows("500,5000,x"));
        assertEquals(rows("appendonly", "no"), s.send("CONFIG", "GET", "appendonly"));
    }

    // ---- WATCH ---------------------------------------------------------------------------------

    @Test
    void watchAbortsWhenAnotherClientChangedTheTable() throws IOException {
        try (RespConnection other = server.raw()) {
            assertEquals(OK, s.send("WATCH", "t"));
            assertEquals(integer(1), other.call("SQL", "UPDATE t SET v = 0 WHERE id = 1"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("DELETE FROM t"));
            assertEquals("*-1\r\n", s.send("EXEC"));
            s.expectSql("SELECT COUNT(*) FROM t", integer(100));
            // EXEC ended the watch: the same block now runs
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("DELETE FROM t WHERE id = 1"));
            assertEquals("*1\r\n" + integer(1) + "", s.send("EXEC"));
        }
    }

    @Test
    void queryIsQueuedAndRepliesTypedRowsInsideTheBlock() {
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, s.send("QUERY", "SELECT id, name FROM t WHERE id = 7"));
        assertEquals(QUEUED, s.send("QUERY", "UPDATE t SET v = 1 WHERE id = 7"));
        assertEquals("*2\r\n*3\r\n*2\r\n$2\r\nid\r\n$4\r\nname\r\n*2\r\n$3\r\nINT\r\n$4\r\nTEXT\r\n"
                + "*2\r\n:7\r\n$2\r\nn7\r\n" + integer(1), s.send("EXEC"));
        // and a QUERY that fails takes the block back like any statement
        assertEquals(OK, s.send("MULTI"));
        assertEquals(QUEUED, s.send("QUERY", "UPDATE t SET v = 2 WHERE id = 7"));
        assertEquals(QUEUED, s.send("QUERY", "INSERT INTO t VALUES (7, 0, dup)"));
        assertTrue(s.send("EXEC").startsWith("-ERR EXEC aborted: statement 2 of 2 failed"));
        s.expectSql("SELECT v FROM t WHERE id = 7", rows("1"));
    }

    /** CLIENT LIST during MULTI: {@code multi=} counts the queued commands; the fields are Redis 7.2's, in its order. */
    @Test
    void clientListShowsTheQueuedCommandsWithRedisFields() throws IOException {
        try (RespConnection other = server.raw()) {
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("DELETE FROM t WHERE id = 1"));
            assertEquals(QUEUED, s.send("PING"));
            String list = other.call("CLIENT", "LIST");
            String mine = null;
            for (String line : list.split("\n")) {
                if (line.contains(" multi=2 ")) {
                    mine = line;
                }
            }
            assertTrue(mine != null, list);
            assertTrue(mine.contains(" multi-mem=" + ("DELETE FROM t WHERE id = 1".length() + 3 + 4) + " "), mine);
            List<String> names = new ArrayList<>();
            for (String kv : mine.trim().split(" ")) {
                names.add(kv.substring(0, kv.indexOf('=')));
            }
            assertEquals(List.of("id", "addr", "laddr", "fd", "name", "age", "idle", "flags", "db", "sub", "psub", "ssub",
                    "multi", "qbuf", "qbuf-free", "argv-mem", "multi-mem", "rbs", "rbp", "obl", "oll", "omem", "tot-mem",
                    "events", "cmd", "user", "redir", "resp", "lib-name", "lib-ver"), names);
            assertEquals(OK, s.send("DISCARD"));
            assertTrue(other.call("CLIENT", "LIST").contains(" multi=-1 "));
        }
    }

    @Test
    void resetRunsAtOnceAndDiscardsTheBlockAndTheWatches() throws IOException {
        try (RespConnection other = server.raw()) {
            Map<String, List<String>> before = s.snapshot();
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("DELETE FROM t"));
            assertEquals("+RESET\r\n", s.send("RESET"));
            assertEquals(error("ERR EXEC without MULTI"), s.send("EXEC"));
            assertEquals(before, s.snapshot());
            // a watch forgotten by RESET no longer aborts
            assertEquals(OK, s.send("WATCH", "t"));
            assertEquals("+RESET\r\n", s.send("RESET"));
            assertEquals(integer(1), other.call("SQL", "UPDATE t SET v = 0 WHERE id = 1"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("DELETE FROM t WHERE id = 2"));
            assertEquals("*1\r\n" + integer(1), s.send("EXEC"));
        }
    }

    @Test
    void watchDoesNotAbortWithoutAChangeOfAWatchedTable() throws IOException {
        try (RespConnection other = server.raw()) {
            assertEquals(OK, s.send("WATCH", "t", "nosuch"));
            // reads, a write elsewhere, a write that matched nothing, a block that was rolled back
            assertEquals(rows("1,10,n1"), other.call("SQL", "SELECT * FROM t WHERE id = 1"));
            assertEquals(integer(1), other.call("SQL", "UPDATE other SET x = 0 WHERE k = 1"));
            assertEquals(integer(0), other.call("SQL", "DELETE FROM t WHERE id = 999"));
            assertEquals(OK, other.call("MULTI"));
            assertEquals(QUEUED, other.call("SQL", "DELETE FROM t"));
            assertEquals(QUEUED, other.call("SQL", "SELECT * FROM nosuch"));
            assertTrue(other.call("EXEC").startsWith("-ERR EXEC aborted: statement 2 of 2"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, queue("DELETE FROM t WHERE id = 1"));
            assertEquals("*1\r\n" + integer(1), s.send("EXEC"));
        }
    }

    @Test
    void watchSeesCreateDropFlushAndIsClearedByUnwatchAndDiscard() throws IOException {
        try (RespConnection other = server.raw()) {
            String[][] changes = {
                {"SQL", "CREATE TABLE later (a int)"},  // a table watched before it exists
                {"SQL", "DROP TABLE later"},
                {"SQL", "CREATE INDEX t:v3 ON t (v)"},
                {"SQL", "INSERT INTO t VALUES (500, 1, z)"},
                {"FLUSHALL"},
            };
            for (String[] change : changes) {
                String watched = change[1 % change.length].contains("later") ? "later" : "t";
                assertEquals(OK, s.send("WATCH", watched));
                assertTrue(other.call(change).matches("[+:].*\r\n"), String.join(" ", change));
                assertEquals(OK, s.send("MULTI"));
                assertEquals(QUEUED, s.send("PING"));
                assertEquals("*-1\r\n", s.send("EXEC"), String.join(" ", change));
            }
            s.expectSql("CREATE TABLE t (id int)", OK);
            // UNWATCH forgets
            assertEquals(OK, s.send("WATCH", "t"));
            assertEquals(OK, other.call("SQL", "INSERT INTO t VALUES (1)"));
            assertEquals(OK, s.send("UNWATCH"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, s.send("PING"));
            assertEquals("*1\r\n" + PONG, s.send("EXEC"));
            // DISCARD forgets
            assertEquals(OK, s.send("WATCH", "t"));
            assertEquals(OK, other.call("SQL", "INSERT INTO t VALUES (2)"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(OK, s.send("DISCARD"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, s.send("PING"));
            assertEquals("*1\r\n" + PONG, s.send("EXEC"));
            // a block's own writes count for other watchers once it committed
            assertEquals(OK, s.send("WATCH", "t"));
            assertEquals(OK, other.call("MULTI"));
            assertEquals(QUEUED, other.call("SQL", "INSERT INTO t VALUES (3)"));
            assertEquals("*1\r\n" + OK, other.call("EXEC"));
            assertEquals(OK, s.send("MULTI"));
            assertEquals(QUEUED, s.send("PING"));
            assertEquals("*-1\r\n", s.send("EXEC"));
            assertEquals(error("ERR wrong number of arguments for 'watch' command"), s.send("WATCH"));
        }
    }

    // ---- no interleaving -----------------------------------------------------------------------

    /**
     * While blocks of single-row INSERTs (and one UPDATE of every new row) run, another client
     * counts the rows over and over: it must only ever see whole blocks.
     */
    @Test
    void anotherClientNeverSeesPartOfABlock() throws Exception {
        final int block = 400;
        final int blocks = 15;
        s.expectSql("CREATE TABLE b (id int primary key, v int)", OK);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> seen = new AtomicReference<>();
        long[] reads = new long[1];
        Thread reader = new Thread(() -> {
            try (RespConnection r = server.raw()) {
                while (!stop.get()) {
                    long n = SqlSession.Replies.integer(r.call("SQL", "SELECT COUNT(*) FROM b"));
                    // rows are inserted with v = 1 and set to 2 by the same block's last statement
                    long half = SqlSession.Replies.integer(r.call("SQL", "SELECT COUNT(*) FROM b WHERE v = 1"));
                    reads[0]++;
                    if (n % block != 0 || half != 0) {
                        seen.compareAndSet(null, n + " rows, " + half + " of them with v = 1");
                    }
                }
            } catch (IOException e) {
                seen.compareAndSet(null, e.toString());
            }
        });
        reader.start();
        try {
            for (int k = 0; k < blocks; k++) {
                assertEquals(OK, s.send("MULTI"));
                for (int i = 0; i < block; i++) {
                    int id = k * block + i;
                    assertEquals(QUEUED, queue("INSERT INTO b VALUES (" + id + ", 1)"));
                }
                assertEquals(QUEUED, queue("UPDATE b SET v = v + 1 WHERE id >= " + k * block));
                String reply = s.send("EXEC");
                assertTrue(reply.startsWith("*" + (block + 1) + "\r\n"), reply.substring(0, 20));
                assertTrue(reply.endsWith(integer(block)), reply.substring(reply.length() - 20));
            }
        } finally {
            stop.set(true);
            reader.join();
        }
        assertNull(seen.get());
        assertTrue(reads[0] > 0);
        s.expectSql("SELECT COUNT(*) FROM b WHERE v = 2", integer((long) block * blocks));
    }
}
