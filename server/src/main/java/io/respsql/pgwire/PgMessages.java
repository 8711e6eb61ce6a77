package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.respsql.result.ResultColumns;

import java.nio.charset.StandardCharsets;

/**
 * Encoders of the backend messages of PostgreSQL's protocol 3.0: a type byte, an int32 length
 * that counts itself, the body. Each writes one whole message into the buffer it is given.
 */
final class PgMessages {
    /** int4, int8, float8, text, bool, date, timestamp, int2, float4, varchar, numeric. */
    static final int INT4 = 23, INT8 = 20, FLOAT8 = 701, TEXT = 25, BOOL = 16, DATE = 1082, TIMESTAMP = 1114,
            INT2 = 21, FLOAT4 = 700, VARCHAR = 1043, BPCHAR = 1042, NUMERIC = 1700, UNKNOWN = 705,
            INTERVAL = 1186;
    /** arrays: int4[], int8[], float8[], text[], bool[], date[], timestamp[], numeric[], int2[], varchar[]. */
    static final int INT4_ARRAY = 1007, INT8_ARRAY = 1016, FLOAT8_ARRAY = 1022, TEXT_ARRAY = 1009, BOOL_ARRAY = 1000,
            DATE_ARRAY = 1182, TIMESTAMP_ARRAY = 1115, NUMERIC_ARRAY = 1231, INT2_ARRAY = 1005, VARCHAR_ARRAY = 1015;

    private PgMessages() {
    }

    /** Starts a message: type byte and a length to patch; returns where the length sits. */
    static int begin(ByteBuf out, char type) {
        out.writeByte(type);
        int at = out.writerIndex();
        out.writeInt(0);
        return at;
    }

    static void end(ByteBuf out, int at) {
        out.setInt(at, out.writerIndex() - at);
    }

