package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequences, SERIAL and identity columns over the PostgreSQL protocol (pgjdbc): PostgreSQL's
 * SQLSTATEs, a prepared {@code nextval} run many times (past pgjdbc's switch to a named server
 * statement) giving a new value each time, and currval per connection.
 */
class SequencesPgTest {
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

    private static long one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    private static String state(Statement st, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
        return e.getSQLState();
    }

    @Test
    void errorsCarryPostgresqlsSqlstates() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SEQUENCE pg_s MAXVALUE 2");
            assertEquals("42P07", state(st, "CREATE SEQUENCE pg_s"));
            assertEquals("55000", state(st, "SELECT currval('pg_s')"));
            assertEquals("42P01", state(st, "SELECT nextval('pg_missing')"));
            assertEquals(1, one(st, "SELECT nextval('pg_s')"));
            assertEquals(2, one(st, "SELECT nextval('pg_s')"));
            assertEquals("2200H", state(st, "SELECT nextval('pg_s')"));
            assertEquals("22003", state(st, "SELECT setval('pg_s', 3)"));
            assertEquals("22023", state(st, "CREATE SEQUENCE pg_z INCREMENT 0"));
            st.execute("CREATE TABLE pg_g (id int GENERATED ALWAYS AS IDENTITY, v text)");
            assertEquals("428C9", state(st, "INSERT INTO pg_g (id, v) VALUES (1, 'x')"));
            assertEquals("428C9", state(st, "UPDATE pg_g SET id = 1"));
            assertEquals(1, st.executeUpdate("INSERT INTO pg_g (v) VALUES ('y')"));
            assertEquals(1, one(st, "SELECT id FROM pg_g"));
            st.execute("DROP TABLE pg_g");
            st.execute("DROP SEQUENCE pg_s");
            assertEquals("42P01", state(st, "DROP SEQUENCE pg_s"));
        }
    }

    @Test
    void aPreparedNextvalGivesANewValueEveryRun() throws SQLException {
        try (Connection c = connect(); Connection other = connect(); Statement st = c.createStatement();
                Statement ot = other.createStatement()) {
            st.execute("CREATE SEQUENCE pg_p");
            st.execute("CREATE TABLE pg_t (id bigserial PRIMARY KEY, v int)");
            Set<Long> seen = new HashSet<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT nextval('pg_p')");
                    PreparedStatement ins = c.prepareStatement("INSERT INTO pg_t (v) VALUES (?)")) {
                for (int i = 1; i <= 8; i++) { // pgjdbc names the server statement from the 5th run on
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(i, rs.getLong(1));
                        assertTrue(seen.add(rs.getLong(1)));
                    }
                    ins.setInt(1, i);
                    assertEquals(1, ins.executeUpdate());
                }
            }
            assertEquals(9, one(ot, "SELECT nextval('pg_p')"));
            assertEquals(8, one(st, "SELECT currval('pg_p')")); // the other connection's call is not this one's
            assertEquals(9, one(ot, "SELECT lastval()"));
            assertEquals(8, one(st, "SELECT count(DISTINCT id) FROM pg_t"));
            assertEquals(8, one(st, "SELECT max(id) FROM pg_t"));
            try (ResultSet rs = st.executeQuery("SELECT last_value, log_cnt, is_called FROM pg_p")) {
                assertTrue(rs.next());
                assertEquals(9, rs.getLong(1));
                assertTrue(rs.getBoolean(3));
                assertFalse(rs.next());
            }
            st.execute("DROP TABLE pg_t");
            st.execute("DROP SEQUENCE pg_p");
        }
    }
}
