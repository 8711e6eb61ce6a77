package io.respsql.persist;

/**
 * How far a snapshot write is, in rows, written by the writing thread and read by INFO on the event
 * loop ({@code current_save_keys_processed} / {@code current_save_keys_total}, Redis's names, with
 * rows as the keys).
 */
public final class SnapshotProgress {
    volatile long rowsDone;
    volatile long rowsTotal;

    public long rowsDone() {
        return rowsDone;
    }

    public long rowsTotal() {
        return rowsTotal;
    }
}
