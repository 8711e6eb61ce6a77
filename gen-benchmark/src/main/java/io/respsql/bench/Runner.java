package io.respsql.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives the connections: each keeps exactly one request in flight; a connection whose reply
 * is complete claims the next request number from a counter shared by all connections, so
 * exactly {@code -n} requests are sent and the keys of a sequential run are 1..n.
 *
 * <p>Latency is taken per request from just before it is written to just after the last byte
 * of its reply is read.
 */
public final class Runner implements AutoCloseable {

    private final Options o;
    private final RequestTemplate template;
    private final PrintStream err;
    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final String transportName;
    private final long seed;
    private long keyBase;

    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    public Runner(Options o, PrintStream err) {
        this.o = o;
        this.err = err;
        this.template = new RequestTemplate(o.words, o.moduli);
        boolean epoll = switch (o.transport) {
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("epoll transport unavailable: "
                            + Epoll.unavailabilityCause());
                }
                yield true;
            }
            case NIO -> false;
            case AUTO -> Epoll.isAvailable();
        };
        IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(o.threads, factory);
        this.channelClass = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        this.transportName = epoll ? "epoll" : "nio";
        this.seed = o.seed != null ? o.seed : System.nanoTime();
    }

    public String transportName() {
        return transportName;
    }

    public RequestTemplate template() {
        return template;
    }

    /** Runs one round of exactly {@code o.requests} requests. */
    public Result runRound() throws InterruptedException {
        Round round = new Round(o.requests, keyBase);
        keyBase += o.requests;
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(channelClass)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000);
        List<Conn> conns = new ArrayList<>(o.clients);
        List<ChannelFuture> futures = new ArrayList<>(o.clients);
        for (int i = 0; i < o.clients; i++) {
            Conn c = new Conn(round, new SplittableRandom(seed + 0x9E3779B97F4A7C15L * (keyBase + i)));
            conns.add(c);
            futures.add(b.clone().handler(c).connect(o.host, o.port));
        }
        String connectError = null;
        for (ChannelFuture f : futures) {
            f.awaitUninterruptibly();
            if (!f.isSuccess() && connectError == null) {
                Throwable t = f.cause();
                connectError = "cannot connect to " + o.host + ":" + o.port + ": "
                        + (t == null ? "unknown error" : t.getMessage());
            }
        }
        if (connectError != null) {
            closeAll(round, futures);
            return new Result(o.requests, 0, round.mergedStats(), connectError);
        }

        // Warm-up: PINGs on every connection (at least one each) before the clock starts. It
        // checks that each connection is answered and loads the client's own code paths, so the
        // first timed requests do not pay for class loading. None of it is counted.
        for (Conn c : conns) {
            c.ctx.channel().eventLoop().execute(c::warmNext);
        }
        round.warmDone.await();
        if (round.failure != null) {
            closeAll(round, futures);
            return new Result(o.requests, 0, round.mergedStats(), round.failure);
        }

        ScheduledFuture<?> progress = null;
        long cpuStart = processCpuNanos();
        long start = System.nanoTime();
        round.start = start;
        if (o.progress) {
            long every = (long) (o.progressIntervalSeconds * 1e9);
            progress = group.next().scheduleAtFixedRate(round::printProgress, every, every,
                    TimeUnit.NANOSECONDS);
        }
        for (Conn c : conns) {
            c.ctx.channel().eventLoop().execute(c::startTimed);
        }
        round.done.await();
        long end = round.endNanos != 0 ? round.endNanos : System.nanoTime();
        long cpuEnd = processCpuNanos();
        if (progress != null) {
            progress.cancel(false);
        }
        closeAll(round, futures);
        Stats stats = round.mergedStats();
        String failure = round.failure;
        if (failure == null && stats.samples() != o.requests) {
            failure = "internal error: " + stats.samples() + " latency samples for " + o.requests
                    + " requests";
        }
        return new Result(o.requests, end - start, stats, failure,
                cpuStart < 0 || cpuEnd < 0 ? -1 : cpuEnd - cpuStart);
    }

    /** CPU time of this process (all threads: event loops, JIT, GC), or -1 if not available. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os =
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    private static void closeAll(Round round, List<ChannelFuture> futures) {
        round.closing = true;
        List<ChannelFuture> closes = new ArrayList<>();
        for (ChannelFuture f : futures) {
            Channel ch = f.channel();
            if (ch != null) {
                closes.add(ch.close());
            }
        }
        for (ChannelFuture c : closes) {
            c.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** State shared by the connections of one round. */
    private final class Round {
        final long n;
        final long keyBase;
        final AtomicLong claimed = new AtomicLong();
        final AtomicLong completed = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicLong warmClaimed = new AtomicLong();
        final CountDownLatch warmDone = new CountDownLatch(o.clients);
        final ConcurrentHashMap<EventLoop, Stats> stats = new ConcurrentHashMap<>();
        volatile long endNanos;
        volatile String failure;
        volatile boolean closing;
        volatile long start;
        long lastProgressAt;
        long lastProgressCount;

        Round(long n, long keyBase) {
            this.n = n;
            this.keyBase = keyBase;
        }

        /** Index (0-based) of the next request to send, or -1 when all are claimed. */
        long claim() {
            if (failure != null) {
                return -1;
            }
            long i = claimed.getAndIncrement();
            return i < n ? i : -1;
        }

        void completedOne(long now) {
            if (completed.incrementAndGet() == n) {
                endNanos = now;
                done.countDown();
            }
        }

        void fail(String why) {
            if (failure == null && !closing) {
                failure = why;
                done.countDown();
                while (warmDone.getCount() > 0) {
                    warmDone.countDown();
                }
            }
        }

        Stats statsFor(EventLoop loop) {
            return stats.computeIfAbsent(loop, l -> new Stats());
        }

        Stats mergedStats() {
            Stats s = new Stats();
            for (Stats t : stats.values()) {
                s.merge(t);
            }
            return s;
        }

        void printProgress() {
            long now = System.nanoTime();
            long count = completed.get();
            long since = lastProgressAt == 0 ? start : lastProgressAt;
            double recent = (count - lastProgressCount) / ((now - since) / 1e9);
            double overall = count / ((now - start) / 1e9);
            lastProgressAt = now;
            lastProgressCount = count;
            long bad = failures.get();
            err.printf(Locale.ROOT, "gen-benchmark: %d/%d requests (%.1f%%), %.0f req/s now,"
                    + " %.0f req/s average, %.1f s%s%n", count, n, 100.0 * count / n, recent,
                    overall, (now - start) / 1e9, bad == 0 ? "" : ", " + bad + " bad replies");
        }
    }

    /** One connection; all its methods run on its event loop. */
    private final class Conn extends ChannelInboundHandlerAdapter {
        private final Round round;
        private final SplittableRandom random;
        private final ReplyParser parser = new ReplyParser(o.expect);
        private final ReplyParser warmParser = new ReplyParser(ReplyType.ANY);
        private final Stats warmStats = new Stats();
        private boolean warming = true;
        private boolean warmedOnce;
        private ByteBuf ping;
        private final boolean substitute;
        ChannelHandlerContext ctx;
        private ByteBuf request;
        private Stats stats;
        private long sentAt;
        private boolean inFlight;

        Conn(Round round, SplittableRandom random) {
            this.round = round;
            this.random = random;
            this.substitute = o.keyMode != Options.KeyMode.NONE && template.tokenCount() > 0;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            this.request = newRequestBuffer(ctx);
            this.stats = round.statsFor(ctx.channel().eventLoop());
        }

        private ByteBuf newRequestBuffer(ChannelHandlerContext ctx) {
            ByteBuf buf = ctx.alloc().directBuffer(template.length(), template.length());
            template.copyTo(buf);
            buf.writerIndex(template.length());
            return buf;
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (request != null) {
                request.release();
                request = null;
            }
            if (ping != null) {
                ping.release();
                ping = null;
            }
        }

        void warmNext() {
            if (round.failure != null) {
                return;
            }
            if (warmedOnce && round.warmClaimed.getAndIncrement() >= o.warmup) {
                round.warmDone.countDown();
                return;
            }
            if (!warmedOnce) {
                round.warmClaimed.getAndIncrement();
                warmedOnce = true;
                ping = ctx.alloc().directBuffer(PING.length, PING.length).writeBytes(PING);
                if (substitute) {
                    // Exercise the token writer once on a scratch copy.
                    ByteBuf scratch = newRequestBuffer(ctx);
                    template.fill(scratch, 1);
                    scratch.release();
                }
            }
            ping.setIndex(0, PING.length);
            inFlight = true;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(ping.retain(), ctx.voidPromise());
        }

        void startTimed() {
            warming = false;
            sendNext();
        }

        void sendNext() {
            long i = round.claim();
            if (i < 0) {
                return;
            }
            if (request.refCnt() != 1) {
                // Still held by a write that has not finished: never overwrite bytes in flight.
                request.release();
                request = newRequestBuffer(ctx);
            }
            if (substitute) {
                long number = number(i);
                if (number < 0) {
                    return;
                }
                template.fill(request, number);
            }
            request.setIndex(0, template.length());
            inFlight = true;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(request.retain(), ctx.voidPromise());
        }

        private long number(long i) {
            if (o.keyMode == Options.KeyMode.RANDOM) {
                return random.nextLong(o.randomRange);
            }
            long k = round.keyBase + i;
            long number = Options.lastSequential(k + 1, o.step);
            if (number > Options.MAX_KEY) {
                round.fail("key counter passed 12 digits at request " + (k + 1));
                return -1;
            }
            return number;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                while (in.isReadable()) {
                    if (!inFlight) {
                        round.fail("reply bytes arrived with no request in flight");
                        ctx.close();
                        return;
                    }
                    if (warming) {
                        if (!warmParser.parse(in)) {
                            break;
                        }
                        long now = System.nanoTime();
                        inFlight = false;
                        warmStats.record(now - sentAt, warmParser.replyType(), warmParser.intValue(),
                                warmParser.replyText(), ReplyType.ANY, now);
                        warmNext();
                        continue;
                    }
                    if (!parser.parse(in)) {
                        break;
                    }
                    long now = System.nanoTime();
                    long latency = now - sentAt;
                    inFlight = false;
                    byte type = parser.replyType();
                    long intValue = parser.intValue();
                    String text = parser.replyText();
                    sendNext();
                    stats.record(latency, type, intValue, text, o.expect, now);
                    if (text != null) {
                        round.failures.incrementAndGet();
                    }
                    round.completedOne(now);
                }
            } catch (ReplyParser.ProtocolException e) {
                round.fail("bad reply from server: " + e.getMessage());
                ctx.close();
            } finally {
                in.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (round.completed.get() < round.n) {
                round.fail("server closed a connection after " + round.completed.get() + " of "
                        + round.n + " replies");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            round.fail("connection error: " + (cause instanceof IOException ? cause.getMessage()
                    : cause.toString()));
            ctx.close();
        }
    }
}
