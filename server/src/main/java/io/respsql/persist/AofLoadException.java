package io.respsql.persist;

/** The append-only file cannot be loaded; the server must not start (its message says where and why). */
public final class AofLoadException extends RuntimeException {
    public AofLoadException(String message) {
        super(message);
    }

    public AofLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
