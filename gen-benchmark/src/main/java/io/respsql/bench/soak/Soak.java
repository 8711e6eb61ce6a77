package io.respsql.bench.soak;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.respsql.bench.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * {@code gen-benchmark soak}: a bounded load test that checks correctness as it goes. Each
 * connection owns disjoint ids and fk groups ({@link SoakModel}), keeps one request in flight,
 * and checks every reply against its model; a wrong or error reply stops the run. Every interval
 * it prints throughput per statement and latency; at the end it compares the whole table, and
 * every fk group's count through the index, with the union of the models.
 */
public final class Soak {
    private static final int MAX_FAILURES_SHOWN = 10;

    private final SoakOptions o;
    private final PrintStream out;
    private final int[] mix;
    private final List<SoakModel> models = new ArrayList<>();

    private final LongAdder[] counts = new LongAdder[SoakModel.Kind.values().length];
    private final Recorder[] recorders = new Recorder[SoakModel.Kind.values().length];
    private final Histogram[] totals = new Histogram[SoakModel.Kind.values().length];
    private final Recorder allRecorder = new Recorder(3_600_000_000L, 3);
    private final Histogram allTotal = new Histogram(3_600_000_000L, 3);

    private final AtomicLong claimed = new AtomicLong();
    private volatile boolean timed;
    private volatile boolean stopping;
    private volatile String failure;
    private CountDownLatch seeded;
    private CountDownLatch quiet;
    /** INFO and RSS figures at start and end: used_memory, table_bytes, connected_clients, VmRSS. */
    private String[] startSnapshot;
    private String[] endSnapshot;
    private long verifiedRows;

