package io.respsql.it.pgwire;

import io.respsql.it.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Debian's psql and psycopg2 (python3-psycopg2) against the pg-port listener, as their users run them. */
class PgClientsTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.pgPort(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A finished client process: exit code, stdout, stderr. */
    record Run(int exit, String out, String err) {
    }

    static Run run(List<String> command, Map<String, String> env, String stdin) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        // read both streams fully (small outputs) before waiting
        var out = new java.util.concurrent.CompletableFuture<String>();
        Thread t = new Thread(() -> {
            try {
                out.complete(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.completeExceptionally(e);
            }
        });
        t.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "client did not finish: " + command);
        try {
            return new Run(p.exitValue(), out.get(10, TimeUnit.SECONDS), err);
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    static boolean available(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static List<String> psql(TestServer s) {
        return new ArrayList<>(List.of("psql", "-X", "-h", s.host(), "-p", Integer.toString(s.server().pgPort()),
                "-U", "tester", "-d", "respsql", "-v", "ON_ERROR_STOP=1", "-A", "-F", "|", "-t", "-f", "-"));
    }

    @Test
    void psqlRunsStatementsAndReadsResults() throws Exception {
        assumeTrue(available("psql", "--version"), "psql (Debian postgresql-client) is not installed");
        Run r = run(psql(server), Map.of(), """
                CREATE TABLE ps1 (id INT PRIMARY KEY, name TEXT, score FLOAT);
                INSERT INTO ps1 VALUES (1, 'a,b', 1.5), (2, 'it''s', NULL);
                SELECT id, name, score FROM ps1 ORDER BY id;
                UPDATE ps1 SET score = 0.25 WHERE id = 2; SELECT score FROM ps1 WHERE id = 2;
                \\echo tag-check
                DELETE FROM ps1 WHERE id = 1;
                SELECT count(*) FROM ps1;
                SHOW server_version;
                """);
        assertEquals(0, r.exit(), r.err());
        assertEquals("""
                CREATE TABLE
                INSERT 0 2
                1|a,b|1.5
                2|it's|
                UPDATE 1
                0.25
                tag-check
                DELETE 1
                1
                15.8
                """, r.out());
        // the same table through RESP
        Object reply = server.dispatch("QUERY", "SELECT name FROM ps1");
        assertTrue(reply.toString().contains("it's"), reply.toString());
        // a failing statement: psql shows PostgreSQL's error form with the SQLSTATE (VERBOSITY verbose)
        Run bad = run(psql(server), Map.of(), "\\set VERBOSITY verbose\nSELECT * FROM no_such;\n");
        assertEquals(3, bad.exit(), "ON_ERROR_STOP exit code");
        assertTrue(bad.err().contains("ERROR:  42P01:"), bad.err());
        run(psql(server), Map.of(), "DROP TABLE ps1;\n");
    }

    @Test
    void psqlWithScramAndCleartextPasswords() throws Exception {
        assumeTrue(available("psql", "--version"), "psql (Debian postgresql-client) is not installed");
        try (TestServer s = TestServer.start(c -> c.pgPort(0).requirePass("pw-1"))) {
            Run ok = run(psql(s), Map.of("PGPASSWORD", "pw-1"), "SELECT 40 + 2;\n");
            assertEquals(0, ok.exit(), ok.err());
            assertEquals("42\n", ok.out());
            Run wrong = run(psql(s), Map.of("PGPASSWORD", "nope"), "SELECT 1;\n");
            assertEquals(2, wrong.exit());
            assertTrue(wrong.err().contains("password authentication failed for user \"tester\""), wrong.err());
        }
        try (TestServer s = TestServer.start(c -> c.pgPort(0).requirePass("pw-2").pgAuth("password"))) {
            Run ok = run(psql(s), Map.of("PGPASSWORD", "pw-2"), "SELECT 'clear';\n");
            assertEquals(0, ok.exit(), ok.err());
            assertEquals("clear\n", ok.out());
            Run wrong = run(psql(s), Map.of("PGPASSWORD", "pw-x"), "SELECT 1;\n");
            assertEquals(2, wrong.exit());
            assertTrue(wrong.err().contains("password authentication failed"), wrong.err());
        }
    }

    @Test
    void psycopg2Script() throws Exception {
        String python = Files.exists(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
        assumeTrue(available(python, "-c", "import psycopg2"), "psycopg2 (Debian python3-psycopg2) is not installed");
        String script = """
                # a date goes as text: psycopg2 writes datetime.date as '...'::date, and '::' is the SQL half's
                import sys, psycopg2
                c = psycopg2.connect(host=sys.argv[1], port=int(sys.argv[2]), user='py', dbname='respsql')
                c.autocommit = True
                cur = c.cursor()
                cur.execute("CREATE TABLE py1 (id INT PRIMARY KEY, name TEXT, d DATE, f FLOAT)")
                cur.execute("INSERT INTO py1 VALUES (%s, %s, %s, %s)", (1, "x'; DROP TABLE py1; --", '2024-02-29', 0.5))
                cur.execute("INSERT INTO py1 VALUES (%s, %s, %s, %s)", (2, 'line\\nbreak, comma', None, None))
                cur.execute("SELECT id, name, d, f FROM py1 ORDER BY id")
                for row in cur.fetchall():
                    print(repr(row))
                print([(d.name, d.type_code) for d in cur.description])
                try:
                    cur.execute("INSERT INTO py1 VALUES (1, 'dup', NULL, NULL)")
                except psycopg2.Error as e:
                    print('error', e.pgcode, type(e).__name__)
                cur.execute("DROP TABLE py1")
                """;
        Path file = Files.createTempFile("pgwire-", ".py");
        try {
            Files.writeString(file, script);
            Run r = run(List.of(python, file.toString(), server.host(), Integer.toString(server.server().pgPort())),
                    Map.of(), "");
            assertEquals(0, r.exit(), r.err());
            assertEquals("""
                    (1, "x'; DROP TABLE py1; --", datetime.date(2024, 2, 29), 0.5)
                    (2, 'line\\nbreak, comma', None, None)
                    [('id', 23), ('name', 25), ('d', 1082), ('f', 701)]
                    error 23505 UniqueViolation
                    """, r.out());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
