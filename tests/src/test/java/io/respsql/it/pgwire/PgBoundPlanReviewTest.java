package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * review1: a pgwire statement's kept plan (BoundPlan) must answer as the statement's text does,
 * here where the plan path and the text path take different routes: writes to a partitioned
 * table (the text path routes them to the partitions), int4 overflow of an assignment.
 */
class PgBoundPlanReviewTest {
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
        return DriverManager.getConnection(PgJdbcTest.url(server, "?prepareThreshold=1"), "tester", "");
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "|" + rs.getString(2));
            }
        }
        return out;
    }

    /** UPDATE and DELETE through a partitioned table's parent, prepared: the rows in its partitions change. */
    @Test
    void preparedWritesToAPartitionedTableReachItsPartitions() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE bp_part (k int, v int) PARTITION BY RANGE (k)");
            st.execute("CREATE TABLE bp_part_lo PARTITION OF bp_part FOR VALUES FROM (0) TO (10)");
            st.execute("CREATE TABLE bp_part_hi PARTITION OF bp_part FOR VALUES FROM (10) TO (20)");
            st.execute("INSERT INTO bp_part VALUES (1, 0), (2, 0), (11, 0), (12, 0)");
            try (PreparedStatement up = c.prepareStatement("UPDATE bp_part SET v = v + ? WHERE k = ?")) {
                for (int k : new int[] {1, 11, 1}) {
                    up.setInt(1, 5);
                    up.setInt(2, k);
                    assertEquals(1, up.executeUpdate(), "UPDATE k = " + k);
                }
            }
            assertEquals(List.of("1|10", "2|0", "11|5", "12|0"), rows(st, "SELECT k, v FROM bp_part ORDER BY k"));
            try (PreparedStatement del = c.prepareStatement("DELETE FROM bp_part WHERE k = ?")) {
                for (int k : new int[] {2, 12}) {
                    del.setInt(1, k);
                    assertEquals(1, del.executeUpdate(), "DELETE k = " + k);
                }
            }
            assertEquals(List.of("1|10", "11|5"), rows(st, "SELECT k, v FROM bp_part ORDER BY k"));
        }
    }

    /**
     * The RESP text plan cache (2010 dialect) never writes a partitioned table's rows into the
     * parent itself (where no read finds them): an INSERT is routed to its partition or refused.
     * (A RESP write to a partition tree is refused today: its routing step's statements do not
     * parse in the 2010 dialect, "table 'ONLY' does not exist".)
     */
    @Test
    void cachedRespInsertsNeverLandInAPartitionedParent() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE bp_rp (k int, v int) PARTITION BY RANGE (k)");
            st.execute("CREATE TABLE bp_rp_lo PARTITION OF bp_rp FOR VALUES FROM (0) TO (10)");
            io.respsql.it.RespConnection r = server.raw();
            int written = 0;
            for (int k = 1; k <= 3; k++) {
                written += r.call("SQL", "INSERT INTO bp_rp VALUES (" + k + ", 0)").startsWith("-") ? 0 : 1;
            }
            assertEquals(List.of(), rows(st, "SELECT k, v FROM ONLY bp_rp"));
            assertEquals(written, rows(st, "SELECT k, v FROM bp_rp").size());
        }
    }

    /** SET col = col + $1 past int4's range is PostgreSQL's 22003, by the kept plan as by the text. */
    @Test
    void preparedAssignmentBeyondInt4IsOutOfRange() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE bp_ovf (k int PRIMARY KEY, v int)");
            st.execute("INSERT INTO bp_ovf VALUES (1, 2147483600)");
            try (PreparedStatement up = c.prepareStatement("UPDATE bp_ovf SET v = v + ? WHERE k = ?")) {
                for (int i = 0; i < 3; i++) {
                    up.setInt(1, 1);
                    up.setInt(2, 1);
                    assertEquals(1, up.executeUpdate());
                }
                up.setInt(1, 100);
                up.setInt(2, 1);
                SQLException e = assertThrows(SQLException.class, up::executeUpdate);
                assertEquals("22003", e.getSQLState(), e.getMessage());
            }
            assertEquals(List.of("1|2147483603"), rows(st, "SELECT k, v FROM bp_ovf"));
            // int4 + $1 in a WHERE is int4 arithmetic, as the text's (and PostgreSQL's): 22003 past its range
            try (PreparedStatement q = c.prepareStatement("SELECT k FROM bp_ovf WHERE v + ? > 0")) {
                for (int i = 0; i < 3; i++) {
                    q.setInt(1, 1);
                    try (ResultSet rs = q.executeQuery()) {
                        assertTrue(rs.next());
                    }
                }
                q.setInt(1, 100);
                SQLException e = assertThrows(SQLException.class, () -> q.executeQuery().close());
                assertEquals("22003", e.getSQLState(), e.getMessage());
            }
        }
    }

    /**
     * Describe (portal) of a statement with a kept plan, by a user who may not read its table: the
     * error (42501), as for a statement without one; never its RowDescription (column names).
     */
    @Test
    void describePortalOfAKeptPlanChecksTheUsersRights() throws Exception {
        try (TestServer s = TestServer.start(c -> c.pgPort(0).addUserLine("limited on nopass +@all ~bp_open*"))) {
            try (Connection c = DriverManager.getConnection(PgJdbcTest.url(s, ""), "tester", ""); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE bp_secret (id int PRIMARY KEY, hidden_col text)");
                st.execute("INSERT INTO bp_secret VALUES (1, 'x')");
            }
            try (Socket sock = new Socket(s.host(), s.server().pgPort())) {
                sock.setSoTimeout(30_000);
                DataInputStream in = new DataInputStream(sock.getInputStream());
                DataOutputStream out = new DataOutputStream(sock.getOutputStream());
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                DataOutputStream d = new DataOutputStream(b);
                d.writeInt(196608);
                d.write("user\0limited\0database\0respsql\0\0".getBytes(StandardCharsets.US_ASCII));
                out.writeInt(b.size() + 4);
                out.write(b.toByteArray());
                untilReady(in);
                send(out, 'P', cstr("s1"), cstr("SELECT hidden_col FROM bp_secret WHERE id = $1"), new byte[] {0, 0});
                send(out, 'B', cstr(""), cstr("s1"), new byte[] {0, 0, 0, 1}, value("1"), new byte[] {0, 0});
                send(out, 'D', new byte[] {'P'}, cstr(""));
                send(out, 'E', cstr(""), new byte[] {0, 0, 0, 0});
                send(out, 'S');
                List<String> m = untilReady(in);
                assertFalse(m.get(0).contains("T"), m.toString());
                assertFalse(m.get(1).contains("hidden_col"), m.get(1));
                assertTrue(m.get(1).contains("C42501\0"), m.get(1));
            }
        }
    }

    private static byte[] cstr(String s) {
        return (s + "\0").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(String v) {
        byte[] t = v.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[4 + t.length];
        out[3] = (byte) t.length;
        System.arraycopy(t, 0, out, 4, t.length);
        return out;
    }

    private static void send(DataOutputStream out, char type, byte[]... parts) throws IOException {
        int len = 4;
        for (byte[] p : parts) {
            len += p.length;
        }
        out.writeByte(type);
        out.writeInt(len);
        for (byte[] p : parts) {
            out.write(p);
        }
        out.flush();
    }

    /** The message types up to ReadyForQuery, and all their bodies as text. */
    private static List<String> untilReady(DataInputStream in) throws IOException {
        StringBuilder types = new StringBuilder();
        StringBuilder bodies = new StringBuilder();
        char t;
        do {
            t = (char) in.readUnsignedByte();
            byte[] body = new byte[in.readInt() - 4];
            in.readFully(body);
            if (t != 'S' && t != 'K' && t != 'R') {
                types.append(t);
                bodies.append(new String(body, StandardCharsets.UTF_8)).append('|');
            }
        } while (t != 'Z');
        return List.of(types.toString(), bodies.toString());
    }
}
