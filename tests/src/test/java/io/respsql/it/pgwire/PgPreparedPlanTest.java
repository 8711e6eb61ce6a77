package io.respsql.it.pgwire;

import io.respsql.it.RespConnection;
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
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * prepared: a statement Parse'd once over the extended protocol keeps its plan; each Bind only
 * sets its parameters and each Execute runs that plan (INFO's pg_prepared_plan_runs counts them),
 * with the same answers and errors as the statement's text with the values written in. pgjdbc
 * with prepareThreshold=1 names its statements from the first execution, as pgbench -M prepared does.
 */
class PgPreparedPlanTest {
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

    private static long stat(String field) throws IOException {
        RespConnection c = server.raw();
        String info = c.call("INFO", "stats");
        int at = info.indexOf(field + ":");
        assertTrue(at >= 0, info);
        int end = info.indexOf("\r\n", at);
        return Long.parseLong(info.substring(at + field.length() + 1, end));
    }

    /** One statement reused with many values: the kept plan runs every time, and every answer is right. */
    @Test
    void reusedStatementRunsItsPlanWithEachBindsValues() throws Exception {
        int n = 50;
        long[] bal = new long[n + 1];
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pp_acc (aid INT PRIMARY KEY, bal INT NOT NULL, name TEXT, score FLOAT)");
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO pp_acc VALUES (?, 0, ?, ?)")) {
                for (int i = 1; i <= n; i++) {
                    ins.setInt(1, i);
                    ins.setString(2, i % 7 == 0 ? "O'Brien " + i : "n" + i);
                    ins.setDouble(3, i / 4.0);
                    ins.executeUpdate();
                }
            }
            long runsBefore = stat("pg_prepared_plan_runs");
            Random random = new Random(26);
            int executions = 0;
            try (PreparedStatement up = c.prepareStatement("UPDATE pp_acc SET bal = bal + ? WHERE aid = ?");
                 PreparedStatement sel = c.prepareStatement("SELECT bal, name FROM pp_acc WHERE aid = ?")) {
                for (int k = 0; k < 300; k++) {
                    int aid = 1 + random.nextInt(n);
                    int delta = random.nextInt(2001) - 1000;
                    up.setInt(1, delta);
                    up.setInt(2, aid);
                    assertEquals(1, up.executeUpdate());
                    bal[aid] += delta;
                    sel.setInt(1, aid);
                    try (ResultSet rs = sel.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(bal[aid], rs.getLong(1), "aid " + aid);
                        assertEquals(aid % 7 == 0 ? "O'Brien " + aid : "n" + aid, rs.getString(2));
                        assertFalse(rs.next());
                    }
                    executions += 2;
                }
            }
            long runs = stat("pg_prepared_plan_runs") - runsBefore;
            assertTrue(runs >= executions - 4 && runs <= executions, "kept-plan runs " + runs + " of " + executions);
            // every balance as computed, read by the text path
            try (ResultSet rs = st.executeQuery("SELECT aid, bal FROM pp_acc ORDER BY aid")) {
                for (int i = 1; i <= n; i++) {
                    assertTrue(rs.next());
                    assertEquals(i, rs.getInt(1));
                    assertEquals(bal[i], rs.getLong(2), "aid " + i);
                }
            }
            // text, float and range parameters, and a parameter used twice (explicit server-side statements)
            try (PreparedStatement q = c.prepareStatement(
                    "SELECT aid FROM pp_acc WHERE name = ? OR (score BETWEEN ? AND ? AND aid IN (?, ?)) ORDER BY aid")) {
                q.setString(1, "O'Brien 14");
                q.setDouble(2, 2.0);
                q.setDouble(3, 2.5);
                q.setInt(4, 9);
                q.setInt(5, 40);
                assertEquals(List.of(9, 14), ints(q));
                q.setString(1, "nobody");
                q.setDouble(2, 0);
                q.setDouble(3, 100);
                q.setInt(4, 3);
                q.setInt(5, 4);
                assertEquals(List.of(3, 4), ints(q));
            }
            try (PreparedStatement d = c.prepareStatement("DELETE FROM pp_acc WHERE aid > ? AND aid <= ?")) {
                d.setInt(1, 45);
                d.setInt(2, 47);
                assertEquals(2, d.executeUpdate());
                assertEquals(0, d.executeUpdate());
            }
            st.execute("DROP TABLE pp_acc");
        }
    }

    private static List<Integer> ints(PreparedStatement q) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    /** DDL between two executions of one statement: the plan is made again for the new catalog. */
    @Test
    void ddlBetweenExecutionsPlansAgain() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pp_ddl (id INT, v TEXT)");
            st.execute("INSERT INTO pp_ddl VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            try (PreparedStatement q = c.prepareStatement("SELECT v FROM pp_ddl WHERE id = ?")) {
                q.setInt(1, 2);
                assertEquals(List.of("two"), strings(q));
                long made = stat("pg_prepared_plans_made");
                st.execute("CREATE UNIQUE INDEX pp_ddl_id ON pp_ddl (id)");
                q.setInt(1, 3);
                assertEquals(List.of("three"), strings(q));
                assertEquals(made + 1, stat("pg_prepared_plans_made"), "planned again after CREATE INDEX");
                // the table dropped and made again with other rows: the new table is read
                st.execute("DROP TABLE pp_ddl");
                SQLException gone = assertThrows(SQLException.class, () -> strings(q));
                assertEquals("42P01", gone.getSQLState(), gone.getMessage());
                st.execute("CREATE TABLE pp_ddl (id INT, v TEXT)");
                st.execute("INSERT INTO pp_ddl VALUES (3, 'drei')");
                assertEquals(List.of("drei"), strings(q));
                long runs = stat("pg_prepared_plan_runs");
                assertEquals(List.of("drei"), strings(q));
                assertEquals(runs + 1, stat("pg_prepared_plan_runs"));
            }
            st.execute("DROP TABLE pp_ddl");
        }
    }

    private static List<String> strings(PreparedStatement q) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * Values the plan's parameter cannot take as they are run as text, with the text's answer or
     * error (PostgreSQL 15's): untyped text that is no integer (22P02), a bigint beside an int column (no
     * row), NULL (no row; SET to NULL), a NOT NULL violation (23502); the statement keeps working.
     */
    @Test
    void valuesOfTheWrongTypeGiveTheTextPathsAnswer() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pp_typed (id INT PRIMARY KEY, n INT NOT NULL, t TEXT)");
            st.execute("INSERT INTO pp_typed VALUES (1, 10, 'a'), (2, 20, 'b')");
            try (PreparedStatement q = c.prepareStatement("SELECT n FROM pp_typed WHERE id = ?");
                 PreparedStatement up = c.prepareStatement("UPDATE pp_typed SET n = ?, t = ? WHERE id = ?")) {
                q.setInt(1, 1);
                assertEquals(List.of("10"), strings(q));
                q.setObject(1, "abc", Types.OTHER); // type unspecified (OID 0), as PostgreSQL infers it: integer
                SQLException bad = assertThrows(SQLException.class, () -> strings(q));
                assertEquals("22P02", bad.getSQLState(), bad.getMessage());
                q.setLong(1, 99_999_999_999L);
                assertEquals(List.of(), strings(q));
                q.setNull(1, Types.INTEGER);
                assertEquals(List.of(), strings(q));
                q.setInt(1, 2);
                assertEquals(List.of("20"), strings(q));

                up.setInt(1, 11);
                up.setNull(2, Types.VARCHAR);
                up.setInt(3, 1);
                assertEquals(1, up.executeUpdate());
                up.setNull(1, Types.INTEGER);
                up.setString(2, "x");
                up.setInt(3, 1);
                SQLException notNull = assertThrows(SQLException.class, up::executeUpdate);
                assertEquals("23502", notNull.getSQLState(), notNull.getMessage());
                up.setInt(1, 12);
                up.setString(2, "it's");
                up.setInt(3, 2);
                assertEquals(1, up.executeUpdate());
            }
            try (ResultSet rs = st.executeQuery("SELECT id, n, t FROM pp_typed ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(11, rs.getInt(2));
                assertNull(rs.getString(3));
                assertTrue(rs.next());
                assertEquals(12, rs.getInt(2));
                assertEquals("it's", rs.getString(3));
            }
            st.execute("DROP TABLE pp_typed");
        }
    }

    /**
     * An untyped literal beside an integer key, as the text path binds an untyped parameter
     * ({@code aid = '5'}), probes the index by its value (it scanned the table), with the same rows.
     */
    @Test
    void quotedIntegerLiteralProbesTheIndex() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pp_probe (aid INT PRIMARY KEY, v TEXT)");
            st.execute("INSERT INTO pp_probe SELECT g, 'v' || g FROM generate_series(1, 500) g");
            try (ResultSet rs = st.executeQuery("EXPLAIN SELECT v FROM pp_probe WHERE aid = '5'")) {
                assertTrue(rs.next());
                assertTrue(rs.getString(1).contains("probe"), rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("EXPLAIN UPDATE pp_probe SET v = 'x' WHERE '7' = aid")) {
                assertTrue(rs.next());
                assertTrue(rs.getString(1).contains("probe"), rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT v FROM pp_probe WHERE aid = '5'")) {
                assertTrue(rs.next());
                assertEquals("v5", rs.getString(1));
                assertFalse(rs.next());
            }
            assertEquals(1, st.executeUpdate("UPDATE pp_probe SET v = 'x' WHERE aid = '007'"));
            try (ResultSet rs = st.executeQuery("SELECT aid FROM pp_probe WHERE v = 'x'")) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
            SQLException bad = assertThrows(SQLException.class, () -> st.executeQuery("SELECT v FROM pp_probe WHERE aid = 'x5'"));
            assertEquals("22P02", bad.getSQLState(), bad.getMessage());
            st.execute("DROP TABLE pp_probe");
        }
    }

    /** A Bind with the wrong number of values: 08P01 naming both counts; the statement then runs. */
    @Test
    void wrongParameterCountIsAProtocolError() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pp_count (id INT PRIMARY KEY, v TEXT)");
            st.execute("INSERT INTO pp_count VALUES (7, 'seven')");
        }
        try (Socket s = new Socket(server.host(), server.server().pgPort())) {
            s.setSoTimeout(30_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(b);
            d.writeInt(196608);
            d.write("user\0raw\0database\0respsql\0\0".getBytes(StandardCharsets.US_ASCII));
            out.writeInt(b.size() + 4);
            out.write(b.toByteArray());
            untilReady(in);
            send(out, 'P', cstr("s1"), cstr("SELECT v FROM pp_count WHERE id = $1"), new byte[] {0, 0});
            send(out, 'S');
            assertEquals("1Z", untilReady(in).get(0));
            // two values for one parameter
            send(out, 'B', cstr(""), cstr("s1"), new byte[] {0, 0, 0, 2}, value("7"), value("8"), new byte[] {0, 0});
            send(out, 'E', cstr(""), new byte[] {0, 0, 0, 0});
            send(out, 'S');
            List<String> m = untilReady(in);
            assertEquals("EZ", m.get(0));
            assertTrue(m.get(1).contains("C08P01\0") && m.get(1).contains("supplies 2 parameters")
                    && m.get(1).contains("requires 1"), m.get(1));
            for (String v : new String[] {"7", "8", "7"}) {
                send(out, 'B', cstr(""), cstr("s1"), new byte[] {0, 0, 0, 1}, value(v), new byte[] {0, 0});
                send(out, 'E', cstr(""), new byte[] {0, 0, 0, 0});
                send(out, 'S');
                m = untilReady(in);
                assertEquals(v.equals("7") ? "2DCZ" : "2CZ", m.get(0), m.get(1));
                assertTrue(m.get(1).contains(v.equals("7") ? "SELECT 1" : "SELECT 0"), m.get(1));
            }
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE pp_count");
        }
    }

    /** The unnamed statement Parse'd again with the same text (pgbench -M extended) takes the plan made the first time. */
    @Test
    void theSameTextParsedAgainReusesItsPlan() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pp_unnamed (id INT PRIMARY KEY, v TEXT)");
            st.execute("INSERT INTO pp_unnamed VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        }
        try (Socket s = new Socket(server.host(), server.server().pgPort())) {
            s.setSoTimeout(30_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(b);
            d.writeInt(196608);
            d.write("user\0raw\0database\0respsql\0\0".getBytes(StandardCharsets.US_ASCII));
            out.writeInt(b.size() + 4);
            out.write(b.toByteArray());
            untilReady(in);
            long made = stat("pg_prepared_plans_made");
            long runs = stat("pg_prepared_plan_runs");
            String[] names = {"one", "two", "three"};
            for (int k = 0; k < 9; k++) {
                String id = Integer.toString(1 + k % 3);
                send(out, 'P', cstr(""), cstr("SELECT v FROM pp_unnamed WHERE id = $1"), new byte[] {0, 0});
                send(out, 'B', cstr(""), cstr(""), new byte[] {0, 0, 0, 1}, value(id), new byte[] {0, 0});
                send(out, 'D', new byte[] {'P'}, cstr(""));
                send(out, 'E', cstr(""), new byte[] {0, 0, 0, 0});
                send(out, 'S');
                List<String> m = untilReady(in);
                assertEquals("12TDCZ", m.get(0), m.get(1));
                assertTrue(m.get(1).contains(names[k % 3]), m.get(1));
            }
            assertEquals(made + 1, stat("pg_prepared_plans_made"), "one plan for the nine Parses");
            assertEquals(runs + 9, stat("pg_prepared_plan_runs"));
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE pp_unnamed");
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
