package io.respsql.engine;

import it.unimi.dsi.fastutil.objects.Object2LongOpenHashMap;

import java.util.Locale;

/**
 * When each table last changed, as a position in a counter of changes: what WATCH compares
 * against. A name stays after its table is dropped (the drop is its last change), so a table
 * watched while absent is seen changed once it is created. One entry per table name ever written.
 */
final class TableVersions {
    private final Object2LongOpenHashMap<String> lastChange = new Object2LongOpenHashMap<>();
    private long counter;

    long now() {
        return counter;
    }

    void changed(String table) {
        if (table != null) {
            lastChange.put(table.toLowerCase(Locale.ROOT), ++counter);
        }
    }

    boolean changedSince(String table, long point) {
        return lastChange.getLong(table.toLowerCase(Locale.ROOT)) > point; // absent: 0
    }
}
