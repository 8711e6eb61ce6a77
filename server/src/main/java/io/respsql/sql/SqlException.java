package io.respsql.sql;

/**
 * A statement that cannot be run as written. Its message is the client-facing text after
 * {@code -ERR }; it names the token, table or column at fault.
 */
public final class SqlException extends RuntimeException {
    public SqlException(String message) {
        super(message, null, false, false); // no stack trace: this is a reply, not a crash
    }
}
