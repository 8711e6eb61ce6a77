package io.respsql.pgwire;

import io.netty.channel.ChannelHandlerContext;

import java.net.SocketAddress;

/**
 * What the PostgreSQL listener needs of the server that starts it (net's RespSqlServer): the
 * group commit that replies to writes wait for, and protected mode. An interface here, so that
 * pgwire never imports net (net starts pgwire: no package cycle).
 */
public interface PgHost {
    /** Whether replies to writes are held until their append-only records are written (appendfsync always). */
    boolean holdsReplies();

    /** Flushes {@code ctx} once the pending append-only records are written. */
    void flushAfterCommit(ChannelHandlerContext ctx);

    /** Writes the pending append-only records now (a reply about to leave another way may answer them). */
    void commitNow();

    // ---- prepared: replies inside a transaction block do not wait for others' commits ----

    /** Append-only records made so far (moves when a statement logged something). */
    default long appended() {
        return 0;
    }

    /** Whether {@code ctx} has replies held for the append-only file now. */
    default boolean waitingFor(ChannelHandlerContext ctx) {
        return false;
    }

    /** Whether a client connecting from {@code remote} is refused (protected mode, as for RESP). */
    boolean denies(SocketAddress remote);

    /** Whether the data set is still loading: PostgreSQL's "the database system is starting up" (57P03). */
    default boolean startingUp() {
        return false;
    }

    /**
     * A new server-side SslHandler for {@code ch} (the RESP listener's TLS context, its
     * handshake bounded), or null when TLS is not configured: SSLRequest is then answered 'N'.
     */
    default io.netty.handler.ssl.SslHandler tls(io.netty.channel.Channel ch) {
        return null;
    }
}
