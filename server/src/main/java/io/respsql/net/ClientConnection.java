package io.respsql.net;

import io.respsql.client.ClientRegistry;
import io.respsql.client.Session;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.respsql.command.CommandArgs;
import io.respsql.command.CommandDispatcher;
import io.respsql.config.ServerConfig;
import io.respsql.info.ServerStats;
import io.respsql.result.ReplyAbortedException;
import io.respsql.protocol.RespWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Last handler of a client pipeline: parses the requests of each read ({@link RequestParser}), dispatches
 * them, and collects the replies of one read batch in one output buffer, which is written
 * and flushed once on read-complete (as Redis writes replies before it sleeps again). The output
 * buffer is reused once the channel has sent it, so a steady stream of requests allocates nothing. Pipelined requests are therefore answered in order, with as
 * few writes as possible. A reply larger than {@link RespWriter#CHUNK_BYTES} is sent in chunks
 * while it is produced ({@link RespWriter.Sink}).
 *
 * <p>Limits enforced here, each closing only the offending client: {@code proto-max-bulk-len} and
 * the argument count (protocol errors), {@code client-query-buffer-limit} (an unfinished request,
 * or a header line, larger than the limit) and {@code client-output-buffer-limit} (unsent replies,
 * checked as each chunk or batch is handed to the channel).
 */
final class ClientConnection extends ChannelInboundHandlerAdapter implements RespWriter.Sink, Session.Outlet {
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);

    /** A reply larger than this is handed to the channel at once instead of waiting for read-complete. */
    private static final int EARLY_WRITE_BYTES = 64 * 1024;
    /** An output buffer that grew past this is not kept for reuse. */
    private static final int REUSE_OUT_BYTES = 64 * 1024;
    private static final byte[] DENIED = ProtectedMode.DENIED.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAX_CLIENTS = "-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerConfig config;
    private final ServerStats stats;
    private final ClientRegistry clients;
    private final CommandDispatcher dispatcher;
    /** Shared by all connections of the event loop (single thread). */
    private final RespWriter writer;
    private final RequestParser parser;
    /** Holds replies back until the AOF records of the same iteration are written; null without persistence. */
    private final GroupCommit commit;

    private Session session;
    private ChannelHandlerContext ctx;
    /** Replies of the current read batch, written and flushed on read-complete. */
    private ByteBuf out;
    /**
     * The last batch handed to the channel, with a reference of ours: once the channel has sent it
     * (ours is the only reference left) it becomes {@link #out} again instead of a new buffer.
     */
    private ByteBuf spare;
    private boolean flushPending;
    /** When the pending output first went over the soft limit (System.nanoTime), or 0. */
    private long softLimitSince;
    /** Set when a chunk found the output limit exceeded: the broken reply is the limit's doing. */
    private boolean outputLimitHit;
    /** While this connection's own requests are being run: a delivery then joins {@link #out}. */
    private boolean dispatching;
    /** A flush of delivered Pub/Sub messages is scheduled for the end of this loop iteration. */
    private boolean deliveryFlushScheduled;

    ClientConnection(ServerConfig config, ServerStats stats, ClientRegistry clients, CommandDispatcher dispatcher,
                     RespWriter writer, int maxArgs) {
        this(config, stats, clients, dispatcher, writer, maxArgs, null);
    }

    ClientConnection(ServerConfig config, ServerStats stats, ClientRegistry clients, CommandDispatcher dispatcher,
                     RespWriter writer, int maxArgs, GroupCommit commit) {
        this.commit = commit;
        this.config = config;
        this.stats = stats;
        this.clients = clients;
        this.dispatcher = dispatcher;
        this.writer = writer;
        this.parser = new RequestParser(maxArgs, config);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (clients.size() >= config.maxClients()) {
            stats.rejectedConnections++;
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(MAX_CLIENTS)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (ProtectedMode.denies(ctx.channel().remoteAddress(), config)) {
            stats.rejectedConnections++;
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(DENIED)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        session = clients.open(ctx.channel(), stats.clockMillis());
        session.outlet(this);
        // As Redis: a client is let in without AUTH while no password is set when it connects.
        session.authenticated(!dispatcher.authRequired());
        session.onUnblock(() -> ctx.executor().execute(this::resume));
        stats.connectedClients++;
        stats.totalConnectionsReceived++;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        parser.discard();
        if (spare != null) {
            spare.release();
            spare = null;
        }
        if (out != null) {
            out.release();
            out = null;
        }
        if (session != null) {
            io.respsql.engine.Transactions.Tx tx = session.sqlTxOrNull();
            if (tx != null) {
                tx.connectionClosed(); // a connection that closes mid-transaction rolls back
            }
            clients.close(session);
            stats.connectedClients--;
            if (session.isReplica()) {
                stats.replicaClients--;
            }
            session = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf read) || session == null || session.isClosing()) {
            ReferenceCountUtil.release(msg);
            return;
        }
        idleGeneration++; // txfix: the client is not idle (an armed idle-in-transaction timer does nothing)
        parser.begin(read, ctx.alloc());
        if (session.isBlocked()) {
            parser.end(); // kept unparsed until the blocking command (WAIT) has answered, in order
            return;
        }
        serveParsed(ctx);
        if (session != null && session.isBlocked()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** mend: whether this connection closes once its replies are out (it sent SHUTDOWN, QUIT). */
    public boolean closingAfterReply() {
        return session != null && session.isClosing();
    }

    /** The client was unblocked (its reply is written): runs what it sent meanwhile, reads again. */
    private void resume() {
        if (session == null || session.isClosing()) {
            return;
        }
        byte[][] parkedCommand = session.takeParked();
        if (parkedCommand != null) {
            // tx: a statement parked while another connection's transaction held its writes runs now
            io.respsql.command.CommandArgs args = new io.respsql.command.CommandArgs();
            for (byte[] arg : parkedCommand) {
                args.add(Unpooled.wrappedBuffer(arg));
            }
            dispatcher.beginBatch();
            try {
                serve(ctx, args);
            } finally {
                dispatcher.endBatch();
                args.clear();
            }
            if (session == null || session.isClosing()) {
                return;
            }
            if (session.isBlocked()) {
                channelReadComplete(ctx);
                return;
            }
        }
        parser.begin(Unpooled.EMPTY_BUFFER, ctx.alloc());
        serveParsed(ctx);
        if (session == null || session.isClosing()) {
            return;
        }
        // The replies served so far leave now, ahead of a blocking command's later reply.
        channelReadComplete(ctx);
        if (session.isBlocked()) {
            return;
        }
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    }

    /**
     * Serves the complete requests the parser holds, between {@link RequestParser#begin} and its
     * end; stops early when a command blocks the client, leaving the rest for {@link #resume}.
     */
    private void serveParsed(ChannelHandlerContext ctx) {
        dispatcher.beginBatch();
        try {
            while (!session.isBlocked() && parser.next()) {
                serve(ctx, parser.args());
                parser.reset();
                if (session == null || session.isClosing()) {
                    parser.discard(); // what follows a QUIT or a kill is not run
                    return;
                }
            }
            String problem = parser.error();
            if (problem != null) {
                parser.discard();
                protocolError(ctx, problem);
                return;
            }
        } finally {
            dispatcher.endBatch();
            parser.end();
        }
        long buffered = parser.bufferedBytes();
        session.queryBufferBytes(buffered);
        if (buffered > config.clientQueryBufferLimit()) {
            queryBufferLimitClose(buffered);
        }
    }

    /** Runs one complete request and collects its reply. */
    private void serve(ChannelHandlerContext ctx, CommandArgs args) {
        writer.target(outBuffer(ctx), this).protocol(session.protocol());
        dispatching = true;
        try {
            dispatcher.dispatch(session, args, writer);
        } finally {
            dispatching = false;
        }
        out = writer.target(); // a streamed reply leaves the writer on a newer buffer
        if (writer.takeBroken()) {
            brokenReplyClose();
        } else if (session.isClosing()) {
            writeThenClose(ctx);
        } else if (out.readableBytes() >= EARLY_WRITE_BYTES) {
            writeOut(ctx);
            dispatcher.breakBatchClock(); // the write is not the next command's time
        }
    }

    /** The buffer replies go to: the current batch's, the spare one if the channel is done with it, or a new one. */
    private ByteBuf outBuffer(ChannelHandlerContext ctx) {
        if (out == null) {
            ByteBuf s = spare;
            if (s != null && s.refCnt() == 1) {
                spare = null;
                out = s.clear();
            } else {
                out = ctx.alloc().ioBuffer(512);
            }
        }
        return out;
    }

    // ---- txfix: idle_in_transaction_session_timeout on RESP connections ----

    /** Moves on with each read and each arming: a timer of an older one does nothing. */
    private long idleGeneration;

    /**
     * After the replies of a batch: a connection left inside a transaction block with
     * idle_in_transaction_session_timeout set (and no statement running on a worker, none parked)
     * gets a timer; when nothing arrived meanwhile it fires, rolls the transaction back (its write
     * token released) and closes the connection, as pgwire's FATAL 25P03 does.
     */
    private void idleInTransactionTimer(ChannelHandlerContext ctx) {
        long gen = ++idleGeneration;
        io.respsql.engine.Transactions.Tx tx = session == null ? null : session.sqlTxOrNull();
        if (tx == null || !tx.inBlock() || tx.idleTimeoutMs() <= 0 || session.isBlocked() || session.isClosing()) {
            return;
        }
        ctx.executor().schedule(() -> {
            Session s = session;
            if (gen != idleGeneration || s == null || s.isClosing() || s.isBlocked() || !tx.inBlock()) {
                return;
            }
            log.info("Client id={} closed: idle in a transaction for more than {} ms (idle_in_transaction_session_timeout)",
                    s.id(), tx.idleTimeoutMs());
            tx.connectionClosed(); // rolled back now: the other connections' parked writes run
            s.kill();
        }, tx.idleTimeoutMs(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (session != null && !session.isClosing()) {
            writeOut(ctx);
            idleInTransactionTimer(ctx);
        }
        if (flushPending) {
            flushPending = false;
            if (commit != null && commit.holdsReplies()) {
                commit.flushAfterCommit(ctx);
            } else {
                ctx.flush();
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Stop reading requests while the client does not read its replies.
        if (session != null && !session.isClosing()) {
            ctx.channel().config().setAutoRead(ctx.channel().isWritable() && !session.isBlocked());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!ctx.channel().isActive()) {
            // The client left in the middle of a request: nobody to answer.
            ctx.close();
        } else if (cause instanceof IOException) {
            // The peer went away (reset, broken pipe), or its TLS handshake failed: nothing to answer.
            ctx.close();
        } else if (cause.getCause() instanceof javax.net.ssl.SSLException) {
            // The TLS port got bytes that are not TLS (a plaintext client): the client's mistake.
            log.debug("closing connection {}: {}", session == null ? "-" : session.id(), cause.getCause().toString());
            ctx.close();
        } else {
            log.warn("closing connection {} after an unexpected error", session == null ? "-" : session.id(), cause);
            ctx.close();
        }
    }

    /**
     * {@link RespWriter.Sink}: sends a full chunk of a reply now and checks the output limit. A
     * reply built here is never paced to its reader (as BackgroundQueries does past the soft limit):
     * this is the event loop, which cannot wait for one client without stalling all of them. The
     * statements served here are the ones estimated below {@code bg-query-min-rows} (large results
     * go to a worker), so their replies are bounded; past the limits the client is disconnected.
     */
    @Override
    public void handOver(RespWriter w) {
        ByteBuf chunk = w.target();
        out = ctx.alloc().ioBuffer(RespWriter.CHUNK_BYTES + 1024);
        w.continueIn(out);
        stats.totalNetOutputBytes += chunk.readableBytes();
        if (commit != null) {
            // The chunk, or replies queued before it, may answer writes: their records go first.
            commit.commitNow();
        }
        ctx.writeAndFlush(chunk, ctx.voidPromise());
        if (overOutputLimit()) {
            // Only reads produce chunked replies, so stopping here leaves no data half-changed.
            outputLimitHit = true;
            throw new ReplyAbortedException("output buffer limit reached");
        }
    }

    /**
     * {@link Session.Outlet}: a Pub/Sub message for this client. Queued behind the replies already
     * written (or, while this client's own command runs, appended to its replies, keeping their
     * order), flushed once at the end of the loop iteration, never waited for: a client that does
     * not read is disconnected by the pubsub output limit instead.
     */
    @Override
    public void deliver(ByteBuf frame) {
        if (session == null || session.isClosing()) {
            frame.release();
            return;
        }
        if (dispatching && out != null) {
            out.writeBytes(frame);
            frame.release();
            return;
        }
        stats.totalNetOutputBytes += frame.readableBytes();
        ctx.write(frame, ctx.voidPromise());
        if (overOutputLimit()) {
            stats.clientOutputBufferLimitDisconnections++;
            log.warn("Client {} scheduled to be closed ASAP for overcoming of output buffer limits.", describeClient());
            closeNow();
            return;
        }
        if (!deliveryFlushScheduled) {
            deliveryFlushScheduled = true;
            ctx.channel().eventLoop().execute(this::flushDeliveries);
        }
    }

    private void flushDeliveries() {
        deliveryFlushScheduled = false;
        if (session == null || session.isClosing()) {
            return;
        }
        // Replies to writes queued before the messages still wait for their log records.
        if (commit != null && commit.holdsReplies()) {
            commit.flushAfterCommit(ctx);
        } else {
            ctx.flush();
        }
    }

    /**
     * Whether the unsent output is over the hard limit, or over the soft limit for too long; the
     * limits of the pubsub class while the client is subscribed, else of the normal class.
     */
    private boolean overOutputLimit() {
        if (session == null) {
            return false;
        }
        long pending = session.pendingOutputBytes() + (out == null ? 0 : out.readableBytes());
        boolean pubsub = session.inPubSub();
        long hard = pubsub ? config.pubsubOutputHardLimit() : config.outputHardLimit();
        long soft = pubsub ? config.pubsubOutputSoftLimit() : config.outputSoftLimit();
        if (hard > 0 && pending > hard) {
            return true;
        }
        if (soft > 0 && pending > soft) {
            long now = System.nanoTime();
            if (softLimitSince == 0) {
                softLimitSince = now;
                return false;
            }
            long seconds = pubsub ? config.pubsubOutputSoftSeconds() : config.outputSoftSeconds();
            return now - softLimitSince > seconds * 1_000_000_000L;
        }
        softLimitSince = 0;
        return false;
    }

    /** A reply could not be completed: output limit reached, or a failure after part of it left. */
    private void brokenReplyClose() {
        if (outputLimitHit) {
            stats.clientOutputBufferLimitDisconnections++;
            log.warn("Client {} scheduled to be closed ASAP for overcoming of output buffer limits.", describeClient());
        } else {
            log.warn("Client {} closed: its reply failed after part of it was sent", describeClient());
        }
        closeNow();
    }

    private void queryBufferLimitClose(long bytes) {
        stats.clientQueryBufferLimitDisconnections++;
        log.warn("Closing client that reached max query buffer length: {} (qbuf initial bytes: {})",
                describeClient(), bytes);
        parser.discard();
        closeNow();
    }

    /** Closes without sending what is still queued: the client is over a limit. */
    private void closeNow() {
        session.closeAfterReply();
        ctx.channel().config().setAutoRead(false);
        if (out != null) {
            out.release();
            out = null;
        }
        flushPending = false;
        ctx.close();
    }

    private String describeClient() {
        StringBuilder sb = new StringBuilder(200);
        session.appendInfoLine(sb, stats.clockMillis());
        return sb.toString();
    }

    /** Replies {@code -ERR Protocol error: ...} after any pending replies, then closes, as Redis does. */
    private void protocolError(ChannelHandlerContext ctx, String what) {
        writer.target(outBuffer(ctx));
        writer.error("ERR Protocol error: " + what);
        stats.totalErrorReplies++;
        stats.countError("ERR");
        log.info("Protocol error from client {}: {}", describeClient(), what);
        session.closeAfterReply();
        lingeringClose(ctx);
    }

    /** How long a refused client's further bytes are read and dropped before the connection is closed anyway. */
    static final long LINGER_MILLIS = 5_000;

    /**
     * Sends what is pending (the protocol error) and ends our side with a FIN, then keeps reading
     * and dropping what the client still sends until it closes, at most {@link #LINGER_MILLIS}.
     * Closing at once with its bytes unread would send a reset instead: a client still writing an
     * oversized bulk would get a broken pipe and never see the error (Redis's reply is lost the
     * same way; issue 22 asks for the error first). Reads of a closing session are released unparsed.
     */
    private void lingeringClose(ChannelHandlerContext ctx) {
        if (commit != null) {
            commit.commitNow();
        }
        writeOut(ctx);
        flushPending = false;
        if (!(ctx.channel() instanceof io.netty.channel.socket.DuplexChannel duplex)) {
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
            if (!f.isSuccess()) {
                ctx.close();
                return;
            }
            duplex.shutdownOutput().addListener(s -> {
                if (!s.isSuccess()) {
                    ctx.close();
                }
            });
            ctx.executor().schedule(() -> {
                ctx.close();
            }, LINGER_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        });
        ctx.channel().config().setAutoRead(true); // drain: the client's FIN (read -1) then closes the channel
    }

    /** Hands the collected replies to the channel (flushed on read-complete). */
    private void writeOut(ChannelHandlerContext ctx) {
        ByteBuf batch = out;
        if (batch == null || !batch.isReadable()) {
            return; // an empty buffer stays the current one
        }
        out = null;
        if (spare == null && batch.capacity() <= REUSE_OUT_BYTES) {
            spare = batch.retain();
        }
        stats.totalNetOutputBytes += batch.readableBytes();
        ctx.write(batch, ctx.voidPromise());
        flushPending = true;
        if (session != null && !session.isClosing() && overOutputLimit()) {
            stats.clientOutputBufferLimitDisconnections++;
            log.warn("Client {} scheduled to be closed ASAP for overcoming of output buffer limits.", describeClient());
            closeNow();
        }
    }

    private void writeThenClose(ChannelHandlerContext ctx) {
        if (commit != null) {
            commit.commitNow(); // this flush does not wait for the group commit
        }
        writeOut(ctx);
        flushPending = false;
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
}