    /**
     * {@code len} bytes of {@code in} as text; invalid UTF-8 is refused with PostgreSQL's error
     * (22021), never read as U+FFFD, as RESP refuses it.
     */
    static String utf8(ByteBuf in, int len) {
        byte[] b = new byte[len];
        in.readBytes(b);
        int bad = io.respsql.engine.Utf8.invalidAt(b, 0, len);
        if (bad >= 0) {
            throw new io.respsql.sql.SqlException(io.respsql.sql.SqlState.CHARACTER_NOT_IN_REPERTOIRE,
                    io.respsql.engine.Utf8.error(b, bad, len, bad));
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    static void cstring(ByteBuf out, String s) {
        out.writeCharSequence(s, StandardCharsets.UTF_8);
        out.writeByte(0);
    }

    static void authentication(ByteBuf out, int code, byte[] data) {
        int at = begin(out, 'R');
        out.writeInt(code);
        if (data != null) {
            out.writeBytes(data);
        }
        end(out, at);
    }

    static void parameterStatus(ByteBuf out, String name, String value) {
        int at = begin(out, 'S');
        cstring(out, name);
        cstring(out, value);
        end(out, at);
    }

    static void backendKeyData(ByteBuf out, int pid, int key) {
        int at = begin(out, 'K');
        out.writeInt(pid);
        out.writeInt(key);
        end(out, at);
    }

    static void readyForQuery(ByteBuf out, char status) {
        out.writeByte('Z');
        out.writeInt(5);
        out.writeByte(status);
    }

    static void commandComplete(ByteBuf out, String tag) {
        int at = begin(out, 'C');
        cstring(out, tag);
        end(out, at);
    }

    /** A message with no body: ParseComplete '1', BindComplete '2', CloseComplete '3', NoData 'n', EmptyQueryResponse 'I', PortalSuspended 's'. */
    static void empty(ByteBuf out, char type) {
        out.writeByte(type);
        out.writeInt(4);
    }

    /**
     * ErrorResponse ('E') or NoticeResponse ('N'): severity (localized and not), SQLSTATE, message,
     * and the 1-based character position in the statement when known (0: none).
     */
    static void error(ByteBuf out, char type, String severity, String sqlState, String message, int position) {
        error(out, type, severity, sqlState, message, position, null);
    }

    /** An ErrorResponse or NoticeResponse; {@code where} (null: none) is its CONTEXT (a COPY's line). */
    static void error(ByteBuf out, char type, String severity, String sqlState, String message, int position,
                      String where) {
        int at = begin(out, type);
        out.writeByte('S');
        cstring(out, severity);
        out.writeByte('V');
        cstring(out, severity);
        out.writeByte('C');
        cstring(out, sqlState == null ? "XX000" : sqlState);
        out.writeByte('M');
        cstring(out, message);
        if (position > 0) {
            out.writeByte('P');
            cstring(out, Integer.toString(position));
        }
        if (where != null) {
            out.writeByte('W');
            cstring(out, where);
        }
        out.writeByte(0);
        end(out, at);
    }

    /** CopyInResponse ('G') or CopyOutResponse ('H'): text format, {@code columns} text columns. */
    static void copyResponse(ByteBuf out, char type, int columns) {
        int at = begin(out, type);
        out.writeByte(0);
        out.writeShort(columns);
        for (int i = 0; i < columns; i++) {
            out.writeShort(0);
        }
        end(out, at);
    }

    static void parameterDescription(ByteBuf out, int[] oids) {
        int at = begin(out, 't');
        out.writeShort(oids.length);
        for (int oid : oids) {
            out.writeInt(oid);
        }
        end(out, at);
    }

    /** RowDescription: each column's name, type OID and size, and the format it is sent in (0 text, 1 binary). */
    static void rowDescription(ByteBuf out, ResultColumns columns, short[] formats) {
        int at = begin(out, 'T');
        int n = columns.size();
        out.writeShort(n);
        for (int i = 0; i < n; i++) {
            cstring(out, columns.name(i));
            out.writeInt(0); // no table OID
            out.writeShort(0); // no attribute number
            int oid = typeOid(columns.type(i));
            out.writeInt(oid);
            out.writeShort(typeSize(oid));
            out.writeInt(-1); // no type modifier
            out.writeShort(format(formats, i));
        }
        end(out, at);
    }

    /** Bind's result format codes: none (all text), one for all, or one per column. */
    static short format(short[] formats, int column) {
        if (formats == null || formats.length == 0) {
            return 0;
        }
        return formats.length == 1 ? formats[0] : column < formats.length ? formats[column] : 0;
    }

    /** The PostgreSQL type of a RespSQL result type ({@link io.respsql.expr.SqlType#sqlName}). */
    static int typeOid(String type) {
        return switch (type) {
            case "INT" -> INT4;
            case "BIGINT" -> INT8;
            case "FLOAT", "DOUBLE" -> FLOAT8;
            case "BOOLEAN", "BOOL" -> BOOL;
            case "DATE" -> DATE;
            case "TIMESTAMP" -> TIMESTAMP;
            case "INTERVAL" -> INTERVAL;
            case "NUMERIC" -> NUMERIC;
            case "BPCHAR" -> BPCHAR; // charn: a char(n) column or ::char(n), blank-padded
            case "INT[]" -> INT4_ARRAY; // arrays
            case "BIGINT[]" -> INT8_ARRAY;
            case "FLOAT[]" -> FLOAT8_ARRAY;
            case "TEXT[]" -> TEXT_ARRAY;
            case "BOOLEAN[]" -> BOOL_ARRAY;
            case "DATE[]" -> DATE_ARRAY;
            case "TIMESTAMP[]" -> TIMESTAMP_ARRAY;
            case "NUMERIC[]" -> NUMERIC_ARRAY;
            default -> TEXT;
        };
    }

    static int typeSize(int oid) {
        return switch (oid) {
            case INT4, DATE, FLOAT4 -> 4;
            case INT8, FLOAT8, TIMESTAMP -> 8;
            case BOOL -> 1;
            case INTERVAL -> 16;
            case INT2 -> 2;
            default -> -1;
        };
    }
}
