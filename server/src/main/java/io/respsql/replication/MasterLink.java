package io.respsql.replication;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.ReferenceCountUtil;
import io.respsql.config.ServerConfig;
import io.respsql.result.Outcome;
import io.respsql.engine.SqlEngine;
import io.respsql.persist.SnapshotReader;
import io.respsql.storage.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.RejectedExecutionException;

/**
 * A replica's connection to its master, a Netty client on the server's own event loop (which owns
 * the data it applies). Handshake as Redis's: {@code AUTH} (with {@code masterauth}),
 * {@code REPLCONF listening-port}, {@code REPLCONF capa eof capa psync2}, {@code PSYNC id offset};
 * then either the snapshot ({@code $<len>} and its bytes, into a file, loaded by a thread of its own
 * into a new catalog that then replaces the data) and the stream, or ({@code +CONTINUE}) the stream
 * at once. Records are applied as the append-only file's loader applies them; the offset counts
 * the bytes of whole records. {@code REPLCONF ACK <offset>} goes back after each batch applied and
 * every second. A lost link is retried with a growing delay (100 ms to 2 s); reads are served all along.
 */
final class MasterLink {
    private static final Logger LOG = LoggerFactory.getLogger(MasterLink.class);
    private static final long MIN_BACKOFF = 100;
    private static final long MAX_BACKOFF = 2000;

    enum State {
        CONNECT("connect"), CONNECTING("connecting"), HANDSHAKE("handshake"), TRANSFER("sync"),
        LOADING("sync"), CONNECTED("connected");

        final String roleName;

        State(String roleName) {
            this.roleName = roleName;
        }
    }

    private final Replication repl;
    private final ServerConfig config;
    private final SqlEngine engine;
    private final EventLoop loop;
    private final Class<? extends Channel> socketChannel;
    private final String host;
    private final int port;
    private final StreamParser parser = new StreamParser();

    private State state = State.CONNECT;
    private boolean closed;
    private Channel channel;
    private Conn conn;
    private ByteBuf in = Unpooled.buffer(64 * 1024);
    private int repliesBeforePsync;
    private boolean authSent;
    private String fullId;
    private long fullOffset;
    private Path transferPath;
    private FileChannel transferFile;
    private long transferTotal;
    private long transferRead;
    /** Log lines every few seconds while the snapshot arrives. */
    private io.respsql.storage.ProgressLog transferLog;
    private long lastIoMillis = System.currentTimeMillis();
    private long downSinceMillis;
    private long backoff = MIN_BACKOFF;
    private long nextAttemptMillis;
    private long lastAckMillis;
    private long lastAckOffset = -1;

