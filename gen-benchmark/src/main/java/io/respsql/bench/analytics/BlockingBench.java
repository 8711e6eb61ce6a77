package io.respsql.bench.analytics;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Does a long analytic query stall other clients (issue 11 §4)? A probe client times point UPDATEs
 * and point SELECTs (by primary key on customers, one request in flight, per-request timing) in
 * alternating phases: "quiet" (nothing else runs) and "loaded" (another connection runs seed 004's
 * Q07 and Q11 back to back for the whole phase). Per mode ({@code bg}: the server's default
 * background execution; {@code inline}: {@code bg-query-min-rows 0}, everything on the event loop)
 * it reports p50/p99 per operation and condition, the p99 ratio loaded/quiet, the analytic queries'
 * times and the largest {@code capture_bytes_held} sampled during loaded phases.
 *
 * <p>{@code --load no} skips the load (the server already holds this scale factor's data), {@code --rounds 0}
 * only loads, and
 * {@code --first-round N} numbers the raw files from N: scripts/blocking-bench.sh uses both to
 * alternate single rounds between several servers (GC or worker-count variants) in one run.
 *
 * <pre>gen-benchmark blocking-bench --port P --out DIR [--sf 0.1] [--seed 4] [--rounds 4] [--ops 2000] [--modes bg,inline] [--load yes|no] [--first-round 0] [--analytic-conns 1]</pre>
 */
public final class BlockingBench {
    private static final Pattern HELD = Pattern.compile("capture_bytes_held:(\\d+)");
    private static final Pattern RUNNING = Pattern.compile("bg_queries_running:(\\d+)");

    private BlockingBench() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = new HashMap<>(Map.of("--host", "127.0.0.1", "--sf", "0.1", "--seed", "4",
                "--rounds", "4", "--ops", "2000", "--modes", "bg,inline", "--load", "yes", "--first-round", "0",
                "--analytic-conns", "1"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        if (!o.containsKey("--port") || !o.containsKey("--out")) {
            err.println("usage: gen-benchmark blocking-bench --port P --out DIR [--sf X] [--seed N] [--rounds N] [--ops N] [--modes bg,inline]");
            return 2;
        }
        try {
            return new Run(o, out).go();
        } catch (Exception e) {
            e.printStackTrace(err);
            return 1;
        }
    }

    private static final class Run {
        final String host;
        final int port;
        final double sf;
        final long seed;
        final int rounds;
        final int ops;
        final List<String> modes;
        final Path dir;
        final PrintStream log;
        final boolean load;
        final int firstRound;
        /** Connections running Q07 and Q11 back to back at once in a loaded phase (each starts with the next query). */
        final int analyticConns;

        Run(Map<String, String> o, PrintStream log) {
            host = o.get("--host");
            port = Integer.parseInt(o.get("--port"));
            sf = Double.parseDouble(o.get("--sf"));
            seed = Long.parseLong(o.get("--seed"));
            rounds = Integer.parseInt(o.get("--rounds"));
            ops = Integer.parseInt(o.get("--ops"));
            modes = List.of(o.get("--modes").split(","));
            dir = Path.of(o.get("--out"));
            this.log = log;
            load = !o.get("--load").equals("no");
            firstRound = Integer.parseInt(o.get("--first-round"));
            analyticConns = Integer.parseInt(o.get("--analytic-conns"));
        }

        int go() throws Exception {
            Files.createDirectories(dir);
            EcomGen g = EcomGen.atScale(seed, sf);
            if (load) {
                long l0 = System.nanoTime();
                try (RespEngine loader = new RespEngine(host, port, 1000, 32, log)) {
                    loader.load(g);
                }
                log.printf("loaded SF %s (%d rows) in %.1f s%n", sf, g.totalRows(), (System.nanoTime() - l0) / 1e9);
            }
            if (rounds == 0) {
                return 0; // --rounds 0: load only
            }
            Map<String, String> q = Queries.render(Queries.constants(g));
            String[] analytic = {q.get("q07"), q.get("q11")};
            List<String> summary = new ArrayList<>();
            summary.add(String.format("SF %s (seed %d): %d customers, %d products, %d orders, %d order_items; %d rounds of"
                    + " loaded/quiet phases (loaded: until Q07 and Q11 both completed, at least %d probe requests; quiet: as many) (half UPDATE, half SELECT, by primary key)",
                    sf, seed, g.customers, g.products, g.orders, g.items, rounds, ops));
            try (Conn probe = new Conn(host, port); Conn admin = new Conn(host, port)) {
                for (String mode : modes) {
                    admin.call("CONFIG", "SET", "bg-query-min-rows", mode.equals("inline") ? "0" : "100000");
                    Map<String, List<Long>> lat = new HashMap<>();
                    List<Long> queryMicros = new ArrayList<>();
                    long maxHeld = 0;
                    long sawRunning = 0;
                    SplittableRandom rnd = new SplittableRandom(seed + firstRound);
                    for (int r = 0; r < rounds; r++) {
                        // Loaded first: the probe runs until Q07 and Q11 have both completed (at least
                        // --ops requests); then quiet with the same number of requests.
                        int n = 0;
                        for (String phase : new String[] {"loaded", "quiet"}) {
                            AtomicBoolean stop = new AtomicBoolean();
                            CountDownLatch started = new CountDownLatch(analyticConns);
                            List<Thread> loads = new ArrayList<>();
                            List<Long> qm = java.util.Collections.synchronizedList(new ArrayList<>());
                            if (phase.equals("loaded")) {
                                for (int k = 0; k < analyticConns; k++) {
                                    int first = k;
                                    Thread load = new Thread(() -> analyticLoop(analytic, first, stop, started, qm), "analytic-" + k);
                                    load.start();
                                    loads.add(load);
                                }
                                started.await();
                            }
                            List<Long> upd = new ArrayList<>();
                            List<Long> sel = new ArrayList<>();
                            // Inline, every probe request waits behind a whole query: a few suffice.
                            int least = mode.equals("inline") ? Math.min(ops, 20) : ops;
                            for (int i = 0; phase.equals("loaded") ? (i < least || qm.size() < 2 * analyticConns) : i < n; i++) {
                                int id = 1 + rnd.nextInt(g.customers);
                                long t0 = System.nanoTime();
                                if (i % 2 == 0) {
                                    probe.call("SQL", "UPDATE customers SET lifetime_value_cents = lifetime_value_cents + 1 WHERE customer_id = " + id);
                                    upd.add((System.nanoTime() - t0) / 1000);
                                } else {
                                    probe.call("SQL", "SELECT lifetime_value_cents FROM customers WHERE customer_id = " + id);
                                    sel.add((System.nanoTime() - t0) / 1000);
                                }
                                if (phase.equals("loaded") && i % 100 == 0) {
                                    String info = String.valueOf(admin.call("INFO", "stats"));
                                    maxHeld = Math.max(maxHeld, field(HELD, info));
                                    sawRunning = Math.max(sawRunning, field(RUNNING, info));
                                }
                                if (phase.equals("loaded")) {
                                    n = i + 1;
                                }
                            }
                            stop.set(true);
                            for (Thread load : loads) {
                                load.join();
                            }
                            queryMicros.addAll(qm);
                            write(dir.resolve(mode + "-" + phase + "-round" + (firstRound + r) + ".txt"), toArray(upd), toArray(sel));
                            lat.computeIfAbsent(phase + " UPDATE", k -> new ArrayList<>()).addAll(upd);
                            lat.computeIfAbsent(phase + " SELECT", k -> new ArrayList<>()).addAll(sel);
                        }
                    }
                    summary.add("");
                    summary.add("mode " + mode + (mode.equals("inline") ? " (bg-query-min-rows 0: every query on the event loop)"
                            : " (bg-query-min-rows 100000: Q07/Q11 on worker threads)"));
                    for (String op : new String[] {"UPDATE", "SELECT"}) {
                        long[] quiet = sorted(lat.get("quiet " + op));
                        long[] loaded = sorted(lat.get("loaded " + op));
                        summary.add(String.format("  point %-6s quiet  p50 %7d us  p99 %7d us   loaded  p50 %7d us  p99 %7d us"
                                + "   p99 ratio loaded/quiet %.2f", op, pct(quiet, 50), pct(quiet, 99), pct(loaded, 50),
                                pct(loaded, 99), (double) pct(loaded, 99) / Math.max(1, pct(quiet, 99))));
                    }
                    long[] qs = sorted(queryMicros);
                    summary.add("  probe requests per condition: " + lat.get("loaded UPDATE").size() * 2 + " (loaded), "
                            + lat.get("quiet UPDATE").size() * 2 + " (quiet)");
                    summary.add(String.format("  analytic queries completed during loaded phases: %d (Q07 and Q11 alternating),"
                            + " median %d ms, max %d ms", qs.length, pct(qs, 50) / 1000, qs.length == 0 ? 0 : qs[qs.length - 1] / 1000));
                    summary.add("  largest capture_bytes_held sampled: " + maxHeld + " bytes; largest bg_queries_running: " + sawRunning);
                    Files.write(dir.resolve("summary.txt"), summary); // after each mode: a partial run keeps its figures
                }
            }
            Files.write(dir.resolve("summary.txt"), summary);
            summary.forEach(log::println);
            return 0;
        }

        void analyticLoop(String[] queries, int first, AtomicBoolean stop, CountDownLatch started, List<Long> micros) {
            try (Conn c = new Conn(host, port)) {
                for (int i = first; !stop.get(); i++) {
                    long t0 = System.nanoTime();
                    c.send("SQL", queries[i % 2]);
                    started.countDown();
                    Object reply = c.read();
                    if (reply instanceof RespEngine.Resp.Error e) {
                        throw new IllegalStateException("analytic query failed: " + e.text());
                    }
                    micros.add((System.nanoTime() - t0) / 1000);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } finally {
                started.countDown();
            }
        }
    }

    private static long field(Pattern p, String info) {
        Matcher m = p.matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static void write(Path file, long[] upd, long[] sel) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("# op micros (client round trip, one request in flight)");
            for (int i = 0; i < Math.max(upd.length, sel.length); i++) {
                if (i < upd.length) {
                    w.println("UPDATE " + upd[i]);
                }
                if (i < sel.length) {
                    w.println("SELECT " + sel[i]);
                }
            }
        }
    }

    private static long[] toArray(List<Long> v) {
        return v.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] sorted(List<Long> v) {
        long[] a = v == null ? new long[0] : v.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    private static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** One RESP connection, one request in flight. */
    private static final class Conn implements AutoCloseable {
        final Socket socket = new Socket();
        final InputStream in;
        final OutputStream out;

        Conn(String host, int port) throws IOException {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(600_000);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out = socket.getOutputStream();
        }

        void send(String... args) throws IOException {
            out.write(RespEngine.Resp.encode(args));
            out.flush();
        }

        Object read() throws IOException {
            return RespEngine.Resp.read(in);
        }

        Object call(String... args) throws IOException {
            send(args);
            return read();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
