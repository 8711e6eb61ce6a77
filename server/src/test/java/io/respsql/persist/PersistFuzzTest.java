package io.respsql.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.result.Outcome;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Catalog;
import io.respsql.storage.Table;
import io.respsql.storage.ViewDef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Coverage-guided fuzzing of the two file readers of startup (Jazzer; {@code mvn test} replays the
 * seed corpora in {@code PersistFuzzTestInputs/<method>/}, {@code scripts/fuzz.sh} fuzzes). Any file
 * loads, or fails with the reader's own exception ({@link SnapshotException}, {@link AofLoadException})
 * whose message names the offset; never another exception, never a load that does not end. A failed
 * snapshot load leaves the catalog it loads into as it was (the reader checks everything before it
 * adds anything); a failed log load stops the server's start, which then discards the half-replayed
 * engine (RespSqlServer.start rethrows, Main exits). Loaded data must then be readable.
 */
class PersistFuzzTest {
    private static final Path DIR = tempDir();
    private static final Path FILE = DIR.resolve("fuzz.rsql");

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("respsql-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void cleanUp() throws IOException {
        Files.deleteIfExists(FILE);
        Files.deleteIfExists(DIR);
    }

    @FuzzTest(maxDuration = "30s")
    void snapshot(byte[] input) throws IOException {
        loadSnapshot(input);
        // Most mutations break the checksum, which is only checked after the whole structure is
        // read: the same bytes with the checksum made to match reach what is done after it.
        byte[] fixed = withMatchingChecksum(input);
        if (fixed != null) {
            loadSnapshot(fixed);
        }
    }

    private static void loadSnapshot(byte[] bytes) throws IOException {
        Files.write(FILE, bytes);
        Catalog catalog = new Catalog();
        try {
            SnapshotReader.load(FILE, catalog);
        } catch (SnapshotException e) {
            String m = e.getMessage();
            assertTrue(namesWhere(e), m);
            assertTrue(catalog.tables().isEmpty() && catalog.views().isEmpty() && catalog.preparedStatements().isEmpty(),
                    "a failed load left data behind: " + m);
            return;
        }
        readAll(new SqlEngine(catalog));
    }

    /**
     * A deterministic sweep beside the fuzzing: every byte of the committed small snapshot set to
     * each of a few telling values, with the checksum made to match (so the damage is not caught by
     * it), and every byte of a small log likewise.
     */
    @Test
    void everySingleByteDamage() throws IOException {
        byte[] values = {(byte) 0xff, '9'}; // a negative or a huge count or length; a longer digit string
        byte[] snapshot = seed("snapshot/small");
        for (int i = 0; i < snapshot.length; i++) {
            for (byte v : values) {
                byte[] bad = snapshot.clone();
                bad[i] = v;
                byte[] fixed = withMatchingChecksum(bad);
                loadSnapshot(fixed != null ? fixed : bad);
            }
        }
        byte[] log = seed("appendOnlyFile/flushall");
        for (int i = 0; i < log.length; i++) {
            for (byte v : values) {
                byte[] bad = log.clone();
                bad[i] = v;
                appendOnlyFile(bad);
            }
        }
    }

    private static byte[] seed(String name) throws IOException {
        try (var in = PersistFuzzTest.class.getResourceAsStream("PersistFuzzTestInputs/" + name)) {
            return in.readAllBytes();
        }
    }

    /** Damage names its offset; a checksum covers the whole file, and another kind or version of file is no damage. */
    private static boolean namesWhere(SnapshotException e) {
        String m = e.getMessage();
        return m.contains(" offset ") || m.startsWith("Bad snapshot checksum") || !e.damaged();
    }

    /** The input with its checksum (the 4 bytes before the end marker) set to the CRC of what precedes it; null if it has no end marker. */
    private static byte[] withMatchingChecksum(byte[] input) {
        int end = SnapshotFormat.END.length;
        int n = input.length;
        if (n < SnapshotFormat.MAGIC.length + 4 + end
                || !Arrays.equals(input, n - end, n, SnapshotFormat.END, 0, end)) {
            return null;
        }
        CRC32C crc = new CRC32C();
        crc.update(input, 0, n - end - 4);
        byte[] fixed = input.clone();
        ByteBuffer.wrap(fixed).order(ByteOrder.LITTLE_ENDIAN).putInt(n - end - 4, (int) crc.getValue());
        return Arrays.equals(fixed, input) ? null : fixed;
    }

    @FuzzTest(maxDuration = "30s")
    void appendOnlyFile(byte[] input) throws IOException {
        Files.write(FILE, input);
        SqlEngine engine = new SqlEngine(new Catalog());
        try {
            AofLoader.load(FILE, engine);
        } catch (AofLoadException e) {
            String m = e.getMessage();
            // A damaged preamble fails as a snapshot file does.
            assertTrue(e.getCause() instanceof SnapshotException s ? namesWhere(s) : m.contains(" offset "), m);
            // A statement of the log that crashes the engine is a bug of the engine, not damage of the file.
            assertTrue(!m.contains("internal error"), m);
            return;
        }
        readAll(engine);
    }

    /** Every table and view of a loaded catalog reads without an internal error. */
    private static void readAll(SqlEngine engine) {
        for (Table t : engine.catalog().tables().toArray(new Table[0])) {
            check(engine, "DUMP \"" + t.name().replace("\"", "\"\"") + "\"");
            check(engine, "SELECT COUNT(*) FROM \"" + t.name().replace("\"", "\"\"") + "\"");
        }
        for (ViewDef v : engine.catalog().views().toArray(new ViewDef[0])) {
            check(engine, "SELECT * FROM \"" + v.name().replace("\"", "\"\"") + "\" LIMIT 10");
        }
    }

    private static void check(SqlEngine engine, String sql) {
        ByteBuf buf = Unpooled.buffer();
        try {
            Outcome o = EngineReplies.run(engine, sql, new RespWriter().target(buf));
            if (!o.ok() && o.error().contains("internal error")) {
                fail(sql + ": " + o.error());
            }
        } finally {
            buf.release();
        }
    }
}
