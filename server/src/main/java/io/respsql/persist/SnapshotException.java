package io.respsql.persist;

import java.io.IOException;

/** A snapshot that cannot be loaded: bad magic, unknown version, truncated, corrupt or a checksum mismatch. */
public final class SnapshotException extends IOException {
    public SnapshotException(String message) {
        super(message);
    }
}
