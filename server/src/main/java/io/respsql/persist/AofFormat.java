package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;

/**
 * The append-only file's records: RESP multibulks, as in Redis's AOF, so the file stays readable
 * and RESP tools understand it. A write statement is {@code *2 $3 SQL $<n> <statement>}, or
 * {@code *2 $5 PGSQL $<n> <statement>} when it ran in PostgreSQL's dialect ({@code SET sql_dialect},
 * every pgwire session): the same text can mean something else, or not parse, in the default
 * dialect, so a load and a replica must run it in the one it ran in. FLUSHALL
 * is {@code *1 $8 FLUSHALL}. The records of a MULTI/EXEC block stand between {@code *1 $5 MULTI}
 * and {@code *1 $4 EXEC}, as in Redis's AOF; a load applies them only if the EXEC is there. A file may start with a snapshot preamble (magic {@code RSQLSNAP})
 * written by a rewrite.
 */
public final class AofFormat {
    /** First bytes of a snapshot; an AOF starting with them has a snapshot preamble. */
    public static final byte[] SNAPSHOT_MAGIC = "RSQLSNAP".getBytes(StandardCharsets.US_ASCII);

    private static final byte[] SQL_HEAD = "*2\r\n$3\r\nSQL\r\n$".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PGSQL_HEAD = "*2\r\n$5\r\nPGSQL\r\n$".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FLUSHALL = "*1\r\n$8\r\nFLUSHALL\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MULTI = "*1\r\n$5\r\nMULTI\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXEC = "*1\r\n$4\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final short CRLF = ('\r' << 8) | '\n';

    private AofFormat() {
    }

    /** Appends the record of one write statement run in the default dialect; allocates nothing. */
    public static void writeSql(ByteBuf out, CharSequence sql) {
        writeSql(out, sql, false);
    }

    /**
     * Appends the record of one write statement: {@code SQL}, or {@code PGSQL} when it ran in
     * PostgreSQL's dialect ({@code postgres}); allocates nothing.
     */
    public static void writeSql(ByteBuf out, CharSequence sql, boolean postgres) {
        byte[] head = postgres ? PGSQL_HEAD : SQL_HEAD;
        int n = ByteBufUtil.utf8Bytes(sql);
        out.ensureWritable(head.length + 12 + n);
        out.writeBytes(head);
        writeDecimal(out, n);
        out.writeShort(CRLF);
        ByteBufUtil.writeUtf8(out, sql);
        out.writeShort(CRLF);
    }

    /** Appends the record of FLUSHALL. */
    public static void writeFlushAll(ByteBuf out) {
        out.writeBytes(FLUSHALL);
    }

    /** Appends the record that opens a block. */
    public static void writeMulti(ByteBuf out) {
        out.writeBytes(MULTI);
    }

    /** Appends the record that closes a block. */
    public static void writeExec(ByteBuf out) {
        out.writeBytes(EXEC);
    }

    private static void writeDecimal(ByteBuf out, int v) {
        int digits = 1;
        for (int t = v; t >= 10; t /= 10) {
            digits++;
        }
        int at = out.writerIndex();
        out.writerIndex(at + digits);
        for (int i = at + digits - 1; i >= at; i--) {
            out.setByte(i, '0' + v % 10);
            v /= 10;
        }
    }
}
