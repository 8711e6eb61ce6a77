package io.respsql.pubsub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.respsql.client.Session;
import io.respsql.config.Glob;
import io.respsql.protocol.RespWriter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Publish/subscribe with Redis 7's semantics: channels and glob patterns, {@code PUBLISH} answering
 * the number of receivers (each matching pattern subscription counts, so a client subscribed to a
 * channel and to a pattern matching it gets the message twice), {@code PUBSUB CHANNELS / NUMSUB /
 * NUMPAT}. Channel names and patterns are binary: they are kept as ISO-8859-1 strings, one char
 * per byte, so {@link Glob} matches them byte by byte, case-sensitively, as Redis's stringmatch.
 *
 * <p>Delivery never blocks: a message is encoded once per publish (and once per matching pattern),
 * and every receiver gets a retained view of the same bytes, queued on its connection behind the
 * replies already there ({@link Session#deliver}). A receiver that does not read is bounded by
 * the connection's output limit (the {@code pubsub} class of {@code client-output-buffer-limit}),
 * which disconnects it. Event-loop thread only.
 */
public final class PubSub {
    private static final byte[] MESSAGE = bytes("message");
    private static final byte[] PMESSAGE = bytes("pmessage");
    private static final byte[] SUBSCRIBE = bytes("subscribe");
    private static final byte[] UNSUBSCRIBE = bytes("unsubscribe");
    private static final byte[] PSUBSCRIBE = bytes("psubscribe");
    private static final byte[] PUNSUBSCRIBE = bytes("punsubscribe");

    /** Channel → its subscribers; a channel without subscribers is removed. */
    private final Map<String, Set<Subscriber>> channels = new HashMap<>();
    /** Pattern → its subscribers, in the order patterns were first subscribed. */
    private final Map<String, Set<Subscriber>> patterns = new LinkedHashMap<>();
    /** Clients with at least one subscription, by client id. */
    private final Map<Long, Subscriber> subscribers = new HashMap<>();
    /** Encodes message frames (this hub's own: the connections' writer is busy with the reply). */
    private final RespWriter frameWriter = new RespWriter();
    /** Receivers of the message being published, copied out so a delivery may change the sets. */
    private Subscriber[] scratch = new Subscriber[16];

    // ---- subscribing -----------------------------------------------------------------------

    /** {@code SUBSCRIBE}: one confirmation per channel, each with the client's subscription count. */
    public void subscribe(Session session, List<byte[]> names, RespWriter out) {
        Subscriber sub = subscriber(session);
        for (byte[] name : names) {
            String ch = key(name);
            if (sub.channels.add(ch)) {
                channels.computeIfAbsent(ch, k -> new LinkedHashSet<>()).add(sub);
            }
            confirm(out, session, SUBSCRIBE, name, sub.count());
        }
        sub.sync();
    }

    /** {@code PSUBSCRIBE}. */
    public void psubscribe(Session session, List<byte[]> names, RespWriter out) {
        Subscriber sub = subscriber(session);
        for (byte[] name : names) {
            String p = key(name);
            if (sub.patterns.add(p)) {
                patterns.computeIfAbsent(p, k -> new LinkedHashSet<>()).add(sub);
            }
            confirm(out, session, PSUBSCRIBE, name, sub.count());
        }
        sub.sync();
    }

    /**
     * {@code UNSUBSCRIBE [channel ...]}: without names every channel, one confirmation each; with
     * none subscribed, a single confirmation with a null channel.
     */
    public void unsubscribe(Session session, List<byte[]> names, RespWriter out) {
        unsubscribe(session, names, out, false);
    }

    /** {@code PUNSUBSCRIBE [pattern ...]}, as {@link #unsubscribe}. */
    public void punsubscribe(Session session, List<byte[]> names, RespWriter out) {
        unsubscribe(session, names, out, true);
    }

    private void unsubscribe(Session session, List<byte[]> names, RespWriter out, boolean pattern) {
        byte[] kind = pattern ? PUNSUBSCRIBE : UNSUBSCRIBE;
        Subscriber sub = subscribers.get(session.id());
        if (names.isEmpty()) {
            Set<String> mine = sub == null ? Set.of() : (pattern ? sub.patterns : sub.channels);
            if (mine.isEmpty()) {
                confirm(out, session, kind, null, sub == null ? 0 : sub.count());
                return;
            }
            for (String name : new ArrayList<>(mine)) {
                drop(sub, name, pattern);
                confirm(out, session, kind, name.getBytes(StandardCharsets.ISO_8859_1), sub.count());
            }
        } else {
            for (byte[] name : names) {
                if (sub != null) {
                    drop(sub, key(name), pattern);
                }
                confirm(out, session, kind, name, sub == null ? 0 : sub.count());
            }
        }
        if (sub != null) {
            settle(sub);
        }
    }

    /** Drops every subscription of {@code session} without replying (RESET, and a closed connection). */
    public void unsubscribeAll(Session session) {
        Subscriber sub = subscribers.get(session.id());
        if (sub == null) {
            return;
        }
        for (String name : new ArrayList<>(sub.channels)) {
            drop(sub, name, false);
        }
        for (String name : new ArrayList<>(sub.patterns)) {
            drop(sub, name, true);
        }
        settle(sub);
    }

    private Subscriber subscriber(Session session) {
        return subscribers.computeIfAbsent(session.id(), id -> new Subscriber(session));
    }

    private void drop(Subscriber sub, String name, boolean pattern) {
        if (!(pattern ? sub.patterns : sub.channels).remove(name)) {
            return;
        }
        Map<String, Set<Subscriber>> index = pattern ? patterns : channels;
        Set<Subscriber> set = index.get(name);
        if (set != null && set.remove(sub) && set.isEmpty()) {
            index.remove(name);
        }
    }

    /** Updates the session's counts; a client with no subscription left leaves Pub/Sub mode. */
    private void settle(Subscriber sub) {
        sub.sync();
        if (sub.count() == 0) {
            subscribers.remove(sub.session.id());
        }
    }

    private static void confirm(RespWriter out, Session session, byte[] kind, byte[] name, int count) {
        PushHeader.write(out, session.protocol(), 3);
        out.bulk(kind);
        if (name == null) {
            out.nullBulk();
        } else {
            out.bulk(name);
        }
        out.integer(count);
    }

    // ---- publishing ------------------------------------------------------------------------

    /**
     * Sends {@code message} (its readable bytes; indexes unchanged) to the subscribers of
     * {@code channel} and of every pattern matching it; returns the number of deliveries.
     */
    public int publish(byte[] channel, ByteBuf message) {
        if (channels.isEmpty() && patterns.isEmpty()) {
            return 0;
        }
        String key = key(channel);
        int receivers = 0;
        Set<Subscriber> direct = channels.get(key);
        if (direct != null) {
            receivers += deliver(direct, null, channel, message);
        }
        if (!patterns.isEmpty()) {
            for (Map.Entry<String, Set<Subscriber>> e : patterns.entrySet()) {
                if (Glob.matches(e.getKey(), key, false)) {
                    receivers += deliver(e.getValue(), e.getKey().getBytes(StandardCharsets.ISO_8859_1), channel, message);
                }
            }
        }
        return receivers;
    }

    /**
     * Gives each of {@code receivers} a view of one frame, encoded once per protocol in use among
     * them (RESP2 arrays, RESP3 pushes: see {@link PushHeader}), then drops this method's references.
     */
    private int deliver(Set<Subscriber> receivers, byte[] pattern, byte[] channel, ByteBuf message) {
        int n = 0;
        if (scratch.length < receivers.size()) {
            scratch = new Subscriber[Integer.highestOneBit(receivers.size()) << 1];
        }
        for (Subscriber s : receivers) {
            scratch[n++] = s;
        }
        ByteBuf resp2 = null;
        ByteBuf resp3 = null;
        try {
            for (int i = 0; i < n; i++) {
                Session to = scratch[i].session;
                scratch[i] = null;
                ByteBuf frame;
                if (to.protocol() == 3) {
                    frame = resp3 != null ? resp3 : (resp3 = encode(3, pattern, channel, message));
                } else {
                    frame = resp2 != null ? resp2 : (resp2 = encode(2, pattern, channel, message));
                }
                to.deliver(frame.retainedDuplicate());
            }
        } finally {
            if (resp2 != null) {
                resp2.release();
            }
            if (resp3 != null) {
                resp3.release();
            }
        }
        return n;
    }

    /** {@code message <channel> <payload>}, or {@code pmessage <pattern> <channel> <payload>}. */
    private ByteBuf encode(int protocol, byte[] pattern, byte[] channel, ByteBuf message) {
        int size = 64 + channel.length + message.readableBytes() + (pattern == null ? 0 : pattern.length);
        ByteBuf frame = ByteBufAllocator.DEFAULT.ioBuffer(size);
        RespWriter w = frameWriter.target(frame);
        if (pattern == null) {
            PushHeader.write(w, protocol, 3);
            w.bulk(MESSAGE);
        } else {
            PushHeader.write(w, protocol, 4);
            w.bulk(PMESSAGE);
            w.bulk(pattern);
        }
        w.bulk(channel);
        w.bulk(message);
        return frame;
    }

    // ---- introspection (PUBSUB) ------------------------------------------------------------

    /** Channels with at least one subscriber whose name matches {@code pattern} (null: all). */
    public List<byte[]> channels(byte[] pattern) {
        String p = pattern == null ? null : key(pattern);
        List<byte[]> out = new ArrayList<>();
        for (String ch : channels.keySet()) {
            if (p == null || Glob.matches(p, ch, false)) {
                out.add(ch.getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    /** Subscribers of {@code channel} (patterns not counted, as Redis). */
    public int numsub(byte[] channel) {
        Set<Subscriber> set = channels.get(key(channel));
        return set == null ? 0 : set.size();
    }

    /** Distinct patterns subscribed to by any client. */
    public int numpat() {
        return patterns.size();
    }

    private static String key(byte[] name) {
        return new String(name, StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
