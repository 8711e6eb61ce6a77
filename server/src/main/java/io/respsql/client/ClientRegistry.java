package io.respsql.client;

import io.netty.channel.Channel;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The connected clients, in connection order, with monotonic ids. Event-loop thread only. */
public final class ClientRegistry {
    private final Map<Long, Session> sessions = new LinkedHashMap<>();
    private long nextId = 1;
    /** Told once about each session that leaves (Pub/Sub drops its subscriptions). */
    private final java.util.List<java.util.function.Consumer<Session>> closeListeners = new java.util.ArrayList<>();

    /** Calls {@code listener} once for every session closed from now on. */
    public void onClose(java.util.function.Consumer<Session> listener) {
        closeListeners.add(listener);
    }

    public Session open(Channel channel, long nowMillis) {
        Session s = new Session(nextId++, channel, nowMillis);
        sessions.put(s.id(), s);
        return s;
    }

    /** Removes {@code session}; idempotent (CLIENT KILL removes it before its channel closes). */
    public void close(Session session) {
        if (sessions.remove(session.id()) != null) {
            for (java.util.function.Consumer<Session> l : closeListeners) {
                l.accept(session);
            }
        }
    }

    public int size() {
        return sessions.size();
    }

    public Session byId(long id) {
        return sessions.get(id);
    }

    /** Live sessions in connection order (a view: do not keep it across event-loop tasks). */
    public Collection<Session> all() {
        return Collections.unmodifiableCollection(sessions.values());
    }
}
