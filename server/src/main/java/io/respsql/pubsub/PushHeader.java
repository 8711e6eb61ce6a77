package io.respsql.pubsub;

import io.respsql.protocol.RespWriter;

/**
 * The one place that writes the header of an out-of-band Pub/Sub frame: the (p)(un)subscribe
 * confirmations and the {@code message}/{@code pmessage} deliveries.
 *
 * <p>RESP2 has no push type, so these are plain arrays ({@code *n}). For a RESP3 client they are
 * push frames ({@code >n}). Branch {@code resp3} adds {@code RespWriter.protocol(int)} and
 * {@code RespWriter.pushHeader(long)} (which writes {@code >n} in RESP3, {@code *n} in RESP2):
 * once it is merged, the body below becomes {@code out.protocol(protocol); out.pushHeader(elements);}
 * and nothing else in this package changes ({@link PubSub#publish} already encodes a message once
 * per protocol in use among its receivers, and asks for the receiver's protocol here).
 */
final class PushHeader {
    private PushHeader() {
    }

    static void write(RespWriter out, int protocol, int elements) {
        // RESP3 (branch resp3): out.protocol(protocol); out.pushHeader(elements);
        out.arrayHeader(elements);
    }
}
