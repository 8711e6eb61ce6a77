package io.respsql.it.pgwire;

import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * txfix: a query inside an interactive transaction moves to a worker as an autocommit one does,
 * and reads what the transaction must see: committed data (READ COMMITTED without own writes), its
 * snapshot (REPEATABLE READ), its own uncommitted writes (a transaction holding the write token).
 * The server runs with loop-statement-max-ms 1 and bg-query-min-rows 1: every query reading a
 * table moves by its estimate, and one that stayed on the loop would be cancelled at 1 ms (the
 * table has 200,000 rows), so every result checked here is a worker's. A cancel or a statement
 * timeout stops the moved query with 57014 and fails the transaction block (25P02 until
 * ROLLBACK, as PostgreSQL 15); MULTI/EXEC still refuses to move.
 */
class TransactionsMovedReadTest {
    private static final int N = 200_000;
    /** sum(v) of the COPYed rows: v = id % 10 over ids 1..N. */
    private static final long SUM = (long) (N / 10) * 45;
    private static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.pgPort(0));
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tm (id int PRIMARY KEY, v int)");
            StringBuilder sb = new StringBuilder(N * 10);
            for (int i = 1; i <= N; i++) {
                sb.append(i).append('\t').append(i % 10).append('\n');
            }
            assertEquals(N, c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY tm FROM STDIN", new StringReader(sb.toString())));
            st.execute("CREATE TABLE tc (id int PRIMARY KEY, v int)");
            sb.setLength(0);
            sb.append("INSERT INTO tc VALUES ");
            for (int i = 0; i < 3000; i++) {
                sb.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(i % 7).append(')');
            }
            st.execute(sb.toString());
        }
        // after the load: every query with a table moves, and one left on the loop would be cancelled
        assertEquals("OK", server.dispatch("CONFIG", "SET", "bg-query-min-rows", "1"));
        assertEquals("OK", server.dispatch("CONFIG", "SET", "loop-statement-max-ms", "1"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(server, ""), "tester", "");
    }

    /** count(*) and sum(v) of tm, as "count|sum". */
    private static String counts(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*), sum(v) FROM tm")) {
            assertTrue(rs.next());
            return rs.getLong(1) + "|" + rs.getLong(2);
        }
    }

    private static String expected(long rows, long sum) {
        return rows + "|" + sum;
    }

    private static final String LONG_QUERY =
            "SELECT count(*) FROM tc a CROSS JOIN tc b CROSS JOIN tc c WHERE a.v + b.v + c.v = 1";

    @Test
    void readCommittedWithoutAndWithOwnWrites() throws Exception {
        try (Connection a = connect(); Statement sa = a.createStatement();
                Connection b = connect(); Statement sb = b.createStatement()) {
            sa.execute("BEGIN");
            assertEquals(expected(N, SUM), counts(sa)); // no own writes: the committed data
            try (ResultSet rs = sa.executeQuery("SELECT id FROM tm")) { // the psycopg2 case: every row
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertEquals(N, n);
            }
            sb.execute("INSERT INTO tm VALUES (" + (N + 1) + ", 7)"); // another connection commits
            assertEquals(expected(N + 1, SUM + 7), counts(sa)); // READ COMMITTED: seen by the next statement
            // own uncommitted writes (the transaction now holds the write token)
            sa.execute("INSERT INTO tm VALUES (" + (N + 2) + ", 3)");
            sa.execute("UPDATE tm SET v = 100 WHERE id = 1"); // was 1
            sa.execute("DELETE FROM tm WHERE id = 10"); // was 0
            assertEquals(expected(N + 1, SUM + 7 + 3 + 99), counts(sa));
            try (ResultSet rs = sa.executeQuery("SELECT v FROM tm WHERE id = 1")) {
                assertTrue(rs.next());
                assertEquals(100, rs.getInt(1));
            }
            // another connection's query reads the committed image beside it, on a worker too
            assertEquals(expected(N + 1, SUM + 7), counts(sb));
            sa.execute("ROLLBACK");
            assertEquals(expected(N + 1, SUM + 7), counts(sa));
            assertEquals(expected(N + 1, SUM + 7), counts(sb));
            sb.execute("DELETE FROM tm WHERE id > " + N);
            assertEquals(expected(N, SUM), counts(sb));
        }
    }

    @Test
    void repeatableReadReadsItsSnapshotThenItsOwnWrites() throws Exception {
        try (Connection a = connect(); Statement sa = a.createStatement();
                Connection b = connect(); Statement sb = b.createStatement()) {
            sa.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
            assertEquals(expected(N, SUM), counts(sa));
            sb.execute("INSERT INTO tm VALUES (" + (N + 1) + ", 7)"); // committed after the snapshot
            assertEquals(expected(N + 1, SUM + 7), counts(sb));
            assertEquals(expected(N, SUM), counts(sa)); // not seen: the snapshot
            sa.execute("COMMIT");
            assertEquals(expected(N + 1, SUM + 7), counts(sa));

            sa.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
            assertEquals(expected(N + 1, SUM + 7), counts(sa));
            sa.execute("INSERT INTO tm VALUES (" + (N + 2) + ", 5)"); // nothing committed since: it takes the token
            assertEquals(expected(N + 2, SUM + 12), counts(sa)); // its own write
            assertEquals(expected(N + 1, SUM + 7), counts(sb)); // not another's
            sa.execute("COMMIT");
            assertEquals(expected(N + 2, SUM + 12), counts(sb));
            sb.execute("DELETE FROM tm WHERE id > " + N);
            assertEquals(expected(N, SUM), counts(sb));
        }
    }

    /** Sends CancelRequests until the query run by {@code run} ends; returns its error. */
    private static SQLException cancelUntilEnded(Statement q, CompletableFuture<SQLException> run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            q.cancel(); // does nothing until the statement runs: asked again until it ends
            try {
                return run.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException notYet) {
                // still running
            }
        }
        throw new AssertionError("the query was not cancelled within 60 s");
    }

    @Test
    void cancelAndTimeoutOfAMovedQueryFailTheTransaction() throws Exception {
        try (Connection a = connect(); Statement sa = a.createStatement(); Statement q = a.createStatement()) {
            sa.execute("BEGIN");
            sa.execute("UPDATE tm SET v = 50 WHERE id = 2"); // own writes: the token
            CompletableFuture<SQLException> run = CompletableFuture.supplyAsync(() -> {
                try {
                    q.executeQuery(LONG_QUERY);
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            SQLException e = cancelUntilEnded(q, run);
            assertNotNull(e, "the query ended without being cancelled");
            assertEquals("57014", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("canceling statement due to user request"), e.getMessage());
            // PostgreSQL: the cancelled statement failed the transaction block
            SQLException aborted = assertThrows(SQLException.class, () -> counts(sa));
            assertEquals("25P02", aborted.getSQLState(), aborted.getMessage());
            sa.execute("ROLLBACK");
            assertEquals(expected(N, SUM), counts(sa)); // the UPDATE is gone, the session goes on

            // a statement timeout inside a transaction (no own writes): 57014, the block failed
            sa.execute("BEGIN");
            sa.execute("SET statement_timeout = 200");
            SQLException timeout = assertThrows(SQLException.class, () -> sa.executeQuery(LONG_QUERY));
            assertEquals("57014", timeout.getSQLState(), timeout.getMessage());
            assertTrue(timeout.getMessage().contains("statement timeout of 200 ms"), timeout.getMessage());
            assertEquals("25P02", assertThrows(SQLException.class, () -> counts(sa)).getSQLState());
            sa.execute("ROLLBACK");
            sa.execute("RESET statement_timeout");
            assertEquals(expected(N, SUM), counts(sa));
        }
    }

    private static long info(RespConnection r, String field) throws Exception {
        for (String line : r.call("INFO").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    /** sum(v) of tm read over RESP (a scan: it moves by its estimate). */
    private static void assertSum(RespConnection r, long sum) throws Exception {
        String reply = r.call("SQL", "SELECT sum(v) FROM tm");
        assertTrue(reply.contains(":" + sum + "\r\n") || reply.contains("$" + Long.toString(sum).length() + "\r\n" + sum + "\r\n"), reply);
    }

    @Test
    void respTransactionsMoveTheirReadsToo() throws Exception {
        try (RespConnection a = new RespConnection(server.host(), server.port());
                RespConnection b = new RespConnection(server.host(), server.port());
                RespConnection admin = new RespConnection(server.host(), server.port())) {
            long moved = info(admin, "bg_queries_total");
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
            assertSum(a, SUM);
            assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO tm VALUES (" + (N + 1) + ", 7)"));
            assertSum(a, SUM + 7); // own write
            assertSum(b, SUM); // committed only
            assertEquals(moved + 3, info(admin, "bg_queries_total"), "the reads ran on workers");
            // CLIENT CANCEL of a moved query inside the transaction: its error, the block failed
            String id = a.call("CLIENT", "ID");
            long clientId = Long.parseLong(id.substring(1).trim());
            a.sendCommand("SQL", LONG_QUERY);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!admin.call("CLIENT", "CANCEL", Long.toString(clientId)).equals(":1\r\n")) {
                assertTrue(System.nanoTime() < deadline, "the query never ran on a worker");
                Thread.onSpinWait();
            }
            String cancelled = a.readReply();
            assertTrue(cancelled.startsWith("-ERR query cancelled: by CLIENT CANCEL"), cancelled);
            String aborted = a.call("SQL", "SELECT sum(v) FROM tm");
            assertTrue(aborted.contains("current transaction is aborted"), aborted);
            assertEquals("+OK\r\n", a.call("SQL", "ROLLBACK"));
            assertSum(a, SUM);
            assertSum(b, SUM);
        }
    }

    /**
     * idle_in_transaction_session_timeout on RESP (as pgwire's): a transaction left idle that long
     * is rolled back (the other connection's parked write runs) and its connection closed; one
     * that keeps sending statements is not.
     */
    @Test
    void respIdleInTransactionTimeout() throws Exception {
        try (RespConnection a = new RespConnection(server.host(), server.port());
                RespConnection b = new RespConnection(server.host(), server.port())) {
            assertEquals("+OK\r\n", a.call("SQL", "SET idle_in_transaction_session_timeout = 300"));
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
            assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO tm VALUES (" + (N + 1) + ", 7)"));
            for (int i = 0; i < 6; i++) { // busy for longer than the timeout, never idle that long
                Thread.sleep(100);
                assertSum(a, SUM + 7);
            }
            b.sendCommand("SQL", "INSERT INTO tm VALUES (" + (N + 2) + ", 1)"); // parked: a holds the token
            assertTrue(a.awaitClosedByServer(10_000), "the idle transaction's connection was not closed");
            assertEquals("+OK\r\n", b.readReply()); // ran once a's transaction was rolled back
            assertSum(b, SUM + 1);
            b.call("SQL", "DELETE FROM tm WHERE id > " + N);
            assertSum(b, SUM);
            // outside a transaction block the setting closes nothing
            assertEquals("+OK\r\n", b.call("SQL", "SET idle_in_transaction_session_timeout = 100"));
            assertTrue(!b.awaitClosedByServer(500));
            assertEquals("+PONG\r\n", b.call("PING"));
        }
    }

    @Test
    void multiExecStillCannotMove() throws Exception {
        try (RespConnection a = new RespConnection(server.host(), server.port())) {
            assertEquals("+OK\r\n", a.call("MULTI"));
            // ~9e6 combinations: over 1 ms on the loop, where MULTI/EXEC keeps it
            assertEquals("+QUEUED\r\n", a.call("SQL", "SELECT count(*) FROM tc a CROSS JOIN tc b WHERE a.v + b.v = -1"));
            String reply = a.call("EXEC");
            assertTrue(reply.contains("cannot move to a worker inside MULTI/EXEC"), reply);
        }
    }
}
