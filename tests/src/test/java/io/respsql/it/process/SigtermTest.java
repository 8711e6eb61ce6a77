package io.respsql.it.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SIGTERM is a clean shutdown: status 0, and the next process on the directory has the data (with
 * save rules from the snapshot written on the way out, with the append-only file from the log).
 */
class SigtermTest {
    @TempDir
    Path dir;

    /** Writes the fixture, sends SIGTERM and returns the exit status with the dumps taken before. */
    private record Stopped(Map<String, String> before, int status) {
    }

    private Stopped writeThenSigterm(ServerProcess server) {
        Fixture.run(server, Fixture.first());
        Map<String, String> before = Fixture.dumps(server);
        server.sigterm();
        return new Stopped(before, server.awaitExit(Duration.ofSeconds(30)));
    }

    @Test
    void withSaveRulesTheSnapshotIsWrittenOnSigterm() {
        // A rule that never fires by itself within the test: only the shutdown can have saved.
        ServerProcess server = ServerProcess.start(dir, "--save", "3600 1", "--appendonly", "no");
        Stopped stopped;
        try (server) {
            stopped = writeThenSigterm(server);
            assertEquals(0, stopped.status, server::outputText);
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(stopped.before, Fixture.dumps(restarted));
        }
    }

    /**
     * mend: with pgwire sessions open (idle, inside a transaction that wrote, in the middle of a
     * COPY FROM STDIN, parked behind that transaction), SIGTERM still ends the process promptly
     * with its final save: committed rows kept, the transaction's and the COPY's not.
     */
    @Test
    void withPgSessionsOpenSigtermExitsPromptlyWithItsSave() throws Exception {
        ServerProcess server = ServerProcess.start(dir, "--save", "3600 1", "--appendonly", "no", "--pg-port", "0");
        int status;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try (server) {
            String reply = server.raw().call("CONFIG", "GET", "pg-port");
            int pgPort = Integer.parseInt(reply.split("\r\n")[4]);
            String url = "jdbc:postgresql://" + ServerProcess.HOST + ":" + pgPort + "/respsql";
            java.sql.Connection idle = java.sql.DriverManager.getConnection(url, "x", "");
            java.sql.Connection inTx = java.sql.DriverManager.getConnection(url, "x", "");
            java.sql.Connection copying = java.sql.DriverManager.getConnection(url, "x", "");
            java.sql.Connection parked = java.sql.DriverManager.getConnection(url, "x", "");
            idle.createStatement().execute("CREATE TABLE sig (id int PRIMARY KEY)");
            idle.createStatement().execute("INSERT INTO sig VALUES (1)");
            // mid-COPY: rows sent, the COPY not ended
            org.postgresql.copy.CopyIn copy = copying.unwrap(org.postgresql.PGConnection.class).getCopyAPI()
                    .copyIn("COPY sig FROM STDIN");
            byte[] rows = "10\n11\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            copy.writeToCopy(rows, 0, rows.length);
            copy.flushCopy();
            // inside a transaction that wrote (or waits to), and a writer that may park behind it
            inTx.setAutoCommit(false);
            pool.submit(() -> inTx.createStatement().execute("INSERT INTO sig VALUES (2)"));
            pool.submit(() -> parked.createStatement().execute("INSERT INTO sig VALUES (3)"));
            java.sql.Connection busy = java.sql.DriverManager.getConnection(url, "x", "");
            busy.createStatement().executeQuery("SELECT count(*) FROM sig").close(); // the server serves
            long t0 = System.nanoTime();
            server.sigterm();
            status = server.awaitExit(Duration.ofSeconds(30));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(0, status, server::outputText);
            org.junit.jupiter.api.Assertions.assertTrue(ms < 15_000, "SIGTERM took " + ms + " ms");
        } finally {
            pool.shutdownNow();
        }
        try (ServerProcess restarted = server.restart()) {
            String rows = restarted.raw().call("SQL", "SELECT id FROM sig ORDER BY id");
            // the committed row; neither the unfinished COPY's nor the open transaction's (3: an
            // autocommit insert, there if it ran before the final save)
            org.junit.jupiter.api.Assertions.assertTrue(rows.equals("*1\r\n$1\r\n1\r\n")
                    || rows.equals("*2\r\n$1\r\n1\r\n$1\r\n3\r\n"), rows);
        }
    }

    @Test
    void withAppendfsyncAlwaysTheDataSurvivesSigterm() {
        ServerProcess server = ServerProcess.start(dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always");
        Stopped stopped;
        try (server) {
            stopped = writeThenSigterm(server);
            assertEquals(0, stopped.status, server::outputText);
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(stopped.before, Fixture.dumps(restarted));
        }
    }
}
