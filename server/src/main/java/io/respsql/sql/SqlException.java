package io.respsql.sql;

/**
 * A statement that cannot be run as written. Its message is the client-facing text after
 * {@code -ERR }; it names the token, table or column at fault. Its {@link SqlState} code says what
 * kind of failure it is, for programs (and the PostgreSQL protocol's error field).
 */
public final class SqlException extends RuntimeException {
    private final String sqlState;

    /** {@code sqlState}: one of {@link SqlState}'s codes. */
    public SqlException(String sqlState, String message) {
        super(message, null, false, false); // no stack trace: this is a reply, not a crash
        this.sqlState = sqlState;
    }

    /** The SQLSTATE code ({@link SqlState}), five characters. */
    public String sqlState() {
        return sqlState;
    }
}
