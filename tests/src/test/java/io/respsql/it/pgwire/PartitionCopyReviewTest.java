package io.respsql.it.pgwire;

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

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Second reader's finding: COPY FROM STDIN into a partitioned table wrote its rows into the
 * parent's own storage (in no partition: a DELETE through the parent missed them, while the logged
 * INSERTs route on replay) and into a partition without its bound's check. Either COPY routes each
 * row to its partition, or it is refused (0A000) and writes nothing.
 */
class PartitionCopyReviewTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void copyIntoAPartitionTreeRoutesOrIsRefused() throws Exception {
        try (Connection c = DriverManager.getConnection(PgJdbcTest.url(server, ""), "tester", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cp (a int, b text) PARTITION BY RANGE (a)");
            st.execute("CREATE TABLE cp1 PARTITION OF cp FOR VALUES FROM (0) TO (10)");
            st.execute("CREATE TABLE cp2 PARTITION OF cp FOR VALUES FROM (10) TO (20)");
            for (String target : new String[] {"cp", "cp1"}) {
                try {
                    c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + target + " FROM STDIN", new StringReader("1\tx\n15\ty\n"));
                } catch (SQLException e) {
                    assertEquals("0A000", e.getSQLState(), e.getMessage());
                }
                // whatever COPY did: every row of the tree is in the partition its bound says, none outside
                assertEquals(count(st, "SELECT count(*) FROM cp"), count(st, "SELECT count(*) FROM cp1") + count(st, "SELECT count(*) FROM cp2"),
                        "COPY " + target);
                assertEquals(0, count(st, "SELECT count(*) FROM cp1 WHERE a >= 10"), "COPY " + target);
                assertEquals(0, count(st, "SELECT count(*) FROM cp2 WHERE a < 10"), "COPY " + target);
            }
        }
    }
}
