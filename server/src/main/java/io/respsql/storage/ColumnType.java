package io.respsql.storage;

/** The column types: the 2010 dialect's INT, FLOAT, TEXT, plus BIGINT, BOOLEAN, DATE, TIMESTAMP. */
public enum ColumnType {
    INT(4), BIGINT(8), FLOAT(8), TEXT(8),
    /** Stored as 0/1 (issue 10: storage branch). */
    BOOLEAN(1),
    /** Days since 1970-01-01 (issue 10: storage branch). */
    DATE(4),
    /** Microseconds since 1970-01-01 00:00:00, no time zone (issue 10: storage branch). */
    TIMESTAMP(8),
    /**
     * PostgreSQL's NUMERIC(p,s) with p <= 18 (issue 25): the unscaled value at the column's scale s
     * in a {@link LongColumn} (12.34 in NUMERIC(10,2) is 1234). The scale is the column's
     * {@code typeModifier} ({@code (p << 16) | s}). Snapshot type code 8, as NUMERIC_TEXT.
     */
    NUMERIC(8),
    /**
     * NUMERIC without a precision, or one above 18 digits: each value's canonical text (as
     * PostgreSQL prints it, its own scale kept) in a {@link TextColumn}. Snapshot type code 8.
     */
    NUMERIC_TEXT(8),
    /** PostgreSQL's INTERVAL: {@code io.respsql.expr.Interval}'s 21 bytes, held in a {@link TextColumn}. */
    INTERVAL(8),
    // ---- arrays ----
    /**
     * PostgreSQL's arrays, one type per element type (issue 25/26): each value's canonical text
     * ({@code io.respsql.expr.PgArray}) in a {@link TextColumn}. Snapshot type code 11, the element
     * type's PostgreSQL OID after it.
     */
    INT_ARRAY(8), BIGINT_ARRAY(8), FLOAT_ARRAY(8), TEXT_ARRAY(8), BOOLEAN_ARRAY(8), DATE_ARRAY(8), TIMESTAMP_ARRAY(8),
    NUMERIC_ARRAY(8);

    /** Bytes per row in the column's own storage (TEXT: the arena reference). */
    public final int width;

    ColumnType(int width) {
        this.width = width;
    }

    public boolean isNumeric() {
        return this != TEXT && this != NUMERIC_TEXT && this != INTERVAL && !isArray();
    }

    /** One of the array types (arrays). */
    public boolean isArray() {
        return ordinal() >= INT_ARRAY.ordinal();
    }

    /** The PostgreSQL OID of an array type's element (arrays: the snapshot's code 11 modifier); -1 for the others. */
    public int elementOid() {
        switch (this) {
            case INT_ARRAY:
                return 23;
            case BIGINT_ARRAY:
                return 20;
            case FLOAT_ARRAY:
                return 701;
            case TEXT_ARRAY:
                return 25;
            case BOOLEAN_ARRAY:
                return 16;
            case DATE_ARRAY:
                return 1082;
            case TIMESTAMP_ARRAY:
                return 1114;
            case NUMERIC_ARRAY:
                return 1700;
            default:
                return -1;
        }
    }

    /** The array type of elements of PostgreSQL OID {@code oid} ({@link #elementOid}); null when none. */
    public static ColumnType arrayOfElementOid(int oid) {
        for (ColumnType t : values()) {
            if (t.isArray() && t.elementOid() == oid) {
                return t;
            }
        }
        return null;
    }

    /** Either storage of PostgreSQL's NUMERIC. */
    public boolean isDecimal() {
        return this == NUMERIC || this == NUMERIC_TEXT;
    }

    /** The NUMERIC storage for a type modifier ({@code (p << 16) | s}, -1 none): scaled longs up to 18 digits. */
    public static ColumnType numeric(int typeModifier) {
        return typeModifier >= 0 && (typeModifier >>> 16) <= 18 ? NUMERIC : NUMERIC_TEXT;
    }

    public boolean isInteger() {
        return this == INT || this == BIGINT;
    }

