package io.respsql.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Text functions asked for a result far past the limit (sizes whose product wraps a long) answer
 * "requested length too large" (PostgreSQL's 54000) at once, and the server goes on serving.
 */
@Timeout(60)
class TextLimitsWireTest {
    private static final String[] HUGE = {
            "SELECT repeat('abcd', 4611686018427387904)",
            "SELECT lpad('x', 4611686018427387904)",
            "SELECT rpad('x', 4611686018427387904, 'ab')",
            "SELECT repeat(name, 4611686018427387904) FROM tl",
            "SELECT lpad(name, 2147483647) FROM tl",
            "SELECT rpad(name, 4611686018427387903, name) FROM tl",
    };
    private static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.pgPort(0));
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE tl (id INT PRIMARY KEY, name TEXT)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO tl VALUES (1, 'abcd'), (2, 'x')"));
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void respClientsGetTheErrorAndTheServerGoesOn() throws Exception {
        try (RespConnection c = server.raw()) {
            for (String sql : HUGE) {
                assertEquals("-ERR requested length too large\r\n", c.call("SQL", sql), sql);
                assertEquals("+PONG\r\n", c.call("PING"));
            }
            assertEquals("*2\r\n$8\r\nabcdabcd\r\n$2\r\nxx\r\n", c.call("SQL", "SELECT repeat(name, 2) FROM tl ORDER BY id"));
        }
    }

    @Test
    void postgresqlClientsGetSqlState54000() throws SQLException {
        String url = "jdbc:postgresql://" + server.host() + ":" + server.server().pgPort() + "/respsql";
        try (Connection c = DriverManager.getConnection(url, "tester", ""); Statement st = c.createStatement()) {
            for (String sql : HUGE) {
                SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(sql), sql);
                assertEquals("54000", e.getSQLState(), sql);
                assertTrue(e.getMessage().contains("requested length too large"), e.getMessage());
            }
            try (ResultSet rs = st.executeQuery("SELECT lpad(name, 3, '-') FROM tl ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals("abc", rs.getString(1));
                assertTrue(rs.next());
                assertEquals("--x", rs.getString(1));
            }
        }
    }
}