    MasterLink(Replication repl, ServerConfig config, SqlEngine engine, EventLoop loop,
               Class<? extends Channel> socketChannel, String host, int port) {
        this.repl = repl;
        this.socketChannel = socketChannel;
        this.config = config;
        this.engine = engine;
        this.loop = loop;
        this.host = host;
        this.port = port;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    boolean connected() {
        return state == State.CONNECTED;
    }

    boolean syncInProgress() {
        return state == State.TRANSFER || state == State.LOADING;
    }

    long syncTotalBytes() {
        return transferTotal;
    }

    long syncReadBytes() {
        return transferRead;
    }

    String roleState() {
        return state.roleName;
    }

    long lastIoSecondsAgo(long now) {
        return state == State.CONNECT ? -1 : Math.max(0, (now - lastIoMillis) / 1000);
    }

    long downSinceSeconds(long now) {
        return downSinceMillis == 0 ? -1 : Math.max(0, (now - downSinceMillis) / 1000);
    }

    // ---- connecting ----------------------------------------------------------------------------

    void connect() {
        if (closed) {
            return;
        }
        state = State.CONNECTING;
        Conn c = new Conn();
        conn = c;
        ChannelFuture f = new Bootstrap().group(loop).channel(socketChannel)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .handler(new io.netty.channel.ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        // tls-replication yes: the SslHandler holds the handshake's writes until it is done
                        io.netty.handler.ssl.SslHandler ssl = repl.tlsClient().handler(ch, host, port);
                        if (ssl != null) {
                            ch.pipeline().addLast("tls", ssl);
                        }
                        ch.pipeline().addLast("master", c);
                    }
                })
                .connect(host, port);
        channel = f.channel();
        f.addListener(done -> {
            if (!done.isSuccess() && conn == c) {
                LOG.warn("Error condition on socket for SYNC: connecting to MASTER {}:{} failed: {}", host, port,
                        done.cause() == null ? "?" : done.cause().getMessage());
                lost();
            }
        });
    }

    /** The link ended (or never started): try again after the backoff. */
    private void lost() {
        if (state == State.CONNECTED) {
            downSinceMillis = System.currentTimeMillis();
            LOG.info("Connection with master lost.");
        } else if (downSinceMillis == 0) {
            downSinceMillis = System.currentTimeMillis();
        }
        conn = null;
        abortTransfer();
        in.clear();
        state = State.CONNECT;
        nextAttemptMillis = System.currentTimeMillis() + backoff;
        backoff = Math.min(MAX_BACKOFF, backoff * 2);
    }

    /** REPLICAOF elsewhere, NO ONE, or the server stopping: ends the link for good. */
    void close() {
        closed = true;
        conn = null;
        abortTransfer();
        if (channel != null) {
            channel.close();
        }
        if (in.refCnt() > 0) {
            in.release();
        }
        state = State.CONNECT;
    }

    /**
     * CLIENT KILL TYPE master: drops the connection, which is retried as after any loss (and
     * resumes by partial resync). Returns whether there was a connection past its handshake.
     */
    boolean drop() {
        if (closed || channel == null || !channel.isActive() || state == State.CONNECT || state == State.CONNECTING) {
            return false;
        }
        LOG.info("Connection with master killed by CLIENT KILL");
        channel.close();
        return true;
    }

    void cron(long now) {
        if (closed) {
            return;
        }
        if (state == State.CONNECT && now >= nextAttemptMillis) {
            LOG.info("Connecting to MASTER {}:{}", host, port);
            connect();
        } else if (state != State.CONNECT && state != State.CONNECTING && state != State.LOADING
                && now - lastIoMillis > config.replTimeout() * 1000L) {
            LOG.warn("MASTER timeout: no data nor PING received for {} seconds", config.replTimeout());
            channel.close(); // the link is retried as after any loss
        } else if (state == State.CONNECTED && now - lastAckMillis >= 1000) {
            sendAck();
        }
    }

    private void sendAck() {
        // What is acknowledged is in our own log first (when there is one), so a replica killed
        // after its ACK still has it on restart, as with Redis's write before the next iteration.
        repl.writeLog();
        long off = repl.offset();
        lastAckMillis = System.currentTimeMillis();
        lastAckOffset = off;
        channel.writeAndFlush(command("REPLCONF", "ACK", Long.toString(off)), channel.voidPromise());
    }

    private static ByteBuf command(String... words) {
        StringBuilder sb = new StringBuilder();
        sb.append('*').append(words.length).append("\r\n");
        for (String w : words) {
            byte[] b = w.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(b.length).append("\r\n").append(w).append("\r\n");
        }
        return Unpooled.copiedBuffer(sb, StandardCharsets.UTF_8);
    }

    // ---- the connection ------------------------------------------------------------------------

    /** One connection attempt's handler; events of a connection that is no longer current are ignored. */
    private final class Conn extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (conn != this) {
                ctx.close();
                return;
            }
            lastIoMillis = System.currentTimeMillis();
            state = State.HANDSHAKE;
            ByteBuf out = ctx.alloc().buffer(256);
            repliesBeforePsync = 2;
            authSent = !config.masterAuth().isEmpty();
            if (authSent) {
                if (config.masterUser().isEmpty()) {
                    writeCommand(out, "AUTH", config.masterAuth());
                } else {
                    writeCommand(out, "AUTH", config.masterUser(), config.masterAuth()); // as Redis: masteruser's ACL user
                }
                repliesBeforePsync++;
            }
            // As Redis: over TLS the replica announces its TLS port (what Sentinel and others connect to).
            int announced = config.tlsReplication() && config.tlsPort() > 0 ? config.tlsPort() : config.port();
            writeCommand(out, "REPLCONF", "listening-port", Integer.toString(announced));
            writeCommand(out, "REPLCONF", "capa", "eof", "capa", "psync2");
            String id = repl.psyncId();
            writeCommand(out, "PSYNC", id, Long.toString(repl.psyncOffset()));
            LOG.info("MASTER <-> REPLICA sync started: PSYNC {} {}", id, repl.psyncOffset());
            ctx.writeAndFlush(out);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (conn != this || !(msg instanceof ByteBuf b)) {
                    return;
                }
                lastIoMillis = System.currentTimeMillis();
                in.writeBytes(b);
                process(ctx);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (conn == this && state == State.CONNECTED && repl.offset() != lastAckOffset) {
                sendAck(); // prompt acknowledgements keep WAIT short
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (conn == this) {
                lost();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (conn == this) {
                LOG.warn("replication link to {}:{}: {}", host, port, cause.toString());
            }
            ctx.close();
        }
    }

    private static void writeCommand(ByteBuf out, String... words) {
        ByteBuf c = command(words);
        out.writeBytes(c);
        c.release();
    }

    private void fail(ChannelHandlerContext ctx, String why) {
        LOG.warn("replication link to {}:{}: {}", host, port, why);
        ctx.close();
    }

    private void process(ChannelHandlerContext ctx) {
        while (conn != null && in.isReadable()) {
            switch (state) {
                case HANDSHAKE -> {
                    String line = readLine();
                    if (line == null) {
                        return;
                    }
                    if (repliesBeforePsync > 0) {
                        boolean isAuth = authSent && repliesBeforePsync == 3;
                        repliesBeforePsync--;
                        if (isAuth && line.startsWith("-")) {
                            fail(ctx, "Unable to AUTH to MASTER: " + line.substring(1));
                            return;
                        }
                        continue; // REPLCONF errors are ignored, as Redis does
                    }
                    if (line.startsWith("+FULLRESYNC")) {
                        String[] w = line.split(" ");
                        if (w.length != 3) {
                            fail(ctx, "bad FULLRESYNC reply: " + line);
                            return;
                        }
                        fullId = w[1];
                        fullOffset = Long.parseLong(w[2]);
                        state = State.TRANSFER;
                        transferTotal = -1;
                        LOG.info("Full resync from master: {}:{}", fullId, fullOffset);
                    } else if (line.startsWith("+CONTINUE")) {
                        String[] w = line.split(" ");
                        repl.continued(w.length > 1 ? w[1] : null);
                        connectedNow();
                        LOG.info("Successful partial resynchronization with master.");
                    } else {
                        fail(ctx, "unexpected reply to PSYNC: " + line);
                        return;
                    }
                }
                case TRANSFER -> {
                    if (transferTotal < 0) {
                        while (in.isReadable() && in.getByte(in.readerIndex()) == '\n') {
                            in.skipBytes(1); // the master's keepalive while it prepares the snapshot
                        }
                        String line = readLine();
                        if (line == null) {
                            return;
                        }
                        if (!line.startsWith("$")) {
                            fail(ctx, "bad bulk header for the snapshot: " + line);
                            return;
                        }
                        try {
                            transferTotal = Long.parseLong(line.substring(1));
                            transferRead = 0;
                            transferLog = new io.respsql.storage.ProgressLog("MASTER <-> REPLICA sync: receiving the snapshot");
                            transferPath = config.dir().resolve("temp-" + ProcessHandle.current().pid() + "-sync.rsql");
                            transferFile = FileChannel.open(transferPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                                    StandardOpenOption.TRUNCATE_EXISTING);
                        } catch (NumberFormatException | IOException e) {
                            fail(ctx, "cannot receive the snapshot: " + e);
                            return;
                        }
                    }
                    int n = (int) Math.min(in.readableBytes(), transferTotal - transferRead);
                    try {
                        ByteBuffer nio = in.nioBuffer(in.readerIndex(), n);
                        while (nio.hasRemaining()) {
                            transferFile.write(nio);
                        }
                    } catch (IOException e) {
                        fail(ctx, "cannot write the received snapshot: " + e);
                        return;
                    }
                    in.skipBytes(n);
                    transferRead += n;
                    transferLog.at(transferRead, transferTotal, transferRead);
                    if (transferRead == transferTotal) {
                        startLoad(ctx);
                        return;
                    }
                }
                case LOADING -> {
                    return;
                }
                case CONNECTED -> {
                    applyStream(ctx);
                    return;
                }
                default -> {
                    return;
                }
            }
        }
        if (in.readerIndex() > 0) {
            in.discardReadBytes();
        }
    }

    private String readLine() {
        int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        if (lf < 0) {
            return null;
        }
        int end = lf > in.readerIndex() && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        String line = in.toString(in.readerIndex(), end - in.readerIndex(), StandardCharsets.UTF_8);
        in.readerIndex(lf + 1);
        return line;
    }

    /** The snapshot is in its file: load it on a thread of its own while the link is not read. */
    private void startLoad(ChannelHandlerContext ctx) {
        try {
            transferFile.force(false);
            transferFile.close();
        } catch (IOException e) {
            fail(ctx, "cannot write the received snapshot: " + e);
            return;
        }
        transferFile = null;
        state = State.LOADING;
        ctx.channel().config().setAutoRead(false);
        Conn c = conn;
        Path file = transferPath;
        String id = fullId;
        long off = fullOffset;
        LOG.info("MASTER <-> REPLICA sync: received {} bytes, loading them", transferTotal);
        // As Redis's swapdb load: the old data is served meanwhile (INFO async_loading:1, loading_*).
        io.respsql.persist.LoadProgress progress = repl.loadProgress();
        progress.begin(transferTotal, true);
        Thread loader = new Thread(() -> {
            Catalog fresh = new Catalog();
            Throwable failure = null;
            try {
                SnapshotReader.load(file, fresh, progress);
            } catch (Throwable e) {
                failure = e;
            } finally {
                progress.end();
            }
            Throwable f = failure;
            try {
                loop.execute(() -> loaded(ctx, c, fresh, id, off, file, f));
            } catch (RejectedExecutionException stopped) {
                // the server stopped
            }
        }, "respsql-repl-load");
        loader.setDaemon(true);
        loader.start();
    }

    private void loaded(ChannelHandlerContext ctx, Conn c, Catalog fresh, String id, long off, Path file, Throwable failure) {
        if (conn != c || closed) {
            deleteQuietly(file);
            return;
        }
        transferPath = null;
        if (failure != null) {
            deleteQuietly(file);
            fail(ctx, "loading the snapshot from the master failed: " + failure);
            return;
        }
        long t0 = System.nanoTime();
        repl.installSnapshot(fresh, id, off, file);
        LOG.info("MASTER <-> REPLICA sync: finished with success ({} ms to install)", (System.nanoTime() - t0) / 1_000_000);
        connectedNow();
        ctx.channel().config().setAutoRead(true);
        process(ctx); // what arrived after the snapshot
        sendAck();
    }

    private void connectedNow() {
        state = State.CONNECTED;
        backoff = MIN_BACKOFF;
        downSinceMillis = 0;
    }

    /** Applies every whole record received; the offset grows by each record's bytes. */
    private void applyStream(ChannelHandlerContext ctx) {
        while (conn != null) {
            int n = parser.next(in);
            if (n == 0) {
                break;
            }
            if (n < 0) {
                fail(ctx, "bad record in the replication stream: " + parser.problem());
                return;
            }
            int at = in.readerIndex();
            if (parser.args() == 1 && parser.argIs(in, 0, "MULTI")) {
                int group = applyGroup(ctx, at, n);
                if (group == 0) {
                    break; // the block has not fully arrived: wait, so the offset stays on its start
                }
                if (group < 0) {
                    return;
                }
                n = group;
            } else if (!apply(ctx)) {
                return;
            }
            repl.fed(in, at, n);
            in.readerIndex(at + n);
        }
        if (in.readerIndex() > 0 && (in.readerIndex() > 1 << 20 || !in.isReadable())) {
            in.discardReadBytes();
        }
    }

    /**
     * A MULTI ... EXEC group starting at {@code at} (its MULTI record {@code multiLen} bytes long):
     * applied only once all of it has arrived, inside one engine block, so the replica never shows
     * or keeps part of a transaction and its offset only ever stands on a group's boundary. Returns
     * the group's length in bytes, 0 when it has not fully arrived, -1 when the link failed.
     */
    private int applyGroup(ChannelHandlerContext ctx, int at, int multiLen) {
        int p = at + multiLen;
        int end;
        try {
            while (true) {
                in.readerIndex(p);
                int m = parser.next(in);
                if (m == 0) {
                    return 0;
                }
                if (m < 0) {
                    fail(ctx, "bad record in the replication stream: " + parser.problem());
                    return -1;
                }
                if (parser.args() == 1 && parser.argIs(in, 0, "MULTI")) {
                    fail(ctx, "bad record in the replication stream: MULTI inside a MULTI block");
                    return -1;
                }
                p += m;
                if (parser.args() == 1 && parser.argIs(in, 0, "EXEC")) {
                    end = p;
                    break;
                }
            }
            engine.beginBlock();
            boolean kept = false;
            io.respsql.exec.write.DeferredChecks.enter(io.respsql.exec.write.DeferredChecks.replay()); // regress24
            try {
                p = at + multiLen;
                while (true) {
                    in.readerIndex(p);
                    int m = parser.next(in);
                    if (parser.args() == 1 && parser.argIs(in, 0, "EXEC")) {
                        break;
                    }
                    if (!apply(ctx)) {
                        return -1;
                    }
                    p += m;
                }
                engine.commitBlock(); // our own append-only file logs it as one group too
                kept = true;
            } finally {
                io.respsql.exec.write.DeferredChecks.leave();
                if (!kept) {
                    engine.rollbackBlock();
                }
            }
            return end - at;
        } finally {
            if (in.refCnt() > 0) {
                in.readerIndex(at);
            }
        }
    }

    private boolean apply(ChannelHandlerContext ctx) {
        repl.applying = true;
        engine.unlimited(true); // the master already ran it: no timeout or loop bound may fail it here
        try {
            boolean sqlRecord = parser.args() == 2 && parser.argIs(in, 0, "SQL");
            boolean postgres = !sqlRecord && parser.args() == 2 && parser.argIs(in, 0, "PGSQL");
            if (sqlRecord || postgres) {
                String sql = parser.arg(in, 1);
                Outcome outcome;
                // A PGSQL record ran in PostgreSQL's dialect on the master: it must here too (our own
                // append-only file then logs it as PGSQL again, as the engine reads the dialect).
                boolean prior = io.respsql.sql.Dialect.set(postgres);
                try {
                    outcome = engine.execute(sql); // no reply: the outcome says whether it took effect
                } finally {
                    io.respsql.sql.Dialect.set(prior);
                }
                if (!outcome.ok()) {
                    String err = outcome.error();
                    // Not counted: after a reconnect the master sends it again.
                    fail(ctx, "a replicated statement failed on this replica: " + err + " (statement: "
                            + (sql.length() > 200 ? sql.substring(0, 200) + "..." : sql) + ")");
                    return false;
                }
            } else if (parser.args() == 1 && parser.argIs(in, 0, "FLUSHALL")) {
                engine.flushAll();
            } else if (parser.args() == 3 && parser.argIs(in, 0, "PUBLISH")) {
                repl.deliverPublished(parser.argBytes(in, 1), parser.argSlice(in, 2));
            } else if (!parser.argIs(in, 0, "PING")) {
                LOG.warn("ignoring an unknown record in the replication stream: {}", parser.arg(in, 0));
            }
            return true;
        } finally {
            engine.unlimited(false);
            repl.applying = false;
        }
    }

    private void abortTransfer() {
        if (transferFile != null) {
            try {
                transferFile.close();
            } catch (IOException ignored) {
                // being dropped
            }
            transferFile = null;
        }
        if (transferPath != null) {
            deleteQuietly(transferPath);
            transferPath = null;
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a stale temporary file is overwritten next time
        }
    }
}
