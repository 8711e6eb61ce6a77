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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server as its own process ({@code java -cp ... io.respsql.Main --dir D --appendonly yes}):
 * acknowledged writes survive a kill -9 with {@code appendfsync always}, a cut-short tail is
 * reported in the log and dropped, and a damaged file makes the process exit with status 1.
 */
class AofProcessTest {
    private static final Pattern READY = Pattern.compile("ready on [^:]+:(\\d+) ");

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    /** A server process and the lines it logs. */
    private record Server(Process process, BlockingQueue<String> lines, List<String> seen) {
        /** Waits for a line matching {@code pattern}; null if the process ends first. */
        Matcher await(Pattern pattern) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    if (!process.isAlive() && lines.isEmpty()) {
                        return null;
                    }
                    continue;
                }
                seen.add(line);
                Matcher m = pattern.matcher(line);
                if (m.find()) {
                    return m;
                }
            }
            throw new AssertionError("no line matching " + pattern + " within 60 s; saw " + seen);
        }

        String output() throws InterruptedException {
            process.waitFor(60, TimeUnit.SECONDS);
            List<String> rest = new ArrayList<>();
            lines.drainTo(rest);
            seen.addAll(rest);
            return String.join("\n", seen);
        }
    }

    private Server launch(String... extra) throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", cp, "io.respsql.Main", "--port", "0", "--dir", dir.toString(), "--appendonly", "yes"));
        cmd.addAll(Arrays.asList(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        started.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "server-output");
        reader.setDaemon(true);
        reader.start();
        return new Server(p, lines, new ArrayList<>());
    }

    private static int port(Server s) throws InterruptedException {
        Matcher m = s.await(READY);
        assertNotNull(m, "server did not start");
        return Integer.parseInt(m.group(1));
    }

    @AfterEach
    void stopAll() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void acknowledgedWritesSurviveKillAndACutTailIsLogged() throws Exception {
        Server first = launch("--appendfsync", "always");
        try (RespConnection c = new RespConnection(TestServer.HOST, port(first))) {
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key, name TEXT)"));
            for (int i = 1; i <= 20; i++) {
                assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO t VALUES (" + i + ", 'row " + i + "')"));
            }
        }
        first.process().destroyForcibly();
        first.process().waitFor(30, TimeUnit.SECONDS);

        Path aof = dir.resolve("appendonly.aof");
        long size = Files.size(aof);
        String last = "INSERT INTO t VALUES (20, 'row 20')";
        long lastStart = size - ("*2\r\n$3\r\nSQL\r\n$" + last.length() + "\r\n" + last + "\r\n").length();
        long cut = size - 3;
        try (var ch = java.nio.channels.FileChannel.open(aof, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        Server second = launch();
        Matcher warn = second.await(Pattern.compile("\\[WARN\\] AofLoader - (.*)$"));
        assertNotNull(warn, "a WARN about the cut-short record");
        assertEquals("AOF " + aof + " ends with a truncated record at offset " + lastStart + ": loaded 20 records, "
                + "dropped the last " + (cut - lastStart) + " bytes and truncated the file to " + lastStart + " bytes",
                warn.group(1));
        try (RespConnection c = new RespConnection(TestServer.HOST, port(second))) {
            assertEquals(":19\r\n", c.call("SELECT", "COUNT(*)", "FROM", "t"));
        }
        assertEquals(lastStart, Files.size(aof));
    }

    @Test
    void nullsAndTheNewStatementKindsSurviveKill() throws Exception {
        Server first = launch("--appendfsync", "always");
        List<String> before = new ArrayList<>();
        try (RespConnection c = new RespConnection(TestServer.HOST, port(first))) {
            NullPersistenceTest.fill(c);
            for (String t : List.of("t", "p", "tv")) {
                before.add(c.call("DUMP", t));
            }
        }
        first.process().destroyForcibly();
        first.process().waitFor(30, TimeUnit.SECONDS);

        Server second = launch();
        try (RespConnection c = new RespConnection(TestServer.HOST, port(second))) {
            List<String> after = new ArrayList<>();
            for (String t : List.of("t", "p", "tv")) {
                after.add(c.call("DUMP", t));
            }
            assertEquals(before, after);
            assertTrue(before.get(0).contains("INSERT INTO t VALUES (1,NULL,NULL,'a,b',NULL)"), before.get(0));
        }
    }

    @Test
    void damagedFileEndsTheProcessWithStatusOne() throws Exception {
        Path aof = dir.resolve("appendonly.aof");
        String good = "*2\r\n$3\r\nSQL\r\n$35\r\nCREATE TABLE t (id int primary key)\r\n";
        Files.writeString(aof, good + "GARBAGE\r\n*1\r\n$8\r\nFLUSHALL\r\n");
        Server s = launch();
        assertTrue(s.process().waitFor(60, TimeUnit.SECONDS), "the server exits");
        assertEquals(1, s.process().exitValue());
        String expected = "Bad AOF record at offset " + good.length() + " in " + aof + ": expected '*', found 'G'. "
                + "Run scripts/respsql-check-aof --fix " + aof + " to truncate it there.";
        String output = s.output();
        assertTrue(output.contains(expected), output);
    }
}
