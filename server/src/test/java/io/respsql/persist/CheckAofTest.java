package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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

/** {@code respsql-check-aof}: valid files, a cut-short tail, damage in the middle, and --fix. */
class CheckAofTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int check(String... args) {
        out.reset();
        err.reset();
        return CheckAof.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Three records: two statements and a FLUSHALL, encoded as the server writes them. */
    private static byte[] threeRecords() {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, "CREATE TABLE t (id int primary key, name TEXT)");
        AofFormat.writeSql(b, "INSERT INTO t VALUES (1, 'ünïcode ✓')");
        AofFormat.writeFlushAll(b);
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        return bytes;
    }

    @Test
    void encodingIsRespMultibulk() {
        ByteBuf b = Unpooled.buffer(4); // grows as needed
        AofFormat.writeSql(b, "INSERT INTO t VALUES ('é')");
        assertEquals("*2\r\n$3\r\nSQL\r\n$27\r\nINSERT INTO t VALUES ('é')\r\n", b.toString(StandardCharsets.UTF_8));
    }

    @Test
    void validFile() throws Exception {
        Path f = dir.resolve("a.aof");
        byte[] bytes = threeRecords();
        Files.write(f, bytes);
        assertEquals(0, check(f.toString()));
        assertEquals("AOF is valid: 3 records, " + bytes.length + " bytes\n", out());
        Files.write(f, new byte[0]);
        assertEquals(0, check(f.toString()));
        assertEquals("AOF is valid: 0 records, 0 bytes\n", out());
    }

    @Test
    void truncatedTailAndFix() throws Exception {
        Path f = dir.resolve("a.aof");
        byte[] bytes = threeRecords();
        int lastStart = bytes.length - "*1\r\n$8\r\nFLUSHALL\r\n".length();
        for (int cut = lastStart + 1; cut < bytes.length; cut++) {
            Files.write(f, Arrays.copyOf(bytes, cut));
            assertEquals(1, check(f.toString()), "cut at " + cut);
            assertEquals("AOF is damaged at offset " + lastStart + " (the last record is cut short): "
                    + (cut - lastStart) + " bytes after the last good record (2 good records)\n", out());
            assertEquals(cut, Files.size(f), "without --fix the file is left alone");
        }
        assertEquals(1, check("--fix", f.toString()));
        assertEquals("AOF is damaged at offset " + lastStart + " (the last record is cut short): "
                + (bytes.length - 1 - lastStart) + " bytes after the last good record (2 good records)\n"
                + "Fixed: truncated " + f + " to " + lastStart + " bytes (" + (bytes.length - 1 - lastStart)
                + " bytes removed)\n", out());
        assertArrayEquals(Arrays.copyOf(bytes, lastStart), Files.readAllBytes(f));
        assertEquals(0, check(f.toString()));
        assertEquals("AOF is valid: 2 records, " + lastStart + " bytes\n", out());
    }

    @Test
    void damageInTheMiddle() throws Exception {
        Path f = dir.resolve("a.aof");
        byte[] bytes = threeRecords();
        int second = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("*2", 1);
        byte[] bad = bytes.clone();
        bad[second + 5] = 'x'; // "$3" becomes "$x"
        Files.write(f, bad);
        assertEquals(1, check(f.toString()));
        assertEquals("AOF is damaged at offset " + second + " (bad length after '$': found 'x' at offset "
                + (second + 5) + "): " + (bytes.length - second) + " bytes after the last good record (1 good records)\n",
                out());
        assertEquals(1, check(f.toString(), "--fix"));
        assertEquals(second, Files.size(f));
        assertEquals(0, check(f.toString()));
    }

    @Test
    void unknownRecordAndUsage() throws Exception {
        Path f = dir.resolve("a.aof");
        Files.writeString(f, "*1\r\n$4\r\nPING\r\n");
        assertEquals(1, check(f.toString()));
        assertEquals("AOF is damaged at offset 0 (unknown record 'PING' with 1 argument(s)): 14 bytes after the "
                + "last good record (0 good records)\n", out());
        assertEquals(2, check());
        assertEquals(2, check(dir.resolve("missing.aof").toString()));
        assertEquals(2, check("--fix", "a", "b"));
    }
}
