package io.respsql.it.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The harness itself: a real server process, its port from the ready line, SIGKILL and SIGTERM. */
class ServerProcessHarnessTest {
    @TempDir
    Path dir;

    @Test
    void kill9EndsTheProcessWithSigkillStatus() {
        ServerProcess p = ServerProcess.launchWith(dir, List.of());
        try (p) {
            p.awaitReady();
            assertNotEquals(0, p.port());
            Jedis j = p.jedis();
            assertEquals("PONG", j.ping());
            p.kill9(); // asserts status 137, i.e. SIGKILL and not a graceful exit
            assertFalse(p.isAlive());
        }
    }

    @Test
    void sigtermRunsTheShutdownPath() {
        ServerProcess p = ServerProcess.launchWith(dir, List.of());
        try (p) {
            p.awaitReady();
            assertEquals("PONG", p.jedis().ping());
            p.sigterm();
            int status = p.awaitExit(Duration.ofSeconds(30));
            // A JVM ended by SIGTERM exits 143 unless the server turns it into a clean exit; either
            // way it is not the SIGKILL status.
            assertNotEquals(ServerProcess.SIGKILL_STATUS, status, p::outputText);
        }
    }

    @Test
    void aBadFlagEndsTheProcessWithUsageStatusAndAMessage() {
        ServerProcess p = ServerProcess.launchWith(dir, List.of("--no-such-flag", "1"));
        try (p) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(30))); // usage error, as documented by ConfigException
            assertEquals(List.of("respsql-server: Unknown option --no-such-flag (try --help)"), p.output());
        }
    }
}
