package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;

import java.util.List;

/**
 * Cuts the byte stream into protocol 3.0 messages. Before the StartupMessage a message is an
 * int32 length (counting itself) and a body whose first int32 is a request code (SSLRequest,
 * GSSENCRequest, CancelRequest, or the protocol version); after it, a type byte, an int32
 * length and the body. Each message is passed on as one slice: a startup message from its
 * length on, a regular one from its type byte on.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
    private static final int MAX_STARTUP = 10_000;
    private static final int PROTOCOL_3 = 3 << 16;
    private final long maxMessage;
    private boolean startup = true;

    PgFrameDecoder(long maxMessage) {
        this.maxMessage = Math.min(maxMessage, Integer.MAX_VALUE - 8);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int at = in.readerIndex();
        if (startup) {
            if (in.readableBytes() < 8) {
                return;
            }
            int len = in.getInt(at);
            if (len < 8 || len > MAX_STARTUP) {
                throw new CorruptedFrameException("invalid length of startup packet: " + len);
            }
            if (in.readableBytes() < len) {
                return;
            }
            if ((in.getInt(at + 4) >>> 16) == 3 || in.getInt(at + 4) == PROTOCOL_3) {
                startup = false; // the StartupMessage itself: regular messages follow
            }
            out.add(in.readRetainedSlice(len));
            return;
        }
        if (in.readableBytes() < 5) {
            return;
        }
        int len = in.getInt(at + 1);
        if (len < 4 || len > maxMessage) {
            throw new CorruptedFrameException("invalid message length " + len + " (type '" + (char) in.getByte(at) + "')");
        }
        if (in.readableBytes() < 1 + len) {
            return;
        }
        out.add(in.readRetainedSlice(1 + len));
    }
}
