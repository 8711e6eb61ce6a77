package io.respsql.it.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway PostgreSQL 15 on loopback, started and stopped by {@code scripts/pg-peer.sh}
 * (temporary data directory, durability off) with a state file of its own, so it never meets
 * another user's peer. Queries run through {@code psql} in unaligned mode; results come back as
 * rows of text, SQL NULL as {@code null}.
 */
final class PgPeer implements AutoCloseable {
    private static final String FIELD = "\u001f";
    private static final String RECORD = "\u001e";
    private static final String NULL = "<<NULL>>";

    private final Path script;
    private final Path state;
    private final Path psql;
    private final Map<String, String> env = new HashMap<>();

    /** PostgreSQL's bin directory: {@code PG_BIN}, else Debian's for version 15. */
    static Path bin() {
        String b = System.getenv("PG_BIN");
        return Path.of(b != null && !b.isEmpty() ? b : "/usr/lib/postgresql/15/bin");
    }

    static boolean installed() {
        return Files.isExecutable(bin().resolve("postgres")) && Files.isExecutable(bin().resolve("psql"));
    }

    private PgPeer(Path script, Path state) {
        this.script = script;
        this.state = state;
        this.psql = bin().resolve("psql");
    }

    /** Starts a peer with {@code repoRoot/scripts/pg-peer.sh start}. */
    static PgPeer start(Path repoRoot) throws IOException, InterruptedException {
        // pg-peer.sh takes an existing state file for a running peer's: give it a path of its own
        Path state = Files.createTempDirectory("respsql-seed004-pg-").resolve("peer.env");
        PgPeer p = new PgPeer(repoRoot.resolve("scripts").resolve("pg-peer.sh"), state);
        String out = p.runScript("start");
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                p.env.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
            }
        }
        if (!p.env.containsKey("PG_PORT")) {
            throw new IOException("pg-peer.sh start printed no PG_PORT:\n" + out);
        }
        return p;
    }

    /** The peer's port, user and database, for a JDBC connection. */
    int port() {
        return Integer.parseInt(env.get("PG_PORT"));
    }

    String user() {
        return env.get("PG_USER");
    }

    String database() {
        return env.get("PG_DB");
    }

    String version() {
        return env.getOrDefault("PG_VERSION", "?");
    }

    /** Runs a file of SQL statements, stopping at the first error. */
    void runFile(Path sql) throws IOException, InterruptedException {
        psql(List.of("-v", "ON_ERROR_STOP=1", "-f", sql.toString()));
    }

    /** A query's rows, or an {@link IOException} with psql's error text. */
    List<List<String>> query(String sql) throws IOException, InterruptedException {
        String out = psql(List.of("-v", "ON_ERROR_STOP=1", "-A", "-t", "-F", FIELD, "-R", RECORD, "-P", "null=" + NULL, "-c", sql));
        if (out.endsWith("\n")) {
            out = out.substring(0, out.length() - 1);
        }
        List<List<String>> rows = new ArrayList<>();
        if (out.isEmpty()) {
            return rows;
        }
        for (String r : out.split(RECORD, -1)) {
            List<String> row = new ArrayList<>(Arrays.asList(r.split(FIELD, -1)));
            row.replaceAll(v -> v.equals(NULL) ? null : v);
            rows.add(row);
        }
        return rows;
    }

    private String psql(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(psql.toString(), "-X", "-q", "-h", "127.0.0.1", "-p", env.get("PG_PORT"),
                "-U", env.get("PG_USER"), "-d", env.get("PG_DB")));
        cmd.addAll(args);
        return run(cmd, Map.of("PGOPTIONS", "-c statement_timeout=60000"));
    }

    private String runScript(String verb) throws IOException, InterruptedException {
        return run(List.of("bash", script.toString(), verb), Map.of("PG_PEER_STATE", state.toString()));
    }

    private static String run(List<String> cmd, Map<String, String> extraEnv) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(extraEnv);
        Path err = Files.createTempFile("respsql-psql-", ".err");
        pb.redirectError(err.toFile());
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", cmd));
            }
            String stderr = Files.readString(err, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw new IOException(stderr.isEmpty() ? "exit status " + p.exitValue() + " of " + cmd.get(0) : stderr);
            }
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            runScript("stop");
        } finally {
            Files.deleteIfExists(state);
            Files.deleteIfExists(state.getParent());
        }
    }
}
