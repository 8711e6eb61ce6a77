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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RETURNING and upsert through pgjdbc: rows described and sent as a query's, generated keys, the update count. */
class PgReturningTest {
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

    @Test
    void returningRowsThroughPgjdbc() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pr (id int4 PRIMARY KEY, name text, hits int8 DEFAULT 0)");
            try (ResultSet rs = st.executeQuery("INSERT INTO pr VALUES (1, 'a'), (2, 'b') RETURNING id, name, hits")) {
                assertEquals("id", rs.getMetaData().getColumnLabel(1));
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertEquals("a", rs.getString("name"));
                assertEquals(0L, rs.getLong(3));
                assertTrue(rs.next());
                assertEquals(2, rs.getInt("id"));
                assertFalse(rs.next());
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO pr VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET hits = pr.hits + 1 RETURNING id, hits")) {
                for (int round = 1; round <= 2; round++) {
                    ps.setInt(1, 1);
                    ps.setString(2, "again");
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(round, rs.getLong("hits"));
                        assertFalse(rs.next());
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO pr (id, name) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setInt(1, 7);
                ps.setString(2, "seven");
                assertEquals(1, ps.executeUpdate());
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    assertTrue(keys.next());
                    assertEquals(7, keys.getInt("id"));
                    assertEquals("seven", keys.getString("name"));
                }
            }
            assertTrue(st.execute("UPDATE pr SET name = name || '!' WHERE id <= 2 RETURNING name"));
            try (ResultSet rs = st.getResultSet()) {
                assertTrue(rs.next());
                assertTrue(rs.getString(1).endsWith("!"));
            }
            assertEquals(2, st.executeUpdate("DELETE FROM pr WHERE id <= 2"));
            try (ResultSet rs = st.executeQuery("DELETE FROM pr RETURNING id")) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
    }
}
