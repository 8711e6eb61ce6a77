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
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pgjdbc logs in as an ACL user (SCRAM-SHA-256 with its verifier); a denial is SQLSTATE 42501. */
class AclPgTest {
    private static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.pgPort(0).requirePass("admin-pw")
                .addUserLine("app on >app-pw +@all -@dangerous ~orders*"));
        RespConnection admin = server.raw();
        assertEquals("+OK\r\n", admin.call("AUTH", "admin-pw"));
        assertEquals("+OK\r\n", admin.call("SQL", "CREATE TABLE orders (id int primary key, amount int)"));
        assertEquals("+OK\r\n", admin.call("SQL", "CREATE TABLE secret (id int primary key)"));
        assertEquals("+OK\r\n", admin.call("SQL", "INSERT INTO orders VALUES (1, 10)"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + server.host() + ":" + server.server().pgPort()
                + "/respsql", user, password);
    }

    @Test
    void namedUserLogsInAndIsDeniedWith42501() throws SQLException {
        try (Connection c = connect("app", "app-pw"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT amount FROM orders WHERE id = 1")) {
                assertTrue(rs.next());
                assertEquals(10, rs.getInt(1));
            }
            assertEquals(1, st.executeUpdate("UPDATE orders SET amount = 11 WHERE id = 1"));
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM secret"));
            assertEquals("42501", e.getSQLState());
            assertTrue(e.getMessage().contains("permission denied for table secret"), e.getMessage());
            e = assertThrows(SQLException.class,
                    () -> st.executeQuery("SELECT * FROM orders o JOIN secret s ON s.id = o.id"));
            assertEquals("42501", e.getSQLState());
            e = assertThrows(SQLException.class, () -> st.execute("DROP TABLE orders"));
            assertEquals("42501", e.getSQLState());
            // extended protocol (a prepared statement) is checked the same way
            SQLException p = assertThrows(SQLException.class, () -> {
                try (var ps = c.prepareStatement("DELETE FROM secret WHERE id = ?")) {
                    ps.setInt(1, 1);
                    ps.executeUpdate();
                }
            });
            assertEquals("42501", p.getSQLState());
        }
    }

    /** mend: Describe (extended protocol) of a statement on a table the user may not read fails as Execute does. */
    @Test
    void describeOfADeniedStatementIs42501() throws SQLException {
        try (Connection c = connect("app", "app-pw")) {
            try (var ps = c.prepareStatement("SELECT amount FROM orders WHERE id = ?")) {
                assertEquals("amount", ps.getMetaData().getColumnName(1)); // allowed: described
            }
            for (String sql : new String[] {"SELECT * FROM secret WHERE id = ?", "SELECT o.id FROM orders o JOIN secret s ON s.id = o.id WHERE o.id = ?",
                    "DELETE FROM secret WHERE id = ? RETURNING id"}) {
                SQLException e = assertThrows(SQLException.class, () -> {
                    try (var ps = c.prepareStatement(sql)) {
                        ps.getMetaData(); // Parse, Describe (statement), Sync: the columns would name secret's
                    }
                }, sql);
                assertEquals("42501", e.getSQLState(), sql);
                assertTrue(e.getMessage().contains("permission denied for table secret"), e.getMessage());
            }
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM orders")) {
                assertTrue(rs.next()); // the session goes on
            }
        }
    }

    /** mend: TYPE and MEMORY USAGE are checked against the user's table patterns (NOPERM). */
    @Test
    void typeAndMemoryUsageAreCheckedOnTheTable() throws Exception {
        try (RespConnection app = server.raw()) {
            assertEquals("+OK\r\n", app.call("AUTH", "app", "app-pw"));
            assertEquals("+table\r\n", app.call("TYPE", "orders"));
            assertTrue(app.call("MEMORY", "USAGE", "orders").startsWith(":"));
            assertEquals("+none\r\n", app.call("TYPE", "orders_none")); // a name the patterns allow
            assertEquals("-NOPERM No permissions to access a key\r\n", app.call("TYPE", "secret"));
            assertEquals("-NOPERM No permissions to access a key\r\n", app.call("MEMORY", "USAGE", "secret"));
            assertEquals("-NOPERM No permissions to access a key\r\n", app.call("TYPE", "nosuch"));
        }
    }

    @Test
    void wrongPasswordAndDefaultLogin() throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> connect("app", "nope"));
        assertEquals("28P01", e.getSQLState());
        // any other name logs in as the default user, with requirepass, as before users existed
        try (Connection c = connect("respsql", "admin-pw"); ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM secret")) {
            assertTrue(rs.next());
        }
    }

    @Test
    void sqlCreateUserAndGrantOverPgwire() throws SQLException {
        try (Connection admin = connect("respsql", "admin-pw"); Statement st = admin.createStatement()) {
            st.execute("CREATE USER report WITH PASSWORD 'rep-pw'");
            st.execute("GRANT SELECT ON orders TO report");
        }
        try (Connection c = connect("report", "rep-pw"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM orders")) {
                assertTrue(rs.next());
            }
            SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO orders VALUES (9, 9)"));
            assertEquals("42501", e.getSQLState());
            e = assertThrows(SQLException.class, () -> st.execute("CREATE USER x PASSWORD 'y'"));
            assertEquals("42501", e.getSQLState());
        }
    }
}
