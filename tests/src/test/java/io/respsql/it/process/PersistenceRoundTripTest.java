package io.respsql.it.process;

import io.respsql.it.RespConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every table's DUMP, compared as raw wire replies, is byte-identical before a server stops and
 * after a new process starts on the same directory: after SHUTDOWN SAVE, after BGSAVE and kill -9,
 * after kill -9 with the append-only file, and after BGREWRITEAOF, more writes and kill -9.
 */
class PersistenceRoundTripTest {
    private static final Duration BACKGROUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void shutdownSaveThenRestart() throws IOException {
        String[] options = {"--save", "", "--appendonly", "no"};
        Map<String, String> before;
        ServerProcess server = ServerProcess.start(dir, options);
        try (server) {
            Fixture.run(server, Fixture.first());
            Fixture.run(server, Fixture.second());
            before = Fixture.dumps(server);
            RespConnection c = server.raw();
            c.sendCommand("SHUTDOWN", "SAVE"); // no reply: the server closes the connection and exits
            assertEquals(0, server.awaitExit(BACKGROUND), server::outputText);
        }
        assertTrue(Files.exists(dir.resolve("dump.rsql")), "no dump.rsql after SHUTDOWN SAVE");
        try (ServerProcess restarted = server.restart()) {
            assertEquals(before, Fixture.dumps(restarted));
        }
    }

    @Test
    void bgsaveThenKill9ThenRestart() throws InterruptedException {
        String[] options = {"--save", "", "--appendonly", "no"};
        Map<String, String> before;
        ServerProcess server = ServerProcess.start(dir, options);
        try (server) {
            Fixture.run(server, Fixture.first());
            Fixture.run(server, Fixture.second());
            before = Fixture.dumps(server);
            assertEquals("+Background saving started\r\n", Fixture.call(server.raw(), "BGSAVE"));
            Fixture.awaitInfo(server, "rdb_bgsave_in_progress", "0", BACKGROUND);
            assertEquals("ok", Fixture.info(server, "persistence", "rdb_last_bgsave_status"));
            server.kill9();
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(before, Fixture.dumps(restarted));
        }
    }

    @Test
    void appendOnlyFileReplayAfterKill9() {
        String[] options = {"--save", "", "--appendonly", "yes", "--appendfsync", "always"};
        Map<String, String> before;
        ServerProcess server = ServerProcess.start(dir, options);
        try (server) {
            Fixture.run(server, Fixture.first());
            Fixture.run(server, Fixture.second());
            before = Fixture.dumps(server);
            server.kill9();
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(before, Fixture.dumps(restarted));
        }
    }

    @Test
    void bgrewriteaofThenMoreWritesThenKill9() throws InterruptedException {
        String[] options = {"--save", "", "--appendonly", "yes", "--appendfsync", "always"};
        Map<String, String> before;
        ServerProcess server = ServerProcess.start(dir, options);
        try (server) {
            Fixture.run(server, Fixture.first());
            String started = Fixture.call(server.raw(), "BGREWRITEAOF");
            assertEquals("+Background append only file rewriting started\r\n", started);
            Fixture.awaitInfo(server, "aof_rewrite_in_progress", "0", BACKGROUND);
            assertEquals("ok", Fixture.info(server, "persistence", "aof_last_bgrewrite_status"));
            Fixture.run(server, Fixture.second());
            before = Fixture.dumps(server);
            server.kill9();
        }
        try (ServerProcess restarted = server.restart()) {
            assertEquals(before, Fixture.dumps(restarted));
        }
    }
}
