package io.respsql.it.conformance;

import io.respsql.it.TestServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL 15 and a RespSQL server side by side, each reached through pgjdbc over its own
 * PostgreSQL protocol: the same statement to both, rows compared as their text with their columns'
 * type names (pgjdbc's {@code int4}, {@code numeric}, {@code _text}, ...), errors by SQLSTATE.
 * The pgjdbc twin of {@link PgPair} (which reads RespSQL over RESP), for the tests whose facts are
 * the PostgreSQL protocol's column types.
 */
final class JdbcPair implements AutoCloseable {
    private final PgPeer pg;
    private final TestServer server;
    private final Connection theirs;
    private final Connection ours;

    private JdbcPair(PgPeer pg, TestServer server, Connection theirs, Connection ours) {
        this.pg = pg;
        this.server = server;
        this.theirs = theirs;
        this.ours = ours;
    }

    /** Starts PostgreSQL and a RespSQL server with a pgwire listener, and connects to both. */
    static JdbcPair start() throws Exception {
        PgOracle.requirePostgresql();
        PgPeer pg = PgPeer.start(PgOracle.repoRoot());
        TestServer server = null;
        try {
            server = TestServer.start(c -> c.pgPort(0));
            Connection theirs = DriverManager.getConnection(
                    "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + pg.database(), pg.user(), "");
            Connection ours = DriverManager.getConnection(
                    "jdbc:postgresql://" + server.host() + ":" + server.server().pgPort() + "/respsql", "tester", "");
            return new JdbcPair(pg, server, theirs, ours);
        } catch (Exception | Error e) {
            if (server != null) {
                server.close();
            }
            pg.close();
            throw e;
        }
    }

    TestServer server() {
        return server;
    }

    /** The connection to PostgreSQL. */
    Connection theirs() {
        return theirs;
    }

    /** The connection to RespSQL. */
    Connection ours() {
        return ours;
    }

    /** Runs {@code sql} on both (setup: it must succeed on both). */
    void both(String sql) throws SQLException {
        try (Statement st = theirs.createStatement()) {
            st.execute(sql);
        }
        try (Statement st = ours.createStatement()) {
            st.execute(sql);
        }
    }

    /**
     * Runs {@code sql} on both: the same SQLSTATE when PostgreSQL fails (then an empty list), else the
     * same column types and rows, which are returned.
     */
    List<String> same(String sql) throws SQLException {
        List<String> expected;
        try {
            expected = rows(theirs, sql);
        } catch (SQLException e) {
            String state = e.getSQLState();
            try {
                rows(ours, sql);
            } catch (SQLException mine) {
                assertEquals(state, mine.getSQLState(), sql + ": " + mine.getMessage() + " / PostgreSQL: " + e.getMessage());
                return List.of();
            }
            throw new AssertionError(sql + ": PostgreSQL fails with " + state + " (" + e.getMessage() + "), RespSQL answers");
        }
        List<String> actual;
        try {
            actual = rows(ours, sql);
        } catch (SQLException mine) {
            throw new AssertionError(sql + ": RespSQL fails (" + mine.getSQLState() + " " + mine.getMessage()
                    + "), PostgreSQL answers " + expected);
        }
        assertEquals(expected, actual, sql);
        return expected;
    }

    /** {@code sql} fails on both with {@code state}. */
    void fails(String state, String sql) throws SQLException {
        try {
            rows(theirs, sql);
            throw new AssertionError(sql + ": PostgreSQL answers");
        } catch (SQLException e) {
            assertEquals(state, e.getSQLState(), sql + ": PostgreSQL: " + e.getMessage());
        }
        assertTrue(same(sql).isEmpty());
    }

    /** Column type names, then each row's values as text. */
    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder types = new StringBuilder("types:");
            for (int i = 1; i <= md.getColumnCount(); i++) {
                types.append(' ').append(md.getColumnTypeName(i));
            }
            out.add(types.toString());
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        try {
            ours.close();
            theirs.close();
        } finally {
            try {
                server.close();
            } finally {
                pg.close();
            }
        }
    }
}
