package io.respsql.bench.write;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The staleness check: with the writer paused, the live server's replies to a set of queries must
 * be byte-identical to those of a second server started on a copy of a BGSAVE snapshot taken at
 * that moment. Outside the timed rounds: it copies the data and starts a server.
 */
final class Staleness {

    record Result(int checkpoint, long writesBefore, int queries, int identical, String file, String note) {
    }

    private final Out out;
    private final List<String> serverCmd;
    private final long waitMillis;

    Staleness(Out out, List<String> serverCmd, long waitMillis) {
        this.out = out;
        this.serverCmd = serverCmd;
        this.waitMillis = waitMillis;
    }

    static List<String> queries(ReadsUnderWrites ruw, long n) {
        List<String> q = new ArrayList<>();
        q.add("SELECT COUNT(*) FROM t");
        q.add("SELECT SUM(v) FROM t");
        q.add("SELECT MIN(v), MAX(v) FROM t");
        q.add(ruw.rangeSql);
        for (long g : new long[] {0, 1, 5, 42, 99}) {
            q.add("SELECT COUNT(*), SUM(v) FROM t WHERE grp = " + g);
        }
        for (long id : new long[] {1, 2, n / 2, n, n + 1, ruw.maxId}) {
            q.add("SELECT id, grp, v, tag FROM t WHERE id = " + id);
        }
        q.add("SELECT id, grp, v, tag FROM t WHERE id BETWEEN " + Math.max(1, n - 5) + " AND " + (ruw.maxId + 5));
        q.add("SELECT * FROM t WHERE grp = 7 ORDER BY id DESC LIMIT 20");
        q.add("SELECT id, v FROM t WHERE v > " + (n - 50) + " ORDER BY v, id LIMIT 100");
        q.add("DUMP t");
        return q;
    }

    /** Whether the server knows BGSAVE; null when it does, else its error. */
    static String unsupported(RespTarget live) {
        RespConn.Reply r = live.conn.call("COMMAND", "INFO", "BGSAVE");
        if (r.type() == '*' && r.elements().size() == 1 && r.elements().get(0).type() == '*') {
            return null;
        }
        return "the server has no BGSAVE (COMMAND INFO BGSAVE answered " + r + ")";
    }

    Result check(int checkpoint, RespTarget live, ReadsUnderWrites ruw, long n) {
        String file = "s3-staleness-" + checkpoint + ".txt";
        List<String> qs = queries(ruw, n);
        try (PrintWriter w = out.writer(file)) {
            w.println("# checkpoint " + checkpoint + ": writer paused after " + ruw.writes + " writes; live replies,"
                    + " then BGSAVE, then a second server on a copy of the snapshot; raw RESP bytes compared");
            List<byte[]> liveReplies = new ArrayList<>();
            for (String q : qs) {
                liveReplies.add(live.raw(q));
            }
            String info0 = info(live);
            long saves0 = field(info0, "rdb_saves");
            long last0 = live.conn.call("LASTSAVE").integer();
            RespConn.Reply bg = live.conn.call("BGSAVE");
            w.println("BGSAVE -> " + bg);
            if (bg.isError()) {
                throw new BenchFailure("BGSAVE answered -" + bg.text());
            }
            // No completion event reaches a client: poll INFO persistence, bounded.
            long deadline = System.nanoTime() + waitMillis * 1_000_000L;
            String info;
            while (true) {
                info = info(live);
                boolean done = field(info, "rdb_bgsave_in_progress") == 0
                        && (saves0 >= 0 ? field(info, "rdb_saves") > saves0 : live.conn.call("LASTSAVE").integer() != last0);
                if (done) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new BenchFailure("BGSAVE did not complete within " + waitMillis + " ms; INFO persistence: " + info);
                }
                Thread.sleep(10);
            }
            w.println("INFO persistence after: " + info.replace("\r\n", " "));
            if (info.contains("rdb_last_bgsave_status:") && !info.contains("rdb_last_bgsave_status:ok")) {
                throw new BenchFailure("BGSAVE failed: " + info);
            }
            Path dir = Path.of(configGet(live, "dir"));
            String dbfile = configGet(live, "dbfilename");
            Path copyDir = Files.createTempDirectory("write-bench-snapshot");
            Files.copy(dir.resolve(dbfile), copyDir.resolve(dbfile), StandardCopyOption.COPY_ATTRIBUTES);
            w.println("snapshot " + dir.resolve(dbfile) + " (" + Files.size(copyDir.resolve(dbfile)) + " bytes) copied to " + copyDir);
            int port = freePort();
            List<String> cmd = new ArrayList<>(serverCmd);
            cmd.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", copyDir.toString(),
                    "--dbfilename", dbfile, "--save", ""));
            w.println("second server: " + String.join(" ", cmd));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(copyDir.resolve("server-output.txt").toFile()).start();
            int identical = 0;
            try {
                RespTarget cold = awaitServer(p, port, copyDir);
                try {
                    for (int i = 0; i < qs.size(); i++) {
                        byte[] a = liveReplies.get(i);
                        byte[] b = cold.raw(qs.get(i));
                        boolean same = Arrays.equals(a, b);
                        identical += same ? 1 : 0;
                        w.println((same ? "identical " : "DIFFERENT ") + qs.get(i));
                        w.println("  live: " + show(a));
                        if (!same) {
                            w.println("  cold: " + show(b));
                        }
                    }
                } finally {
                    cold.close();
                }
            } finally {
                p.destroy();
                p.waitFor();
                deleteTree(copyDir);
            }
            w.println(identical + " of " + qs.size() + " replies byte-identical");
            return new Result(checkpoint, ruw.writes, qs.size(), identical, file, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted");
        }
    }

    private RespTarget awaitServer(Process p, int port, Path dir) throws InterruptedException, IOException {
        // The second server loads the snapshot before it listens; poll its port, bounded.
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        while (true) {
            if (!p.isAlive()) {
                throw new BenchFailure("the second server exited: "
                        + Files.readString(dir.resolve("server-output.txt"), StandardCharsets.UTF_8));
            }
            try {
                RespTarget t = new RespTarget("127.0.0.1", port);
                if ("PONG".equals(t.conn.call("PING").text())) {
                    return t;
                }
                t.close();
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new BenchFailure("the second server did not answer within " + waitMillis + " ms");
            }
            Thread.sleep(50);
        }
    }

    private static String info(RespTarget t) {
        String s = t.conn.call("INFO", "persistence").text();
        return s == null ? "" : s;
    }

    /** An integer field of an INFO text, or -1 when absent. */
    static long field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        return -1;
    }

    private static String configGet(RespTarget t, String key) {
        RespConn.Reply r = t.conn.call("CONFIG", "GET", key);
        if (r.type() != '*' || r.elements().size() != 2) {
            throw new BenchFailure("CONFIG GET " + key + " answered " + r);
        }
        return r.elements().get(1).text();
    }

    static String show(byte[] raw) {
        String s = new String(raw, StandardCharsets.UTF_8).replace("\r\n", "\\r\\n");
        return s.length() > 400 ? s.substring(0, 400) + "... (" + raw.length + " bytes)" : s + " (" + raw.length + " bytes)";
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path p) throws IOException {
        try (var walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        }
    }
}
