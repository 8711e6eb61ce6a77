package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server as a process (Main): exit status after SHUTDOWN and SIGTERM, and a bad snapshot. */
class ServerProcessTest {
    private static final long WAIT_SECONDS = 60;
    private static final Pattern READY = Pattern.compile("ready on [^ ]+:(\\d+) ");

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    /** A running server process and its output lines, read as they come. */
    private final class Server {
        final Process process;
        final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> seen = new ArrayList<>();
        int port;

        Server(String... args) throws IOException {
            List<String> cmd = new ArrayList<>(List.of(
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.respsql.Main",
                    "--port", "0", "--dir", dir.toString()));
            cmd.addAll(Arrays.asList(args));
            process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            started.add(process);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
                lines.add("<eof>");
            }, "server-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits for a line containing {@code text}; returns it (null at end of output). */
        String await(String text) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (true) {
                String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertNotNull(line, "no '" + text + "' within " + WAIT_SECONDS + " s; output: " + seen);
                if (line.equals("<eof>")) {
                    lines.add(line);
                    return null;
                }
                seen.add(line);
                if (line.contains(text)) {
                    return line;
                }
            }
        }

        Server ready() throws InterruptedException {
            String line = await("ready on");
            assertNotNull(line, "the server did not start: " + seen);
            Matcher m = READY.matcher(line);
            assertTrue(m.find(), line);
            port = Integer.parseInt(m.group(1));
            return this;
        }

        RespConnection connect() throws IOException {
            return new RespConnection(TestServer.HOST, port);
        }

        int exitStatus() throws InterruptedException {
            assertTrue(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "the process did not exit: " + seen);
            return process.exitValue();
        }
    }

    @AfterEach
    void killLeftovers() {
        for (Process p : started) {
            p.destroyForcibly();
        }
    }

    @Test
    void shutdownSavesAndTheProcessExitsZero() throws Exception {
        Server s = new Server("--save", "3600 1").ready();
        try (RespConnection c = s.connect()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, name TEXT)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (1, 'one')"));
            c.sendCommand("SHUTDOWN");
            assertTrue(c.awaitClosedByServer((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS)));
        }
        assertEquals(0, s.exitStatus());
        assertTrue(Files.exists(dir.resolve("dump.rsql")));

        Server again = new Server("--save", "").ready();
        assertTrue(again.seen.stream().anyMatch(l -> l.contains("Loaded snapshot " + dir.resolve("dump.rsql")
                + ": 1 tables, 1 rows in ")), again.seen.toString());
        try (RespConnection c = again.connect()) {
            assertEquals("*1\r\n$5\r\n1,one\r\n", c.call("SQL", "SELECT * FROM t WHERE id = 1"));
            c.sendCommand("SHUTDOWN", "NOSAVE");
            assertTrue(c.awaitClosedByServer((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS)));
        }
        assertEquals(0, again.exitStatus());
    }

    @Test
    void sigtermSavesWhenRulesAreConfigured() throws Exception {
        Server s = new Server("--save", "3600 1").ready();
        try (RespConnection c = s.connect()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (1),(2),(3)"));
        }
        // SIGTERM through the handle: Process.destroy() would also close our end of its output.
        assertTrue(s.process.toHandle().destroy());
        assertEquals(0, s.exitStatus(), "SIGTERM ends the server as SHUTDOWN does, with status 0");
        assertNotNull(s.await("DB saved on disk"), "the shutdown hook saved: " + s.seen);

        Server again = new Server("--save", "").ready();
        try (RespConnection c = again.connect()) {
            assertEquals(":3\r\n", c.call("SQL", "SELECT COUNT(*) FROM t"));
        }
    }

    @Test
    void aCorruptSnapshotStopsTheStartWithExitStatusOne() throws Exception {
        Server s = new Server("--save", "").ready();
        try (RespConnection c = s.connect()) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
            assertEquals("+OK\r\n", c.call("SAVE"));
            c.sendCommand("SHUTDOWN", "NOSAVE");
            assertTrue(c.awaitClosedByServer((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS)));
        }
        assertEquals(0, s.exitStatus());
        Path file = dir.resolve("dump.rsql");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 1));

        Server bad = new Server();
        assertEquals(1, bad.exitStatus());
        assertNotNull(bad.await("failed to start: Snapshot " + file + " is truncated at offset " + (bytes.length - 1)),
                bad.seen.toString());
        assertFalse(bad.seen.stream().anyMatch(l -> l.contains("ready on")));
    }
}
