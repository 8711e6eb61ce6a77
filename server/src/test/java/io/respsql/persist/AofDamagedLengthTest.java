package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A damaged length in the middle of the log that points past its end is damage, not a write cut
 * short: before, the load took it for a torn tail, truncated the file there and started without
 * every record after it (a WARN the only trace). Found while fuzzing the log reader (PersistFuzzTest).
 */
class AofDamagedLengthTest {
    @TempDir
    Path dir;

    /** Three records; {@code starts} gets where the second one's statement length digits start and end. */
    private static byte[] log(int[] lengthDigits) {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, "CREATE TABLE t (id int primary key, v int)");
        int second = b.writerIndex();
        AofFormat.writeSql(b, "INSERT INTO t VALUES (1, 10)");
        AofFormat.writeSql(b, "INSERT INTO t VALUES (2, 20)");
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        b.release();
        String s = new String(bytes, StandardCharsets.ISO_8859_1);
        lengthDigits[0] = s.indexOf("SQL\r\n$", second) + 6;
        lengthDigits[1] = s.indexOf("\r\n", lengthDigits[0]);
        return bytes;
    }

    @Test
    void aLengthPointingPastTheEndWithRecordsAfterItStopsTheLoad() throws Exception {
        int[] digits = new int[2];
        byte[] bytes = log(digits);
        // "28" becomes "98": longer than what is left of the file
        bytes[digits[0]] = '9';
        Path f = dir.resolve("appendonly.aof");
        Files.write(f, bytes);
        AofLoadException e = assertThrows(AofLoadException.class, () -> AofLoader.load(f, new SqlEngine(new Catalog())));
        int third = new String(bytes, StandardCharsets.ISO_8859_1).lastIndexOf("*2\r\n$3\r\nSQL");
        assertTrue(e.getMessage().startsWith("Bad AOF record at offset " + new String(bytes, StandardCharsets.ISO_8859_1)
                .lastIndexOf("*2\r\n", digits[0]) + " in " + f + ": argument of 98 bytes at offset " + (digits[1] + 2)
                + " runs past the end of the file, but a record starts at offset " + third + ": its length is damaged."),
                e.getMessage());
        assertArrayEquals(bytes, Files.readAllBytes(f), "the file is left as it was");

        // respsql-check-aof reports it as damage where the bad record starts (its --fix is the operator's choice)
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(1, CheckAof.run(new String[] {f.toString()}, new PrintStream(out), new PrintStream(new ByteArrayOutputStream())));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("runs past the end of the file"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aWriteCutShortIsStillDroppedAsATornTail() throws Exception {
        int[] digits = new int[2];
        byte[] whole = log(digits);
        int third = new String(whole, StandardCharsets.ISO_8859_1).lastIndexOf("*2\r\n$3\r\nSQL");
        for (int cut = third + 1; cut < whole.length; cut++) {
            Path f = dir.resolve("cut" + cut + ".aof");
            Files.write(f, Arrays.copyOf(whole, cut));
            AofLoader.Result r = AofLoader.load(f, new SqlEngine(new Catalog()));
            assertEquals(2, r.records(), "cut at " + cut);
            assertEquals(third, Files.size(f), "truncated where the cut record starts, cut at " + cut);
        }
    }

    @Test
    void aHugeDamagedLengthIsNotAllocated() throws Exception {
        int[] digits = new int[2];
        byte[] bytes = log(digits);
        String s = new String(bytes, StandardCharsets.ISO_8859_1);
        // 500,000,000 bytes announced in a file of a hundred: refused from the file's size, not by allocating it
        String damaged = s.substring(0, digits[0]) + "500000000" + s.substring(digits[1]);
        Path f = dir.resolve("huge.aof");
        Files.write(f, damaged.getBytes(StandardCharsets.ISO_8859_1));
        AofLoadException e = assertThrows(AofLoadException.class, () -> AofLoader.load(f, new SqlEngine(new Catalog())));
        assertTrue(e.getMessage().contains("argument of 500000000 bytes"), e.getMessage());
    }

    /** A statement holding RESP, as a TEXT value may: its bytes look like record starts. */
    private static final String RESP_TEXT = "INSERT INTO t VALUES (3, 'x\r\n*2\r\n$3\r\nSQL\r\n$40\r\nnot forty"
            + "\r\n*2\r\n$3\r\nSQL\r\n$5\r\nhello\r\n and more')";

    private static byte[] respLog() {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, "CREATE TABLE t (id int primary key, v text)");
        AofFormat.writeSql(b, "INSERT INTO t VALUES (1, 'a')");
        AofFormat.writeSql(b, RESP_TEXT);
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        b.release();
        return bytes;
    }

    @Test
    void aTornRecordWhoseTextLooksLikeRecordsIsStillATornTail() throws Exception {
        byte[] whole = respLog();
        String s = new String(whole, StandardCharsets.ISO_8859_1);
        int third = s.indexOf("*2\r\n$3\r\nSQL\r\n$" + RESP_TEXT.length());
        // The one cut left out: right after the embedded complete record "hello", where the bytes from its
        // start to the end are a whole well-formed record, exactly what a damaged length before a record looks like.
        int ambiguous = s.indexOf("hello\r\n") + 7;
        int checked = 0;
        for (int cut = third + 1; cut < whole.length; cut++) {
            if (cut == ambiguous) {
                continue;
            }
            Path f = dir.resolve("resp" + cut + ".aof");
            Files.write(f, Arrays.copyOf(whole, cut));
            AofLoader.Result r = AofLoader.load(f, new SqlEngine(new Catalog()));
            assertEquals(2, r.records(), "cut at " + cut);
            assertEquals(third, Files.size(f), "truncated where the cut record starts, cut at " + cut);
            checked++;
        }
        assertTrue(checked > RESP_TEXT.length(), "cuts inside the record-like bytes were checked: " + checked);
        // and whole, it loads with its text intact
        Path f = dir.resolve("whole.aof");
        Files.write(f, whole);
        assertEquals(3, AofLoader.load(f, new SqlEngine(new Catalog())).records());
    }

    @Test
    void aDamagedLengthIsFoundPastRecordLikeBytesInItsOwnText() throws Exception {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, "CREATE TABLE t (id int primary key, v text)");
        int second = b.writerIndex();
        AofFormat.writeSql(b, RESP_TEXT);
        int third = b.writerIndex();
        AofFormat.writeSql(b, "INSERT INTO t VALUES (1, 'a')");
        AofFormat.writeSql(b, "INSERT INTO t VALUES (2, 'b')");
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        b.release();
        String s = new String(bytes, StandardCharsets.ISO_8859_1);
        int digits = s.indexOf("SQL\r\n$", second) + 6;
        // the length of the statement holding RESP gains a digit and points past the end
        bytes = (s.substring(0, digits) + RESP_TEXT.length() + "0" + s.substring(s.indexOf("\r\n", digits)))
                .getBytes(StandardCharsets.ISO_8859_1);
        third++;
        Path f = dir.resolve("damaged.aof");
        Files.write(f, bytes);
        AofLoadException e = assertThrows(AofLoadException.class, () -> AofLoader.load(f, new SqlEngine(new Catalog())));
        assertTrue(e.getMessage().contains("but a record starts at offset " + third + ": its length is damaged"), e.getMessage());
        assertArrayEquals(bytes, Files.readAllBytes(f), "the file is left as it was");
    }
}
