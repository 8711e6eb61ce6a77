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
