package io.respsql.it.pgwire;

import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interactive transactions over the PostgreSQL protocol (pgjdbc) and RESP: BEGIN / COMMIT /
 * ROLLBACK / SAVEPOINT with PostgreSQL's tags, warnings and SQLSTATEs, and isolation between
 * connections: another connection never sees uncommitted writes (its statement waits for the
 * COMMIT or ROLLBACK), a rollback restores rows, indexes and schema, nextval is not rolled back.
 */
class TransactionsPgTest {
    private static TestServer server;
    private static final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        server.close();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(server, ""), "tester", "");
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    if (i > 1) {
                        b.append('|');
                    }
                    b.append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    private static String state(Statement st, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
        return e.getSQLState();
    }

    /** INFO's count of statements parked now, read over RESP. */
    static long parked() throws Exception {
        try (RespConnection r = new RespConnection(server.host(), server.port())) {
            String info = r.call("INFO", "stats");
            for (String line : info.split("\r\n")) {
                if (line.startsWith("tx_parked_statements:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        throw new AssertionError("no tx_parked_statements in INFO");
    }

    /** Waits (with a deadline) until at least {@code n} statements are parked. */
    static void awaitParked(long n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (parked() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no statement parked");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void rollbackTakesBackRowsIndexesAndSchema() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tr1 (id int PRIMARY KEY, v int, name text)");
            st.execute("CREATE INDEX tr1_v ON tr1 (v)");
            st.execute("INSERT INTO tr1 VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')");
            st.execute("BEGIN");
            st.execute("INSERT INTO tr1 VALUES (4, 40, 'd')");
            st.execute("UPDATE tr1 SET v = v + 1 WHERE id <= 2");
            st.execute("UPDATE tr1 SET v = 99 WHERE id = 3");
            st.execute("DELETE FROM tr1 WHERE id = 1");
            st.execute("CREATE TABLE tr1_new (x int)");
            st.execute("INSERT INTO tr1_new VALUES (1)");
            assertEquals(List.of("2|21|b", "3|99|c", "4|40|d"), rows(st, "SELECT * FROM tr1 ORDER BY id"));
            st.execute("ROLLBACK");
            assertEquals(List.of("1|10|a", "2|20|b", "3|30|c"), rows(st, "SELECT * FROM tr1 ORDER BY id"));
            assertEquals(List.of("3|30|c"), rows(st, "SELECT * FROM tr1 WHERE v = 30"));
            assertEquals(List.of(), rows(st, "SELECT * FROM tr1 WHERE v = 99"));
            assertEquals(List.of(), rows(st, "SELECT * FROM tr1 WHERE id = 4"));
            assertEquals("42P01", state(st, "SELECT * FROM tr1_new"));
            st.execute("BEGIN");
            st.execute("UPDATE tr1 SET v = 11 WHERE id = 1");
            st.execute("COMMIT");
            assertEquals(List.of("1|11|a"), rows(st, "SELECT * FROM tr1 WHERE v = 11"));
            st.execute("DROP TABLE tr1");
        }
    }

    @Test
    void savepointsAndTheFailedState() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tr2 (id int PRIMARY KEY)");
            st.execute("BEGIN");
            st.execute("INSERT INTO tr2 VALUES (1)");
            st.execute("SAVEPOINT a");
            st.execute("INSERT INTO tr2 VALUES (2)");
            st.execute("SAVEPOINT b");
            st.execute("INSERT INTO tr2 VALUES (3)");
            st.execute("ROLLBACK TO SAVEPOINT a");
            assertEquals(List.of("1"), rows(st, "SELECT id FROM tr2 ORDER BY id"));
            assertEquals("3B001", state(st, "ROLLBACK TO b")); // b went with the rollback to a
            assertEquals("25P02", state(st, "SELECT 1"));
            st.execute("ROLLBACK TO a"); // leaves the failed state
            st.execute("INSERT INTO tr2 VALUES (5)");
            assertEquals("23505", state(st, "INSERT INTO tr2 VALUES (5)"));
            assertEquals("25P02", state(st, "INSERT INTO tr2 VALUES (6)"));
            st.execute("ROLLBACK TO a");
            st.execute("INSERT INTO tr2 VALUES (7)");
            st.execute("RELEASE SAVEPOINT a");
            assertEquals("3B001", state(st, "ROLLBACK TO a"));
            st.execute("COMMIT"); // a failed block's COMMIT rolls back
            assertEquals(List.of(), rows(st, "SELECT id FROM tr2"));
            st.execute("BEGIN");
            st.execute("INSERT INTO tr2 VALUES (1)");
            st.execute("SAVEPOINT s");
            st.execute("INSERT INTO tr2 VALUES (2)");
            st.execute("RELEASE s");
            st.execute("COMMIT");
            assertEquals(List.of("1", "2"), rows(st, "SELECT id FROM tr2 ORDER BY id"));
            assertEquals("25P01", state(st, "SAVEPOINT x"));
            st.execute("DROP TABLE tr2");
        }
    }

    @Test
    void jdbcAutoCommitOffAndSavepointApi() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tr3 (id int PRIMARY KEY, v text)");
            c.setAutoCommit(false);
            st.execute("INSERT INTO tr3 VALUES (1, 'one')");
            Savepoint sp = c.setSavepoint("sp");
            st.execute("INSERT INTO tr3 VALUES (2, 'two')");
            c.rollback(sp);
            st.execute("INSERT INTO tr3 VALUES (3, 'three')");
            c.commit();
            st.execute("INSERT INTO tr3 VALUES (4, 'four')");
            c.rollback();
            c.setAutoCommit(true);
            assertEquals(List.of("1|one", "3|three"), rows(st, "SELECT * FROM tr3 ORDER BY id"));
            st.execute("DROP TABLE tr3");
        }
    }

    @Test
    void warningsSettingsAndReadOnly() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tr4 (id int)");
            st.execute("COMMIT");
            SQLWarning w = st.getWarnings();
            assertNotNull(w);
            assertEquals("25P01", w.getSQLState());
            st.execute("BEGIN");
            st.clearWarnings();
            st.execute("BEGIN");
            assertEquals("25001", st.getWarnings().getSQLState());
            assertEquals(List.of("read committed"), rows(st, "SHOW transaction_isolation"));
            st.execute("ROLLBACK");
            st.execute("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            assertEquals(List.of("repeatable read"), rows(st, "SHOW transaction_isolation"));
            assertEquals(List.of("on"), rows(st, "SHOW transaction_read_only"));
            assertEquals("25006", state(st, "INSERT INTO tr4 VALUES (1)"));
            st.execute("ROLLBACK");
            st.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE");
            assertEquals(List.of("serializable"), rows(st, "SHOW default_transaction_isolation"));
            st.execute("BEGIN");
            assertEquals(List.of("serializable"), rows(st, "SHOW transaction_isolation"));
            st.execute("SELECT 1");
            assertEquals("25001", state(st, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED"));
            st.execute("ROLLBACK");
            st.execute("SET default_transaction_isolation = 'read committed'");
            assertEquals(List.of("read committed"), rows(st, "SHOW transaction_isolation"));
            // a savepoint's SET TRANSACTION READ ONLY ends with it (PostgreSQL's subtransactions)
            st.execute("BEGIN");
            st.execute("SAVEPOINT x");
            st.execute("SET TRANSACTION READ ONLY");
            assertEquals(List.of("on"), rows(st, "SHOW transaction_read_only"));
            st.execute("ROLLBACK TO SAVEPOINT x");
            assertEquals(List.of("off"), rows(st, "SHOW transaction_read_only"));
            st.execute("INSERT INTO tr4 VALUES (1)");
            // AND CHAIN: a new transaction with the same characteristics
            st.execute("COMMIT");
            st.execute("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, DEFERRABLE");
            st.execute("INSERT INTO tr4 VALUES (2)");
            st.execute("COMMIT AND CHAIN");
            assertEquals(List.of("repeatable read"), rows(st, "SHOW transaction_isolation"));
            assertEquals(List.of("on"), rows(st, "SHOW transaction_deferrable"));
            st.execute("INSERT INTO tr4 VALUES (3)");
            st.execute("ROLLBACK");
            assertEquals("25P01", state(st, "COMMIT AND CHAIN"));
            assertEquals(List.of("1", "2"), rows(st, "SELECT id FROM tr4 ORDER BY id"));
            st.execute("DROP TABLE tr4");
        }
    }

    @Test
    void nextvalIsNotRolledBack() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SEQUENCE tr_seq");
            st.execute("BEGIN");
            assertEquals(List.of("1"), rows(st, "SELECT nextval('tr_seq')"));
            st.execute("ROLLBACK");
            assertEquals(List.of("2"), rows(st, "SELECT nextval('tr_seq')"));
            st.execute("DROP SEQUENCE tr_seq");
        }
    }

    @Test
    void noDirtyReadTheReaderWaitsForCommitOrRollback() throws Exception {
        try (Connection a = connect(); Connection b = connect();
                Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("CREATE TABLE tr5 (id int PRIMARY KEY, v int)");
            sa.execute("INSERT INTO tr5 VALUES (1, 10), (2, 20)");
            sa.execute("BEGIN");
            sa.execute("UPDATE tr5 SET v = 11 WHERE id = 1");
            // the reader does not wait: it reads the committed data
            assertEquals(List.of("10", "20"), rows(sb, "SELECT v FROM tr5 ORDER BY id"));
            assertEquals(List.of("10"), rows(sb, "SELECT v FROM tr5 WHERE id = 1"));
            // PostgreSQL's own syntax (::, WITH) is read as a query too, not parked as an unknown statement
            assertEquals(List.of("30"), rows(sb, "SELECT sum(v)::int FROM tr5"));
            assertEquals(List.of("30"), rows(sb, "WITH q AS (SELECT v FROM tr5) SELECT sum(v)::int FROM q"));
            assertEquals(List.of("11", "20"), rows(sa, "SELECT v FROM tr5 ORDER BY id")); // its own writes
            sb.execute("BEGIN"); // a READ COMMITTED transaction that only reads: the same
            assertEquals(List.of("30"), rows(sb, "SELECT sum(v) FROM tr5"));
            sb.execute("COMMIT");
            sa.execute("ROLLBACK");
            assertEquals(List.of("10", "20"), rows(sb, "SELECT v FROM tr5 ORDER BY id"));
            long before;

            sa.execute("BEGIN");
            sa.execute("UPDATE tr5 SET v = 12 WHERE id = 1");
            before = parked();
            Future<Integer> write = pool.submit(() -> sb.executeUpdate("UPDATE tr5 SET v = v + 100 WHERE id = 1"));
            awaitParked(before + 1);
            sa.execute("COMMIT");
            assertEquals(1, write.get(20, TimeUnit.SECONDS));
            assertEquals(List.of("112", "20"), rows(sa, "SELECT v FROM tr5 ORDER BY id")); // no lost update
            sa.execute("DROP TABLE tr5");
        }
    }

    @Test
    void repeatableReadKeepsItsSnapshot() throws Exception {
        try (Connection a = connect(); Connection b = connect();
                Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("CREATE TABLE tr6 (id int PRIMARY KEY, v int)");
            sa.execute("INSERT INTO tr6 VALUES (1, 10)");
            sa.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
            assertEquals(List.of("10"), rows(sa, "SELECT v FROM tr6")); // the snapshot is taken here
            assertEquals(1, sb.executeUpdate("UPDATE tr6 SET v = 20")); // no wait: the reader holds nothing
            assertEquals(List.of("10"), rows(sa, "SELECT v FROM tr6"));
            // a query in PostgreSQL's syntax reads the snapshot too (it failed with 40001 when it was
            // classified in the RESP dialect, where :: does not parse)
            assertEquals(List.of("10"), rows(sa, "SELECT v::int FROM tr6"));
            assertEquals("40001", state(sa, "UPDATE tr6 SET v = v + 1")); // changed since its snapshot
            sa.execute("ROLLBACK");
            assertEquals(List.of("20"), rows(sa, "SELECT v FROM tr6"));
            // a writer first: the other's write waits, then the snapshot holder's write fails
            sa.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
            assertEquals(List.of("20"), rows(sa, "SELECT v FROM tr6"));
            sb.execute("BEGIN");
            sb.execute("UPDATE tr6 SET v = 30");
            long before = parked();
            Future<String> conflict = pool.submit(() -> state(sa, "UPDATE tr6 SET v = v + 1"));
            awaitParked(before + 1);
            sb.execute("COMMIT");
            assertEquals("40001", conflict.get(20, TimeUnit.SECONDS));
            sa.execute("ROLLBACK");
            assertEquals(List.of("30"), rows(sa, "SELECT v FROM tr6"));
            sa.execute("DROP TABLE tr6");
        }
    }

    /**
     * mend: after a concurrent commit, a REPEATABLE READ / SERIALIZABLE transaction's DESC,
     * DESCRIBE, SHOW TABLES, EXPLAIN and EXECUTE of a prepared query answer (EXECUTE from the
     * snapshot) instead of failing with 40001; its write still fails with 40001.
     */
    @Test
    void snapshotTransactionsDescribeExplainShowAndExecuteAfterAConcurrentCommit() throws Exception {
        for (String level : List.of("REPEATABLE READ", "SERIALIZABLE")) {
            try (Connection a = connect(); Connection b = connect();
                    Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                sa.execute("CREATE TABLE tr11 (id int PRIMARY KEY, v int)");
                sa.execute("INSERT INTO tr11 VALUES (1, 10)");
                sa.execute("BEGIN ISOLATION LEVEL " + level);
                assertEquals(List.of("10"), rows(sa, "SELECT v FROM tr11")); // the snapshot
                assertEquals(1, sb.executeUpdate("UPDATE tr11 SET v = 20"));
                assertFalse(rows(sa, "DESCRIBE tr11").isEmpty(), level);
                assertFalse(rows(sa, "DESC tr11").isEmpty(), level);
                assertTrue(rows(sa, "SHOW TABLES").contains("tr11"), level);
                assertFalse(rows(sa, "EXPLAIN SELECT v FROM tr11 WHERE id = 1").isEmpty(), level);
                assertEquals(List.of("10"), rows(sa, "SELECT v FROM tr11"), level);
                assertEquals("40001", state(sa, "UPDATE tr11 SET v = v + 1"), level);
                sa.execute("ROLLBACK");
                sa.execute("DROP TABLE tr11");
            }
        }
        try (RespConnection a = new RespConnection(server.host(), server.port());
                RespConnection b = new RespConnection(server.host(), server.port())) {
            assertEquals("+OK\r\n", a.call("SQL", "CREATE TABLE tr12 (id int PRIMARY KEY, v int)"));
            assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO tr12 VALUES (1, 10)"));
            assertEquals("+OK\r\n", a.call("PREPARE", "tr12get", "SELECT v FROM tr12 WHERE id = ?"));
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN ISOLATION LEVEL REPEATABLE READ"));
            assertEquals("*1\r\n$2\r\n10\r\n", a.call("EXECUTE", "tr12get", "1")); // the snapshot
            assertEquals(":1\r\n", b.call("SQL", "UPDATE tr12 SET v = 20"));
            assertEquals("*1\r\n$2\r\n10\r\n", a.call("EXECUTE", "tr12get", "1"));
            assertTrue(a.call("SQL", "DESC tr12").startsWith("*"));
            assertTrue(a.call("SQL", "EXPLAIN SELECT v FROM tr12").startsWith("*"));
            assertTrue(a.call("SQL", "SHOW TABLES").contains("tr12"));
            assertTrue(a.call("SQL", "UPDATE tr12 SET v = 1").startsWith("-"), "a write still fails: 40001");
            assertEquals("+OK\r\n", a.call("SQL", "ROLLBACK"));
            assertEquals("*1\r\n$2\r\n20\r\n", a.call("EXECUTE", "tr12get", "1"));
            assertEquals("+OK\r\n", a.call("DEALLOCATE", "tr12get"));
            assertTrue(a.call("SQL", "DROP TABLE tr12").startsWith(":"));
        }
    }

    /** mend: DBSIZE, SCAN, TYPE and MEMORY USAGE of other connections show committed tables only. */
    @Test
    void keyspaceCommandsShowCommittedTablesOnly() throws Exception {
        try (RespConnection a = new RespConnection(server.host(), server.port());
                RespConnection b = new RespConnection(server.host(), server.port())) {
            assertEquals("+OK\r\n", a.call("SQL", "CREATE TABLE tr13old (id int PRIMARY KEY)"));
            String size = b.call("DBSIZE");
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
            assertEquals("+OK\r\n", a.call("SQL", "CREATE TABLE tr13new (id int PRIMARY KEY)"));
            assertTrue(a.call("SQL", "DROP TABLE tr13old").startsWith(":"));
            assertEquals("+table\r\n", a.call("TYPE", "tr13new")); // its own writes
            assertEquals("+none\r\n", a.call("TYPE", "tr13old"));
            assertEquals(size, b.call("DBSIZE"));
            assertEquals("+none\r\n", b.call("TYPE", "tr13new"));
            assertEquals("+table\r\n", b.call("TYPE", "tr13old"));
            assertEquals("*2\r\n$1\r\n0\r\n*0\r\n", b.call("SCAN", "0", "MATCH", "tr13new", "COUNT", "100000"));
            assertEquals("*2\r\n$1\r\n0\r\n*1\r\n$7\r\ntr13old\r\n",
                    b.call("SCAN", "0", "MATCH", "tr13old", "COUNT", "100000"));
            assertEquals("$-1\r\n", b.call("MEMORY", "USAGE", "tr13new"));
            assertEquals("+OK\r\n", a.call("SQL", "COMMIT"));
            assertEquals("+table\r\n", b.call("TYPE", "tr13new"));
            assertEquals("+none\r\n", b.call("TYPE", "tr13old"));
            assertEquals(size, b.call("DBSIZE"));
            assertTrue(a.call("SQL", "DROP TABLE tr13new").startsWith(":"));
        }
    }

    @Test
    void aConnectionClosedMidTransactionRollsBack() throws Exception {
        try (Connection b = connect(); Statement sb = b.createStatement()) {
            sb.execute("CREATE TABLE tr7 (id int)");
            Connection a = connect();
            Statement sa = a.createStatement();
            sa.execute("BEGIN");
            sa.execute("INSERT INTO tr7 VALUES (1)");
            long before = parked();
            Future<Integer> write = pool.submit(() -> sb.executeUpdate("INSERT INTO tr7 VALUES (2)"));
            awaitParked(before + 1);
            a.close();
            assertEquals(1, write.get(20, TimeUnit.SECONDS));
            assertEquals(List.of("2"), rows(sb, "SELECT id FROM tr7"));
            sb.execute("DROP TABLE tr7");
        }
    }

    @Test
    void copyInsideATransactionIsKeptOrTakenBackWithIt() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tr10 (a int)");
            org.postgresql.copy.CopyManager cm = c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
            st.execute("BEGIN");
            assertEquals(2, cm.copyIn("COPY tr10 FROM STDIN", new java.io.StringReader("1\n2\n")));
            assertEquals(List.of("2"), rows(st, "SELECT count(*) FROM tr10"));
            st.execute("ROLLBACK");
            assertEquals(List.of("0"), rows(st, "SELECT count(*) FROM tr10"));
            st.execute("BEGIN");
            assertEquals(1, cm.copyIn("COPY tr10 FROM STDIN", new java.io.StringReader("3\n")));
            st.execute("COMMIT");
            assertEquals(List.of("3"), rows(st, "SELECT a FROM tr10"));
            st.execute("DROP TABLE tr10");
        }
    }

    @Test
    void idleInTransactionTimeoutEndsTheTransaction() throws Exception {
        try (Connection b = connect(); Statement sb = b.createStatement()) {
            sb.execute("CREATE TABLE tr8 (id int)");
            Connection a = connect();
            Statement sa = a.createStatement();
            sa.execute("SET idle_in_transaction_session_timeout = 200");
            sa.execute("BEGIN");
            sa.execute("INSERT INTO tr8 VALUES (1)");
            assertEquals(1, sb.executeUpdate("INSERT INTO tr8 VALUES (2)")); // parked until the timeout
            assertEquals(List.of("2"), rows(sb, "SELECT id FROM tr8"));
            assertThrows(SQLException.class, () -> sa.execute("SELECT 1"));
            a.close();
            sb.execute("DROP TABLE tr8");
        }
    }

    @Test
    void respConnectionsHaveTransactionsToo() throws Exception {
        try (RespConnection a = new RespConnection(server.host(), server.port());
                RespConnection b = new RespConnection(server.host(), server.port())) {
            assertEquals("+OK\r\n", a.call("SQL", "CREATE TABLE tr9 (id int PRIMARY KEY, v int)"));
            assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO tr9 VALUES (1, 10)"));
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
            assertEquals(":1\r\n", a.call("SQL", "UPDATE tr9 SET v = 11 WHERE id = 1"));
            assertTrue(a.call("MULTI").startsWith("-ERR MULTI is not allowed"));
            assertTrue(b.call("SQL", "SELECT v FROM tr9").contains("10")); // the committed value, at once
            long before = parked();
            b.sendCommand("SQL", "UPDATE tr9 SET v = v + 100");
            awaitParked(before + 1);
            assertEquals(0, b.available());
            assertEquals("+OK\r\n", a.call("SQL", "SAVEPOINT s"));
            assertEquals(":1\r\n", a.call("SQL", "UPDATE tr9 SET v = 12 WHERE id = 1"));
            assertEquals("+OK\r\n", a.call("SQL", "ROLLBACK TO s"));
            assertEquals("+OK\r\n", a.call("SQL", "COMMIT"));
            assertEquals(":1\r\n", b.readReply());
            assertTrue(b.call("SQL", "SELECT v FROM tr9").contains("111"));
            assertEquals("+OK\r\n", a.call("BEGIN")); // bare commands too
            assertEquals(":1\r\n", a.call("SQL", "DELETE FROM tr9"));
            assertEquals("+OK\r\n", a.call("ROLLBACK"));
            assertTrue(b.call("SQL", "SELECT v FROM tr9").contains("111"));
            assertEquals("+OK\r\n", a.call("SQL", "BEGIN"));
            assertEquals("+OK\r\n", a.call("SQL", "INSERT INTO tr9 VALUES (2, 20)"));
            assertEquals("+OK\r\n", a.call("SQL", "ROLLBACK"));
            assertTrue(b.call("SQL", "SELECT count(*) FROM tr9").contains("1"));
            assertTrue(a.call("SQL", "ROLLBACK TO x").startsWith("-ERR ROLLBACK TO SAVEPOINT can only be used"));
            assertEquals("$14\r\nread committed\r\n", a.call("SQL", "SHOW transaction_isolation"));
            assertTrue(a.call("QUERY", "SHOW transaction_isolation").contains("read committed"));
            assertTrue(a.call("SQL", "DROP TABLE tr9").startsWith(":"));
        }
    }
}
