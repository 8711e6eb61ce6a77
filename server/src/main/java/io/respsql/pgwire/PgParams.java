package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * Bind's parameter values as SQL literals for {@link PgSql#substitute}. A number is checked to be
 * one and written as digits; anything else becomes a quoted string with its quotes doubled (the
 * lexer knows no backslash escapes, so nothing else can end the string): a value can never turn
 * into statement text. A string literal takes the type its place asks for, as PostgreSQL's
 * unknown-typed literals do.
 */
final class PgParams {
    private static final java.util.regex.Pattern NUMBER =
            java.util.regex.Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");

    /**
     * A date or timestamp with a time zone offset, as pgjdbc sends setDate/setTimestamp values
     * ({@code 2024-02-29 +01}, {@code 2024-02-29 10:11:12.5+01}) with an unspecified type.
     */
    private static final java.util.regex.Pattern ZONED = java.util.regex.Pattern.compile(
            "([0-9]{4,}-[0-9]{2}-[0-9]{2}(?: [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?)?) ?[+-][0-9]{2}(?::?[0-9]{2}){0,2}");

    private PgParams() {
    }

    /** Whether {@code v} is an integer as written: an optional sign and ASCII digits, nothing else. */
    static boolean isInteger(String v) {
        int n = v.length();
        int i = n > 0 && (v.charAt(0) == '-' || v.charAt(0) == '+') ? 1 : 0;
        if (i == n || n - i > 19) {
            return false;
        }
        for (; i < n; i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code v} is a decimal number as written (digits, a point, an exponent; no NaN, no Infinity). */
    static boolean isDecimal(String v) {
        return NUMBER.matcher(v).matches();
    }

    /** One value: {@code len} bytes at the buffer's reader index (-1: NULL), in {@code format} (0 text, 1 binary). */
    static String literal(ByteBuf b, int len, int oid, int format, int index) {
        if (len < 0) {
            return "NULL";
        }
        if (format == 1) {
            return binary(b, len, oid, index);
        }
        String text = PgMessages.utf8(b, len);
        switch (oid) {
            case PgMessages.INT2, PgMessages.INT4, PgMessages.INT8 -> {
                try {
                    return Long.toString(Long.parseLong(text.trim()));
                } catch (NumberFormatException e) {
                    throw invalid(oid == PgMessages.INT8 ? "bigint" : "integer", text);
                }
            }
            case PgMessages.FLOAT4, PgMessages.FLOAT8, PgMessages.NUMERIC -> {
                String t = text.trim();
                if (NUMBER.matcher(t).matches()) {
                    return t.startsWith("+") ? t.substring(1) : t;
                }
                if (t.equalsIgnoreCase("NaN") || t.equalsIgnoreCase("Infinity") || t.equalsIgnoreCase("-Infinity")) {
                    return quote(t);
                }
                throw invalid("double precision", text);
            }
            case PgMessages.BOOL -> {
                return bool(text);
            }
            case 0, PgMessages.DATE, PgMessages.TIMESTAMP -> {
                // PostgreSQL's date and timestamp (without time zone) inputs ignore the offset: so does this
                java.util.regex.Matcher m = ZONED.matcher(text);
                return quote(m.matches() ? m.group(1) : text);
            }
            case PgMessages.INT4_ARRAY, PgMessages.INT2_ARRAY, PgMessages.INT8_ARRAY, PgMessages.FLOAT8_ARRAY,
                    PgMessages.TEXT_ARRAY, PgMessages.VARCHAR_ARRAY, PgMessages.BOOL_ARRAY, PgMessages.DATE_ARRAY,
                    PgMessages.TIMESTAMP_ARRAY, PgMessages.NUMERIC_ARRAY -> {
                return quote(text) + "::" + arrayTypeName(oid); // arrays: setArray / createArrayOf
            }
            default -> {
                return quote(text);
            }
        }
    }

    /**
     * An array parameter in PostgreSQL's binary form (array_send: dimensions, flags, element OID,
     * each dimension's length and lower bound, then the elements), as pgjdbc sends setArray values,
     * to its text form cast to its type (arrays).
     */
    private static String binaryArray(ByteBuf b, int len, int oid, int index) {
        int end = b.readerIndex() + len;
        if (len < 12) {
            throw new SqlException("22P03", "incorrect binary data format in bind parameter " + index);
        }
        int ndim = b.readInt();
        b.readInt(); // has-nulls flag
        int elemOid = b.readInt();
        if (ndim < 0 || ndim > 6) {
            throw new SqlException("22P03", "invalid number of dimensions: " + ndim);
        }
        int[] dims = new int[ndim];
        long total = ndim == 0 ? 0 : 1;
        for (int d = 0; d < ndim; d++) {
            dims[d] = b.readInt();
            b.readInt(); // lower bound: taken as 1
            total *= dims[d];
        }
        if (total > (end - b.readerIndex()) / 4 + 1) {
            throw new SqlException("22P03", "incorrect binary data format in bind parameter " + index);
        }
        String[] items = new String[(int) total];
        for (int k = 0; k < items.length; k++) {
            int n = b.readInt();
            if (n < 0) {
                continue;
            }
            switch (elemOid) {
                case PgMessages.DATE -> items[k] = java.time.LocalDate.ofEpochDay(b.readInt() + 10957L).toString();
                case PgMessages.TIMESTAMP -> {
                    long micros = b.readLong() + 10957L * 86_400_000_000L;
                    java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                            (int) Math.floorMod(micros, 1_000_000L) * 1000, java.time.ZoneOffset.UTC);
                    items[k] = t.toString().replace('T', ' ');
                }
                case PgMessages.BOOL -> items[k] = b.readByte() != 0 ? "t" : "f";
                default -> {
                    String lit = binary(b, n, elemOid, index);
                    items[k] = lit.startsWith("'") ? lit.substring(1, lit.length() - 1).replace("''", "'") : lit;
                }
            }
        }
        b.readerIndex(end);
        return quote(io.respsql.expr.PgArray.format(items, dims)) + "::" + arrayTypeName(oid);
    }

