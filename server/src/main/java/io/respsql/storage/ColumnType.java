package io.respsql.storage;

/** The column types: the 2010 dialect's INT, FLOAT, TEXT, plus BIGINT, BOOLEAN, DATE, TIMESTAMP. */
public enum ColumnType {
    INT(4), BIGINT(8), FLOAT(8), TEXT(8),
    /** Stored as 0/1 (issue 10: storage branch). */
    BOOLEAN(1),
    /** Days since 1970-01-01 (issue 10: storage branch). */
    DATE(4),
    /** Microseconds since 1970-01-01 00:00:00, no time zone (issue 10: storage branch). */
    TIMESTAMP(8);

    /** Bytes per row in the column's own storage (TEXT: the arena reference). */
    public final int width;

    ColumnType(int width) {
        this.width = width;
    }

    public boolean isNumeric() {
        return this != TEXT;
    }

    public boolean isInteger() {
        return this == INT || this == BIGINT;
    }

    /** Parses a type name as written in CREATE TABLE; null when unknown. */
    public static ColumnType parse(String name) {
        switch (name.toUpperCase(java.util.Locale.ROOT)) {
            case "INT":
            case "INTEGER":
                return INT;
            case "BIGINT":
            case "LONG":
                return BIGINT;
            case "FLOAT":
            case "DOUBLE":
            case "REAL":
                return FLOAT;
            case "TEXT":
            case "VARCHAR":
            case "STRING":
                return TEXT;
            default:
                return null;
        }
    }
}
