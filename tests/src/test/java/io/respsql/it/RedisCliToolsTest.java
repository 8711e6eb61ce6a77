package io.respsql.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * redis-cli 7's keyspace tools against the tables: {@code --scan}, {@code --stat},
 * {@code --bigkeys}, {@code --memkeys}, and the typing hints it builds from COMMAND DOCS (in a
 * tmux terminal). Skipped only where redis-cli (or tmux) is missing and CI is unset.
 */
class RedisCliToolsTest extends ServerTestBase {
    @BeforeAll
    static void needsRedisCli() {
        RedisCli.assumeAvailable();
    }

    @BeforeEach
    void threeTables() throws Exception {
        try (RespConnection c = server.raw()) {
            c.call("FLUSHALL");
            c.call("CREATE", "TABLE", "big", "(id int primary key, name text)");
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 2000; i++) {
                rows.append(i == 0 ? "" : ",").append('(').append(i).append(",'name number ").append(i).append("')");
            }
            assertEquals("+OK\r\n", c.call("SQL", "INSERT INTO big VALUES " + rows));
            c.call("CREATE", "TABLE", "small", "(id int)");
            c.call("CREATE", "TABLE", "ns:colon", "(id int)");
        }
    }

    private static String cli(String... args) {
        RedisCli.Result r = RedisCli.run(server, List.of(args));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    @Test
    void scanListsTheTables() {
        assertEquals(Set.of("big", "small", "ns:colon"), new TreeSet<>(Arrays.asList(cli("--scan").split("\n"))));
        assertEquals("ns:colon\n", cli("--scan", "--pattern", "ns:*"));
    }

    @Test
    void memkeysFindsTheBiggestTable() {
        String out = cli("--memkeys");
        assertTrue(out.contains("Biggest  table found '\"big\"' has "), out);
        assertTrue(out.contains("3 tables with "), out);
    }

    @Test
    void bigkeysCountsTheTables() {
        // Tables have no size command redis-cli knows, so it counts them without sizes.
        String out = cli("--bigkeys");
        assertTrue(out.contains("Sampled 3 keys in the keyspace!"), out);
        assertTrue(out.contains("3 tables with 0 ?"), out);
    }

    @Test
    void statShowsTheTableCount() throws Exception {
        // redis-cli buffers its output when it is not a terminal: stdbuf makes it line-buffered.
        Process p = new ProcessBuilder("stdbuf", "-oL", RedisCli.PATH.toString(), "-h", server.host(),
                "-p", Integer.toString(server.port()), "--stat", "-i", "0.1").redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String header = r.readLine();
            assertTrue(header.contains("data"), header);
            String columns = r.readLine();
            assertTrue(columns.trim().startsWith("keys"), columns);
            String first = r.readLine();
            assertEquals("3", first.trim().split("\\s+")[0], first);
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Runs redis-cli in a tmux terminal, types {@code typed} and returns the first screen line. */
    private static String hintAfterTyping(String typed) throws Exception {
        // A tmux server of its own (-L): another tmux user on the machine cannot take it down.
        String session = "respsql-hint-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        run("tmux", "-L", session, "new-session", "-d", "-s", session, "-x", "220", "-y", "10",
                RedisCli.PATH + " -h " + server.host() + " -p " + server.port());
        try {
            String prompt = server.host() + ":" + server.port() + ">";
            awaitScreen(session, prompt, 0);
            run("tmux", "-L", session, "send-keys", "-t", session, "-l", typed);
            // The hint follows what was typed on the same line.
            return awaitScreen(session, prompt + " " + typed.trim(), 2);
        } finally {
            run("tmux", "-L", session, "kill-server"); // its own server: no other tmux user can end it
        }
    }

    /** The pane's first line once it starts with {@code prefix} and has {@code more} characters after it (10 s at most). */
    private static String awaitScreen(String session, String prefix, int more) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String line = "";
        while (System.nanoTime() < deadline) {
            line = run("tmux", "-L", session, "capture-pane", "-p", "-t", session).split("\n", 2)[0].stripTrailing();
            if (line.startsWith(prefix) && line.length() >= prefix.length() + more) {
                return line;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("screen never showed '" + prefix + "...', last: '" + line + "'");
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    @Test
    void typingHintsComeFromCommandDocs() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/tmux")) || System.getenv("CI") != null,
                "tmux not installed (required when CI is set)");
        String prompt = server.host() + ":" + server.port() + "> ";
        assertEquals(prompt + "SELECT columns FROM table [WHERE condition] [ORDER BY order] [LIMIT count [OFFSET offset]]",
                hintAfterTyping("SELECT "));
        assertEquals(prompt + "SHOW TABLES|INDEXES [FROM table]", hintAfterTyping("SHOW "));
        assertEquals(prompt + "INSERT INTO table [(columns)] VALUES (values), ... [RETURN SIZE]", hintAfterTyping("INSERT "));
    }
}
