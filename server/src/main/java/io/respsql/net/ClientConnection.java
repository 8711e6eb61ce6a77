package io.respsql.net;

import io.respsql.client.ClientRegistry;
import io.respsql.client.Session;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.util.ReferenceCountUtil;
import io.respsql.command.CommandArgs;
import io.respsql.command.CommandDispatcher;
import io.respsql.config.ServerConfig;
import io.respsql.info.ServerStats;
import io.respsql.protocol.RespWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Last handler of a client pipeline: assembles decoded requests ({@link RequestAssembler}), dispatches
 * them, and collects the replies of one read batch in one output buffer, which is written
 * and flushed once on read-complete. Pipelined requests are therefore answered in order, with as
 * few writes as possible.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);

    /** A reply larger than this is handed to the channel at once instead of waiting for read-complete. */
    private static final int EARLY_WRITE_BYTES = 64 * 1024;
    private static final byte[] DENIED = ProtectedMode.DENIED.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAX_CLIENTS = "-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerConfig config;
    private final ServerStats stats;
    private final ClientRegistry clients;
    private final CommandDispatcher dispatcher;
    /** Shared by all connections of the event loop (single thread). */
    private final RespWriter writer;
    private final RequestAssembler assembler;
    /** Holds replies back until the AOF records of the same iteration are written; null without persistence. */
    private final GroupCommit commit;

    private Session session;
    /** Replies of the current read batch, written and flushed on read-complete. */
    private ByteBuf out;
    private boolean flushPending;

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
        this.assembler = new RequestAssembler(maxArgs);
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
        // As Redis: a client is let in without AUTH while no password is set when it connects.
        session.authenticated(!config.passwordRequired());
        stats.connectedClients++;
        stats.totalConnectionsReceived++;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        assembler.discard();
        if (session != null) {
            clients.close(session);
            stats.connectedClients--;
            if (out != null) {
                out.release();
                out = null;
            }
            session = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (session == null || session.isClosing()) {
                return;
            }
            String problem = assembler.accept(msg, ctx.alloc());
            if (problem != null) {
                assembler.discard();
                protocolError(ctx, problem);
                return;
            }
            CommandArgs args = assembler.args();
            if (!assembler.complete() || args.count() == 0) {
                return;
            }
            try {
                if (out == null) {
                    out = ctx.alloc().ioBuffer(512);
                }
                writer.target(out);
                dispatcher.dispatch(session, args, writer);
                if (session.isClosing()) {
                    writeThenClose(ctx);
                } else if (out.readableBytes() >= EARLY_WRITE_BYTES) {
                    writeOut(ctx);
                }
            } finally {
                assembler.reset();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (session != null && !session.isClosing()) {
            writeOut(ctx);
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
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException || !ctx.channel().isActive()) {
            // The client left in the middle of a request: nobody to answer.
            ctx.close();
        } else if (cause instanceof CodecException) {
            if (session != null && !session.isClosing()) {
                protocolError(ctx, describe(cause));
            } else {
                ctx.close();
            }
        } else if (cause instanceof IOException) {
            // The peer went away (reset, broken pipe): nothing to answer.
            ctx.close();
        } else {
            log.warn("closing connection {} after an unexpected error", session == null ? "-" : session.id(), cause);
            ctx.close();
        }
    }

    /** Replies {@code -ERR Protocol error: ...} after any pending replies, then closes, as Redis does. */
    private void protocolError(ChannelHandlerContext ctx, String what) {
        if (out == null) {
            out = ctx.alloc().ioBuffer(128);
        }
        writer.target(out);
        writer.error("ERR Protocol error: " + what);
        stats.totalErrorReplies++;
        session.closeAfterReply();
        ctx.channel().config().setAutoRead(false);
        writeThenClose(ctx);
    }

    /** Hands the collected replies to the channel (flushed on read-complete). */
    private void writeOut(ChannelHandlerContext ctx) {
        ByteBuf batch = out;
        if (batch == null) {
            return;
        }
        out = null;
        if (batch.isReadable()) {
            stats.totalNetOutputBytes += batch.readableBytes();
            ctx.write(batch, ctx.voidPromise());
            flushPending = true;
        } else {
            batch.release();
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

    private static String describe(Throwable t) {
        Throwable inner = t;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
        }
        String msg = inner.getMessage();
        return msg != null ? msg : inner.getClass().getSimpleName();
    }
}
