package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's pgbench (PostgreSQL 15), unmodified, against the pg-port listener: {@code pgbench -i -s 1}
 * (drop, create, client-side COPY generate, vacuum, primary keys; then the server-side generate
 * with foreign keys) and short runs of the TPC-B-like script in {@code -M simple}, {@code extended}
 * and {@code prepared}, then {@code -S} and {@code -N}: every run without a failed transaction, and
 * afterwards sum(abalance) = sum(bbalance) = sum(tbalance), with the history pgbench keeps of the
 * run (it truncates pgbench_history before each run) summing to what the run added. Skipped without
 * pgbench, failed then under {@code RESPSQL_REQUIRE_CONFORMANCE=1} (CI).
 */
class PgbenchTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static Path pgbench() {
        String b = System.getenv("PG_BIN");
        Path bin = Path.of(b != null && !b.isEmpty() ? b : "/usr/lib/postgresql/15/bin").resolve("pgbench");
        if (!Files.isExecutable(bin)) {
            String why = "no pgbench at " + bin;
            if ("1".equals(System.getenv("RESPSQL_REQUIRE_CONFORMANCE"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        return bin;
    }

    private static PgClientsTest.Run pgbench(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(pgbench().toString(), "-h", server.host(),
                "-p", Integer.toString(server.server().pgPort()), "-U", "tester"));
        cmd.addAll(List.of(args));
        cmd.add("respsql");
        PgClientsTest.Run r = PgClientsTest.run(cmd, Map.of("PGCONNECT_TIMEOUT", "30"), "");
        assertEquals(0, r.exit(), "pgbench " + String.join(" ", args) + " failed:\n" + r.out() + r.err());
        assertTrue(!r.err().contains("error"), "pgbench " + String.join(" ", args) + " reported an error:\n" + r.err());
        return r;
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

    private static long number(String out, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + ": (\\d+)").matcher(out);
        assertTrue(m.find(), "no '" + label + "' in pgbench's output:\n" + out);
        return Long.parseLong(m.group(1));
    }

    /** One run of a built-in script; checks its figures and the balance invariant. */
    private static void runAndCheck(Statement st, String... args) throws Exception {
        long before = one(st, "SELECT sum(abalance) FROM pgbench_accounts");
        PgClientsTest.Run r = pgbench(args);
        String what = String.join(" ", args) + ":\n" + r.out();
        long done = number(r.out(), "number of transactions actually processed");
        assertTrue(done > 0, "no transaction in " + what);
        assertEquals(0, number(r.out(), "number of failed transactions"), what);
        long accounts = one(st, "SELECT sum(abalance) FROM pgbench_accounts");
        long branches = one(st, "SELECT sum(bbalance) FROM pgbench_branches");
        long tellers = one(st, "SELECT sum(tbalance) FROM pgbench_tellers");
        long history = one(st, "SELECT coalesce(sum(delta), 0) FROM pgbench_history");
        long historyRows = one(st, "SELECT count(*) FROM pgbench_history");
        boolean selectOnly = List.of(args).contains("-S");
        boolean skipUpdates = List.of(args).contains("-N");
        assertEquals(selectOnly ? 0 : done, historyRows, "one history row per transaction: " + what);
        assertEquals(history, accounts - before, "history = what the run added to the accounts: " + what);
        if (!skipUpdates) {
            assertEquals(accounts, branches, "sum(abalance) = sum(bbalance): " + what);
            assertEquals(accounts, tellers, "sum(abalance) = sum(tbalance): " + what);
        }
    }

    @Test
    void initThenTheThreeQueryModesKeepTheBalances() throws Exception {
        pgbench();
        PgClientsTest.Run init = pgbench("-i", "-s", "1");
        for (String step : List.of("dropping old tables", "creating tables", "generating data (client-side)",
                "vacuuming", "creating primary keys", "done in")) {
            assertTrue(init.err().contains(step) || init.out().contains(step), "pgbench -i: no '" + step + "':\n" + init.err());
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            assertEquals(100000, one(st, "SELECT count(*) FROM pgbench_accounts"));
            assertEquals(1, one(st, "SELECT count(*) FROM pgbench_branches"));
            assertEquals(10, one(st, "SELECT count(*) FROM pgbench_tellers"));
            assertEquals(0, one(st, "SELECT count(*) FROM pgbench_history"));
            assertEquals(0, one(st, "SELECT sum(abalance) FROM pgbench_accounts"));
            // the primary key pgbench added: a second aid 1 is refused
            SQLException dup = assertThrows(SQLException.class,
                    () -> st.executeUpdate("INSERT INTO pgbench_accounts (aid, bid, abalance, filler) VALUES (1, 1, 0, '')"));
            assertEquals("23505", dup.getSQLState());

            for (String mode : List.of("simple", "extended", "prepared")) {
                runAndCheck(st, "-c", "4", "-j", "2", "-T", "3", "-M", mode);
            }
            runAndCheck(st, "-c", "4", "-j", "2", "-T", "2", "-M", "extended", "-S");
            runAndCheck(st, "-c", "4", "-j", "2", "-T", "2", "-M", "prepared", "-N"); // last: tellers/branches stay behind
        }
    }

    @Test
    void serverSideGenerateAndForeignKeys() throws Exception {
        pgbench();
        PgClientsTest.Run init = pgbench("-i", "-s", "1", "-I", "dtGvpf", "--scale", "1");
        assertTrue(init.err().contains("generating data (server-side)") && init.err().contains("creating foreign keys"),
                init.err());
        try (Connection c = connect(); Statement st = c.createStatement()) {
            assertEquals(100000, one(st, "SELECT count(*) FROM pgbench_accounts"));
            assertEquals(10, one(st, "SELECT count(*) FROM pgbench_tellers"));
            assertEquals(100000, one(st, "SELECT count(*) FROM pgbench_accounts WHERE bid = 1 AND abalance = 0"));
        }
    }

    /** What pgbench -i sends besides tables and rows, with PostgreSQL's tags and SQLSTATEs. */
    @Test
    void vacuumAndAnalyzeAnswerAsPostgresql() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE maint_t (a INT PRIMARY KEY, b TEXT)");
            st.execute("VACUUM ANALYZE maint_t");
            st.execute("VACUUM (VERBOSE, ANALYZE) maint_t (a, b), public.maint_t");
            st.execute("VACUUM");
            st.execute("ANALYZE maint_t (b)");
            st.execute("CHECKPOINT");
            assertEquals("42P01", assertThrows(SQLException.class, () -> st.execute("VACUUM no_such_table")).getSQLState());
            assertEquals("42P01", assertThrows(SQLException.class, () -> st.execute("ANALYZE maint_t, nope")).getSQLState());
            assertEquals("42601", assertThrows(SQLException.class, () -> st.execute("VACUUM (BOGUS) maint_t")).getSQLState());
            c.setAutoCommit(false);
            st.execute("ANALYZE maint_t"); // allowed in a block
            assertEquals("25001", assertThrows(SQLException.class, () -> st.execute("VACUUM maint_t")).getSQLState());
            c.rollback();
            c.setAutoCommit(true);
            // an untyped literal beside a number takes the number's type (pgbench's "abalance + $1")
            st.execute("INSERT INTO maint_t VALUES (1, 'x')");
            st.execute("UPDATE maint_t SET a = a + '41'");
            assertEquals(42, one(st, "SELECT a FROM maint_t"));
            assertEquals(5, one(st, "SELECT 2 + '3'"));
            assertEquals("22P02", assertThrows(SQLException.class, () -> st.execute("SELECT a + '1.5' FROM maint_t")).getSQLState());
        }
        // psql shows the CommandComplete tags
        List<String> psql = PgClientsTest.psql(server);
        psql.remove("-t");
        PgClientsTest.Run r = PgClientsTest.run(psql, Map.of(), "VACUUM ANALYZE maint_t;\nANALYZE;\nVACUUM;\nCHECKPOINT;\n");
        assertEquals(0, r.exit(), r.err());
        assertEquals("VACUUM\nANALYZE\nVACUUM\nCHECKPOINT\n", r.out());
    }
}