    /** The type name of an array type OID (arrays). */
    private static String arrayTypeName(int oid) {
        return switch (oid) {
            case PgMessages.INT4_ARRAY, PgMessages.INT2_ARRAY -> "int4[]";
            case PgMessages.INT8_ARRAY -> "int8[]";
            case PgMessages.FLOAT8_ARRAY -> "float8[]";
            case PgMessages.BOOL_ARRAY -> "bool[]";
            case PgMessages.DATE_ARRAY -> "date[]";
            case PgMessages.TIMESTAMP_ARRAY -> "timestamp[]";
            case PgMessages.NUMERIC_ARRAY -> "numeric[]";
            default -> "text[]";
        };
    }

    private static String binary(ByteBuf b, int len, int oid, int index) {
        switch (oid) {
            case PgMessages.INT2 -> {
                check(len, 2, index);
                return Short.toString(b.readShort());
            }
            case PgMessages.INT4 -> {
                check(len, 4, index);
                return Integer.toString(b.readInt());
            }
            case PgMessages.INT8 -> {
                check(len, 8, index);
                return Long.toString(b.readLong());
            }
            case PgMessages.FLOAT4 -> {
                check(len, 4, index);
                return number(b.readFloat());
            }
            case PgMessages.FLOAT8 -> {
                check(len, 8, index);
                return number(b.readDouble());
            }
            case PgMessages.BOOL -> {
                check(len, 1, index);
                return b.readByte() != 0 ? "TRUE" : "FALSE";
            }
            case PgMessages.TEXT, PgMessages.VARCHAR, PgMessages.BPCHAR, 0, PgMessages.UNKNOWN -> {
                return quote(PgMessages.utf8(b, len));
            }
            case PgMessages.NUMERIC -> {
                return numeric(b, len, index);
            }
            case PgMessages.INT4_ARRAY, PgMessages.INT2_ARRAY, PgMessages.INT8_ARRAY, PgMessages.FLOAT8_ARRAY,
                    PgMessages.TEXT_ARRAY, PgMessages.VARCHAR_ARRAY, PgMessages.BOOL_ARRAY, PgMessages.DATE_ARRAY,
                    PgMessages.TIMESTAMP_ARRAY, PgMessages.NUMERIC_ARRAY -> {
                return binaryArray(b, len, oid, index); // arrays
            }
            default -> throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "binary format of parameter $" + index + " (type OID " + oid + ") is not supported");
        }
    }

    /**
     * A NUMERIC in PostgreSQL's binary form (numeric_send: ndigits, weight, sign, dscale, base-10000
     * digits), as pgjdbc sends setBigDecimal values of a named statement, to its digits.
     */
    private static String numeric(ByteBuf b, int len, int index) {
        if (len < 8) {
            throw new SqlException("22P03", "incorrect binary data format in bind parameter " + index);
        }
        int n = b.readUnsignedShort();
        int weight = b.readShort();
        int sign = b.readUnsignedShort();
        int dscale = b.readUnsignedShort();
        if (len != 8 + 2 * n || dscale > 0x3FFF) {
            throw new SqlException("22P03", "incorrect binary data format in bind parameter " + index);
        }
        if (sign == 0xC000) {
            b.skipBytes(2 * n);
            return quote("NaN");
        }
        if (sign != 0 && sign != 0x4000) {
            throw new SqlException("22P03", "invalid sign in external \"numeric\" value in bind parameter " + index);
        }
        java.math.BigDecimal v = java.math.BigDecimal.ZERO;
        for (int i = 0; i < n; i++) {
            int d = b.readUnsignedShort();
            if (d > 9999) {
                throw new SqlException("22P03", "invalid digit in external \"numeric\" value in bind parameter " + index);
            }
            v = v.add(java.math.BigDecimal.valueOf(d).scaleByPowerOfTen(4 * (weight - i)));
        }
        v = v.setScale(dscale, java.math.RoundingMode.DOWN);
        return (sign == 0x4000 && v.signum() != 0 ? "-" : "") + v.toPlainString();
    }

    private static String number(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? quote(Double.toString(d)) : Double.toString(d);
    }

    private static void check(int len, int want, int index) {
        if (len != want) {
            throw new SqlException("22P03", "incorrect binary data format in bind parameter " + index);
        }
    }

    private static String bool(String text) {
        switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "t", "true", "y", "yes", "on", "1":
                return "TRUE";
            case "f", "false", "n", "no", "off", "0":
                return "FALSE";
            default:
                throw invalid("boolean", text);
        }
    }

    private static SqlException invalid(String type, String text) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + type + ": \"" + text + "\"");
    }

    /** A string literal: quotes doubled; a NUL cannot be in text (PostgreSQL refuses it as well). */
    static String quote(String s) {
        if (s.indexOf('\0') >= 0) {
            throw new SqlException(SqlState.CHARACTER_NOT_IN_REPERTOIRE, "invalid byte sequence for encoding \"UTF8\": 0x00");
        }
        return "'" + s.replace("'", "''") + "'";
    }
}
