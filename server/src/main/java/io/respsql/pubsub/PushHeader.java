package io.respsql.pubsub;

import io.respsql.protocol.RespWriter;

/**
 * The one place that writes the header of an out-of-band Pub/Sub frame: the (p)(un)subscribe
 * confirmations and the {@code message}/{@code pmessage} deliveries.
 *
 * <p>RESP2 has no push type, so these are plain arrays ({@code *n}). For a RESP3 client they are
 * push frames ({@code >n}), as Redis sends them: {@link RespWriter#pushHeader} chooses, for the
 * receiver's protocol ({@link PubSub#publish} encodes a message once per protocol in use among its
 * receivers).
 */
final class PushHeader {
    private PushHeader() {
    }

    static void write(RespWriter out, int protocol, int elements) {
        out.protocol(protocol);
        out.pushHeader(elements);
    }
}
