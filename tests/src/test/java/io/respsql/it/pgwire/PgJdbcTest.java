package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pgjdbc 42.7 against the pg-port listener: simple and extended protocol, typed values, SQLSTATEs. */
class PgJdbcTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static String url(TestServer s, String extra) {
        return "jdbc:postgresql://" + s.host() + ":" + s.server().pgPort() + "/respsql" + extra;
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(server, ""), "tester", "");
    }

    @Test
    void statementAndTypedGetters() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j1 (id INT PRIMARY KEY, big BIGINT, score FLOAT, name TEXT, flag BOOLEAN, d DATE)");
            assertEquals(2, st.executeUpdate("INSERT INTO j1 VALUES (1, 9000000000, 1.5, 'a,b \"q\"', TRUE, '2024-02-29'),"
                    + " (2, -1, NULL, 'line1\nline2', FALSE, NULL)"));
            try (ResultSet rs = st.executeQuery("SELECT id, big, score, name, flag, d FROM j1 ORDER BY id")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(Types.INTEGER, md.getColumnType(1));
                assertEquals(Types.BIGINT, md.getColumnType(2));
                assertEquals(Types.DOUBLE, md.getColumnType(3));
                assertEquals(Types.VARCHAR, md.getColumnType(4));
                assertEquals(Types.BIT, md.getColumnType(5));
                assertEquals(Types.DATE, md.getColumnType(6));
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertEquals(9_000_000_000L, rs.getLong(2));
                assertEquals(1.5, rs.getDouble(3));
                assertEquals("a,b \"q\"", rs.getString(4));
                assertTrue(rs.getBoolean(5));
                assertEquals(java.sql.Date.valueOf("2024-02-29"), rs.getDate(6));
                assertTrue(rs.next());
                assertEquals(-1, rs.getLong("big"));
                rs.getDouble("score");
                assertTrue(rs.wasNull());
                assertEquals("line1\nline2", rs.getString("name"));
                assertFalse(rs.getBoolean("flag"));
                assertNull(rs.getDate("d"));
                assertFalse(rs.next());
            }
            assertEquals(1, st.executeUpdate("UPDATE j1 SET score = 2.25 WHERE id = 2"));
            assertEquals(1, st.executeUpdate("DELETE FROM j1 WHERE id = 1"));
            try (ResultSet rs = st.executeQuery("SELECT score FROM j1")) {
                assertTrue(rs.next());
                assertEquals(2.25, rs.getDouble(1));
            }
            st.execute("DROP TABLE j1");
        }
    }

    /**
     * PreparedStatement: the extended protocol. Run past pgjdbc's prepareThreshold (5), so the
     * later runs use a named server statement and binary results for the numeric columns.
     */
    @Test
    void preparedStatementsNamedAndBinary() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j2 (id INT PRIMARY KEY, big BIGINT, score FLOAT, name TEXT)");
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO j2 VALUES (?, ?, ?, ?)")) {
                for (int i = 1; i <= 12; i++) {
                    ins.setInt(1, i);
                    ins.setLong(2, i * 10_000_000_000L);
                    if (i % 3 == 0) {
                        ins.setNull(3, Types.DOUBLE);
                    } else {
                        ins.setDouble(3, i / 4.0);
                    }
                    ins.setString(4, "n'" + i + "'; DROP TABLE j2; --");
                    assertEquals(1, ins.executeUpdate());
                }
            }
            try (PreparedStatement q = c.prepareStatement("SELECT big, score, name FROM j2 WHERE id = ?")) {
                for (int round = 0; round < 8; round++) {
                    for (int i = 1; i <= 12; i++) {
                        q.setInt(1, i);
                        try (ResultSet rs = q.executeQuery()) {
                            assertTrue(rs.next(), "row " + i);
                            assertEquals(i * 10_000_000_000L, rs.getLong(1));
                            double score = rs.getDouble(2);
                            if (i % 3 == 0) {
                                assertTrue(rs.wasNull());
                            } else {
                                assertEquals(i / 4.0, score);
                            }
                            assertEquals("n'" + i + "'; DROP TABLE j2; --", rs.getString(3));
                            assertFalse(rs.next());
                        }
                    }
                }
            }
            try (PreparedStatement batch = c.prepareStatement("UPDATE j2 SET score = ? WHERE id = ?")) {
                for (int i = 1; i <= 3; i++) {
                    batch.setDouble(1, -i);
                    batch.setInt(2, i);
                    batch.addBatch();
                }
                batch.setDouble(1, 0);
                batch.setInt(2, 999);
                batch.addBatch();
                org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 1, 1, 0}, batch.executeBatch());
            }
            try (PreparedStatement q = c.prepareStatement("SELECT score FROM j2 WHERE id <= ? ORDER BY id LIMIT ?")) {
                q.setInt(1, 3);
                q.setInt(2, 2);
                try (ResultSet rs = q.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(-1.0, rs.getDouble(1));
                    assertTrue(rs.next());
                    assertEquals(-2.0, rs.getDouble(1));
                    assertFalse(rs.next());
                }
            }
            try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM j2 WHERE name = ?")) {
                q.setString(1, "x' OR '1'='1");
                try (ResultSet rs = q.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(0, rs.getLong(1), "a text parameter stays a value");
                }
            }
            st.execute("DROP TABLE j2");
        }
    }

    /** setDate/setTimestamp (sent with an offset, type unspecified) and java.time values, read back typed. */
    @Test
    void datesTimestampsAndBooleansAsParameters() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j8 (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, b BOOLEAN)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO j8 VALUES (?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setDate(2, java.sql.Date.valueOf("2024-02-29"));
                ps.setTimestamp(3, java.sql.Timestamp.valueOf("2024-02-29 10:11:12.5"));
                ps.setBoolean(4, true);
                assertEquals(1, ps.executeUpdate());
                ps.setInt(1, 2);
                ps.setObject(2, java.time.LocalDate.of(2024, 3, 1));
                ps.setObject(3, java.time.LocalDateTime.of(2024, 3, 1, 1, 2, 3));
                ps.setBoolean(4, false);
                assertEquals(1, ps.executeUpdate());
            }
            try (PreparedStatement q = c.prepareStatement("SELECT d, ts, b FROM j8 WHERE id = ?")) {
                for (int round = 0; round < 7; round++) { // past prepareThreshold: binary date/timestamp/bool results
                    q.setInt(1, 1);
                    try (ResultSet rs = q.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(java.time.LocalDate.of(2024, 2, 29), rs.getObject(1, java.time.LocalDate.class));
                        assertEquals(java.time.LocalDateTime.of(2024, 2, 29, 10, 11, 12, 500_000_000),
                                rs.getObject(2, java.time.LocalDateTime.class));
                        assertTrue(rs.getBoolean(3));
                    }
                    q.setInt(1, 2);
                    try (ResultSet rs = q.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(java.sql.Date.valueOf("2024-03-01"), rs.getDate(1));
                        assertEquals(java.sql.Timestamp.valueOf("2024-03-01 01:02:03"), rs.getTimestamp(2));
                        assertFalse(rs.getBoolean(3));
                    }
                }
            }
            st.execute("DROP TABLE j8");
        }
    }

    @Test
    void sqlStatesOfErrors() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j3 (id INT PRIMARY KEY, v TEXT)");
            st.execute("INSERT INTO j3 VALUES (1, 'one')");
            SQLException dup = assertThrows(SQLException.class, () -> st.execute("INSERT INTO j3 VALUES (1, 'again')"));
            assertEquals("23505", dup.getSQLState());
            SQLException missing = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM no_such_table"));
            assertEquals("42P01", missing.getSQLState());
            SQLException syntax = assertThrows(SQLException.class, () -> st.executeQuery("SELEC 1"));
            assertEquals("42601", syntax.getSQLState());
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO j3 VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setString(2, "dup");
                SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
                assertEquals("23505", e.getSQLState());
                ps.setInt(1, 2);
                assertEquals(1, ps.executeUpdate(), "the connection goes on after an error of the extended protocol");
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM j3")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getLong(1));
            }
            st.execute("DROP TABLE j3");
        }
    }

    /** setFetchSize in a transaction block: pgjdbc reads the portal in pieces (Execute with a row limit, PortalSuspended). */
    @Test
    void fetchSizeReadsAPortalInPieces() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j4 (id INT PRIMARY KEY)");
            StringBuilder sb = new StringBuilder("INSERT INTO j4 VALUES ");
            for (int i = 0; i < 1000; i++) {
                sb.append(i == 0 ? "" : ",").append('(').append(i).append(')');
            }
            st.execute(sb.toString());
            c.setAutoCommit(false);
            try (PreparedStatement q = c.prepareStatement("SELECT id FROM j4 ORDER BY id")) {
                q.setFetchSize(64);
                try (ResultSet rs = q.executeQuery()) {
                    int n = 0;
                    while (rs.next()) {
                        assertEquals(n, rs.getInt(1));
                        n++;
                    }
                    assertEquals(1000, n);
                }
            }
            c.commit();
            c.setAutoCommit(true);
            st.execute("DROP TABLE j4");
        }
    }

    /**
     * COMMIT after a failed statement means ROLLBACK; with the block's earlier writes already
     * applied: now a real rollback (tx).
     */
    @Test
    void commitOfAFailedBlockRollsItBack() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jfb (id INT PRIMARY KEY)");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO jfb VALUES (1)");
            assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO jfb VALUES (1)"));
            try {
                c.commit(); // PostgreSQL answers ROLLBACK; pgjdbc may report it as a rollback (class 40)
            } catch (SQLException e) {
                assertTrue(e.getSQLState().startsWith("40"), e.getSQLState() + " " + e.getMessage());
            }
            c.setAutoCommit(true);
            // the block is over and its write was taken back (interactive transactions, tx)
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM jfb")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getLong(1));
            }
            // a failed block without writes: COMMIT is ROLLBACK, as in PostgreSQL
            c.setAutoCommit(false);
            assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM no_such_table"));
            c.commit();
            c.setAutoCommit(true);
            st.execute("DROP TABLE jfb");
        }
    }

    /**
     * Binary DataRows of mixed-kind expressions (UNION, CASE of INT and FLOAT/BIGINT columns: longs
     * and doubles in one column) are encoded by the column's type; pgjdbc with prepareThreshold=-1
     * asks for binary from the first execution. (Values a column's type cannot hold: PgRowsTest.)
     */
    @Test
    void binaryRowsFollowTheColumnType() throws SQLException {
        try (Connection c = DriverManager.getConnection(url(server, "?prepareThreshold=-1"), "tester", "");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jbin (id INT PRIMARY KEY, f FLOAT, big BIGINT)");
            st.execute("INSERT INTO jbin VALUES (1, 2.0, 5000000000), (2, 2.5, 7)");
            String[] queries = {
                "SELECT id FROM jbin WHERE id = ? UNION ALL SELECT f FROM jbin WHERE id = 1",
                "SELECT CASE WHEN id = ? THEN id ELSE f END FROM jbin WHERE id = 1",
                "SELECT CASE WHEN id = ? THEN f ELSE big END FROM jbin WHERE id = 1",
            };
            for (String sql : queries) {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        String type = rs.getMetaData().getColumnTypeName(1);
                        List<Double> got = new java.util.ArrayList<>();
                        while (rs.next()) {
                            got.add(rs.getDouble(1));
                        }
                        assertTrue(got.equals(List.of(1.0, 2.0)) || got.equals(List.of(1.0)) || got.equals(List.of(2.0)),
                                type + " " + got);
                    }
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM jbin")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getLong(1));
            }
            st.execute("DROP TABLE jbin");
        }
    }

    /** A table written over RESP is read over pgwire at once, and the other way round. */
    @Test
    void respAndPgwireShareTables() throws SQLException {
        server.dispatch("SQL", "CREATE TABLE j5 (id INT PRIMARY KEY, name TEXT)");
        server.dispatch("SQL", "INSERT INTO j5 VALUES (1, 'from resp')");
        try (Connection c = connect(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT name FROM j5 WHERE id = 1")) {
                assertTrue(rs.next());
                assertEquals("from resp", rs.getString(1));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO j5 VALUES (?, ?)")) {
                ps.setInt(1, 2);
                ps.setString(2, "from pgwire");
                ps.executeUpdate();
            }
        }
        Object reply = server.dispatch("QUERY", "SELECT name FROM j5 WHERE id = 2");
        assertTrue(reply.toString().contains("from pgwire"), reply.toString());
        server.dispatch("SQL", "DROP TABLE j5");
    }

    @Test
    void sessionSettingsClientsSend() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("SET application_name = 'matrix'");
            st.execute("SET search_path TO public");
            st.execute("SET statement_timeout = 5000");
            st.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED");
            try (ResultSet rs = st.executeQuery("SHOW application_name")) {
                assertTrue(rs.next());
                assertEquals("matrix", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SHOW sql_dialect")) {
                assertTrue(rs.next());
                assertEquals("postgresql", rs.getString(1), "pgwire sessions start in PostgreSQL's dialect");
            }
            try (ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
                assertTrue(rs.next());
                assertEquals("5000", rs.getString(1));
            }
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SHOW no_such_setting"));
            assertEquals("42704", e.getSQLState());
            assertTrue(c.getMetaData().getDatabaseProductVersion().startsWith("15."));
        }
    }

    /** SCRAM-SHA-256 against requirepass: the right password gets in, a wrong one gets 28P01. */
    @Test
    void scramWithRightAndWrongPassword() throws SQLException {
        try (TestServer s = TestServer.start(c -> c.pgPort(0).requirePass("s3cret pass"))) {
            Properties ok = new Properties();
            ok.setProperty("user", "app");
            ok.setProperty("password", "s3cret pass");
            try (Connection c = DriverManager.getConnection(url(s, ""), ok); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT 7")) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
            Properties bad = new Properties();
            bad.setProperty("user", "app");
            bad.setProperty("password", "wrong");
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url(s, ""), bad));
            assertEquals("28P01", e.getSQLState());
        }
    }

    /** Statement.cancel sends a CancelRequest with the BackendKeyData: the long query stops with 57014. */
    @Test
    void cancelOfALongQuery() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j6 (id INT PRIMARY KEY, v INT)");
            StringBuilder sb = new StringBuilder("INSERT INTO j6 VALUES ");
            for (int i = 0; i < 3000; i++) {
                sb.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(i % 7).append(')');
            }
            st.execute(sb.toString());
            Statement q = c.createStatement();
            // ~2.7e10 combinations: runs for many minutes unless cancelled
            CompletableFuture<SQLException> run = CompletableFuture.supplyAsync(() -> {
                try {
                    q.executeQuery("SELECT count(*) FROM j6 a CROSS JOIN j6 b CROSS JOIN j6 c WHERE a.v + b.v + c.v = 1");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            long started = System.nanoTime();
            long deadline = started + TimeUnit.SECONDS.toNanos(60);
            SQLException e = null;
            boolean ended = false;
            // cancel() does nothing until the statement is running: ask again until it ends
            while (!ended && System.nanoTime() < deadline) {
                q.cancel();
                try {
                    e = run.get(100, TimeUnit.MILLISECONDS);
                    ended = true;
                } catch (TimeoutException notYet) {
                    // still running
                }
            }
            assertTrue(ended, "the query was not cancelled within 60 s");
            assertNotNull(e, "the query ended without being cancelled");
            assertEquals("57014", e.getSQLState(), e.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM j6")) {
                assertTrue(rs.next(), "the session goes on after the cancel");
                assertEquals(3000, rs.getLong(1));
            }
            q.close();
            // SET statement_timeout: the same query stops by itself with 57014
            st.execute("SET statement_timeout = 200");
            long t0 = System.nanoTime();
            SQLException timeout = assertThrows(SQLException.class, () ->
                    st.executeQuery("SELECT count(*) FROM j6 a CROSS JOIN j6 b CROSS JOIN j6 c WHERE a.v + b.v + c.v = 1"));
            assertEquals("57014", timeout.getSQLState(), timeout.getMessage());
            assertTrue(timeout.getMessage().contains("statement timeout of 200 ms"), timeout.getMessage());
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30));
            st.execute("RESET statement_timeout");
            st.execute("DROP TABLE j6");
        }
    }

    /**
     * A result of 200,000 rows (over bg-query-min-rows: run on a worker against a read view) streams
     * to the client in chunks, in order, through the extended protocol and through a simple query.
     */
    @Test
    void largeResultStreamsFromAWorker() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE j7 (id INT PRIMARY KEY, name TEXT)");
            for (int b = 0; b < 200_000; b += 5000) {
                StringBuilder sb = new StringBuilder("INSERT INTO j7 VALUES ");
                for (int i = b; i < b + 5000; i++) {
                    sb.append(i == b ? "" : ",").append('(').append(i).append(",'name ").append(i).append("')");
                }
                st.execute(sb.toString());
            }
            try (ResultSet rs = st.executeQuery("SELECT id, name FROM j7 ORDER BY id")) {
                int n = 0;
                while (rs.next()) {
                    assertEquals(n, rs.getInt(1));
                    assertEquals("name " + n, rs.getString(2));
                    n++;
                }
                assertEquals(200_000, n);
            }
            // several statements in one simple Query: the worker's rows come between the others' results
            try (Connection simple = DriverManager.getConnection(url(server, "?preferQueryMode=simple"), "tester", "");
                 Statement s2 = simple.createStatement()) {
                assertTrue(s2.execute("SELECT 1; SELECT id FROM j7 WHERE id >= 0; SELECT 3"));
                try (ResultSet rs = s2.getResultSet()) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getInt(1));
                }
                assertTrue(s2.getMoreResults());
                try (ResultSet rs = s2.getResultSet()) {
                    long sum = 0;
                    int n = 0;
                    while (rs.next()) {
                        sum += rs.getInt(1);
                        n++;
                    }
                    assertEquals(200_000, n);
                    assertEquals(199_999L * 200_000 / 2, sum);
                }
                assertTrue(s2.getMoreResults());
                try (ResultSet rs = s2.getResultSet()) {
                    assertTrue(rs.next());
                    assertEquals(3, rs.getInt(1));
                }
            }
            st.execute("DROP TABLE j7");
        }
    }

    /**
     * With appendfsync always a write's CommandComplete leaves only once its record is on disk (the
     * group commit RESP replies go through), and the rows are there after a restart.
     */
    @Test
    void writesAreOnDiskBeforeTheirReply(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.util.function.Consumer<io.respsql.config.ServerConfig> durable = c -> c.pgPort(0).dir(dir).appendOnly(true)
                .appendFsync(io.respsql.config.FsyncPolicy.ALWAYS);
        try (TestServer s = TestServer.start(durable)) {
            java.util.concurrent.atomic.AtomicLong synced = new java.util.concurrent.atomic.AtomicLong();
            s.server().appendOnlyFile().fsyncObserver(synced::set);
            try (Connection c = DriverManager.getConnection(url(s, ""), "tester", "");
                 PreparedStatement ins = c.prepareStatement("INSERT INTO d1 VALUES (?)")) {
                c.createStatement().execute("CREATE TABLE d1 (id INT PRIMARY KEY)");
                long before = java.nio.file.Files.size(dir.resolve("appendonly.aof"));
                for (int i = 0; i < 20; i++) {
                    ins.setInt(1, i);
                    assertEquals(1, ins.executeUpdate());
                    long size = java.nio.file.Files.size(dir.resolve("appendonly.aof"));
                    assertTrue(size > before, "insert " + i + " was acknowledged before its record was written");
                    assertEquals(size, synced.get(), "insert " + i + " was acknowledged before its record was fsynced");
                    before = size;
                }
            }
        }
        try (TestServer s = TestServer.start(durable);
             Connection c = DriverManager.getConnection(url(s, ""), "tester", "");
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM d1")) {
            assertTrue(rs.next());
            assertEquals(20, rs.getLong(1));
        }
    }

    /** Above maxmemory, INSERT is refused with 53200 and changes nothing; DELETE and reads go on. maxclients holds. */
    @Test
    void maxmemoryAndMaxclients() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0).maxClients(2));
             Connection c = DriverManager.getConnection(url(s, ""), "tester", "");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE m1 (id INT PRIMARY KEY, name TEXT)");
            assertEquals("OK", s.dispatch("CONFIG", "SET", "maxmemory", "1mb"));
            SQLException refused = null;
            int inserted = 0;
            // the used-memory figure is refreshed every 100 ms: write until it is over
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int batch = 0; refused == null && System.nanoTime() < deadline; batch++) {
                StringBuilder sb = new StringBuilder("INSERT INTO m1 VALUES ");
                for (int i = 0; i < 100; i++) {
                    int id = batch * 100 + i;
                    sb.append(i == 0 ? "" : ",").append('(').append(id).append(",'name number ").append(id).append("')");
                }
                try {
                    st.execute(sb.toString());
                    inserted += 100;
                } catch (SQLException e) {
                    refused = e;
                }
            }
            assertNotNull(refused, "no INSERT was refused above maxmemory");
            assertEquals("53200", refused.getSQLState(), refused.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM m1")) {
                assertTrue(rs.next());
                assertEquals(inserted, rs.getLong(1), "the refused INSERT changed nothing");
            }
            assertEquals(100, st.executeUpdate("DELETE FROM m1 WHERE id < 100"));
            try (Connection second = DriverManager.getConnection(url(s, ""), "tester", "")) {
                SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url(s, ""), "tester", ""));
                assertEquals("53300", e.getSQLState(), e.getMessage());
            }
        }
    }

    /** charn: a char(n) result column is bpchar (OID 1042) on the wire, its value blank-padded; cast to text it is text, unpadded. */
    @Test
    void charColumnsAreBpchar() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jc (id INT PRIMARY KEY, c CHAR(5))");
            st.execute("INSERT INTO jc VALUES (1, 'ab '), (2, NULL)");
            try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT c, c::text FROM jc WHERE c = ? ORDER BY id")) {
                ps.setString(1, "ab");
                try (ResultSet rs = ps.executeQuery()) {
                    ResultSetMetaData md = rs.getMetaData();
                    assertEquals("bpchar", md.getColumnTypeName(1));
                    assertEquals(Types.CHAR, md.getColumnType(1));
                    assertEquals("text", md.getColumnTypeName(2));
                    assertTrue(rs.next());
                    assertEquals("ab   ", rs.getString(1));
                    assertEquals("ab", rs.getString(2));
                    assertTrue(!rs.next());
                }
            }
        }
    }
}
