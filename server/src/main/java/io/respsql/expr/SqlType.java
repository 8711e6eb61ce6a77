package io.respsql.expr;

/**
 * The type of a value an expression produces. Integer-like types (BOOLEAN, INT, BIGINT, DATE,
 * TIMESTAMP) are carried as a {@code long} ({@link Expression#evalLong}); DOUBLE as a double;
 * TEXT as UTF-8 bytes. NULL is the type of an untyped {@code NULL} literal: always null.
 */
public enum SqlType {
    NULL, BOOLEAN, INT, BIGINT, DOUBLE, TEXT,
    /** Days since 1970-01-01. */
    DATE,
    /** Microseconds since 1970-01-01 00:00:00 (no time zone). */
    TIMESTAMP,
    /**
     * PostgreSQL's exact NUMERIC (the PostgreSQL dialect only, issue 25): carried by
     * {@link Expression#evalNumeric} as an unscaled long and a scale, or a BigDecimal ({@link Numeric}).
     */
    NUMERIC,
    /**
     * PostgreSQL's months/days/microseconds triple, carried as {@link Interval#BYTES} bytes through
     * {@link Expression#evalText} (see {@link Interval}): operators that move TEXT move it unchanged.
     */
    INTERVAL;

    /** Carried as bytes by {@link Expression#evalText}: TEXT and INTERVAL. */
    public boolean isTextCarried() {
        return this == TEXT || this == INTERVAL;
    }

    /** Carried as a long by {@link Expression#evalLong}. */
    public boolean isLongCarried() {
        return this == BOOLEAN || this == INT || this == BIGINT || this == DATE || this == TIMESTAMP;
    }

    /** INT or BIGINT: integer arithmetic. */
    public boolean isInteger() {
        return this == INT || this == BIGINT;
    }

    public boolean isNumeric() {
        return this == INT || this == BIGINT || this == DOUBLE;
    }

    /** The name shown to clients (typed replies' column types, DESC). */
    public String sqlName() {
        return this == DOUBLE ? "FLOAT" : name();
    }
}
