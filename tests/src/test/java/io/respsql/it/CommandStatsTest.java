package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** INFO commandstats / latencystats and CONFIG RESETSTAT, over the wire. */
class CommandStatsTest {
    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String info(String... sections) {
        String[] words = new String[sections.length + 1];
        words[0] = "INFO";
        System.arraycopy(sections, 0, words, 1, sections.length);
        return (String) server.dispatch(words);
    }

    private static String line(String info, String prefix) {
        for (String l : info.split("\r\n")) {
            if (l.startsWith(prefix)) {
                return l;
            }
        }
        return null;
    }

    @Test
    void countsCallsFailuresAndRejections() {
        // the client's own connection handshake is not part of the count
        assertEquals("OK", server.dispatch("CONFIG", "RESETSTAT"));
        for (int i = 0; i < 7; i++) {
            assertEquals("PONG", server.dispatch("PING"));
        }
        for (int i = 0; i < 3; i++) {
            assertThrows(RedisCommandExecutionException.class,
                    () -> server.dispatch("SELECT", "*", "FROM", "nosuchtable"));
        }
        assertThrows(RedisCommandExecutionException.class, () -> server.dispatch("ECHO"));
        assertThrows(RedisCommandExecutionException.class, () -> server.dispatch("CONFIG", "NOSUCH"));
        server.dispatch("CONFIG", "GET", "port");

        String stats = info("commandstats");
        assertTrue(stats.startsWith("# Commandstats\r\n"), stats);
        String ping = line(stats, "cmdstat_ping:");
        assertTrue(ping.matches("cmdstat_ping:calls=7,usec=\\d+,usec_per_call=\\d+\\.\\d{2},rejected_calls=0,failed_calls=0"),
                ping);
        String select = line(stats, "cmdstat_select:");
        assertTrue(select.startsWith("cmdstat_select:calls=3,") && select.endsWith(",rejected_calls=0,failed_calls=3"),
                select);
        assertEquals(0, line(stats, "cmdstat_echo:").indexOf("cmdstat_echo:calls=0,usec=0,"), stats);
        assertTrue(line(stats, "cmdstat_echo:").endsWith("rejected_calls=1,failed_calls=0"), stats);
        assertTrue(line(stats, "cmdstat_config:").contains("rejected_calls=1"), stats);
        assertTrue(line(stats, "cmdstat_config|get:").startsWith("cmdstat_config|get:calls=1,"), stats);
        assertEquals(null, line(stats, "cmdstat_dbsize:"));

        assertTrue(ServerCommandsTest.stat(info("stats"), "total_error_replies") >= 5);
    }

    @Test
    void latencyStatsForCalledCommands() {
        server.dispatch("PING");
        server.dispatch("ECHO", "x");
        String latency = info("latencystats");
        assertTrue(latency.startsWith("# Latencystats\r\n"), latency);
        String ping = line(latency, "latency_percentiles_usec_ping:");
        assertTrue(ping.matches("latency_percentiles_usec_ping:p50=\\d+\\.\\d{3},p99=\\d+\\.\\d{3},p99\\.9=\\d+\\.\\d{3}"),
                ping);
        assertTrue(line(latency, "latency_percentiles_usec_echo:") != null, latency);
        assertEquals(null, line(latency, "latency_percentiles_usec_dbsize:"));
    }

    @Test
    void resetStatClearsCommandStats() {
        assertEquals("OK", server.dispatch("CONFIG", "RESETSTAT"));
        for (int i = 0; i < 4; i++) {
            server.dispatch("PING");
        }
        String before = info("commandstats");
        assertTrue(line(before, "cmdstat_ping:").startsWith("cmdstat_ping:calls=4,"), before);
        assertEquals("OK", server.dispatch("CONFIG", "RESETSTAT"));
        String after = info("commandstats");
        assertEquals(null, line(after, "cmdstat_ping:"), after);
        // as in Redis, a call is counted once it has run: RESETSTAT itself shows up afterwards
        assertTrue(line(after, "cmdstat_config|resetstat:").startsWith("cmdstat_config|resetstat:calls=1,"), after);
        assertEquals(null, line(info("latencystats"), "latency_percentiles_usec_ping:"));
        server.dispatch("PING");
        assertTrue(line(info("commandstats"), "cmdstat_ping:").startsWith("cmdstat_ping:calls=1,"));
    }

    @Test
    void perCommandSectionsOnlyInAllAndEverything() {
        server.dispatch("PING");
        for (String[] request : new String[][] {{}, {"default"}}) {
            String text = info(request);
            assertFalse(text.contains("# Commandstats"), text);
            assertFalse(text.contains("# Latencystats"), text);
            assertTrue(text.contains("# Stats\r\n"), text);
        }
        for (String word : new String[] {"all", "everything"}) {
            String text = info(word);
            assertTrue(text.contains("# Commandstats\r\ncmdstat_"), text);
            assertTrue(text.contains("# Latencystats\r\nlatency_percentiles_usec_"), text);
            assertTrue(text.contains("# Server\r\n"), text);
        }
    }
}
