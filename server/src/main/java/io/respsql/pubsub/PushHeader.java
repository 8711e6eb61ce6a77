package io.respsql.pubsub;

import io.respsql.protocol.RespWriter;

/**
 * The one place that writes the header of an out-of-band Pub/Sub frame: the (p)(un)subscribe
 * confirmations and the {@code message}/{@code pmessage} deliveries.
 *
 * <p>RESP2 has no push type, so these are plain arrays ({@code *n}). When RESP3 lands, a client
 * with protocol 3 gets push frames ({@code >n}) instead: this method then writes {@code >} for
 * {@code protocol == 3} (e.g. through a {@code RespWriter.pushHeader(n)}) and nothing else in this
 * package changes, except that {@link PubSub#publish} must encode a message once per protocol in
 * use rather than once per publish (it shares one frame between all subscribers of a channel).
 */
final class PushHeader {
    private PushHeader() {
    }

    static void write(RespWriter out, int protocol, int elements) {
        // RESP3: if (protocol == 3) { out.pushHeader(elements); return; }
        out.arrayHeader(elements);
    }
}
