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
}
