package io.respsql.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.respsql.info.ServerStats;

/** First handler of every pipeline: counts bytes received ({@code total_net_input_bytes}). */
@ChannelHandler.Sharable
final class InboundByteCounter extends ChannelInboundHandlerAdapter {
    private final ServerStats stats;

    InboundByteCounter(ServerStats stats) {
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            stats.totalNetInputBytes += b.readableBytes();
        }
        ctx.fireChannelRead(msg);
    }
}
