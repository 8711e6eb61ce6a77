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
    INTERVAL,
    // ---- arrays ----
    /**
     * PostgreSQL's arrays (issue 25/26), one constant per element type: carried through
     * {@link Expression#evalText} as the array's canonical text, exactly as PostgreSQL's array_out
     * prints it ({@code {1,2,NULL}}, {@code {"a b",c}}); {@link PgArray} reads and writes it.
     */
    INT_ARRAY, BIGINT_ARRAY, DOUBLE_ARRAY, TEXT_ARRAY, BOOLEAN_ARRAY, DATE_ARRAY, TIMESTAMP_ARRAY, NUMERIC_ARRAY;

    /** Carried as bytes by {@link Expression#evalText}: TEXT, INTERVAL and the arrays. */
    public boolean isTextCarried() {
        return this == TEXT || this == INTERVAL || isArray();
    }

    /** One of the array types. */
    public boolean isArray() {
        return ordinal() >= INT_ARRAY.ordinal();
    }

    /** The element type of an array type; null for the others. */
    public SqlType element() {
        switch (this) {
            case INT_ARRAY:
                return INT;
            case BIGINT_ARRAY:
                return BIGINT;
            case DOUBLE_ARRAY:
                return DOUBLE;
            case TEXT_ARRAY:
                return TEXT;
            case BOOLEAN_ARRAY:
                return BOOLEAN;
            case DATE_ARRAY:
                return DATE;
            case TIMESTAMP_ARRAY:
                return TIMESTAMP;
            case NUMERIC_ARRAY:
                return NUMERIC;
            default:
                return null;
        }
    }

    /** The array type of elements of {@code t}; null when there is none (INTERVAL, NULL, arrays). */
    public static SqlType arrayOf(SqlType t) {
        switch (t) {
            case INT:
                return INT_ARRAY;
            case BIGINT:
                return BIGINT_ARRAY;
            case DOUBLE:
                return DOUBLE_ARRAY;
            case TEXT:
                return TEXT_ARRAY;
            case BOOLEAN:
                return BOOLEAN_ARRAY;
            case DATE:
                return DATE_ARRAY;
            case TIMESTAMP:
                return TIMESTAMP_ARRAY;
            case NUMERIC:
                return NUMERIC_ARRAY;
            default:
                return null;
        }
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
        if (isArray()) {
            return element().sqlName() + "[]";
        }
        return this == DOUBLE ? "FLOAT" : name();
    }
}
