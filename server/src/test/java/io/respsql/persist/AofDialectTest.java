package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.Dialect;
import io.respsql.storage.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code PGSQL} records: a write that ran in PostgreSQL's dialect is logged as one and replayed in
 * that dialect (alone, inside a MULTI block mixed with default-dialect records), and a torn PGSQL
 * record at the end is dropped like a torn SQL one. The statements here mean different things in
 * the two dialects (:: casts only parse in PostgreSQL's; LIKE is
 * case-sensitive only in PostgreSQL), so a replay in the wrong dialect gives other rows.
 */
class AofDialectTest {
    @TempDir
    Path dir;

    private static final String CREATE = "CREATE TABLE t (id int primary key, v int, s text)";
    private static final String INSERT = "INSERT INTO t VALUES (1, 7.6::int, 'abc'), (2, 2.5::int, 'ABD'), (3, 3, 'x')";
    private static final String DELETE = "DELETE FROM t WHERE s LIKE 'a%'";

    private static String run(SqlEngine engine, String sql, boolean postgres) {
        ByteBuf out = Unpooled.buffer();
        Dialect.postgres(postgres);
        try {
            EngineReplies.run(engine, sql, new RespWriter().target(out));
        } finally {
            Dialect.postgres(false);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String dump(SqlEngine engine) {
        return run(engine, "SELECT * FROM t ORDER BY id", false);
    }

    /** What the statements give when run live, each in its own dialect ({@code pg[i]}). */
    private static String live(String[] sql, boolean[] pg) {
        SqlEngine engine = new SqlEngine(new Catalog());
        for (int i = 0; i < sql.length; i++) {
            run(engine, sql[i], pg[i]);
        }
        return dump(engine);
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), a);
        return a;
    }

    private SqlEngine load(byte[] file) throws Exception {
        Path f = dir.resolve("a.aof");
        Files.write(f, file);
        SqlEngine engine = new SqlEngine(new Catalog());
        AofLoader.load(f, engine);
        return engine;
    }

