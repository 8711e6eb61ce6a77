package io.respsql.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import io.respsql.storage.CatalogImage;
import io.respsql.storage.Column;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotTest {
    @TempDir
    Path dir;

    /** Runs statements on a catalog and returns replies, CRLFs shown as spaces. */
    private static final class Db {
        final Catalog catalog;
        final SqlEngine engine;
        private final RespWriter writer = new RespWriter();

        Db(Catalog catalog) {
            this.catalog = catalog;
            this.engine = new SqlEngine(catalog);
        }

        Db() {
            this(new Catalog());
        }

        String run(String sql) {
            ByteBuf buf = Unpooled.buffer();
            EngineReplies.run(engine, sql, writer.target(buf));
            String s = buf.toString(StandardCharsets.UTF_8).replace("\r\n", " ").trim();
            buf.release();
            return s;
        }

        void ok(String... statements) {
            for (String sql : statements) {
                String reply = run(sql);
                assertFalse(reply.startsWith("-"), sql + " -> " + reply);
            }
        }

        /** Every table as DUMP shows it plus its exact slot layout and the next slots an insert takes. */
        String state() {
            StringBuilder sb = new StringBuilder();
            for (Table t : catalog.tables()) {
                sb.append(run("DUMP " + t.name())).append('\n');
                sb.append("slots ").append(t.rows().highWater()).append(" next ")
                  .append(t.peekRow(0)).append(',').append(t.peekRow(1)).append(',').append(t.peekRow(2)).append('\n');
                for (int row = 0; row < t.rows().highWater(); row++) {
                    if (!t.isLive(row)) {
                        continue;
                    }
                    sb.append(row).append(':');
                    for (int c = 0; c < t.columnCount(); c++) {
                        Column col = t.column(c);
                        sb.append(col instanceof TextColumn tc ? tc.getString(row)
                                : col.type().isInteger() ? Long.toString(col.getLong(row))
                                : Long.toHexString(Double.doubleToRawLongBits(col.getDouble(row)))).append('|');
                    }
                    sb.append('\n');
                }
            }
            return sb.toString();
        }
    }

    /** Tables with every column type, indexes, deleted rows, moved primary keys and rewritten text. */
    private static Db sample() {
        Db db = new Db();
        db.ok("CREATE TABLE emp (id INT PRIMARY KEY, division INT, big BIGINT, salary FLOAT, name TEXT)",
              "CREATE INDEX emp:division:index ON emp (division)",
              "CREATE INDEX emp:name ON emp (name)",
              "CREATE TABLE words (w TEXT PRIMARY KEY, n INT)",
              "CREATE TABLE empty (id BIGINT PRIMARY KEY, f FLOAT)");
        for (int i = 1; i <= 300; i++) {
            db.ok("INSERT INTO emp VALUES (" + i + "," + (i % 7) + "," + (i * 3_000_000_000L) + "," + (i * 1.5 - 100)
                    + ",'name " + i + " it''s ünïcødé')");
        }
        db.ok("INSERT INTO emp VALUES (1000,1,-9223372036854775808,-0.0,'')",
              "INSERT INTO emp VALUES (1001,1,9223372036854775807,1e300,'\"quoted\", with commas')",
              "DELETE FROM emp WHERE id BETWEEN 10 AND 20",
              "DELETE FROM emp WHERE id = 250",
              "UPDATE emp SET id = id + 5000 WHERE id BETWEEN 100 AND 110",
              "INSERT INTO words VALUES ('b', 2), ('a', 1), ('', 0)");
        for (int round = 0; round < 40; round++) {
            db.ok("UPDATE emp SET name = 'rewrite " + round + "' WHERE division = 3");
        }
        return db;
    }

    private static byte[] snapshot(Catalog catalog) throws IOException {
        CatalogImage image = catalog.capture();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long n = SnapshotWriter.write(image, out);
            assertEquals(out.size(), n);
            return out.toByteArray();
        } finally {
            image.release();
        }
    }

    private static Db load(byte[] bytes) throws IOException {
        Db db = new Db();
        SnapshotReader.load(Channels.newChannel(new java.io.ByteArrayInputStream(bytes)), "test", db.catalog);
        return db;
    }

    @Test
    void roundTripKeepsValuesSlotsIndexesAndFreeList() throws IOException {
        Db original = sample();
        Db loaded = load(snapshot(original.catalog));
        assertEquals(original.state(), loaded.state());
        // Inserts after the load take the same slots; index probes find the same rows.
        for (Db db : List.of(original, loaded)) {
            db.ok("INSERT INTO emp VALUES (7000,3,1,2.5,'after'),(7001,4,1,2.5,'after')",
                  "INSERT INTO words VALUES ('c', 3)", "INSERT INTO empty VALUES (1, 0.5)");
        }
        assertEquals(original.state(), loaded.state());
        for (String q : List.of("SELECT id,name FROM emp WHERE division = 3", "SELECT * FROM emp WHERE name = 'after'",
                "SELECT * FROM words WHERE w BETWEEN '' AND 'b'", "EXPLAIN SELECT * FROM emp WHERE name = 'x'")) {
            assertEquals(original.run(q), loaded.run(q), q);
        }
        assertTrue(loaded.run("EXPLAIN SELECT * FROM emp WHERE division = 3").contains("emp:division:index"));
    }

    @Test
    void imageWrittenAfterLaterChangesHoldsTheCaptureMoment() throws IOException {
        Db db = sample();
        String before = db.state();
        CatalogImage image = db.catalog.capture();
        db.ok("UPDATE emp SET salary = 1, name = 'changed' WHERE id > 0", "DELETE FROM emp WHERE division = 2",
              "DROP TABLE words", "INSERT INTO empty VALUES (5, 5)");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SnapshotWriter.write(image, out);
        image.release();
        assertEquals(before, load(out.toByteArray()).state());
    }

    @Test
    void fileSaveReplacesAtomicallyAndLeavesNoTemporaryFile() throws IOException {
        Db db = sample();
        CatalogImage image = db.catalog.capture();
        long size = SnapshotFile.save(image, dir, "dump.rsql");
        image.release();
        Path file = dir.resolve("dump.rsql");
        assertEquals(Files.size(file), size);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
        assertTrue(SnapshotReader.startsWithMagic(file));
        Db loaded = new Db();
        SnapshotReader.Result r = SnapshotReader.load(file, loaded.catalog);
        assertEquals(3, r.tables());
        assertEquals(db.catalog.table("emp").rowCount() + 3, r.rows());
        assertEquals(size, r.endOffset());
        assertEquals(db.state(), loaded.state());
    }

    @Test
    void snapshotInsideALargerFileIsReadFromItsOffset() throws IOException {
        Db db = sample();
        byte[] snap = snapshot(db.catalog);
        Path file = dir.resolve("log");
        byte[] prefix = "some header\n".getBytes(StandardCharsets.US_ASCII);
        byte[] suffix = "INSERT INTO emp VALUES (...)\n".repeat(100).getBytes(StandardCharsets.US_ASCII);
        ByteBuffer all = ByteBuffer.allocate(prefix.length + snap.length + suffix.length).put(prefix).put(snap).put(suffix);
        Files.write(file, all.array());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertFalse(SnapshotReader.startsWithMagic(ch, 0));
            assertTrue(SnapshotReader.startsWithMagic(ch, prefix.length));
            Db loaded = new Db();
            SnapshotReader.Result r = SnapshotReader.load(ch, prefix.length, file.toString(), loaded.catalog);
            assertEquals(prefix.length + snap.length, r.endOffset());
            assertEquals(r.endOffset(), ch.position());
            assertEquals(db.state(), loaded.state());

            Db again = new Db();
            assertEquals(prefix.length + snap.length, SnapshotReader.load(ch, prefix.length, again.catalog));
            assertEquals(db.state(), again.state());
        }
    }

    @Test
    void flippedByteIsReportedAsAChecksumMismatchAndLoadsNothing() throws IOException {
        Path file = dir.resolve("dump.rsql");
        byte[] snap = snapshot(sample().catalog);
        int trailer = snap.length - 12;
        snap[indexOf(snap, "name 42 it".getBytes(StandardCharsets.UTF_8))] ^= 0x20; // inside a text value
        Files.write(file, snap);
        CRC32C crc = new CRC32C();
        crc.update(snap, 0, trailer);
        int stored = ByteBuffer.wrap(snap, trailer, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        Catalog target = new Catalog();
        SnapshotException e = assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, target));
        assertEquals(String.format(Locale.ROOT, "Bad snapshot checksum in %s: expected %08x, found %08x",
                file, stored, (int) crc.getValue()), e.getMessage());
        assertTrue(target.tables().isEmpty(), "nothing is loaded from a bad snapshot");
    }

    @Test
    void aFlipAnywhereIsReportedAsAChecksumMismatch() throws IOException {
        byte[] snap = snapshot(sample().catalog);
        Path file = dir.resolve("dump.rsql");
        int trailer = snap.length - 12;
        int stored = ByteBuffer.wrap(snap, trailer, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        for (int at = 8; at < trailer; at += 97) { // lengths, counts, bitmap words, values
            byte[] bad = snap.clone();
            bad[at] ^= 0x55;
            Files.write(file, bad);
            CRC32C crc = new CRC32C();
            crc.update(bad, 0, trailer);
            Catalog target = new Catalog();
            String message = assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, target)).getMessage();
            String expected = at < 12 ? "has format version" : String.format(Locale.ROOT,
                    "Bad snapshot checksum in %s: expected %08x, found %08x", file, stored, (int) crc.getValue());
            assertTrue(message.contains(expected), "byte " + at + ": " + message);
            assertTrue(target.tables().isEmpty());
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    @Test
    void truncationAnywhereIsReportedWithTheOffsetWhereTheFileEnds() throws IOException {
        byte[] snap = snapshot(sample().catalog);
        Path file = dir.resolve("dump.rsql");
        for (int cut : new int[] {0, 5, 8, 20, snap.length / 3, snap.length / 2, snap.length - 12, snap.length - 1}) {
            Files.write(file, Arrays.copyOf(snap, cut));
            Catalog target = new Catalog();
            SnapshotException e = assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, target));
            assertEquals("Snapshot " + file + " is truncated at offset " + cut, e.getMessage());
            assertTrue(target.tables().isEmpty());
        }
    }

    @Test
    void wrongMagicAndUnknownVersionAreNamed() throws IOException {
        byte[] snap = snapshot(sample().catalog);
        Path file = dir.resolve("dump.rsql");
        byte[] other = snap.clone();
        other[0] = 'X';
        Files.write(file, other);
        assertEquals(file + " is not a RespSQL snapshot (bad magic at offset 0)",
                assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, new Catalog())).getMessage());
        byte[] future = snap.clone();
        future[8] = 9;
        Files.write(file, future);
        assertEquals("Snapshot " + file + " has format version 9; this server reads versions 1 to 4",
                assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, new Catalog())).getMessage());
    }

    @Test
    void aCorruptRowCountFailsBeforeAllocatingForIt() throws IOException {
        // Read from a stream (no whole-file checksum fallback): the structure check itself answers.
        Db db = new Db();
        db.ok("CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1),(2)");
        byte[] snap = snapshot(db.catalog);
        // header 24 bytes, name 4+1, count 4, column 4+2+1+1 (name, type, flags), pk 4, index count 4:
        // high-water mark at 49 (format versions 2 and 3)
        int at = 24 + 5 + 4 + 8 + 4 + 4;
        assertEquals(2, ByteBuffer.wrap(snap, at, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        ByteBuffer.wrap(snap, at, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.MAX_VALUE);
        Path file = dir.resolve("dump.rsql");
        Files.write(file, snap);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertEquals("Snapshot " + file + " is truncated at offset " + snap.length, assertThrows(SnapshotException.class,
                    () -> SnapshotReader.load(ch, 0, file.toString(), new Catalog())).getMessage());
        }
        assertTrue(assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, new Catalog())).getMessage()
                .startsWith("Bad snapshot checksum in " + file), "a whole file names the checksum mismatch");
    }

    @Test
    void emptyCatalogRoundTrips() throws IOException {
        byte[] snap = snapshot(new Catalog());
        // magic, version, created, table count, view count, prepared statement count, section count, checksum, end marker
        assertEquals(8 + 4 + 8 + 4 + 4 + 4 + 4 + 4 + 8, snap.length);
        assertTrue(load(snap).catalog.tables().isEmpty());
    }

    @Test
    void loadRefusesToReplaceExistingTables() throws IOException {
        Db db = sample();
        Path file = dir.resolve("dump.rsql");
        Files.write(file, snapshot(db.catalog));
        Db target = new Db();
        target.ok("CREATE TABLE other (id INT)", "CREATE TABLE words (x INT)");
        SnapshotException e = assertThrows(SnapshotException.class, () -> SnapshotReader.load(file, target.catalog));
        assertEquals("Snapshot " + file + " holds table words, which already exists", e.getMessage());
        assertEquals(new ArrayList<>(List.of("other", "words")),
                target.catalog.tables().stream().map(Table::name).toList());
    }
}
