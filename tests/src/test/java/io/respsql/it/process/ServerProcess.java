package io.respsql.it.process;

import io.respsql.it.RespConnection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server as a separate JVM ({@code java -cp <this JVM's class path> io.respsql.Main --port 0
 * --dir <dir> ...}), so that it can be killed with SIGKILL or SIGTERM like a production server and
 * restarted on the same directory.
 *
 * <pre>{@code
 * try (ServerProcess p = ServerProcess.start(dir, "--appendonly", "yes")) {
 *     p.jedis() ...;
 *     p.kill9();
 * }
 * try (ServerProcess again = ServerProcess.start(dir, "--appendonly", "yes")) { ... }
 * }</pre>
 *
 * Output (stdout and stderr merged) is captured line by line; readiness is the log line
 * {@code RespSQL <version> ready on <host>:<port> (pid <pid>, ...)}, read from that output rather
 * than waited for.
 */
public final class ServerProcess implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    private static final Pattern READY = Pattern.compile("RespSQL \\S+ ready on [^ ]+:(\\d+) \\(pid (\\d+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Exit status of a JVM killed by SIGKILL (128 + 9), as {@link Process#exitValue()} reports it. */
    public static final int SIGKILL_STATUS = 137;

    private final Process process;
    private final Path dir;
    /** The arguments after {@code --bind 127.0.0.1 --port 0}, reused by {@link #restart()}. */
    private final List<String> options;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private boolean outputEnded;
    private int port = -1;
    private final long launchNanos;
    private long readyNanos;

    private ServerProcess(Process process, Path dir, List<String> options, long launchNanos) {
        this.process = process;
        this.dir = dir;
        this.options = options;
        this.launchNanos = launchNanos;
        this.reader = new Thread(this::readOutput, "server-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a server on {@code dir} with extra {@code --name value} options and waits until it is ready. */
    public static ServerProcess start(Path dir, String... options) {
        ServerProcess p = launch(dir, options);
        p.awaitReady();
        return p;
    }

    /**
     * Starts a server process without waiting for it (for a start that is expected to fail:
     * {@link #awaitExit(Duration)} then {@link #output()}).
     */
    public static ServerProcess launch(Path dir, String... options) {
        List<String> args = new ArrayList<>(List.of("--dir", dir.toString()));
        args.addAll(List.of(options));
        return launchWith(dir, args);
    }

    /**
     * Starts {@code io.respsql.Main} with exactly {@code args} after {@code --bind 127.0.0.1 --port 0},
     * in working directory {@code workDir}, without waiting for it.
     */
    public static ServerProcess launchWith(Path workDir, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + System.getProperty("respsql.process.heap", "512m"));
        // Light on the shared CI cores: one GC thread, no parallel JIT storms.
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:CICompilerCount=2");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.respsql.Main");
        cmd.add("--bind");
        cmd.add(HOST);
        cmd.add("--port");
        cmd.add("0");
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        try {
            long t0 = System.nanoTime();
            return new ServerProcess(pb.start(), workDir, List.copyOf(args), t0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + cmd, e);
        }
    }

    /** A new server on the same directory with the same arguments (this one must have exited). */
    public ServerProcess restart() {
        if (process.isAlive()) {
            throw new IllegalStateException("server pid " + pid() + " is still running");
        }
        ServerProcess p = launchWith(dir, options);
        p.awaitReady();
        return p;
    }

    private void readOutput() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException ignored) {
            // the process is gone; what was read is kept
        } finally {
            synchronized (lines) {
                outputEnded = true;
                lines.notifyAll();
            }
        }
    }

    /** Waits for the ready line and takes the bound port from it. */
    public void awaitReady() {
        Matcher m = READY.matcher(awaitLine(READY, START_TIMEOUT));
        readyNanos = System.nanoTime();
        if (!m.find()) {
            throw new AssertionError("unreachable");
        }
        port = Integer.parseInt(m.group(1));
        long reportedPid = Long.parseLong(m.group(2));
        if (reportedPid != process.pid()) {
            throw new AssertionError("ready line names pid " + reportedPid + ", the process is " + process.pid());
        }
    }

    /**
     * The first output line matching {@code pattern} (found anywhere in the line), waiting for it
     * up to {@code timeout}. Fails with the whole output when the process ends its output first or
     * the time runs out.
     */
    public String awaitLine(Pattern pattern, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            int checked = 0;
            while (true) {
                for (; checked < lines.size(); checked++) {
                    if (pattern.matcher(lines.get(checked)).find()) {
                        return lines.get(checked);
                    }
                }
                if (outputEnded) {
                    throw new AssertionError("server exited (status " + exitStatusText() + ") before printing /"
                            + pattern + "/; output:\n" + outputText());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no line matching /" + pattern + "/ within " + timeout + "; output:\n" + outputText());
                }
                try {
                    lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    private String exitStatusText() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Every output line so far. */
    public List<String> output() {
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }

    public String outputText() {
        return String.join("\n", output());
    }

    /** Nanoseconds from launching the JVM to reading its ready line (after {@link #awaitReady()}). */
    public long startupNanos() {
        return readyNanos - launchNanos;
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        if (port < 0) {
            throw new IllegalStateException("server not ready");
        }
        return port;
    }

    public Path dir() {
        return dir;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * SIGKILL: {@link ProcessHandle#destroyForcibly()} sends SIGKILL on Linux; the exit status 137
     * (128 + 9) is checked so that a graceful exit can never pass for a kill. (Through the handle,
     * not {@link Process#destroyForcibly()}, which would also close our end of the output pipe.)
     */
    public void kill9() {
        process.toHandle().destroyForcibly();
        int status = awaitExit(Duration.ofSeconds(30));
        if (status != SIGKILL_STATUS) {
            throw new AssertionError("expected exit status " + SIGKILL_STATUS + " after SIGKILL, got " + status
                    + "; output:\n" + outputText());
        }
    }

    /**
     * SIGTERM ({@link ProcessHandle#destroy()} on Linux); does not wait. The output written while
     * the server shuts down is still read.
     */
    public void sigterm() {
        process.toHandle().destroy();
    }

    /** Waits for the process to end and for its output to be read; returns the exit status. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("server pid " + pid() + " did not exit within " + timeout + "; output:\n" + outputText());
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        // Clients stay open: threads still using them see the broken connection themselves.
        return process.exitValue();
    }

    /** The exit status of a process that has ended. */
    public int exitCode() {
        if (process.isAlive()) {
            throw new IllegalStateException("server pid " + pid() + " is still running");
        }
        return process.exitValue();
    }

    // ---- clients ------------------------------------------------------------------------------

    /** A new jedis connection (closed with this process). */
    public synchronized Jedis jedis() {
        Jedis j = new Jedis(new HostAndPort(HOST, port()),
                DefaultJedisClientConfig.builder().timeoutMillis(30_000).build());
        opened.add(j);
        return j;
    }

    /** A new raw RESP connection for byte-exact replies (closed with this process). */
    public synchronized RespConnection raw() {
        try {
            RespConnection c = new RespConnection(HOST, port());
            opened.add(c);
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private synchronized void closeClients() {
        for (AutoCloseable c : opened) {
            try {
                c.close();
            } catch (Exception ignored) {
                // the server is gone; closing anyway
            }
        }
        opened.clear();
    }

    /** Kills the process if it is still running (a test that failed half way must not leave it behind). */
    @Override
    public void close() {
        closeClients();
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