    /**
     * The type whose column class stores this one: BOOLEAN and DATE live in an {@link IntColumn},
     * TIMESTAMP in a {@link LongColumn}; the others are stored as themselves.
     */
    public ColumnType storedAs() {
        switch (this) {
            case BOOLEAN:
            case DATE:
                return INT;
            case TIMESTAMP:
            case NUMERIC:
                return BIGINT;
            case NUMERIC_TEXT:
            case INTERVAL:
                return TEXT;
            default:
                return isArray() ? TEXT : this;
        }
    }

    /** Bytes per row in the column's storage (BOOLEAN is held in 4 bytes, as an INT). */
    public int storedWidth() {
        return storedAs().width;
    }

    /**
     * The 2010 dialect's type names only (INT, INTEGER, BIGINT, LONG, FLOAT, DOUBLE, REAL, TEXT,
     * VARCHAR, STRING), for the old engine, which must keep rejecting the others exactly as before.
     */
    public static ColumnType parseLegacy(String name) {
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

    /**
     * Parses a type's base name as written in CREATE TABLE (any case, words separated by single
     * spaces; a length such as VARCHAR(20) is the parser's to strip); null when unknown.
     */
    public static ColumnType parse(String name) {
        ColumnType array = parseArray(name); // arrays
        if (array != null) {
            return array;
        }
        if (name.toUpperCase(java.util.Locale.ROOT).startsWith("INTERVAL ")) {
            return INTERVAL; // INTERVAL DAY TO SECOND: the qualifier is not kept
        }
        switch (name.toUpperCase(java.util.Locale.ROOT)) {
            case "INT":
            case "INTEGER":
            case "SMALLINT":
            case "TINYINT":
            case "MEDIUMINT":
            case "INT2": // PostgreSQL's names
            case "INT4":
                return INT;
            case "BIGINT":
            case "LONG":
            case "INT8":
                return BIGINT;
            case "FLOAT":
            case "DOUBLE":
            case "DOUBLE PRECISION":
            case "FLOAT4":
            case "FLOAT8":
            case "REAL":
            case "NUMERIC":
            case "DECIMAL":
                return FLOAT;
            case "TEXT":
            case "VARCHAR":
            case "CHAR":
            case "CHARACTER":
            case "CHARACTER VARYING":
            case "STRING":
            case "CLOB":
            case "BPCHAR":
            case "NAME":
                return TEXT;
            case "BOOLEAN":
            case "BOOL":
                return BOOLEAN;
            case "DATE":
                return DATE;
            case "TIMESTAMP":
            case "DATETIME":
            case "TIMESTAMP WITHOUT TIME ZONE":
            case "TIMESTAMPTZ": // PostgreSQL's, held as UTC (TimeZone is UTC)
            case "TIMESTAMP WITH TIME ZONE":
                return TIMESTAMP;
            case "INTERVAL":
                return INTERVAL;
            default:
                return null;
        }
    }

    // ---- arrays ----

    /**
     * An array type's name: {@code INT[]} (the parser's form of {@code int[]}, {@code int[3]},
     * {@code int ARRAY}), PostgreSQL's internal {@code _INT4}, or an expression type's
     * {@code INT_ARRAY}; null for any other name.
     */
    static ColumnType parseArray(String name) {
        String n = name.trim().toUpperCase(java.util.Locale.ROOT);
        String base;
        if (n.endsWith("[]")) {
            base = n.substring(0, n.indexOf('[')).trim();
        } else if (n.endsWith("_ARRAY")) {
            base = n.substring(0, n.length() - 6);
        } else if (n.startsWith("_") && n.length() > 1) {
            base = n.substring(1);
        } else {
            return null;
        }
        if (base.equals("NUMERIC") || base.equals("DECIMAL")) {
            return NUMERIC_ARRAY;
        }
        ColumnType e = parse(base);
        if (e == null) {
            return null;
        }
        switch (e) {
            case INT:
                return INT_ARRAY;
            case BIGINT:
                return BIGINT_ARRAY;
            case FLOAT:
                return FLOAT_ARRAY;
            case TEXT:
                return TEXT_ARRAY;
            case BOOLEAN:
                return BOOLEAN_ARRAY;
            case DATE:
                return DATE_ARRAY;
            case TIMESTAMP:
                return TIMESTAMP_ARRAY;
            default:
                return null;
        }
    }
}
