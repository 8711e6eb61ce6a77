package io.respsql.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.respsql.expr.Cancellation;
import io.respsql.info.DeferredCall;
import io.respsql.plan.PlannedQuery;
import io.respsql.plan.StatementPlanner;
import io.respsql.result.WorkerReply;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.ReadView;
import io.respsql.storage.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Runs long read-only statements on worker threads against a {@link ReadView} (issue 11 §4), so
 * the event loop keeps serving other clients.
 *
 * <p>Event loop: after a query is planned, {@link #offer} estimates the rows its scans visit;
 * above {@code bg-query-min-rows} it takes a read view of the tables the query reads (the data as
 * of the request's arrival), blocks the client's further requests ({@link QueryClient#block()}, as WAIT
 * does, so replies stay in request order) and hands the statement to a worker. The worker plans it
 * again against the view (no indexes there: the plan scans) and runs it into a private reply in
 * the connection's reply form and protocol ({@link WorkerReply.Form}, chosen by the command and
 * encoded by {@code protocol/}: nothing here knows RESP); the bytes come back through
 * {@code eventLoop.execute}, which writes them, releases the view and unblocks the client.
 *
 * <p>Cancellation (statement timeout, the connection closing, CLIENT KILL) sets a flag the scans
 * read once per batch; the statement then fails with {@code -ERR query cancelled: ...}. Any error
 * of the worker, an OutOfMemoryError included, becomes the statement's error reply; the view is
 * always released.
 *
 * <p>Stats: the command's call, time (INFO commandstats), LATENCY sample and SLOWLOG entry are
 * recorded once, in {@link #finish} on the event loop, through the dispatcher's
 * {@link DeferredCall} taken when the statement is handed off. The time counted runs from the
 * handler's start on the event loop (parse, plan, estimate, read view, hand-off) through the wait
 * for a worker and the worker's run (planning against the view, execution, encoding; chunks of a
 * streamed reply written on the way) and the wait for the event loop to take the finished job, to
 * the moment the reply's last bytes are written to the connection. A statement cancelled (timeout,
 * CLIENT KILL, the connection closing) or cut short is recorded as well, as a failed call, when
 * its worker returns.
 */
public final class BackgroundQueries implements SqlEngine.Offload {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundQueries.class);

    /**
     * Test hook: when set, each worker calls it with the statement's cancellation before planning
     * (a latch that parks the query until released or cancelled).
     */
    public static volatile java.util.function.Consumer<Cancellation> testHold;

    private final Catalog catalog;
    private final EventLoop loop;
    /** Output limits (client-output-buffer-limit normal) and the counters INFO shows. */
    private final io.respsql.config.ServerConfig config;
    private final io.respsql.info.ServerStats stats;
    private final LongSupplier minRows;
    private final LongSupplier timeoutMillis;
    private final ExecutorService workers;
    /** The short lane: workers at normal priority for statements estimated under bg-query-short-rows. */
    private final ExecutorService shortWorkers;
    /** Stripes one statement may be split into (bg-query-threads; {@link io.respsql.exec.op.Morsels}). */
    private final int degree;
    private final LongSupplier shortRows;
    /** Statements run on the short lane (INFO bg_queries_short). */
    private long shortTotal;
    /** Set by {@link #cancelAll} (shutdown), never cleared: a job published after it is stopped at once. */
    private volatile String shuttingDown;
    /** Event loop; also read by {@link #cancelAll} from the shutdown thread, hence synchronized. */
    private final Set<Job> running = java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    private long total;
    private long cancelled;
    /** Statements that waited for a slow reader (output backpressure), and workers waiting now. */
    private final AtomicLong pacedStatements = new AtomicLong();
    private final AtomicInteger waitingForReader = new AtomicInteger();
    /** How long a worker waiting for its reader parks between checks of its cancellation. */
    private static final long WAIT_SLICE_NANOS = 20_000_000L;
    /** Statements that overran loop-statement-max-ms inline and were run again here. */
    private long moved;
    /** Takes the running command's stats from the dispatcher (deferCall); default: nothing recorded. */
    private java.util.function.Supplier<DeferredCall> calls = () -> null;

    /** The request being served ({@link #forRequest}); event loop only. */
    private QueryClient session;
    private WorkerReply.Form form;
    /** When the request being served started (nanoTime): a statement timeout counts from here. */
    private long requestStart;

    public BackgroundQueries(Catalog catalog, EventLoop loop, io.respsql.config.ServerConfig config,
                             io.respsql.info.ServerStats stats) {
        this(catalog, loop, config.bgQueryThreads(), config::bgQueryMinRows, config::queryTimeoutMs, config, stats);
    }

    BackgroundQueries(Catalog catalog, EventLoop loop, int threads, LongSupplier minRows, LongSupplier timeoutMillis,
                      io.respsql.config.ServerConfig config, io.respsql.info.ServerStats stats) {
        this.config = config;
        this.stats = stats;
        this.catalog = catalog;
        this.loop = loop;
        this.minRows = minRows;
        this.timeoutMillis = timeoutMillis;
        this.degree = Math.max(1, threads);
        this.workers = pool("respsql-query-", threads, Thread.MIN_PRIORITY);
        this.shortWorkers = pool("respsql-query-short-", threads, Thread.NORM_PRIORITY);
        this.shortRows = config == null ? () -> 0 : config::bgQueryShortRows;
    }

    // ---- parallel ----
    /**
     * A fixed pool of daemon workers at Java priority {@code priority}. The JVM applies Java
     * priorities only with -XX:ThreadPriorityPolicy=1, which scripts/respsql-server sets with
     * MIN_PRIORITY mapped to nice 19 and NORM_PRIORITY to nice 0 (docs/engine.md); otherwise every
     * thread runs at nice 0. The long lane (MIN_PRIORITY) makes the event loop win the CPU whenever
     * it has work: a worker that shares its core delays each of its wake-ups by up to a scheduler
     * slice. The short lane (NORM_PRIORITY) serves statements estimated under
     * {@code bg-query-short-rows}: a few milliseconds of work that a nice-19 thread could wait for
     * for hundreds of milliseconds on a host busy with other processes (issue 27).
     */
    public static ExecutorService pool(String prefix, int threads, int priority) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            t.setPriority(priority);
            return t;
        });
    }

    /**
     * Runs {@code p} (planned against a read view, on a worker) with {@code morsels} as the thread's
     * parallel context, so that its operators may split their scans over the pool's workers; a
     * plan with subqueries runs serially (a subquery keeps its result in its plan per context).
     */
    public static void runSplit(PlannedQuery p, io.respsql.result.ResultSink sink, Cancellation cancel,
                                io.respsql.exec.op.Morsels morsels) {
        if (morsels == null || p.hasSubqueries()) {
            p.run(sink, cancel);
            return;
        }
        io.respsql.exec.op.Morsels.enter(morsels);
        try {
            p.run(sink, cancel);
        } finally {
            io.respsql.exec.op.Morsels.exit();
        }
    }

    /** Whether a statement estimated at {@code rows} (not moved off the loop) takes the short lane. */
    public static boolean shortLane(long rows, long shortRows, boolean movedOff) {
        return !movedOff && shortRows > 0 && rows < shortRows;
    }

    /** Where an offloaded statement's stats are deferred to (the dispatcher's {@code deferCall}). */
    public BackgroundQueries calls(java.util.function.Supplier<DeferredCall> deferral) {
        this.calls = deferral == null ? () -> null : deferral;
        return this;
    }

    /**
     * Points the offer at the request about to run (event loop): its client and reply form (typed
     * QUERY or the 2010 rows, in the connection's protocol). Returns this (null without a client). With
     * bg-query-min-rows 0 nothing is offloaded by its estimate, but a statement that overruns
     * loop-statement-max-ms inline still moves here.
     */
    public SqlEngine.Offload forRequest(QueryClient s, WorkerReply.Form replyForm) {
        if (s == null) {
            return null;
        }
        this.session = s;
        this.form = replyForm;
        this.requestStart = System.nanoTime();
        return this;
    }

    /** Rows the plan's scans visit ({@link PlannedQuery#estimatedRowsTouched()}): offloaded from {@code bg-query-min-rows} on. */
    static long estimate(PlannedQuery plan, io.respsql.expr.ParamValues params) {
        return plan.estimatedRowsTouched(params);
    }

    /**
     * The read view a worker runs {@code plan} against: {@code views}' image of the tables it
     * reads, and the system relations (pg_class, ...) the plan built on the event loop from the live
     * catalog (indexes, constraints, sequences), which the worker can neither read nor find in the
     * view. Both protocols' offloads take their view here.
     */
    public static ReadView viewFor(java.util.function.Function<java.util.Collection<Table>, ReadView> views, PlannedQuery plan) {
        return views.apply(new ArrayList<>(new LinkedHashSet<>(plan.tablesRead()))).systemRelations(plan.systemRelations());
    }

    @Override
    public boolean wouldOffload(PlannedQuery plan, io.respsql.expr.ParamValues params) {
        long threshold = minRows.getAsLong();
        return session != null && threshold > 0 && !plan.tablesRead().isEmpty() && estimate(plan, params) >= threshold;
    }

    @Override
    public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan) {
        return offer(q, sql, plan, false);
    }

    @Override
    public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan, boolean movedOff) {
        return offer(q, sql, plan, movedOff, catalog::readView);
    }

    @Override
    public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan, boolean movedOff,
                         java.util.function.Function<java.util.Collection<Table>, ReadView> views) {
        QueryClient s = session;
        long threshold = minRows.getAsLong();
        // bg-query-min-rows 0: by estimate never, but a statement over loop-statement-max-ms still moves.
        long rows = s == null || movedOff || threshold <= 0 || plan.tablesRead().isEmpty() ? 0 : estimate(plan, null);
        if (s == null || (!movedOff && (threshold <= 0 || plan.tablesRead().isEmpty() || rows < threshold))) {
            return false; // the request keeps its client: the statement may still move (offer(..., true))
        }
        if (movedOff && shuttingDown != null) {
            return false; // shutting down: the statement stops with its error, it does not move
        }
        session = null;
        Channel ch = s.channel();
        if (!ch.isActive()) {
            return false;
        }
        // the engine's image (a transaction's snapshot, or the live tables, its own uncommitted writes included)
        ReadView view = viewFor(views, plan);
        Job job = new Job(s, q, sql, view, form);
        job.call = calls.get();
        long timeout = s.statementTimeoutMs() >= 0 ? s.statementTimeoutMs() : timeoutMillis.getAsLong();
        String why = timeout > 0 ? SqlEngine.timeoutReason(timeout) : null;
        // Counted from the request's start (an inline attempt included). Armed before the job is
        // published in running: arming clears a cancellation, and cancelAll must not be wiped.
        long deadline = io.respsql.expr.Cancellation.deadline(requestStart, timeout);
        if (timeout > 0) {
            job.cancel.arm(deadline, why, 0, null);
        }
        running.add(job);
        String down = shuttingDown; // read after the add: cancelAll either sees the job or we see this
        if (down != null) {
            job.cancel.shutDown(down);
        }
        total++;
        s.block();
        if (movedOff) {
            moved++;
        }
        if (timeout > 0) {
            // The worker's own checks read the deadline (once per batch), so it fires on time
            // whatever the event loop is doing; the timer also wakes a statement parked before its first check.
            job.timer = loop.schedule(() -> job.cancel.cancel(why),
                    Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        job.closeListener = f -> job.cancel.cancel("query cancelled: connection closed");
        ch.closeFuture().addListener(job.closeListener);
        boolean quick = shortLane(rows, shortRows.getAsLong(), movedOff);
        if (quick) {
            shortTotal++;
        }
        ExecutorService lane = quick ? shortWorkers : workers;
        // only the long lane splits: its helpers run at nice 19 too, so the event loop keeps its core;
        // a short statement's few milliseconds stay on one thread at the loop's priority
        job.morsels = degree > 1 && !quick
                ? new io.respsql.exec.op.Morsels(lane, degree, config == null ? io.respsql.storage.Chunks.SIZE : config.bgQueryMorselRows())
                : null;
        try {
            lane.execute(job::runOnWorker);
        } catch (RuntimeException e) { // pool shut down: answer now
            job.reply = job.form.error(job.errorText = "ERR internal error: " + e);
            finish(job);
        }
        return true;
    }

    /**
     * One statement in the background: what the worker needs and what it hands back. A reply larger
     * than a chunk is streamed as inline ones are: each full chunk goes to the
     * event loop to be written at once, under the same output limits; once a chunk has left, a
     * failure can no longer be answered with an error, so the connection closes (as inline).
     */
    private final class Job implements WorkerReply.Chunks {
        final QueryClient session;
        final Statement.QueryStatement q;
        final String sql;
        final ReadView view;
        final WorkerReply.Form form;
        final Cancellation cancel = new Cancellation();
        /** Its stripes' pool and degree (the lane it runs on), or null: run serially. */
        io.respsql.exec.op.Morsels morsels;
        ScheduledFuture<?> timer;
        /** The command's stats, recorded in finish (null: not recorded, e.g. unit tests). */
        DeferredCall call;
        io.netty.util.concurrent.GenericFutureListener<io.netty.util.concurrent.Future<? super Void>> closeListener;
        /** Written by the worker before the hand-off to the event loop. */
        ByteBuf reply;
        /** Chunks handed to the event loop (worker only); after one, the reply cannot become an error. */
        int chunks;
        /** The reply was cut short (a failure after a chunk left, or the output limit): close. */
        boolean broken;
        boolean outputLimitHit;
        /** The error the reply is (without '-'), or null: counted by its text, not read back from the reply. */
        String errorText;
        /** Set in finish: the reply was an error, was cut short or could not be written. */
        boolean failed;
        /** Bytes of chunks handed over and not yet written to the channel (worker adds, loop subtracts). */
        final java.util.concurrent.atomic.AtomicLong queued = new java.util.concurrent.atomic.AtomicLong();
        /** The worker parked in {@link #waitForReader}, or null; unparked by {@link #drained}. */
        volatile Thread waiter;
        /** Pending output at which a waiting worker resumes (half the soft limit). */
        volatile long lowWater;
        /** This statement has waited for its reader at least once (counted once in INFO). */
        boolean paced;
        /** Event loop, as each chunk's write completes (or fails): wakes a worker waiting for the reader. */
        final io.netty.channel.ChannelFutureListener drained = f -> {
            Thread t = waiter;
            if (t != null && (!f.isSuccess() || pending() <= lowWater)) {
                LockSupport.unpark(t);
            }
        };

        @Override
        public void chunk(ByteBuf chunk) {
            chunks++;
            int n = chunk.readableBytes();
            queued.addAndGet(n);
            loop.execute(() -> sendChunk(this, chunk, n));
            long hard = config.outputHardLimit();
            if (hard > 0 && pending() > hard) {
                outputLimit("output buffer limit reached");
            }
            waitForReader();
        }

        /** Unsent bytes of this connection: in the channel, plus chunks not yet taken by the event loop. */
        long pending() {
            return session.pendingOutputBytes() + queued.get();
        }

        /**
         * Output backpressure (issue 22): past the soft limit of the normal class the reply is
         * produced only as fast as the client reads it. The worker parks until the connection's
         * unsent output drains to half the soft limit, woken by the event loop when a chunk's
         * write completes ({@link #drained}) and every {@link #WAIT_SLICE_NANOS} to check its
         * cancellation. Redis disconnects a client over the soft limit for {@code seconds}; a paced
         * stream sits at the soft limit by design, so here the seconds count from the reader's last
         * progress: a client that reads nothing at all for that long is disconnected (counted as
         * an output-limit disconnection) and the statement stops. Without a soft limit (0) nothing
         * waits and only the hard limit applies, as before.
         */
        private void waitForReader() {
            long soft = config.outputSoftLimit();
            long pending = pending();
            if (soft <= 0 || pending <= soft) {
                return;
            }
            lowWater = soft / 2;
            long stallNanos = Math.max(0, config.outputSoftSeconds()) * 1_000_000_000L;
            long least = pending;
            long progressAt = System.nanoTime();
            if (!paced) {
                paced = true;
                pacedStatements.incrementAndGet();
            }
            waitingForReader.incrementAndGet();
            waiter = Thread.currentThread();
            try {
                while (true) {
                    cancel.check(); // timeout, CLIENT KILL, the connection closing
                    if (!session.channel().isActive()) {
                        throw new io.respsql.result.ReplyAbortedException("connection closed");
                    }
                    pending = pending();
                    if (pending <= lowWater) {
                        return;
                    }
                    long now = System.nanoTime();
                    if (pending < least) {
                        least = pending;
                        progressAt = now;
                    } else if (now - progressAt > stallNanos) {
                        outputLimit("output buffer limit reached: client read nothing for "
                                + config.outputSoftSeconds() + " s over the soft limit");
                    }
                    LockSupport.parkNanos(this, WAIT_SLICE_NANOS);
                    if (Thread.interrupted()) { // workers shut down
                        Thread.currentThread().interrupt();
                        throw new io.respsql.result.ReplyAbortedException("interrupted");
                    }
                }
            } finally {
                waiter = null;
                waitingForReader.decrementAndGet();
            }
        }

        /** The client is over an output limit: the statement stops (counted as cancelled) and finish disconnects it. */
        private void outputLimit(String why) {
            outputLimitHit = true;
            cancel.cancel("query cancelled: " + why);
            throw new io.respsql.result.ReplyAbortedException(why);
        }

        Job(QueryClient session, Statement.QueryStatement q, String sql, ReadView view, WorkerReply.Form form) {
            this.session = session;
            this.q = q;
            this.sql = sql;
            this.view = view;
            this.form = form;
        }

        /** The connection's dialect (SET sql_dialect), read on the event loop: the worker binds the statement again in it. */
        private final boolean postgres = io.respsql.sql.Dialect.postgres();

        void runOnWorker() {
            // later chunks from the connection's pooled allocator (see WorkerReplies)
            WorkerReply w = form.open(session.channel().alloc(), this);
            boolean ok = false;
            try {
                java.util.function.Consumer<Cancellation> hold = testHold;
                if (hold != null) {
                    hold.accept(cancel);
                }
                cancel.check();
                PlannedQuery p = StatementPlanner.plan(view, q.query(), sql, postgres);
                runSplit(p, w.sink(), cancel, morsels);
                reply = w.finish();
                ok = true;
            } catch (io.respsql.result.ReplyAbortedException e) {
                broken = true;
            } catch (SqlException e) {
                reply = form.error(errorText = "ERR " + e.getMessage());
            } catch (OutOfMemoryError e) {
                LOG.warn("background query ran out of memory: {}", sql.length() > 200 ? sql.substring(0, 200) : sql);
                reply = form.error(errorText = SqlEngine.OOM_REPLY);
            } catch (Throwable e) {
                LOG.error("background query failed: {}", sql, e);
                reply = form.error(errorText = "ERR internal error: " + e);
            } finally {
                if (!ok) {
                    w.discard(); // the unsent part of a failed statement's reply
                    if (chunks > 0) {
                        broken = true; // part of the reply left: no error can follow it
                        if (reply != null) {
                            reply.release();
                            reply = null;
                        }
                    }
                }
                loop.execute(() -> finish(this));
            }
        }
    }

    /** Event loop: one full chunk of a streamed reply. */
    private void sendChunk(Job job, ByteBuf chunk, int bytes) {
        job.queued.addAndGet(-bytes);
        Channel ch = job.session.channel();
        if (!ch.isActive() || job.session.isClosing()) {
            chunk.release();
            return;
        }
        stats.totalNetOutputBytes += bytes;
        // A real promise (one per 64 KB chunk): its completion may wake a worker waiting for the reader.
        ch.write(chunk).addListener(job.drained);
        loop.execute(ch::flush);
    }

    /** Event loop: the worker is done; write its reply behind the client's earlier ones, release, resume. */
    private void finish(Job job) {
        boolean written = false;
        try {
            written = deliver(job);
        } finally {
            if (job.call != null) {
                // After the reply was written and before the client's next request can run: the
                // time counted ends here (see the class comment).
                job.call.complete(job.failed);
            }
        }
        if (written) {
            job.session.unblock();
        }
    }

    /** Writes the job's reply, or drops it (the client is gone, or the reply broke); true: written. */
    private boolean deliver(Job job) {
        running.remove(job);
        job.view.release();
        if (job.timer != null) {
            job.timer.cancel(false);
        }
        if (job.cancel.cancelled()) {
            cancelled++;
        }
        Channel ch = job.session.channel();
        ch.closeFuture().removeListener(job.closeListener);
        job.failed = true;
        if (job.broken) {
            if (job.reply != null) {
                job.reply.release();
            }
            if (ch.isActive() && !job.session.isClosing()) {
                if (job.outputLimitHit) {
                    stats.clientOutputBufferLimitDisconnections++;
                    LOG.warn("Client id={} addr={} closed for overcoming of output buffer limits (background query)",
                            job.session.id(), job.session.addr());
                } else {
                    LOG.warn("Client id={} closed: its background query failed after part of the reply was sent",
                            job.session.id());
                }
                job.session.kill();
            }
            return false;
        }
        if (ch.isActive() && !job.session.isClosing()) {
            // A streamed reply's tail may start anywhere in an element: only a whole reply can be an error.
            job.failed = job.chunks == 0 && job.errorText != null;
            if (job.failed) {
                stats.countErrorReply(job.errorText); // as the dispatcher counts an inline error reply
                // txfix: a statement that fails (a cancel, its timeout) fails the transaction block it ran in
                Transactions.Tx tx = job.session.sqlTxOrNull();
                if (tx != null) {
                    tx.fail();
                }
            }
            stats.totalNetOutputBytes += job.reply.readableBytes();
            ch.write(job.reply, ch.voidPromise());
            // Flushed in a task, after a group commit already queued (as WAIT's reply).
            loop.execute(ch::flush);
            return true;
        }
        job.reply.release();
        return false;
    }

    /** INFO fields (event loop). */
    public void info(StringBuilder sb) {
        sb.append("bg_queries_running:").append(running.size()).append("\r\n");
        sb.append("bg_queries_total:").append(total).append("\r\n");
        sb.append("bg_queries_cancelled:").append(cancelled).append("\r\n");
        sb.append("bg_queries_waiting_for_reader:").append(waitingForReader.get()).append("\r\n");
        sb.append("bg_queries_paced:").append(pacedStatements.get()).append("\r\n");
        sb.append("bg_queries_moved_off_loop:").append(moved).append("\r\n");
        sb.append("bg_queries_short:").append(shortTotal).append("\r\n");
        sb.append("capture_bytes_held:").append(catalog.captureHeldBytes()).append("\r\n");
        sb.append("captures_outstanding:").append(catalog.outstandingCaptures()).append("\r\n");
    }

    /**
     * CLIENT CANCEL (event loop): stops {@code s}'s running background statement, whose client
     * gets {@code -ERR <why>} and stays connected. Whether one was running.
     */
    public boolean cancel(QueryClient s, String why) {
        boolean any = false;
        synchronized (running) {
            for (Job job : running) {
                if (job.session == s) {
                    job.cancel.cancel(why);
                    any = true;
                }
            }
        }
        return any;
    }

    /** Asks every running statement to stop (shutdown); any thread. */
    public void cancelAll(String why) {
        if (shuttingDown == null) {
            shuttingDown = why; // before reading running: see offer
        }
        Job[] jobs;
        synchronized (running) {
            jobs = running.toArray(new Job[0]);
        }
        for (Job job : jobs) {
            job.cancel.shutDown(why);
        }
    }

    /** Stops the workers (server close); running statements are cancelled and interrupted. */
    public void shutdown() {
        cancelAll("query cancelled: server shutting down");
        workers.shutdownNow();
        shortWorkers.shutdownNow();
    }
}
