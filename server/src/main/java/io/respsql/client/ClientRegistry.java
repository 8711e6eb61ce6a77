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

    public Session open(Channel channel, long nowMillis) {
        Session s = new Session(nextId++, channel, nowMillis);
        sessions.put(s.id(), s);
        return s;
    }

    public void close(Session session) {
        sessions.remove(session.id());
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
