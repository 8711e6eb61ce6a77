package io.respsql.persist;

import java.io.IOException;

/** A snapshot that cannot be loaded: bad magic, unknown version, truncated, corrupt or a checksum mismatch. */
public final class SnapshotException extends IOException {
    /** True when the bytes are damaged (truncated or inconsistent), false for a file of another kind or version. */
    private final boolean damaged;

    public SnapshotException(String message) {
        this(message, true);
    }

    SnapshotException(String message, boolean damaged) {
        super(message);
        this.damaged = damaged;
    }

    boolean damaged() {
        return damaged;
    }
}
