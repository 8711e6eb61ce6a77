package io.respsql.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the real redis-cli against a test server. Tests using it call {@link #assumeAvailable()}:
 * they are skipped only where redis-cli is missing and the CI environment variable is unset; on
 * CI a missing redis-cli fails them.
 */
final class RedisCli {
    static final Path PATH = locate();

    private RedisCli() {
    }

    /** What a run printed (stdout and stderr together) and its exit status. */
    record Result(String output, int exitCode) {
    }

    static void assumeAvailable() {
        assumeTrue(Files.isExecutable(PATH) || System.getenv("CI") != null,
                "redis-cli not installed (required when CI is set)");
    }

    /** /usr/bin/redis-cli, else the first redis-cli on PATH, else /usr/bin/redis-cli (absent). */
    private static Path locate() {
        Path usual = Path.of("/usr/bin/redis-cli");
        if (Files.isExecutable(usual)) {
            return usual;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir, "redis-cli");
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return usual;
    }

    /** {@code redis-cli -h host -p port args...} with nothing on stdin (so not a terminal). */
    static Result run(TestServer server, List<String> args) {
        return run(server, args, "");
    }

    /** Like {@link #run(TestServer, List)}, writing {@code stdin} to redis-cli's standard input. */
    static Result run(TestServer server, List<String> args, String stdin) {
        List<String> cmd = new ArrayList<>(List.of(PATH.toString(), "-h", server.host(), "-p", Integer.toString(server.port())));
        cmd.addAll(args);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "redis-cli did not finish");
            return new Result(new String(out, StandardCharsets.UTF_8), p.exitValue());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
