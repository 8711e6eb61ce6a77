package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.io.StringReader;
import org.postgresql.PGConnection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the evening's branches meet (each was tested alone): ALTER TABLE on columns that CHECK and
 * FOREIGN KEY constraints use, ON CONFLICT's EXCLUDED of a NUMERIC(p,s) column. Expectations are
 * PostgreSQL 15's (checked by hand against one) or, where not supported, a clear refusal that
 * leaves the table working.
 */
class MergedFeaturesPgTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(server, ""), "tester", "");
    }

    private static String state(Statement st, String sql) {
        return assertThrows(SQLException.class, () -> st.execute(sql), sql).getSQLState();
    }

    @Test
    void dropColumnTakesItsChecksAndForeignKeysAlong() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE dp (id int PRIMARY KEY, other int)");
            st.execute("INSERT INTO dp VALUES (1, 1)");
            st.execute("CREATE TABLE dc (pid int REFERENCES dp(id), k int CHECK (k > 0), a int, b int, CHECK (a < b), z int)");
            st.execute("INSERT INTO dc VALUES (1, 1, 1, 2, 1)");
            // PostgreSQL: the table's own constraints on a dropped column go with it
            st.execute("ALTER TABLE dc DROP COLUMN k");
            st.execute("ALTER TABLE dc DROP COLUMN a");
            st.execute("INSERT INTO dc (pid, b, z) VALUES (1, 5, 2)");
            assertEquals("23503", state(st, "INSERT INTO dc (pid, b, z) VALUES (7, 5, 2)"));
            st.execute("ALTER TABLE dc DROP COLUMN pid");
            st.execute("INSERT INTO dc (b, z) VALUES (5, 3)");
            st.execute("DELETE FROM dp"); // no foreign key left
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM dc")) {
                assertTrue(rs.next());
                assertEquals(3, rs.getInt(1));
            }
        }
    }

    @Test
    void droppingAReferencedColumnNeedsCascade() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE rp (id int PRIMARY KEY, other int)");
            st.execute("INSERT INTO rp VALUES (1, 1)");
            st.execute("CREATE TABLE rc (pid int REFERENCES rp(id))");
            st.execute("INSERT INTO rc VALUES (1)");
            assertEquals("2BP01", state(st, "ALTER TABLE rp DROP COLUMN id"));
            assertEquals("23503", state(st, "INSERT INTO rc VALUES (2)")); // unchanged
            st.execute("ALTER TABLE rp DROP COLUMN id CASCADE");
            st.execute("INSERT INTO rc VALUES (2)");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM rc")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    @Test
    void renameOrRetypeOfAConstrainedColumnIsRefusedAndTheTableKeepsWorking() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ap (id int PRIMARY KEY)");
            st.execute("INSERT INTO ap VALUES (1)");
            st.execute("CREATE TABLE ac (pid int REFERENCES ap(id), k int CHECK (k > 0))");
            assertEquals("0A000", state(st, "ALTER TABLE ac RENAME COLUMN k TO kk"));
            assertEquals("0A000", state(st, "ALTER TABLE ac ALTER COLUMN pid TYPE bigint"));
            assertEquals("0A000", state(st, "ALTER TABLE ap ALTER COLUMN id TYPE bigint"));
            st.execute("ALTER TABLE ac RENAME COLUMN pid TO parent"); // a foreign key holds the column itself
            st.execute("INSERT INTO ac VALUES (1, 1)");
            assertEquals("23514", state(st, "INSERT INTO ac VALUES (1, 0)"));
            assertEquals("23503", state(st, "INSERT INTO ac VALUES (5, 1)"));
            assertEquals("23503", state(st, "DELETE FROM ap"));
        }
    }

    @Test
    void excludedOfANumericColumnKeepsItsScale() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE un (id int PRIMARY KEY, n numeric(5,2))");
            st.execute("INSERT INTO un VALUES (1, 1)");
            try (ResultSet rs = st.executeQuery(
                    "INSERT INTO un VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = excluded.n + 0.005 RETURNING n")) {
                assertTrue(rs.next());
                assertEquals("1.01", rs.getString(1)); // PostgreSQL 15's
                assertFalse(rs.next());
            }
            try (ResultSet rs = st.executeQuery(
                    "INSERT INTO un VALUES (1, 2.5) ON CONFLICT (id) DO UPDATE SET n = excluded.n RETURNING n")) {
                assertTrue(rs.next());
                assertEquals("2.50", rs.getString(1));
            }
        }
    }

    private static String copyState(Connection c, String sql, String in) {
        return assertThrows(SQLException.class,
                () -> c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader(in)), in).getSQLState();
    }

    @Test
    void copyFromAppliesSerialDefaultsNumericScaleAndVarcharLength() throws SQLException, IOException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cpp (id int PRIMARY KEY)");
            st.execute("INSERT INTO cpp VALUES (1)");
            st.execute("CREATE TABLE cpc (id serial, pid int REFERENCES cpp(id), v varchar(3), n numeric(5,2), k int CHECK (k > 0))");
            String sql = "COPY cpc (pid, v, n, k) FROM STDIN";
            assertEquals(2, c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader("1\tab\t1.005\t1\n1\tx    \t2\t2\n")));
            assertEquals("23503", copyState(c, sql, "9\ta\t1\t1\n"));
            assertEquals("22001", copyState(c, sql, "1\tabcd\t1\t1\n"));
            assertEquals("23514", copyState(c, sql, "1\ta\t1\t0\n"));
            assertEquals("22003", copyState(c, sql, "1\ta\t1000\t1\n"));
            st.execute("INSERT INTO cpc (pid, v, n, k) VALUES (1, 'z', 3, 3)");
            try (ResultSet rs = st.executeQuery("SELECT id, v, n FROM cpc ORDER BY n")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1)); // the serial's nextval DEFAULT ran
                assertEquals("ab", rs.getString(2));
                assertEquals("1.01", rs.getString(3)); // rounded to the column's scale as PostgreSQL
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
                assertEquals("x  ", rs.getString(2)); // blanks past 3 characters are cut, as PostgreSQL
                assertTrue(rs.next());
                assertTrue(rs.getInt(1) > 2); // the sequence moved past the COPY's values
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void createTableAsKeepsNumericExactAndTypeModifiers() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ctn (id int, v varchar(3), n numeric(6,2), w numeric)");
            st.execute("INSERT INTO ctn VALUES (1, 'ab', 2.5, 1.50)");
            st.execute("CREATE TABLE ctn2 AS SELECT id, v, n, w, n * 2 AS m FROM ctn");
            try (ResultSet rs = st.executeQuery("SELECT n, w, m FROM ctn2")) {
                assertTrue(rs.next());
                assertEquals("2.50", rs.getString(1)); // numeric, not double precision (which shows 2.5)
                assertEquals("1.50", rs.getString(2));
                assertEquals("5.00", rs.getString(3));
            }
            // PostgreSQL's: a column taken as it is keeps varchar(3) and numeric(6,2)
            assertEquals("22001", state(st, "INSERT INTO ctn2 (v) VALUES ('abcd')"));
            assertEquals("22003", state(st, "INSERT INTO ctn2 (n) VALUES (12345)"));
            st.execute("INSERT INTO ctn2 (id, n) VALUES (2, 1.005)");
            try (ResultSet rs = st.executeQuery("SELECT n FROM ctn2 WHERE id = 2")) {
                assertTrue(rs.next());
                assertEquals("1.01", rs.getString(1));
            }
        }
    }

    @Test
    void catalogShowsTypeModifiersAndWideNumerics() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cat (v varchar(3), n numeric(6,2), w numeric, big numeric(30,4))");
            // PostgreSQL 15's answers (a numeric column wider than 18 digits or unconstrained was "text")
            try (ResultSet rs = st.executeQuery("SELECT column_name, data_type, character_maximum_length, numeric_precision,"
                    + " numeric_scale FROM information_schema.columns WHERE table_name = 'cat' ORDER BY ordinal_position")) {
                String[] want = {"v|character varying|3|null|null", "n|numeric|null|6|2", "w|numeric|null|null|null",
                    "big|numeric|null|30|4"};
                for (String w : want) {
                    assertTrue(rs.next());
                    assertEquals(w, rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4)
                            + "|" + rs.getString(5));
                }
                assertFalse(rs.next());
            }
            try (ResultSet rs = st.executeQuery("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                    + " WHERE attrelid = 'cat'::regclass AND attnum > 0 ORDER BY attnum")) {
                for (String w : new String[] {"character varying(3)", "numeric(6,2)", "numeric", "numeric(30,4)"}) {
                    assertTrue(rs.next());
                    assertEquals(w, rs.getString(1));
                }
            }
        }
    }

    @Test
    void generatedAlwaysHoldsInOnConflictDoUpdate() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE gai (id int GENERATED ALWAYS AS IDENTITY, v int UNIQUE)");
            st.execute("INSERT INTO gai (v) VALUES (1)");
            assertEquals("428C9", state(st, "INSERT INTO gai (v) VALUES (1) ON CONFLICT (v) DO UPDATE SET id = 99"));
            assertEquals("428C9", state(st, "UPDATE gai SET id = 99"));
            try (ResultSet rs = st.executeQuery("UPDATE gai SET id = DEFAULT RETURNING id")) { // PostgreSQL allows DEFAULT
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT id FROM gai")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    @Test
    void alterTableTakesNoSequenceValue() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ats (id serial, x int)");
            st.execute("INSERT INTO ats (x) VALUES (1)");
            st.execute("ALTER TABLE ats ALTER COLUMN id TYPE bigint");
            st.execute("CREATE SEQUENCE ats_other");
            st.execute("ALTER TABLE ats ALTER COLUMN x SET DEFAULT nextval('ats_other')");
            try (ResultSet rs = st.executeQuery("INSERT INTO ats DEFAULT VALUES RETURNING id, x")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getLong(1)); // PostgreSQL 15: 2 (the ALTERs took no value)
                assertEquals(1, rs.getLong(2));
            }
        }
    }

    private static String column(Statement st, String sql) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.append(rs.getString(1)).append(';');
            }
        }
        return out.toString();
    }

    @Test
    void copyIntoSerialAndNowDefaultsReplaysTheSameRows() throws Exception {
        Path dir = Files.createTempDirectory("respsql-merged-");
        String before;
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true));
             Connection c = DriverManager.getConnection(PgJdbcTest.url(s, ""), "tester", "");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE crn (id serial, v int, ts timestamp DEFAULT now())");
            st.execute("INSERT INTO crn (v) VALUES (0)");
            // the COPY's now() is its own statement time, not the previous statement's
            long start = System.currentTimeMillis();
            while (System.currentTimeMillis() - start < 20) {
                Thread.onSpinWait(); // past the INSERT's millisecond
            }
            assertEquals(2, c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY crn (v) FROM STDIN", new StringReader("1\n2\n")));
            before = column(st, "SELECT id || '|' || v || '|' || ts FROM crn ORDER BY id");
            try (ResultSet rs = st.executeQuery("SELECT count(DISTINCT ts) FROM crn")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1), before);
            }
        }
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true));
             Connection c = DriverManager.getConnection(PgJdbcTest.url(s, ""), "tester", "");
             Statement st = c.createStatement()) {
            assertEquals(before, column(st, "SELECT id || '|' || v || '|' || ts FROM crn ORDER BY id"));
            try (ResultSet rs = st.executeQuery("INSERT INTO crn (v) VALUES (3) RETURNING id")) {
                assertTrue(rs.next());
                assertEquals(4, rs.getInt(1)); // the sequence's state came back after the COPY's rows
            }
        }
    }
}
