package io.respsql.pgwire;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.respsql.config.ServerConfig;
import io.respsql.engine.SqlEngine;
import io.respsql.storage.Catalog;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The PostgreSQL wire protocol listener ({@code pg-port}): its connections live on the RESP
 * server's event loop and run statements on the same engine, so a table written through one
 * protocol is read through the other at once. Long queries run on worker threads against a read
 * view, as RESP's background queries do ({@link PgConnection#offer}).
 */
public final class PgServer implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    final ServerConfig config;
    final EngineCall engine;
    final Catalog catalog;
    final EventLoop loop;
    final ExecutorService workers;
    /** The short lane (bg-query-short-rows): workers at the event loop's priority (parallel). */
    final ExecutorService shortWorkers;
    /** Replies to writes wait for their append-only records (appendfsync always: on disk), as RESP's do; protected mode. */
    final PgHost host;
    /** Open sessions by process id (BackendKeyData), for CancelRequest; event loop only. */
    private final Map<Integer, PgConnection> sessions = new HashMap<>();
    private int nextPid = 1;
    private Scram.Verifier verifier;
    // ---- acl ----
    /** The server's ACL users (null: only requirepass, as before users existed). */
    io.respsql.acl.Acl acl;

    /** PostgreSQL clients log in as the ACL user the startup packet names (SCRAM-SHA-256 with its verifier). */
    public PgServer acl(io.respsql.acl.Acl acl) {
        this.acl = acl;
        return this;
    }
    /** Whether used memory is over maxmemory: statements that grow it are then refused, as RESP's DENYOOM. */
    private java.util.function.BooleanSupplier overMemoryLimit = () -> false;
    private Channel serverChannel;
    /** The statements running on workers, to stop them when the server closes; any thread. */
    private final java.util.Set<io.respsql.expr.Cancellation> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private PgServer(ServerConfig config, SqlEngine sql, Catalog catalog, EventLoop loop, PgHost host) {
        this.config = config;
        this.host = host;
        this.engine = new EngineCall(sql);
        this.catalog = catalog;
        this.loop = loop;
        // as RESP's workers: the event loop wins the CPU; the short lane for statements estimated small (parallel)
        this.workers = io.respsql.engine.BackgroundQueries.pool("respsql-pg-query-", config.bgQueryThreads(), Thread.MIN_PRIORITY);
        this.shortWorkers = io.respsql.engine.BackgroundQueries.pool("respsql-pg-query-short-", config.bgQueryThreads(),
                Thread.NORM_PRIORITY);
    }

    /**
     * Listens on {@code config.bind():config.pgPort()} (port 0: any free one, written back into
     * the configuration), serving on {@code loop}, the RESP server's single event loop. Each
     * connection is added to {@code clients}, so closing the server closes it; replies to writes
     * are flushed through {@code host}'s group commit, and clients refused as it says.
     */
    public static PgServer listen(ServerConfig config, SqlEngine sql, Catalog catalog, EventLoopGroup loop,
                                  Class<? extends ServerChannel> channelClass, ChannelGroup clients,
                                  PgHost host) {
        PgServer pg = new PgServer(config, sql, catalog, (EventLoop) loop.next(), host);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loop, loop)
                .channel(channelClass)
                .option(ChannelOption.SO_BACKLOG, 511)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        clients.add(ch);
                        ch.pipeline().addLast("pg-tls", new PgTlsNegotiator(host, config.pgTlsRequired()));
                        ch.pipeline().addLast("pg-frames", new PgFrameDecoder(config.clientQueryBufferLimit()));
                        ch.pipeline().addLast("pg", new PgConnection(pg));
                    }
                });
        InetSocketAddress address = "*".equals(config.bind())
                ? new InetSocketAddress(config.pgPort())
                : new InetSocketAddress(config.bind(), config.pgPort());
        ChannelFuture bound = bootstrap.bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            pg.workers.shutdownNow();
            pg.shortWorkers.shutdownNow();
            Throwable cause = bound.cause();
            IOException io = cause instanceof IOException e ? e : new IOException(cause);
            throw new UncheckedIOException("cannot listen on " + config.bind() + ":" + config.pgPort()
                    + " (pg-port): " + cause.getMessage(), io);
        }
        pg.serverChannel = bound.channel();
        config.pgPort(pg.port());
        String warning = plaintextWarning(config);
        if (warning != null) {
            LoggerFactory.getLogger(PgServer.class).warn(warning);
        }
        return pg;
    }

    /**
     * The start-up warning when the PostgreSQL listener's plaintext undoes what the RESP side
     * configured (TLS only, or a cleartext password): without tls-cert-file pgwire answers
     * SSLRequest 'N'; with it, a client may still skip TLS unless pg-tls-required is yes. Null
     * when there is nothing to say (pg-tls-required yes: every session is encrypted).
     */
    static String plaintextWarning(ServerConfig config) {
        boolean tlsOnly = config.tlsEnabled() && !config.plainEnabled();
        boolean cleartextPassword = config.passwordRequired() && "password".equals(config.pgAuth());
        if ((!tlsOnly && !cleartextPassword) || (config.pgTlsEnabled() && config.pgTlsRequired())) {
            return null;
        }
        String head = config.pgTlsEnabled()
                ? "pg-port " + config.pgPort() + " offers TLS but also accepts plaintext clients (sslmode disable,"
                        + " allow; prefer when TLS fails): set pg-tls-required yes to refuse them"
                : "pg-port " + config.pgPort() + " is plaintext (no tls-cert-file and tls-key-file: SSLRequest is"
                        + " answered 'N')";
        return head
                + (tlsOnly ? "; RESP is TLS-only (port 0, tls-port " + config.tlsPort()
                        + "), but statements and results on pg-port may travel unencrypted" : "")
                + (cleartextPassword ? "; pg-auth password sends requirepass in clear text over it:"
                        + " use pg-auth scram-sha-256, TLS, or keep pg-port on a trusted network" : "");
    }

    public PgServer memoryLimit(java.util.function.BooleanSupplier overLimit) {
        this.overMemoryLimit = overLimit;
        return this;
    }

    boolean overMemoryLimit() {
        return overMemoryLimit.getAsBoolean();
    }

    /** Sessions open now (maxclients counts them apart from RESP's). */
    int sessions() {
        return sessions.size();
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** A new session's process id and secret key; event loop. */
    int[] register(PgConnection c) {
        int pid;
        do {
            pid = nextPid++;
            if (nextPid <= 0) {
                nextPid = 1;
            }
        } while (sessions.containsKey(pid));
        sessions.put(pid, c);
        return new int[] {pid, RANDOM.nextInt()};
    }

    void unregister(int pid, PgConnection c) {
        sessions.remove(pid, c);
    }

    /** CancelRequest: the session with this process id and secret key cancels its running statement. */
    void cancel(int pid, int key) {
        PgConnection c = sessions.get(pid);
        if (c != null) {
            c.cancelRequest(key);
        }
    }

    /** The SCRAM verifier of requirepass, derived again when the password changed (CONFIG SET). */
    Scram.Verifier verifier() {
        String password = config.requirePass();
        if (verifier == null || !verifier.password().equals(password)) {
            verifier = Scram.Verifier.of(password);
        }
        return verifier;
    }

    /** A worker's statement starts: stopped at once if the server is closing. */
    void started(io.respsql.expr.Cancellation c) {
        running.add(c);
        if (closed) {
            c.shutDown("query cancelled: server shutting down");
        }
    }

    void finished(io.respsql.expr.Cancellation c) {
        running.remove(c);
    }

    /** Stops accepting and stops the statements on workers; the connections are closed with the server's other clients. */
    /** mend: stops accepting connections (on the event loop, without waiting: SHUTDOWN's final save is done). */
    public void stopAccepting() {
        if (serverChannel != null) {
            serverChannel.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        for (io.respsql.expr.Cancellation c : running) {
            c.shutDown("query cancelled: server shutting down");
        }
        workers.shutdownNow();
        shortWorkers.shutdownNow();
    }
}
