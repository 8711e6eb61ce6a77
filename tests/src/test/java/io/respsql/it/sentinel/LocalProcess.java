package io.respsql.it.sentinel;

import io.respsql.it.RespConnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A RespSQL server or a Redis Sentinel as a process of its own on a fixed loopback port, started
 * from a configuration file in its own directory (so CONFIG REWRITE has a file, Sentinel can save
 * its state, and a restart comes back on the same address, as Sentinel expects). Output goes to
 * {@code <dir>/out.log}; readiness is a {@code PING} answered on the port, polled until a deadline.
 */
final class LocalProcess implements AutoCloseable {
    static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final java.util.Random RANDOM = new java.util.Random();
    private static final java.util.Set<Integer> HANDED_OUT = new java.util.HashSet<>();

    private final String name;
    private final Path dir;
    private final int port;
    private final List<String> command;
    private Process process;

    private LocalProcess(String name, Path dir, int port, List<String> command) {
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.command = command;
    }

    /** Whether Debian's redis-server (which runs Sentinel with {@code --sentinel}) is on the PATH. */
    static boolean redisServerInstalled() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!p.isEmpty() && Files.isExecutable(Path.of(p, "redis-server"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A free loopback port, picked below the kernel's ephemeral range (32768 and up) so that no
     * outgoing connection takes it between this check and the process binding it; the
     * processes here need fixed ports (a restart must come back on the same address). A port is
     * handed out once per JVM: a test picks several ports before it starts the processes that bind
     * them, and a second pick of a still-unbound port made a replica fail with "Address already in
     * use" in CI. (scripts/pg-peer.sh picks its ports below 20000, out of this range.)
     */
    static synchronized int freePort() {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = 20000 + RANDOM.nextInt(12000);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(HOST, port));
                return port;
            } catch (IOException taken) {
                // in use: try another
            }
        }
        throw new IllegalStateException("no free port between 20000 and 32000");
    }

    /** A RespSQL server with {@code respsql.conf} = port, bind, dir, no save rules, then {@code extra} lines. */
    static LocalProcess respsql(Path parent, String name, int port, String... extra) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        List<String> conf = new ArrayList<>(List.of("port " + port, "bind " + HOST, "dir " + dir, "save \"\""));
        conf.addAll(List.of(extra));
        Path file = dir.resolve("respsql.conf");
        Files.write(file, conf, StandardCharsets.UTF_8);
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + System.getProperty("respsql.process.heap", "384m"), "-XX:+UseSerialGC", "-XX:CICompilerCount=2",
                "-cp", System.getProperty("java.class.path"), "io.respsql.Main", file.toString());
        return new LocalProcess(name, dir, port, cmd);
    }

    /** A Sentinel monitoring master {@code m} at {@code masterPort} with {@code quorum}. */
    static LocalProcess sentinel(Path parent, String name, int port, int masterPort, int quorum,
                                 int downAfterMillis, int failoverTimeoutMillis) throws IOException {
        return sentinel(parent, name, port, masterPort, quorum, downAfterMillis, failoverTimeoutMillis, List.of());
    }

    /** The same with {@code extra} lines first (pgtls: the tls-* keys of a Sentinel over TLS). */
    static LocalProcess sentinel(Path parent, String name, int port, int masterPort, int quorum,
                                 int downAfterMillis, int failoverTimeoutMillis, List<String> extra) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        Path file = dir.resolve("sentinel.conf");
        List<String> conf = new ArrayList<>(extra);
        conf.addAll(List.of(
                "port " + port,
                "bind " + HOST,
                "dir " + dir,
                "logfile \"\"",
                "sentinel resolve-hostnames no",
                "sentinel monitor m " + HOST + " " + masterPort + " " + quorum,
                "sentinel down-after-milliseconds m " + downAfterMillis,
                "sentinel failover-timeout m " + failoverTimeoutMillis,
                "sentinel parallel-syncs m 1"));
        Files.write(file, conf, StandardCharsets.UTF_8);
        return new LocalProcess(name, dir, port, List.of("redis-server", file.toString(), "--sentinel"));
    }

    /** Starts the process and waits until it answers PING. */
    LocalProcess start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("out.log").toFile())).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with status " + process.exitValue() + "; output:\n" + log());
            }
            try (RespConnection c = new RespConnection(HOST, port)) {
                if (c.call("PING").equals("+PONG\r\n")) {
                    return this;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " did not answer PING on " + port + " within " + START_TIMEOUT
                        + "; output:\n" + log());
            }
            try {
                Thread.sleep(50); // polling a port that is not open yet: there is nothing to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** SIGKILL, and waits for the process to be gone. */
    void kill9() {
        process.toHandle().destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError(name + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    Path dir() {
        return dir;
    }

    String address() {
        return HOST + ":" + port;
    }

    RespConnection raw() throws IOException {
        return new RespConnection(HOST, port);
    }

    String log() {
        try {
            return Files.readString(dir.resolve("out.log"));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.toHandle().destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
