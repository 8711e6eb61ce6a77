package io.respsql.engine;

import io.netty.channel.Channel;

/**
 * What a statement moved to a worker needs of the connection that sent it: to hold its further
 * requests, to answer on its channel, to see it close, and its transaction. The client package
 * implements it ({@code client.Session}); the engine names only this, so the dependency runs one
 * way, client to engine.
 */
public interface QueryClient {
    long id();

    String addr();

    Channel channel();

    /** The session's statement_timeout in ms, -1 when it has none of its own. */
    long statementTimeoutMs();

    boolean isClosing();

    /** Holds the connection's further requests until {@link #unblock()}. */
    void block();

    void unblock();

    void kill();

    long pendingOutputBytes();

    /** The connection's interactive transaction, or null outside one. */
    Transactions.Tx sqlTxOrNull();
}
