package io.respsql.storage;

import java.util.Collection;
import java.util.Collections;

/** All tables by name. Owned by the event-loop thread. */
public final class Catalog {
    public Collection<Table> tables() {
        return Collections.emptyList();
    }

    /** Drops every table (FLUSHALL). */
    public void clear() {
    }
}
