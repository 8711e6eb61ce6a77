package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;

import java.util.List;

/**
 * The first bytes of a PostgreSQL connection, before the frame decoder: an SSLRequest is answered
 * 'S' and the connection upgraded when TLS is configured ({@link PgHost#tls}), 'N' when not; a
 * GSSENCRequest 'N' (the client may then ask for TLS). On 'S' an SslHandler goes in after this
 * handler, which then leaves the pipeline: whatever the client sent after its SSLRequest is the
 * TLS handshake, and is handed to the SslHandler, never to the frame decoder. The 'S' itself is
 * written from here, so it passes no SslHandler (it is the last plaintext byte).
 *
 * <p>With {@code pg-tls-required yes} (PostgreSQL's {@code hostssl}), a StartupMessage that did not
 * come through TLS is refused with 28000. A CancelRequest is let through in plaintext, as
 * PostgreSQL does: libpq before 17 always sends it so, and it carries only the process id and the
 * secret key.
 */
final class PgTlsNegotiator extends ByteToMessageDecoder {
    static final int SSL_REQUEST = 80877103;
    static final int GSSENC_REQUEST = 80877104;
    static final int CANCEL_REQUEST = 80877102;

    private final PgHost host;
    private final boolean required;

    PgTlsNegotiator(PgHost host, boolean required) {
        this.host = host;
        this.required = required;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 8) {
            int at = in.readerIndex();
            int len = in.getInt(at);
            int code = in.getInt(at + 4);
            if (len == 8 && code == SSL_REQUEST) {
                in.skipBytes(8);
                SslHandler ssl = host.tls(ctx.channel());
                if (ssl == null) {
                    ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'N'}));
                    continue; // no TLS configured: the client goes on in the clear or gives up
                }
                ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'S'}));
                ctx.pipeline().addAfter(ctx.name(), "tls", ssl);
                ctx.pipeline().remove(this); // the rest of the input (the ClientHello) goes to the SslHandler
                return;
            }
            if (len == 8 && code == GSSENC_REQUEST) {
                in.skipBytes(8);
                ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'N'}));
                continue;
            }
            if (required && !(len == 16 && code == CANCEL_REQUEST)) {
                in.skipBytes(in.readableBytes());
                ByteBuf err = ctx.alloc().buffer(160);
                PgMessages.error(err, 'E', "FATAL", "28000", "pg-port requires TLS (pg-tls-required yes):"
                        + " connect with sslmode=require, verify-ca or verify-full", 0);
                ctx.writeAndFlush(err).addListener(ChannelFutureListener.CLOSE);
                ctx.pipeline().remove(this);
                return;
            }
            ctx.pipeline().remove(this); // a plaintext StartupMessage (or CancelRequest): the frame decoder's
            return;
        }
    }
}
