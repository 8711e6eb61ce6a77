package io.respsql.bench.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** write-bench against a real server in this JVM, on a free port, with no PostgreSQL peer. */
class WriteBenchEndToEndTest {
    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private Run writeBench(Consumer<ServerConfig> configure, String... args) {
        ServerConfig config = new ServerConfig().bind("127.0.0.1").port(0);
        configure.accept(config);
        try (RespSqlServer server = RespSqlServer.start(config)) {
            String[] base = {"--port", String.valueOf(server.port()), "--out", tmp.toString(), "--pg-url", "none",
                "--pg-note", "test", "--warmup-rows", "0", "--u1-reps", "50", "--one-row-reps", "30",
                "--shape-reps", "3", "--agg-reps", "2", "--rounds", "1", "--slice-ms", "200", "--staleness", "0"};
            String[] all = Stream.concat(Stream.of(base), Stream.of(args)).toArray(String[]::new);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = WriteBench.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aTinyRunChecksEverythingAndWritesTheSummary() throws Exception {
        Run r = writeBench(c -> { }, "--sizes", "1005,3000", "--shape-rows", "3000", "--ruw-rows", "2000");
        assertEquals(0, r.exit(), r.out() + r.err());
        String summary = Files.readString(tmp.resolve("summary.md"));
        // U1, U2 (grp 5 of 1..1005: 11 rows) and U3 (every row) by size.
        assertTrue(summary.matches("(?s).*\\| 1,005 \\| [0-9.,]+ \\| [0-9.,]+ \\(11\\) \\| [0-9.,]+ \\(1,005\\) \\|.*"), summary);
        assertTrue(summary.matches("(?s).*\\| 3,000 \\| [0-9.,]+ \\| [0-9.,]+ \\(30\\) \\| [0-9.,]+ \\(3,000\\) \\|.*"), summary);
        assertTrue(summary.contains("| UPDATE 1,000 rows, scattered ids |"), summary);
        assertTrue(summary.contains("| paced-250ms | RespSQL | range |"), summary);
        assertTrue(summary.contains("| no-pause | RespSQL | point |"), summary);
        assertTrue(summary.contains("**No PostgreSQL peer in this run** (test)"), summary);
        assertTrue(summary.contains("not run (--staleness 0)"), summary);
        // Every check file has checks and no failure.
        try (Stream<Path> files = Files.list(tmp)) {
            long checkFiles = 0;
            for (Path p : files.filter(p -> p.getFileName().toString().contains("-checks-")).toList()) {
                String text = Files.readString(p);
                assertTrue(text.contains("\nok   ") || text.startsWith("ok   "), p + ": " + text);
                assertFalse(text.contains("FAIL"), p + ": " + text);
                checkFiles++;
            }
            assertEquals(4, checkFiles, "two sizes, shapes and reads under writes");
        }
        String u1 = Files.readString(tmp.resolve("s1-u1x50-respsql-3000.samples.txt"));
        assertEquals(52, u1.lines().count(), "two header lines and every sample");
        assertTrue(Files.readString(tmp.resolve("s1-checks-respsql-1005.txt"))
            .contains("ok   U2 matched: expected 11, got 11"));
    }

    @Test
    void aWrongAnswerFailsTheRunNamingTheStatement() {
        // With UPDATE disabled its replies are errors, not the matched counts the checks expect.
        Run r = writeBench(c -> c.renameCommand("update", ""), "--sizes", "1000", "--sections", "1");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("write-bench: FAILED: RespSQL answered -ERR unknown command 'UPDATE'"), r.err());
        assertTrue(r.err().contains("UPDATE t SET v = v + 1 WHERE id = 1"), r.err());
        assertFalse(Files.exists(tmp.resolve("summary.md")), "no summary for a failed run");
    }
}
