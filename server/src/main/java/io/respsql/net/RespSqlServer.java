package io.respsql.net;

import io.respsql.client.ClientRegistry;
import io.respsql.client.Session;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.respsql.command.CommandDispatcher;
import io.respsql.command.CommandTable;
import io.respsql.command.Commands;
import io.respsql.command.ServerContext;
import io.respsql.config.ServerConfig;
import io.respsql.engine.SqlEngine;
import io.respsql.info.InfoReport;
import io.respsql.info.MemoryAccounting;
import io.respsql.info.ServerStats;
import io.respsql.persist.AofLoadException;
import io.respsql.persist.AppendOnlyFile;
import io.respsql.persist.BackgroundJobs;
import io.respsql.persist.Persistence;
import io.respsql.protocol.RespWriter;
import io.respsql.replication.Replication;
import io.respsql.pubsub.PubSub;
import io.respsql.storage.Catalog;

import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The server: one Netty event-loop thread accepts connections, decodes RESP, runs commands and
 * writes replies (the Redis model). All data belongs to that thread, so nothing is locked.
 *
 * <pre>{@code
 * try (RespSqlServer server = RespSqlServer.start(new ServerConfig().port(0))) {
 *     int port = server.port();
 *     ...
 * }
 * }</pre>
 */
public final class RespSqlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RespSqlServer.class);
    /** Most arguments one request may carry (Redis allows 1024*1024). */
    private static final int MAX_ARGS = 1024 * 1024;
    private static final long CRON_MILLIS = 100;

    private final EventLoopGroup loop;
    private final Channel serverChannel;
    private final ScheduledFuture<?> cron;
    private final InetSocketAddress address;
    private final String transport;
    private final AppendOnlyFile aof;
    private final EventExecutor executor;
    private final Persistence persistence;
    /** Every open client connection, so close() can close them before the loop stops. */
    private final ChannelGroup clientChannels;
    private volatile boolean closed;
    /** The TLS listener (tls-port), or null; the same as serverChannel when TLS only. */
    private Channel tlsChannel;
    /** Worker threads of long queries; stopped after the loop. */
    private io.respsql.engine.BackgroundQueries background;
    /** Its statement on the event loop is stopped by SIGTERM (cancelRunning). */
    private SqlEngine sqlEngine;
    private volatile boolean finalSaveFailed;
    /** The PostgreSQL listener (pg-port), or null. */
    private io.respsql.pgwire.PgServer pg;

    private RespSqlServer(EventLoopGroup loop, EventExecutor executor, Channel serverChannel, ScheduledFuture<?> cron,
                          String transport, Persistence persistence, AppendOnlyFile aof, ChannelGroup clientChannels) {
        this.aof = aof;
        this.loop = loop;
        this.clientChannels = clientChannels;
        this.executor = executor;
        this.persistence = persistence;
        this.serverChannel = serverChannel;
        this.cron = cron;
        this.address = (InetSocketAddress) serverChannel.localAddress();
        this.transport = transport;
    }

    /**
     * Binds {@code config.bind():config.port()} and starts serving, and starts loading the data set
     * (the append-only file when {@code appendonly yes} and it exists, else the snapshot file
     * {@code dir/dbfilename} if there is one, as Redis 7) on a thread of its own. Returns at once:
     * while the data loads, commands that need it are answered {@code -LOADING} and INFO shows
     * {@code loading:1}; {@link #awaitLoaded()} waits for it. Port 0 picks a free port, which is then
     * written back into {@code config}.
     *
     * @throws UncheckedIOException if the address cannot be bound
     * @throws IllegalArgumentException if {@code tls-port} is set and a TLS file does not load
     */
    public static RespSqlServer startLoading(ServerConfig config) {
        // Before anything starts: a TLS file that does not load ends startup with nothing half-started.
        TlsContext tls = tlsContext(config);
        ServerStats stats = new ServerStats(config);
        Catalog catalog = new Catalog();
        SqlEngine sql = new SqlEngine(catalog);
        InfoReport info = new InfoReport(config, stats, catalog);
        sql.planCacheConfig(config);
        sql.statementLimits(config); // loop-statement-max-ms, query-timeout-ms
        info.engine(sql);
        IoTransport transportKind = IoTransport.choose(config.ioTransport());
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("respsql-loop"),
                transportKind.handlerFactory());
        EventExecutor executor = loop.next();
        // One capture at a time: a background save and a log rewrite exclude each other.
        BackgroundJobs jobs = new BackgroundJobs();
        Persistence persistence = new Persistence(config, catalog, executor, jobs);
        AppendOnlyFile aof = new AppendOnlyFile(config, sql, jobs);
        aof.eventLoop(executor);
        // The engine's one listener: the change counter of the save rules, then the log.
        sql.commitListener(persistence);
        persistence.appendLog(aof, aof::info);
        // Replication hears of every write after the log, and refuses writes on a read-only replica
        // or a master short of replicas (after the log's own refusal).
        Replication replication = new Replication(config, stats, sql, jobs, (io.netty.channel.EventLoop) executor);
        replication.socketChannel(transportKind.socketChannel()); // the link to a master lives on this loop
        replication.appendOnlyFile(aof);
        if (tls != null) {
            replication.tlsClient(tls::newClientHandler); // tls-replication yes: the link to a master over TLS
        }
        sql.addCommitListener(replication);
        sql.writeGuard(() -> {
            String refusal = aof.refusal();
            return refusal != null ? refusal : replication.refusal();
        });
        persistence.snapshotObserver(replication::snapshotCaptured);
        info.persistence(persistence::info);
        info.replication(replication::info);
        config.appendOnlySwitch(on -> {
            if (persistence.loading().refusing()) {
                // the log is opened (or written) from the data being loaded, once it is here
                throw new io.respsql.config.ConfigException("the data set is loading; set appendonly once it is loaded");
            }
            aof.switchTo(on);
        });
        // The data set loads on a thread of its own once the listeners are up (loadDataSet); until it
        // is handed over, commands that need data are answered -LOADING. Flagged before binding, so
        // no client ever sees the empty catalog as the data.
        io.respsql.persist.LoadProgress loading = persistence.loading();
        replication.loadProgress(loading); // a replica's full sync reports there too (async_loading)
        loading.begin(startupLoadBytes(config), false);
        GroupCommit commit = new GroupCommit(aof, config);
        ClientRegistry clients = new ClientRegistry();
        MemoryAccounting memory = new MemoryAccounting(config, stats, catalog);
        PubSub pubsub = new PubSub();
        clients.onClose(pubsub::unsubscribeAll);
        replication.publisher(pubsub::publish);
        ServerContext context = new ServerContext(config, stats, clients, catalog, sql, info, persistence).memory(memory)
                .pubsub(pubsub);
        context.appendOnlyFile(aof);
        context.replication(replication);
        io.respsql.engine.BackgroundQueries background = new io.respsql.engine.BackgroundQueries(catalog,
                (io.netty.channel.EventLoop) executor, config, stats);
        context.background(background);
        info.background(background::info);
        AtomicReference<RespSqlServer> self = new AtomicReference<>();
        // SHUTDOWN runs on the event loop, which cannot wait for its own termination: close elsewhere.
        context.stopServer(() -> {
            // Stop accepting and serving at once; the rest of close() waits for the loop, so it runs elsewhere.
            self.get().stopServing();
            new Thread(() -> self.get().close(), "respsql-shutdown").start();
        });
        CommandTable table;
        try {
            table = Commands.standard(context); // a rename-command of no such command fails here
        } catch (RuntimeException e) {
            // nothing listens yet: give back the loop's thread and the log's direct buffer
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            aof.close();
            throw e;
        }
        try {
            configureAcl(context.acl(), config);
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            aof.close();
            throw e;
        }
        sql.userStatements(new io.respsql.acl.AclSql(context.acl())); // CREATE USER, GRANT, ... (never logged)
        CommandDispatcher dispatcher = new CommandDispatcher(table, stats, config).acl(context.acl()).memory(memory).loading(loading::refusing)
                .afterWrite(s -> s.replicationOffset(replication.offset())).writeRefusal(sql::writeRefusal);
        context.dispatcher(dispatcher);
        background.calls(dispatcher::deferCall); // an offloaded query's stats: recorded when its reply is written
        RespWriter writer = new RespWriter();
        InboundByteCounter inputCounter = new InboundByteCounter(stats);

        String transport = transportKind.label();
        ChannelGroup clientChannels = new DefaultChannelGroup("clients", executor);
        ServerBootstrap bootstrap = new ServerBootstrap()
            .group(loop, loop)
            .channel(transportKind.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 511)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            // Pooled buffers keep their NIO views: netty 4.2's default adaptive allocator makes a new
            // ByteBuffer object for every socket read, garbage per request at one request per read.
            .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            // First read up to 16 KB (netty's default guess is 2 KB): a request that ends the
            // connection (protocol error) then finds the small rest of its input already read
            // instead of unread in the kernel, where closing would reset the connection.
            .childOption(ChannelOption.RCVBUF_ALLOCATOR, new io.netty.channel.AdaptiveRecvByteBufAllocator(64, 16 * 1024, 65536))
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 8 << 20))
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    clientChannels.add(ch);
                    ChannelPipeline p = ch.pipeline();
                    ClientConnection client = new ClientConnection(config, stats, clients, dispatcher, writer, MAX_ARGS, commit);
                    p.addLast("bytes-in", inputCounter);
                    p.addLast("client", client); // parses RESP itself (RequestParser)
                }
            });

        Channel plainChannel = null;
        Channel tlsChannel = null;
        try {
            if (config.plainEnabled()) {
                plainChannel = bind(bootstrap, config.bind(), config.port());
                // Port 0 asked for any free port: from now on the configuration names the one bound, so
                // CONFIG GET port and INFO agree with what clients connect to.
                config.port(((InetSocketAddress) plainChannel.localAddress()).getPort());
            }
            if (config.tlsEnabled()) {
                tlsChannel = bind(bootstrap.clone().childHandler(tls.wrap(bootstrap.config().childHandler())),
                        config.bind(), config.tlsPort());
                config.tlsPort(((InetSocketAddress) tlsChannel.localAddress()).getPort());
            }
        } catch (UncheckedIOException e) {
            if (plainChannel != null) {
                plainChannel.close().syncUninterruptibly();
            }
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            aof.close();
            throw e;
        }
        Channel serverChannel = plainChannel != null ? plainChannel : tlsChannel;
        int port = config.port();
        io.respsql.pgwire.PgServer pg = null;
        if (config.pgPort() >= 0) {
            try {
                pg = io.respsql.pgwire.PgServer.listen(config, sql, catalog, loop, transportKind.serverChannel(),
                        clientChannels, pgHost(commit, config, loading, tls));
                pg.memoryLimit(memory::overLimit);
                pg.acl(context.acl());
            } catch (RuntimeException e) {
                serverChannel.close().syncUninterruptibly();
                if (tlsChannel != null && tlsChannel != serverChannel) {
                    tlsChannel.close().syncUninterruptibly();
                }
                loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
                aof.close();
                throw e;
            }
        }
        info.listening(port, transport);
        ScheduledFuture<?> cron = executor.scheduleAtFixedRate(
                () -> {
                    // A task that throws is never run again: keep the cron alive whatever happens.
                    long now = System.currentTimeMillis();
                    try {
                        stats.tick(now);
                        sampleClientBuffers(clients, stats);
                        stats.notePeak(memory.refresh());
                        if (loading.refusing()) {
                            return; // nothing to save, log or replicate before the data set is here
                        }
                        persistence.cron(now);
                        replication.cron(now);
                    } catch (RuntimeException e) {
                        LoggerFactory.getLogger(RespSqlServer.class).warn("periodic task failed", e);
                    }
                    aof.cron();
                }, CRON_MILLIS, CRON_MILLIS, TimeUnit.MILLISECONDS);
        RespSqlServer server = new RespSqlServer(loop, executor, serverChannel, cron, transport, persistence, aof,
                clientChannels);
        server.tlsChannel = tlsChannel;
        server.background = background;
        server.sqlEngine = sql;
        server.pg = pg;
        self.set(server);
        server.loadDataSet(config, catalog, replication);
        return server;
    }

    /**
     * The ACL users the configuration names: the {@code aclfile}'s (a file not there yet is no
     * user; ACL SAVE writes it), or the config file's {@code user} lines and {@code --user} flags;
     * not both, as Redis. A bad line ends startup.
     */
    static void configureAcl(io.respsql.acl.Acl acl, ServerConfig config) {
        acl.logMaxLen(config::aclLogMaxLen);
        if (!config.aclFile().isEmpty() && !config.userLines().isEmpty()) {
            throw new IllegalArgumentException("Configuring users in the config file (user lines, --user) and an "
                    + "aclfile at the same time is not valid: put the users in the aclfile");
        }
        try {
            if (!config.aclFile().isEmpty()) {
                acl.aclFile(config.aclFile());
                acl.load();
            } else if (!config.userLines().isEmpty()) {
                java.util.List<String> lines = new java.util.ArrayList<>();
                for (String l : config.userLines()) {
                    lines.add("user " + l);
                }
                acl.loadLines(lines, "config");
            }
        } catch (io.respsql.acl.Acl.AclException e) {
            throw new IllegalArgumentException("ACL: " + e.getMessage().replaceFirst("^ERR ", ""));
        }
    }

    /**
     * Binds {@code config.bind():config.port()} and starts serving, then returns once the data set
     * has loaded; until then the server already answers: {@code -LOADING} to the commands that
     * need data ({@link #startLoading}).
     *
     * @throws UncheckedIOException if the address cannot be bound, or the snapshot file exists but
     *         cannot be loaded (the message says why: truncated, corrupt, bad checksum)
     * @throws AofLoadException if {@code appendonly yes} and the append-only file cannot be loaded
     * @throws IllegalArgumentException if {@code tls-port} is set and a TLS file does not load (the
     *         message names the file); nothing has started then. With {@code tls-port} a second
     *         listener speaks TLS ({@link TlsContext}); {@code port 0} with it means TLS only.
     */
    public static RespSqlServer start(ServerConfig config) {
        RespSqlServer server = startLoading(config);
        server.awaitLoaded();
        return server;
    }

    /**
     * Waits until the data set is loaded and served. A load that failed closes the server and
     * throws what {@link #start} documents; a server stopped while loading returns (closed).
     */
    public void awaitLoaded() {
        try {
            loaded.join();
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                    ? e.getCause() : e;
            close();
            if (cause instanceof java.util.concurrent.CancellationException) {
                return; // stopped while loading (SHUTDOWN): nothing failed
            }
            if (cause instanceof IOException io) {
                throw new UncheckedIOException(io.getMessage(), io);
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Completed once the data set loaded at startup is served (or failed to load). */
    private final java.util.concurrent.CompletableFuture<Void> loaded = new java.util.concurrent.CompletableFuture<>();

    /** Bytes the startup load will read: the snapshot it uses, and the append-only file. */
    private static long startupLoadBytes(ServerConfig config) {
        long total = 0;
        try {
            boolean logExists = config.appendOnly() && Files.exists(config.appendOnlyPath());
            if (!logExists && Files.exists(config.snapshotPath())) {
                total += Files.size(config.snapshotPath());
            }
            if (logExists) {
                total += Files.size(config.appendOnlyPath());
            }
        } catch (IOException e) {
            // the load itself reports what is wrong with the file
        }
        return total;
    }

    /**
     * Loads the data set on a thread of its own, into a catalog (and an engine over it, for the
     * append-only file's statements) that the event loop does not serve; then hands it over on the
     * loop in one step ({@link Catalog#takeAll}), opens the log and starts replicating. Meanwhile
     * the loop serves INFO and the other commands flagged {@code loading}; the rest get -LOADING.
     */
    private void loadDataSet(ServerConfig config, Catalog served, Replication replication) {
        io.respsql.persist.LoadProgress progress = persistence.loading();
        boolean logExists = config.appendOnly() && Files.exists(config.appendOnlyPath());
        if (progress.totalBytes() > 0) {
            LOG.info("Listening on port {} while loading the data set ({} bytes)", address.getPort(), progress.totalBytes());
        }
        Thread loader = new Thread(() -> {
            Catalog fresh = new Catalog();
            SqlEngine engine = new SqlEngine(fresh);
            boolean fromSnapshot = false;
            try {
                long t0 = System.nanoTime();
                if (!logExists) {
                    fromSnapshot = persistence.loadSnapshot(fresh, progress);
                }
                aof.load(engine, progress);
                if (progress.totalBytes() > 0) {
                    LOG.info("Data set loaded in {} ms", (System.nanoTime() - t0) / 1_000_000);
                }
            } catch (Throwable e) {
                loaded.completeExceptionally(e);
                return;
            }
            boolean snapshot = fromSnapshot;
            try {
                executor.execute(() -> {
                    try {
                        if (closed) {
                            loaded.cancel(false);
                            return;
                        }
                        served.takeAll(fresh);
                        if (snapshot || !logExists) {
                            // The data is the snapshot's: so is the stream position saved with it.
                            replication.restoreFromSnapshot();
                        }
                        aof.openAfterLoad();
                        persistence.loaded();
                        // Only now is the data here (and the port known), which the replica announces to its master.
                        replication.start();
                        loaded.complete(null);
                    } catch (Throwable e) {
                        loaded.completeExceptionally(e);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                loaded.cancel(false);
            }
        }, "respsql-load");
        loader.setDaemon(true);
        loader.start();
    }

    /** The PostgreSQL listener's view of this server: its group commit and protected mode. */
    private static io.respsql.pgwire.PgHost pgHost(GroupCommit commit, ServerConfig config,
                                                   io.respsql.persist.LoadProgress loading, TlsContext tls) {
        return new io.respsql.pgwire.PgHost() {
            @Override
            public io.netty.handler.ssl.SslHandler tls(Channel ch) {
                return tls != null && tls.serverSide() ? tls.newServerHandler(ch) : null;
            }

            @Override
            public boolean startingUp() {
                return loading.refusing();
            }

            @Override
            public boolean holdsReplies() {
                return commit.holdsReplies();
            }

            @Override
            public void flushAfterCommit(io.netty.channel.ChannelHandlerContext ctx) {
                commit.flushAfterCommit(ctx);
            }

            @Override
            public void commitNow() {
                commit.commitNow();
            }

            @Override
            public long appended() {
                return commit.appended();
            }

            @Override
            public boolean waitingFor(io.netty.channel.ChannelHandlerContext ctx) {
                return commit.waitingFor(ctx);
            }

            @Override
            public boolean denies(java.net.SocketAddress remote) {
                return ProtectedMode.denies(remote, config);
            }
        };
    }

    /**
     * The TLS contexts of the configuration, each loaded only when used: the server side for
     * tls-port and for pg-port's SSLRequest (pg-port with tls-cert-file and tls-key-file), the
     * client side for tls-replication. A file that does not load ends startup.
     */
    private static TlsContext tlsContext(ServerConfig config) {
        boolean serverSide = config.tlsEnabled() || config.pgTlsEnabled();
        if (config.pgTlsRequired() && !config.pgTlsEnabled()) {
            throw new IllegalArgumentException("pg-tls-required yes needs pg-port, tls-cert-file and tls-key-file");
        }
        try {
            // Always there: CONFIG SET tls-replication yes builds the client side later.
            TlsContext tls = TlsContext.load(config, serverSide);
            config.tlsReload(tls::reload);
            return tls;
        } catch (io.respsql.config.ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Binds one listener of {@code bootstrap}; port 0 or {@link ServerConfig#ANY_PORT}: a free one. */
    private static Channel bind(ServerBootstrap bootstrap, String host, int port) {
        int p = Math.max(0, port);
        InetSocketAddress address = "*".equals(host) ? new InetSocketAddress(p) : new InetSocketAddress(host, p);
        ChannelFuture bound = bootstrap.bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            IOException io = cause instanceof IOException e ? e : new IOException(cause);
            throw new UncheckedIOException("cannot listen on " + host + ":" + p + ": " + cause.getMessage(), io);
        }
        return bound.channel();
    }

    /** Client buffer totals and maxima for maxmemory and INFO clients (on the event loop). */
    private static void sampleClientBuffers(ClientRegistry clients, ServerStats stats) {
        long total = 0;
        long maxIn = 0;
        long maxOut = 0;
        for (Session s : clients.all()) {
            long in = s.queryBufferBytes();
            long outBytes = s.pendingOutputBytes();
            total += in + outBytes;
            maxIn = Math.max(maxIn, in);
            maxOut = Math.max(maxOut, outBytes);
        }
        stats.clientBufferBytes = total;
        stats.clientRecentMaxInputBuffer = maxIn;
        stats.clientRecentMaxOutputBuffer = maxOut;
    }

    /** The PostgreSQL listener's port, or -1 when pg-port is off. */
    public int pgPort() {
        return pg == null ? -1 : pg.port();
    }

    /** Whether the server was closed (SHUTDOWN, a signal, {@link #close()}). */
    public boolean isClosed() {
        return closed;
    }

    /** The port actually bound (useful when the configured port was 0). */
    public int port() {
        return address.getPort();
    }

    /** The TLS port bound, or 0 without TLS. */
    public int tlsPort() {
        return tlsChannel == null ? 0 : ((InetSocketAddress) tlsChannel.localAddress()).getPort();
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The append-only file (open only with {@code appendonly yes}). */
    public AppendOnlyFile appendOnlyFile() {
        return aof;
    }

    /** {@code nio} (or a native transport's name). */
    public String transport() {
        return transport;
    }

    /** Whether {@link #shutdown()} stopped the server without the final snapshot it was to write. */
    public boolean finalSaveFailed() {
        return finalSaveFailed;
    }

    /**
     * What SIGTERM does: on the event loop, saves as SHUTDOWN without arguments would (when save
     * rules are configured), then closes the server. A failed save is logged; the server stops
     * anyway, since the JVM is exiting. Call from any thread but the event loop.
     */
    public void shutdown() {
        if (closed) {
            return;
        }
        // A long statement must not hold the exit: the one on the event loop (if its bound is
        // off) and those on workers stop within a batch of rows.
        if (sqlEngine != null) {
            sqlEngine.cancelRunning("query cancelled: server shutting down");
        }
        if (background != null) {
            background.cancelAll("query cancelled: server shutting down");
        }
        try {
            String refusal = executor.submit(() -> {
                try {
                    return persistence.prepareShutdown(Persistence.ShutdownSave.DEFAULT);
                } finally {
                    stopServing(); // mend: nothing runs after the final save (it would be acknowledged, then lost)
                }
            }).get();
            if (refusal != null) {
                finalSaveFailed = true;
                LOG.error("Stopping without a final snapshot: {}", refusal);
            }
        } catch (ExecutionException e) {
            finalSaveFailed = true;
            LOG.error("Stopping without a final snapshot", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the loop is already stopping: close() below waits for it
        }
        close();
    }

    /**
     * mend: on the event loop, once the final save is done and the server is to stop: stops
     * accepting and closes every client connection now (RESP and pgwire; a statement parked
     * behind a transaction's write token and woken later writes its reply to a closed connection),
     * except the one whose SHUTDOWN closes it after its earlier replies went out. Without it the
     * loop kept serving other connections until {@link #close()} ran on its thread: a write
     * acknowledged then was in no snapshot.
     */
    private void stopServing() {
        serverChannel.close();
        if (tlsChannel != null) {
            tlsChannel.close();
        }
        if (pg != null) {
            pg.stopAccepting();
        }
        for (Channel ch : new java.util.ArrayList<>(clientChannels)) {
            ClientConnection c = ch.pipeline().get(ClientConnection.class);
            if (c == null || !c.closingAfterReply()) {
                ch.close();
            }
        }
    }

    /**
     * Stops accepting, closes every client connection, stops the event loop and waits for all of
     * it: when this returns the port is free. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        persistence.loading().cancel(); // a load still running stops at its next buffer
        if (background != null) {
            background.cancelAll("query cancelled: server shutting down"); // none holds the exit (SHUTDOWN)
        }
        cron.cancel(false);
        serverChannel.close().syncUninterruptibly();
        if (pg != null) {
            pg.close();
        }
        if (tlsChannel != null) {
            tlsChannel.close().syncUninterruptibly();
        }
        // Close clients explicitly: a client must see its connection end when the server stops.
        clientChannels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        if (background != null) {
            background.shutdown();
        }
        // The loop has stopped: nothing else touches the file, and every record reaches the disk.
        aof.close();
    }

    /** Waits up to {@code timeout} for the server to stop (after SHUTDOWN); true if it did. */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return loop.terminationFuture().await(timeout, unit);
    }

    /** Blocks until {@link #close()} has completed (from any thread). */
    public void awaitTermination() throws InterruptedException {
        loop.terminationFuture().await();
    }
}
