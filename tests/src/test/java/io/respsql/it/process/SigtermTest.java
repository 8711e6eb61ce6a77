package io.respsql.it.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** SIGTERM is a clean shutdown: status 0, and the next process on the directory has the data. */
class SigtermTest {
    @TempDir
    Path dir;

    private Map<String, String> writeThenSigterm(ServerProcess server) {
        Fixture.run(server, Fixture.first());
        Map<String, String> before = Fixture.dumps(server);
        server.sigterm();
        assertEquals(0, server.awaitExit(Duration.ofSeconds(30)), server::outputText);
        return before;
    }

    @Test
    void withSaveRulesTheSnapshotIsWrittenOnSigterm() {
        // A rule that never fires by itself within the test: only the shutdown can have saved.
        ServerProcess server = ServerProcess.start(dir, "--save", "3600 1", "--appendonly", "no");
        Map<String, String> before;
        try (server) {
            before = writeThenSigterm(server);
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(before, Fixture.dumps(restarted));
        }
    }

    @Test
    void withAppendfsyncAlwaysTheDataSurvivesSigterm() {
        ServerProcess server = ServerProcess.start(dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always");
        Map<String, String> before;
        try (server) {
            before = writeThenSigterm(server);
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(before, Fixture.dumps(restarted));
        }
    }
}
