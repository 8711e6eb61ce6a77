package io.respsql.it.pgwire;

import io.respsql.config.FsyncPolicy;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;

import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** COPY FROM STDIN / TO STDOUT over the wire with pgjdbc's CopyManager: formats, atomicity, the event loop, the log. */
class PgCopyTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect(TestServer s) throws SQLException {
        return DriverManager.getConnection(PgJdbcTest.url(s, ""), "tester", "");
    }

    private static CopyManager copy(Connection c) throws SQLException {
        return c.unwrap(PGConnection.class).getCopyAPI();
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    String v = rs.getString(i);
                    sb.append(i > 1 ? "|" : "").append(v == null ? "<null>" : v);
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    @Test
    void textFormatInAndOut() throws Exception {
        try (Connection c = connect(server); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ct (id INT PRIMARY KEY, name TEXT, score FLOAT, flag BOOLEAN, d DATE)");
            String in = "1\ta,b \"q\"\t1.5\tt\t2024-02-29\n"
                    + "2\tline1\\nline2\\ttab\\\\back\t\\N\tf\t\\N\n"
                    + "3\t\\N\t-2\ttrue\t2000-01-01\n"
                    + "4\t\tNaN\tfalse\t1999-12-31\n";
            assertEquals(4, copy(c).copyIn("COPY ct FROM STDIN", new StringReader(in)));
            assertEquals(List.of("1|a,b \"q\"|1.5|t|2024-02-29", "2|line1\nline2\ttab\\back|<null>|f|<null>",
                    "3|<null>|-2|t|2000-01-01", "4||NaN|f|1999-12-31"),
                    rows(st, "SELECT id, name, score, flag, d FROM ct ORDER BY id"));
            StringWriter out = new StringWriter();
            assertEquals(4, copy(c).copyOut("COPY ct TO STDOUT", out));
            assertEquals("1\ta,b \"q\"\t1.5\tt\t2024-02-29\n"
                    + "2\tline1\\nline2\\ttab\\\\back\t\\N\tf\t\\N\n"
                    + "3\t\\N\t-2\tt\t2000-01-01\n"
                    + "4\t\tNaN\tf\t1999-12-31\n", sorted(out.toString()));
        }
    }

    private static String sorted(String lines) {
        List<String> l = new ArrayList<>(List.of(lines.split("\n")));
        l.sort(null);
        return String.join("\n", l) + "\n";
    }

    @Test
    void csvWithHeaderQuotesNullsAndNewlines() throws Exception {
        try (Connection c = connect(server); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cc (id INT, name TEXT, note TEXT)");
            String in = "id,name,note\n"
                    + "1,\"a,b\",\"say \"\"hi\"\"\"\n"
                    + "2,,\"\"\n"
                    + "3,\"two\nlines\",plain\r\n"
                    + "4,x,y";
            assertEquals(4, copy(c).copyIn("COPY cc (id, name, note) FROM STDIN WITH (FORMAT csv, HEADER)",
                    new StringReader(in)));
            assertEquals(List.of("1|a,b|say \"hi\"", "2|<null>|", "3|two\nlines|plain", "4|x|y"),
                    rows(st, "SELECT id, name, note FROM cc ORDER BY id"));
            StringWriter out = new StringWriter();
            assertEquals(4, copy(c).copyOut("COPY (SELECT id, name, note FROM cc ORDER BY id) TO STDOUT CSV HEADER", out));
            assertEquals("id,name,note\n1,\"a,b\",\"say \"\"hi\"\"\"\n2,,\"\"\n3,\"two\nlines\",plain\n4,x,y\n", out.toString());
            // delimiter, NULL string, quote and escape, in the old syntax too
            st.execute("CREATE TABLE cd (a INT, b TEXT)");
            assertEquals(3, copy(c).copyIn("COPY cd FROM STDIN WITH DELIMITER ';' NULL 'nil' CSV QUOTE '''' ESCAPE '\\'",
                    new StringReader("1;'x;\\'y'\n2;nil\n3;''\n")));
            assertEquals(List.of("1|x;'y", "2|<null>", "3|"), rows(st, "SELECT a, b FROM cd ORDER BY a"));
            StringWriter o2 = new StringWriter();
            copy(c).copyOut("COPY cd (b, a) TO STDOUT WITH (FORMAT text, DELIMITER '|', NULL 'NULL')", o2);
            assertEquals("NULL|2\nx;'y|1\n|3\n", sorted(o2.toString()));
        }
    }

    @Test
    void aBadLineAbortsTheCopyAndStoresNothing() throws Exception {
        try (Connection c = connect(server); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cb (id INT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO cb VALUES (0, 0)");
            StringBuilder in = new StringBuilder();
            for (int i = 1; i <= 200_000; i++) {
                in.append(i).append('\t').append(i * 10L).append('\n');
            }
            in.append("200001\tnot-a-number\n");
            // the rows before the bad line were sent in earlier CopyData messages and written already
            PSQLException e = assertThrows(PSQLException.class,
                    () -> copy(c).copyIn("COPY cb FROM STDIN", new StringReader(in.toString())));
            assertEquals("22P02", e.getSQLState());
            assertTrue(e.getMessage().contains("invalid input syntax for type bigint: \"not-a-number\""), e.getMessage());
            assertTrue(e.getServerErrorMessage().getWhere().contains("line 200001"), e.getServerErrorMessage().getWhere());
            assertEquals(List.of("1"), rows(st, "SELECT COUNT(*) FROM cb"));
            // too few and too many fields: 22P04
            PSQLException few = assertThrows(PSQLException.class,
                    () -> copy(c).copyIn("COPY cb FROM STDIN", new StringReader("5\t50\n6\n")));
            assertEquals("22P04", few.getSQLState());
            assertTrue(few.getMessage().contains("missing data for column \"v\""), few.getMessage());
            PSQLException many = assertThrows(PSQLException.class,
                    () -> copy(c).copyIn("COPY cb FROM STDIN CSV", new StringReader("5,50\n6,60,7\n")));
            assertEquals("22P04", many.getSQLState());
            // a key taken: the unique violation, nothing stored
            PSQLException dup = assertThrows(PSQLException.class,
                    () -> copy(c).copyIn("COPY cb FROM STDIN", new StringReader("7\t70\n0\t1\n")));
            assertEquals("23505", dup.getSQLState());
            assertEquals(List.of("0|0"), rows(st, "SELECT id, v FROM cb"));
            // the connection goes on
            assertEquals(1, copy(c).copyIn("COPY cb FROM STDIN", new StringReader("8\t80\n")));
            // CopyFail from the client
            CopyIn ci = copy(c).copyIn("COPY cb FROM STDIN");
            byte[] line = "9\t90\n".getBytes(StandardCharsets.UTF_8);
            ci.writeToCopy(line, 0, line.length);
            ci.flushCopy();
            ci.cancelCopy();
            assertFalse(ci.isActive());
            assertEquals(List.of("0|0", "8|80"), rows(st, "SELECT id, v FROM cb ORDER BY id"));
            // errors of the statement itself
            assertEquals("42P01", assertThrows(PSQLException.class,
                    () -> copy(c).copyIn("COPY nosuch FROM STDIN", new StringReader(""))).getSQLState());
            assertEquals("0A000", assertThrows(PSQLException.class,
                    () -> copy(c).copyIn("COPY cb FROM '/etc/passwd'", new StringReader(""))).getSQLState());
        }
    }

    @Test
    void aMillionRowsDoNotHoldTheLoopAndReachTheLog() throws Exception {
        Path dir = Files.createTempDirectory("respsql-copy-");
        long n = 1_000_000;
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true).appendFsync(FsyncPolicy.EVERYSEC))) {
            try (Connection c = connect(s); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE big (a INT, b INT, c INT)");
                assertEquals("PONG", s.lettuce().ping()); // connected before the COPY starts
                CompletableFuture<Long> copying = CompletableFuture.supplyAsync(() -> {
                    try (Connection cc = connect(s)) {
                        // a reader that makes its lines as it goes: the input is never whole in the client either
                        return copy(cc).copyIn("COPY big FROM STDIN", new LinesReader(n));
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                // another client's PINGs are answered while the COPY runs
                int pings = 0;
                long worst = 0;
                long start = System.nanoTime();
                StringBuilder trace = new StringBuilder();
                while (!copying.isDone()) {
                    long t0 = System.nanoTime();
                    assertEquals("PONG", s.lettuce().ping());
                    long took = System.nanoTime() - t0;
                    if (took > 50_000_000L) {
                        trace.append((t0 - start) / 1_000_000).append("ms:").append(took / 1_000_000).append("ms ");
                    }
                    worst = Math.max(worst, took);
                    pings++;
                }
                long copied = copying.get(120, TimeUnit.SECONDS);
                System.out.println("COPY of " + n + " rows: " + (System.nanoTime() - start) / 1_000_000 + " ms, " + pings
                        + " PINGs, slowest " + worst / 1_000 + " us; slow: " + trace);
                assertEquals(n, copied);
                assertTrue(pings > 1, "PINGs answered during the COPY: " + pings);
                assertEquals(List.of(n + "|" + (n * (n - 1) / 2)), rows(st, "SELECT COUNT(*), SUM(a) FROM big"));
            }
        }
        // replayed from the append-only file
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true));
             Connection c = connect(s); Statement st = c.createStatement()) {
            assertEquals(List.of(n + "|" + (n * (n - 1) / 2) + "|" + (n * (n - 1)) ), rows(st, "SELECT COUNT(*), SUM(a), SUM(b) FROM big"));
        }
    }

    @Test
    void aFailedCopyLeavesNothingInTheLog() throws Exception {
        Path dir = Files.createTempDirectory("respsql-copy-");
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS));
             Connection c = connect(s); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE fl (a INT, b TEXT)");
            assertThrows(PSQLException.class, () -> copy(c).copyIn("COPY fl FROM STDIN", new StringReader("1\tx\ny\tz\n")));
            assertEquals(2, copy(c).copyIn("COPY fl (b, a) FROM STDIN", new StringReader("it's\t2\n\\N\t3\n")));
        }
        try (TestServer s = TestServer.start(c -> c.pgPort(0).dir(dir).appendOnly(true));
             Connection c = connect(s); Statement st = c.createStatement()) {
            assertEquals(List.of("2|it's", "3|<null>"), rows(st, "SELECT a, b FROM fl ORDER BY a"));
        }
    }

    @Test
    void extendedProtocolAndTransactionBlock() throws Exception {
        try (Connection c = connect(server); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ce (a INT)");
            c.setAutoCommit(false); // pgjdbc sends BEGIN first
            assertEquals(2, copy(c).copyIn("COPY ce FROM STDIN", new StringReader("1\n2\n")));
            c.commit();
            c.setAutoCommit(true);
            assertEquals(List.of("2"), rows(st, "SELECT COUNT(*) FROM ce"));
        }
    }

    /** Lines {@code i\t2i\t3i} for i in [0, n), made as they are read. */
    static final class LinesReader extends java.io.Reader {
        private final long n;
        private long i;
        private String line = "";
        private int at;

        LinesReader(long n) {
            this.n = n;
        }

        @Override
        public int read(char[] buf, int off, int len) {
            int done = 0;
            while (done < len) {
                if (at == line.length()) {
                    if (i == n) {
                        break;
                    }
                    line = i + "\t" + (2 * i) + "\t" + (3 * i) + "\n";
                    at = 0;
                    i++;
                }
                int k = Math.min(len - done, line.length() - at);
                line.getChars(at, at + k, buf, off + done);
                at += k;
                done += k;
            }
            return done == 0 ? -1 : done;
        }

        @Override
        public void close() {
        }
    }
}
