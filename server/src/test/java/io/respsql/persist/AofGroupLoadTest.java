package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULTI ... EXEC groups in the append-only file: a complete group is applied, a trailing group cut
 * anywhere (or missing its EXEC) is dropped entirely and the file truncated where it begins; a
 * stray EXEC or a nested MULTI is damage.
 */
class AofGroupLoadTest {
    @TempDir
    Path dir;

    private static final String CREATE = "CREATE TABLE t (id int primary key, v int, s text)";

    /** A statement, then two blocks; returns the file and, in {@code offsets}, where block 2 starts. */
    private static byte[] file(long[] secondGroupStart) {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeMulti(b);
        AofFormat.writeSql(b, "INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b')");
        AofFormat.writeSql(b, "UPDATE t SET v = v + 1 WHERE id = 2");
        AofFormat.writeExec(b);
        secondGroupStart[0] = b.writerIndex();
        AofFormat.writeMulti(b);
        AofFormat.writeSql(b, "INSERT INTO t VALUES (3, 30, 'c')");
        AofFormat.writeSql(b, "DELETE FROM t WHERE id = 1");
        AofFormat.writeFlushAll(b);
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeSql(b, "INSERT INTO t VALUES (9, 90, 'z')");
        AofFormat.writeExec(b);
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        return bytes;
    }

    private static String dump(SqlEngine engine) {
        ByteBuf out = Unpooled.buffer();
        EngineReplies.run(engine, "DUMP t", new RespWriter().target(out));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String dumpAfter(String... statements) {
        SqlEngine engine = new SqlEngine(new Catalog());
        RespWriter w = new RespWriter().target(Unpooled.buffer());
        for (String st : statements) {
            EngineReplies.run(engine, st, w);
        }
        return dump(engine);
    }

    @Test
    void completeGroupsAreApplied() throws Exception {
        Path f = dir.resolve("a.aof");
        long[] second = new long[1];
        byte[] bytes = file(second);
        Files.write(f, bytes);
        SqlEngine engine = new SqlEngine(new Catalog());
        AofLoader.Result r = AofLoader.load(f, engine);
        assertEquals(0, r.droppedBytes());
        assertEquals(bytes.length, r.size());
        assertEquals(dumpAfter(CREATE, "INSERT INTO t VALUES (9, 90, 'z')"), dump(engine));
    }

    @Test
    void aTrailingGroupCutAnywhereIsDroppedWhole() throws Exception {
        long[] second = new long[1];
        byte[] bytes = file(second);
        String firstGroupOnly = dumpAfter(CREATE, "INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b')",
                "UPDATE t SET v = v + 1 WHERE id = 2");
        // every cut from inside block 2's MULTI record to the last byte before its EXEC ends
        for (int cut = (int) second[0] + 1; cut < bytes.length; cut++) {
            Path f = dir.resolve("cut" + cut + ".aof");
            Files.write(f, Arrays.copyOf(bytes, cut));
            SqlEngine engine = new SqlEngine(new Catalog());
            AofLoader.Result r = AofLoader.load(f, engine);
            assertEquals(firstGroupOnly, dump(engine), "cut at " + cut);
            assertEquals(second[0], r.size(), "cut at " + cut);
            assertEquals(cut - second[0], r.droppedBytes(), "cut at " + cut);
            assertEquals(second[0], Files.size(f), "file truncated where block 2 begins, cut at " + cut);
            Files.delete(f);
        }
    }

    @Test
    void checkAofReportsAndFixesACutGroup() throws Exception {
        long[] second = new long[1];
        byte[] bytes = file(second);
        Path f = dir.resolve("c.aof");
        Files.write(f, Arrays.copyOf(bytes, bytes.length - 3)); // EXEC cut short
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(1, CheckAof.run(new String[] {"--fix", f.toString()}, ps, ps));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("AOF is damaged at offset " + second[0] + " (the last MULTI block is cut short)"), text);
        assertEquals(second[0], Files.size(f));
        out.reset();
        assertEquals(0, CheckAof.run(new String[] {f.toString()}, ps, ps));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("AOF is valid: 3 records, " + second[0] + " bytes"),
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aStrayExecOrANestedMultiIsDamage() throws Exception {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeExec(b);
        Path f = dir.resolve("stray.aof");
        Files.write(f, Arrays.copyOf(b.array(), b.writerIndex()));
        AofLoadException e = assertThrows(AofLoadException.class, () -> AofLoader.load(f, new SqlEngine(new Catalog())));
        assertTrue(e.getMessage().contains("EXEC without MULTI"), e.getMessage());

        b.clear();
        AofFormat.writeMulti(b);
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeMulti(b);
        AofFormat.writeExec(b);
        Path g = dir.resolve("nested.aof");
        Files.write(g, Arrays.copyOf(b.array(), b.writerIndex()));
        e = assertThrows(AofLoadException.class, () -> AofLoader.load(g, new SqlEngine(new Catalog())));
        assertTrue(e.getMessage().contains("MULTI inside the MULTI block opened at offset 0"), e.getMessage());
    }
}