    @Test
    void theRecordNamesItsDialectAndTheDefaultOneIsUnchanged() {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, "SELECT 'é'::int", true);
        assertEquals("*2\r\n$5\r\nPGSQL\r\n$16\r\nSELECT 'é'::int\r\n", b.toString(StandardCharsets.UTF_8));
        ByteBuf d = Unpooled.buffer();
        AofFormat.writeSql(d, "INSERT INTO t VALUES (1)", false);
        ByteBuf old = Unpooled.buffer();
        AofFormat.writeSql(old, "INSERT INTO t VALUES (1)");
        assertEquals("*2\r\n$3\r\nSQL\r\n$24\r\nINSERT INTO t VALUES (1)\r\n", d.toString(StandardCharsets.UTF_8));
        assertTrue(Arrays.equals(bytes(old), bytes(d)));
    }

    @Test
    void theStatementsReallyDifferBetweenTheDialects() {
        assertNotEquals(live(new String[] {CREATE, INSERT, DELETE}, new boolean[] {false, true, true}),
                live(new String[] {CREATE, INSERT, DELETE}, new boolean[] {false, false, false}));
    }

    @Test
    void pgsqlRecordsReplayInPostgresDialect() throws Exception {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeSql(b, INSERT, true);
        AofFormat.writeSql(b, DELETE, true);
        SqlEngine engine = load(bytes(b));
        assertEquals(live(new String[] {CREATE, INSERT, DELETE}, new boolean[] {false, true, true}), dump(engine));
        assertTrue(dump(engine).contains("ABD"), dump(engine)); // PostgreSQL's LIKE kept the upper-case row
        assertFalse(Dialect.postgres(), "the load leaves the thread in the default dialect");
    }

    @Test
    void aBlockMixingDialectsReplaysEachInItsOwn() throws Exception {
        String update = "UPDATE t SET v = v + 1 WHERE s LIKE 'X%'"; // default dialect: matches 'x'
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeMulti(b);
        AofFormat.writeSql(b, INSERT, true);
        AofFormat.writeSql(b, update, false);
        AofFormat.writeSql(b, DELETE, false);
        AofFormat.writeSql(b, "INSERT INTO t VALUES (4, 4.5::int, 'ab')", true);
        AofFormat.writeExec(b);
        String[] sql = {CREATE, INSERT, update, DELETE, "INSERT INTO t VALUES (4, 4.5::int, 'ab')"};
        String expected = live(sql, new boolean[] {false, true, false, false, true});
        assertNotEquals(live(sql, new boolean[] {false, false, false, false, false}), expected);
        assertNotEquals(live(sql, new boolean[] {true, true, true, true, true}), expected);
        assertEquals(expected, dump(load(bytes(b))));
    }

    @Test
    void aTornPgsqlRecordAtTheEndIsDroppedAndTheFileTruncated() throws Exception {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeSql(b, INSERT, true);
        int good = b.writerIndex();
        AofFormat.writeSql(b, DELETE, true);
        byte[] whole = bytes(b);
        for (int cut = good + 1; cut < whole.length; cut += 3) {
            Path f = dir.resolve("torn" + cut + ".aof");
            Files.write(f, Arrays.copyOf(whole, cut));
            SqlEngine engine = new SqlEngine(new Catalog());
            AofLoader.Result r = AofLoader.load(f, engine);
            assertEquals(2, r.records(), "cut at " + cut);
            assertEquals(good, Files.size(f), "cut at " + cut);
            assertEquals(live(new String[] {CREATE, INSERT}, new boolean[] {false, true}), dump(engine));
        }
    }

    @Test
    void theReaderTellsPgsqlFromSqlAndFindsAPgsqlRecordAfterDamage() throws Exception {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeSql(b, INSERT, true);
        Path f = dir.resolve("r.aof");
        Files.write(f, bytes(b));
        try (FileChannel ch = FileChannel.open(f)) {
            AofReader r = new AofReader(ch, 0, ch.size());
            assertEquals(AofReader.Kind.SQL, r.next());
            assertEquals(CREATE, r.sql());
            assertFalse(r.postgres());
            assertEquals(AofReader.Kind.SQL, r.next());
            assertEquals(INSERT, r.sql());
            assertTrue(r.postgres());
            assertEquals(AofReader.Kind.END, r.next());
        }
        // The first record's length damaged (larger): it runs past the end, yet a PGSQL record
        // starts inside it and runs to the end, so this is damage, not a torn tail to drop.
        byte[] damaged = bytes(b);
        String s = new String(damaged, StandardCharsets.ISO_8859_1);
        int len = s.indexOf("$" + CREATE.length());
        byte[] longer = s.replaceFirst("\\$" + CREATE.length() + "\r", "\\$9" + CREATE.length() + "\r")
                .getBytes(StandardCharsets.ISO_8859_1);
        assertTrue(len > 0);
        Path g = dir.resolve("d.aof");
        Files.write(g, longer);
        try (FileChannel ch = FileChannel.open(g)) {
            AofReader r = new AofReader(ch, 0, ch.size());
            assertEquals(AofReader.Kind.CORRUPT, r.next());
            assertTrue(r.problem().contains("a record starts at offset"), r.problem());
        }
    }

    @Test
    void checkAofAcceptsPgsqlRecords() throws Exception {
        ByteBuf b = Unpooled.buffer();
        AofFormat.writeSql(b, CREATE);
        AofFormat.writeMulti(b);
        AofFormat.writeSql(b, INSERT, true);
        AofFormat.writeSql(b, DELETE, false);
        AofFormat.writeExec(b);
        Path f = dir.resolve("c.aof");
        Files.write(f, bytes(b));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = CheckAof.run(new String[] {f.toString()}, new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, out + " " + err);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("AOF is valid: 3 records"), out.toString(StandardCharsets.UTF_8));
    }
}