    private Soak(SoakOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
        this.mix = o.cumulativeMix();
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
            recorders[i] = new Recorder(3_600_000_000L, 3);
            totals[i] = new Histogram(3_600_000_000L, 3);
        }
    }

    /** Runs {@code gen-benchmark soak ARGS}; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        SoakOptions o;
        try {
            o = SoakOptions.parse(args);
        } catch (SoakOptions.UsageException e) {
            err.println("soak: " + e.getMessage());
            err.print(SoakOptions.usage());
            return 2;
        }
        if (o.help) {
            out.print(SoakOptions.usage());
            return 0;
        }
        try {
            return new Soak(o, out).soak(err);
        } catch (IOException | RuntimeException e) {
            err.println("soak: FAILED: " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("soak: interrupted");
            return 1;
        }
    }

    private int soak(PrintStream err) throws IOException, InterruptedException {
        out.printf(Locale.ROOT, "soak: %s:%d, %d connections, mix insert/select/update/delete %d/%d/%d/%d,"
            + " %d seed rows and %d fk groups per connection, at most %.0f s or %d requests, seed %d%n",
            o.host, o.port, o.connections, o.mix[0], o.mix[1], o.mix[2], o.mix[3], o.seedRows, o.groups,
            o.durationSeconds, o.maxRequests, o.seed);
        try (Control control = new Control(o.host, o.port, 120_000)) {
            setUp(control);
            snapshot("start", control);
            EventLoopGroup group = new MultiThreadIoEventLoopGroup(o.threads, NioIoHandler.newFactory());
            long t0;
            long elapsed;
            try {
                seeded = new CountDownLatch(o.connections);
                quiet = new CountDownLatch(o.connections);
                List<Conn> conns = connect(group);
                if (!seeded.await(600, TimeUnit.SECONDS) && failure == null) {
                    fail("seeding did not finish within 600 s");
                }
                out.printf(Locale.ROOT, "soak: seeded %d rows%n", (long) o.connections * o.seedRows);
                t0 = System.nanoTime();
                if (failure == null) {
                    timed = true;
                    for (Conn c : conns) {
                        c.channel.eventLoop().execute(c::sendNext);
                    }
                    report(t0);
                }
                stopping = true;
                if (!timed) {
                    // Stopped before the clock started (a failure while seeding): idle
                    // connections stop on their next turn.
                    for (Conn c : conns) {
                        c.channel.eventLoop().execute(c::sendNext);
                    }
                }
                if (!quiet.await(60, TimeUnit.SECONDS) && failure == null) {
                    fail("requests still in flight 60 s after the end");
                }
                elapsed = System.nanoTime() - t0;
                if (failure == null) {
                    snapshot("end", control); // while the load's connections are still open
                }
                for (Conn c : conns) {
                    c.channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
                }
            } finally {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            }
            summary(elapsed);
            List<String> problems = failure != null ? List.of(failure) : verify(control);
            writeJson(elapsed, problems, err);
            if (!problems.isEmpty()) {
                for (String p : problems) {
                    err.println("soak: FAILED: " + p);
                }
                return 1;
            }
        }
        out.println("soak: OK");
        return 0;
    }

    /** {@code --json FILE}: the summary, per-statement figures and the server snapshots. */
    private void writeJson(long elapsedNanos, List<String> problems, PrintStream err) {
        if (o.jsonFile == null) {
            return;
        }
        double secs = elapsedNanos / 1e9;
        StringBuilder j = new StringBuilder("{\n");
        long total = 0;
        StringBuilder kinds = new StringBuilder();
        for (SoakModel.Kind k : SoakModel.Kind.values()) {
            if (k == SoakModel.Kind.SEED) {
                continue;
            }
            long c = counts[k.ordinal()].sum();
            total += c;
            kinds.append(kinds.length() == 0 ? "" : ",\n").append("    ")
                .append(Json.quote(k.name().toLowerCase(Locale.ROOT))).append(": ")
                .append(figures(c, secs, totals[k.ordinal()]));
        }
        j.append("  \"ok\": ").append(problems.isEmpty()).append(",\n");
        j.append("  \"problems\": [");
        for (int i = 0; i < problems.size(); i++) {
            j.append(i > 0 ? ", " : "").append(Json.quote(problems.get(i)));
        }
        j.append("],\n");
        j.append("  \"connections\": ").append(o.connections).append(",\n");
        j.append("  \"seed\": ").append(o.seed).append(",\n");
        j.append("  \"seconds\": ").append(Json.num(secs)).append(",\n");
        j.append("  \"verified_rows\": ").append(verifiedRows).append(",\n");
        j.append("  \"all\": ").append(figures(total, secs, allTotal)).append(",\n");
        j.append("  \"statements\": {\n").append(kinds).append("\n  },\n");
        j.append("  \"start\": ").append(snapshotJson(startSnapshot)).append(",\n");
        j.append("  \"end\": ").append(snapshotJson(endSnapshot)).append("\n}\n");
        try {
            Files.writeString(Path.of(o.jsonFile), j.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("soak: cannot write " + o.jsonFile + ": " + e.getMessage());
        }
    }

    private static String figures(long count, double secs, Histogram h) {
        return String.format(Locale.ROOT, "{\"requests\": %d, \"requests_per_second\": %s, \"p50_ms\": %s,"
            + " \"p99_ms\": %s, \"p999_ms\": %s, \"max_ms\": %s}", count, Json.num(count / secs),
            Json.num(ms(h.getValueAtPercentile(50))), Json.num(ms(h.getValueAtPercentile(99))),
            Json.num(ms(h.getValueAtPercentile(99.9))), Json.num(ms(h.getMaxValue())));
    }

    private static String snapshotJson(String[] snap) {
        if (snap == null) {
            return "null";
        }
        return "{\"used_memory\": " + Json.quote(snap[0]) + ", \"table_bytes\": " + Json.quote(snap[1])
            + ", \"connected_clients\": " + Json.quote(snap[2]) + ", \"vm_rss\": " + Json.quote(snap[3]) + "}";
    }

    private void setUp(Control control) throws IOException {
        expect(control.call("DROP", "TABLE", "IF", "EXISTS", SoakModel.TABLE), ':', "DROP TABLE");
        expect(control.call("CREATE", "TABLE", SoakModel.TABLE, "(id int primary key, fk int, v int)"), '+',
            "CREATE TABLE");
        expect(control.call("CREATE", "INDEX", SoakModel.TABLE + ":fk:index", "ON", SoakModel.TABLE, "(fk)"), '+',
            "CREATE INDEX");
        for (int c = 0; c < o.connections; c++) {
            models.add(new SoakModel(c, o.span(), o.groups, o.seedRows));
        }
    }

    private static void expect(Reply r, char type, String what) throws IOException {
        if (r.type() != type) {
            throw new IOException(what + " answered " + r);
        }
    }

    private List<Conn> connect(EventLoopGroup group) {
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
        List<Conn> conns = new ArrayList<>();
        List<ChannelFuture> futures = new ArrayList<>();
        for (SoakModel m : models) {
            Conn c = new Conn(m, new SplittableRandom(o.seed + 0x9E3779B97F4A7C15L * (m.conn + 1)));
            conns.add(c);
            ChannelFuture f = b.clone().handler(c).connect(o.host, o.port);
            c.channel = f.channel();
            futures.add(f);
        }
        List<Conn> connected = new ArrayList<>();
        for (int i = 0; i < futures.size(); i++) {
            ChannelFuture f = futures.get(i);
            f.awaitUninterruptibly();
            if (f.isSuccess()) {
                connected.add(conns.get(i));
            } else {
                // This connection will never run: count it as seeded and stopped.
                fail("cannot connect to " + o.host + ":" + o.port + ": " + f.cause());
                seeded.countDown();
                quiet.countDown();
            }
        }
        return connected;
    }

    /** Prints one line per interval until the duration or the request budget is used up. */
    private void report(long t0) throws InterruptedException {
        long deadline = t0 + (long) (o.durationSeconds * 1e9);
        long last = t0;
        long[] lastCounts = new long[counts.length];
        Histogram interval = null;
        Histogram[] perKind = new Histogram[counts.length];
        while (failure == null) {
            long now = System.nanoTime();
            long wait = Math.min(deadline - now, (long) (o.intervalSeconds * 1e9) - (now - last));
            if (wait > 0 && quiet.await(wait, TimeUnit.NANOSECONDS)) {
                break; // every connection stopped: the request budget is used up
            }
            now = System.nanoTime();
            if (now - last >= (long) (o.intervalSeconds * 1e9) || now >= deadline) {
                interval = allRecorder.getIntervalHistogram(interval);
                allTotal.add(interval);
                StringBuilder kinds = new StringBuilder();
                double secs = (now - last) / 1e9;
                long total = 0;
                for (SoakModel.Kind k : SoakModel.Kind.values()) {
                    int i = k.ordinal();
                    perKind[i] = recorders[i].getIntervalHistogram(perKind[i]);
                    totals[i].add(perKind[i]);
                    long c = counts[i].sum();
                    if (k != SoakModel.Kind.SEED) {
                        kinds.append(String.format(Locale.ROOT, " %s %.0f", k.name().toLowerCase(Locale.ROOT),
                            (c - lastCounts[i]) / secs));
                        total += c - lastCounts[i];
                    }
                    lastCounts[i] = c;
                }
                out.printf(Locale.ROOT, "[%6.1fs] %.0f req/s (%s) p50 %.3f ms p99 %.3f ms max %.3f ms%n",
                    (now - t0) / 1e9, total / secs, kinds.toString().trim(), ms(interval.getValueAtPercentile(50)),
                    ms(interval.getValueAtPercentile(99)), ms(interval.getMaxValue()));
                out.flush();
                last = now;
            }
            if (now >= deadline) {
                break;
            }
        }
    }

    private void summary(double elapsedNanos) {
        allTotal.add(allRecorder.getIntervalHistogram());
        long total = 0;
        StringBuilder kinds = new StringBuilder();
        for (SoakModel.Kind k : SoakModel.Kind.values()) {
            int i = k.ordinal();
            totals[i].add(recorders[i].getIntervalHistogram());
            if (k == SoakModel.Kind.SEED) {
                continue;
            }
            long c = counts[i].sum();
            total += c;
            Histogram h = totals[i];
            kinds.append(String.format(Locale.ROOT, "%n  %-7s %10d requests %9.0f req/s  p50 %.3f ms  p99 %.3f ms"
                + "  p99.9 %.3f ms  max %.3f ms", k.name().toLowerCase(Locale.ROOT), c, c / (elapsedNanos / 1e9),
                ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)),
                ms(h.getMaxValue())));
        }
        out.printf(Locale.ROOT, "soak: summary: %d requests in %.1f s, %.0f req/s, %d connections;"
            + " p50 %.3f ms p99 %.3f ms p99.9 %.3f ms max %.3f ms%s%n", total, elapsedNanos / 1e9,
            total / (elapsedNanos / 1e9), o.connections, ms(allTotal.getValueAtPercentile(50)),
            ms(allTotal.getValueAtPercentile(99)), ms(allTotal.getValueAtPercentile(99.9)),
            ms(allTotal.getMaxValue()), kinds);
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    /** Server memory and clients from INFO, and its RSS when the pid is known. */
    private void snapshot(String when, Control control) throws IOException {
        Reply memory = control.call("INFO", "memory");
        Reply clients = control.call("INFO", "clients");
        String[] snap = {field(memory, "used_memory"), field(memory, "table_bytes"),
            field(clients, "connected_clients"), rss()};
        out.printf(Locale.ROOT, "soak: %s: used_memory %s, table_bytes %s, connected_clients %s, server VmRSS %s%n",
            when, snap[0], snap[1], snap[2], snap[3]);
        if (when.equals("start")) {
            startSnapshot = snap;
        } else {
            endSnapshot = snap;
        }
    }

    private static String field(Reply info, String name) {
        if (info.text() != null) {
            for (String line : info.text().split("\r?\n")) {
                if (line.startsWith(name + ":")) {
                    return line.substring(name.length() + 1).trim();
                }
            }
        }
        return "?";
    }

    private String rss() {
        if (o.serverPid <= 0) {
            return "? (no --server-pid)";
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + o.serverPid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return line.substring(6).trim();
                }
            }
        } catch (IOException e) {
            return "? (" + e.getMessage() + ")";
        }
        return "?";
    }

    /** Compares the table with the models: every row, then every fk group's count via the index. */
    private List<String> verify(Control control) throws IOException {
        long t0 = System.nanoTime();
        Reply listing = control.call("SELECT", "id,fk,v", "FROM", SoakModel.TABLE, "ORDER", "BY", "id");
        if (!listing.isArray()) {
            return List.of("full listing answered " + listing);
        }
        List<String> problems = compare(models, listing.items());
        verifiedRows = listing.items().size();
        long groups = 0;
        // Pipelined, so two thousand counts take one round trip's worth of waiting.
        for (SoakModel m : models) {
            for (int g = 0; g < m.groups; g++) {
                control.send("SELECT", "COUNT(*)", "FROM", SoakModel.TABLE, "WHERE", "fk = " + m.fkOfGroup(g));
            }
        }
        for (SoakModel m : models) {
            for (int g = 0; g < m.groups; g++) {
                Reply r = control.read();
                groups++;
                if (!r.isInteger(m.groupCount(g)) && problems.size() < MAX_FAILURES_SHOWN) {
                    problems.add("fk " + m.fkOfGroup(g) + ": COUNT(*) through the index is " + r + ", the model has "
                        + m.groupCount(g) + " rows");
                }
            }
        }
        out.printf(Locale.ROOT, "soak: verified %d rows and %d fk-group counts against the model in %.1f s: %s%n",
            listing.items().size(), groups, (System.nanoTime() - t0) / 1e9,
            problems.isEmpty() ? "all match" : "MISMATCH");
        return problems;
    }

    /**
     * Compares a full listing ({@code id,fk,v} rows ordered by id) with the models; returns up
     * to {@value #MAX_FAILURES_SHOWN} differences and a count of all of them.
     */
    static List<String> compare(List<SoakModel> models, List<String> rows) {
        List<String> problems = new ArrayList<>();
        long differences = 0;
        int at = 0;
        for (SoakModel m : models) {
            for (int l = m.nextPresent(0); l >= 0; l = m.nextPresent(l + 1)) {
                String want = m.expectedRow(l);
                long id = m.id(l);
                // Rows the models do not have, with smaller ids, come first.
                while (at < rows.size() && idOf(rows.get(at)) < id) {
                    differences++;
                    note(problems, "unexpected row " + rows.get(at));
                    at++;
                }
                if (at < rows.size() && idOf(rows.get(at)) == id) {
                    if (!rows.get(at).equals(want)) {
                        differences++;
                        note(problems, "row id " + id + " is " + rows.get(at) + ", the model has " + want);
                    }
                    at++;
                } else {
                    differences++;
                    note(problems, "row " + want + " is missing");
                }
            }
        }
        for (; at < rows.size(); at++) {
            differences++;
            note(problems, "unexpected row " + rows.get(at));
        }
        if (differences > problems.size()) {
            problems.add("... " + differences + " differences in all");
        }
        return problems;
    }

    private static void note(List<String> problems, String p) {
        if (problems.size() < MAX_FAILURES_SHOWN) {
            problems.add(p);
        }
    }

    private static long idOf(String row) {
        int comma = row.indexOf(',');
        try {
            return Long.parseLong(comma < 0 ? row : row.substring(0, comma));
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE; // reported as an unexpected row
        }
    }

    private void fail(String why) {
        if (failure == null) {
            failure = why;
        }
        stopping = true;
    }

    /** One connection: all its methods run on its event loop. */
    private final class Conn extends ChannelInboundHandlerAdapter {
        private final SoakModel model;
        private final SplittableRandom random;
        /** Set by the starting thread and again by channelActive (which may run first), both the same channel. */
        volatile Channel channel;
        private ByteBuf pending;
        private SoakModel.Kind kind;
        private long sentAt;
        private boolean done;

        Conn(SoakModel model, SplittableRandom random) {
            this.model = model;
            this.random = random;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            // Set here, on the connection's own loop, before the first send: channelActive can run
            // before connect() has even returned to the thread that started it.
            channel = ctx.channel();
            pending = ctx.alloc().buffer(256);
            if (model.seeding()) {
                send(model.nextSeed());
            } else {
                seeded.countDown();
            }
        }

        void sendNext() {
            if (done) {
                return;
            }
            if (stopping || claimed.incrementAndGet() > o.maxRequests) {
                done = true;
                quiet.countDown();
                return;
            }
            send(model.next(random, mix));
        }

        private void send(SoakModel.Op op) {
            kind = op.kind;
            ByteBuf buf = channel.alloc().buffer(128);
            ByteBufUtil.writeAscii(buf, "*" + op.words.length + "\r\n");
            for (String w : op.words) {
                ByteBufUtil.writeAscii(buf, "$" + w.length() + "\r\n");
                buf.writeCharSequence(w, StandardCharsets.US_ASCII);
                buf.writeShort(('\r' << 8) | '\n');
            }
            sentAt = System.nanoTime();
            channel.writeAndFlush(buf, channel.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                pending.writeBytes(in);
            } finally {
                in.release();
            }
            try {
                Reply r = Reply.parse(pending);
                if (r == null) {
                    return;
                }
                long micros = (System.nanoTime() - sentAt) / 1000;
                if (pending.isReadable()) {
                    stop("bytes after a reply with one request in flight");
                    return;
                }
                pending.clear();
                String problem = model.acknowledge(r);
                if (problem != null) {
                    stop("connection " + model.conn + ": " + model.describe() + ": " + problem);
                    return;
                }
                counts[kind.ordinal()].increment();
                recorders[kind.ordinal()].recordValue(Math.max(1, micros));
                if (kind != SoakModel.Kind.SEED) {
                    allRecorder.recordValue(Math.max(1, micros));
                }
                if (stopping) {
                    finish();
                } else if (model.seeding()) {
                    send(model.nextSeed());
                } else if (kind == SoakModel.Kind.SEED) {
                    seeded.countDown();
                } else {
                    sendNext();
                }
            } catch (Reply.BadReply e) {
                stop("connection " + model.conn + ": bad reply to " + model.describe() + ": " + e.getMessage());
            }
        }

        private void stop(String why) {
            fail(why);
            finish();
            channel.close();
        }

        private void finish() {
            if (!done) {
                done = true;
                quiet.countDown();
                if (!timed) {
                    seeded.countDown();
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!done) {
                fail("connection " + model.conn + " closed by the server during " + model.describe());
                finish();
            }
            if (pending != null) {
                pending.release();
                pending = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail("connection " + model.conn + ": " + cause);
            finish();
            ctx.close();
        }
    }
}
