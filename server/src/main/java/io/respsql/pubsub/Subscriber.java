package io.respsql.pubsub;

import io.respsql.client.Session;

import java.util.LinkedHashSet;
import java.util.Set;

/** One client's subscriptions, in the order they were made (UNSUBSCRIBE without arguments replies in it). */
final class Subscriber {
    final Session session;
    final Set<String> channels = new LinkedHashSet<>();
    final Set<String> patterns = new LinkedHashSet<>();

    Subscriber(Session session) {
        this.session = session;
    }

    int count() {
        return channels.size() + patterns.size();
    }

    /** Publishes the counts where CLIENT LIST, PING and the dispatcher see them. */
    void sync() {
        session.subscriptions(channels.size(), patterns.size());
    }
}
